"""Plain words for the page: how a move, a price or a token count is said to a person (and a screen reader).

Pure Python: no browser imports, so every sentence is tested under CPython.

>>> from splendor import new_game, parse_action
>>> g = new_game(players=2, seed=7)
>>> describe_move(g, parse_action(g, "take white blue green"), "You")
'You took white, blue and green.'
"""

from ...engine import COLORS, TOKEN_COLORS

#: The letter drawn on each gem beside its shape (colour is never the only cue). K is black, as in print; gold is
#: "Au", its chemical symbol (G is green's, and a "J" for joker read as nothing to players).
LETTERS = {"white": "W", "blue": "B", "green": "G", "red": "R", "black": "K", "gold": "Au"}
#: The gem each color stands for in the box, for the guide and titles.
GEM_NAMES = {"white": "diamond", "blue": "sapphire", "green": "emerald", "red": "ruby", "black": "onyx",
             "gold": "gold joker"}


def plural(n, word, many=None):
    """``plural(1, "token") -> '1 token'``, ``plural(2, "token") -> '2 tokens'``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def join_words(items):
    """``['a', 'b', 'c'] -> 'a, b and c'``."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def counts_words(counts, colors=TOKEN_COLORS):
    """``{'white': 2, 'gold': 1} -> '2 white and 1 gold'``; 'nothing' when every count is 0."""
    parts = [f"{counts.get(c, 0)} {c}" for c in colors if counts.get(c, 0)]
    return join_words(parts) if parts else "nothing"


def card_name(card):
    """Short name of a card for the log: 'a level 2 green card (2 points)'."""
    pts = f" ({plural(card.points, 'point')})" if card.points else ""
    return f"a level {card.level} {card.bonus} card{pts}"


def noble_name(noble):
    need = join_words([f"{n} {COLORS[i]}" for i, n in noble.needs])
    return f"the noble who needs {need}"


def describe_move(game, action, name, seat=None, person=False):
    """One log sentence for ``action`` about to be applied to ``game`` by the player called ``name``
    (``person``: the one at this screen, addressed as "your").

    Read the game *before* the action is applied: where a bought card comes from depends on it.
    """
    seat = game.current_player if seat is None else seat
    k = action.kind
    if k == "take":
        return f"{name} took {join_words(list(action.colors))}."
    if k == "take_two":
        return f"{name} took two {action.colors[0]}."
    if k == "reserve":
        gold = " and took 1 gold" if game.supply["gold"] else " (no gold left to take)"
        if action.card is None:
            return f"{name} reserved the level {action.level} deck's top card unseen{gold}."
        return f"{name} reserved {card_name(action.card)} from the market{gold}."
    if k == "buy":
        if action.card in game.players[seat].reserved:
            where = "from your reserve" if person else "from their reserve"
        else:
            where = "from the market"
        paid = counts_words(action.payment)
        pay = "for free" if paid == "nothing" else f"paying {paid}"
        return f"{name} bought {card_name(action.card)} {where}, {pay}."
    if k == "return":
        return f"{name} returned a {action.colors[0]} token."
    if k == "noble":
        return f"{name} chose {noble_name(action.noble)} (3 points)."
    if k == "veto":
        return f"{name} removed {noble_name(action.noble)} from the game."
    return f"{name} passed: no move was possible."


def merge_returns(turn):
    """A turn's sentences with its tokens given back said once: ``"Took white, blue and green. Returned a white
    token. Returned a blue token."`` -> ``"Took white, blue and green. Returned white and blue."`` (a panel's
    last move in fewer lines; the log keeps one line for each).

    >>> merge_returns("Took two red. Returned a red token. Returned a red token. Returned a white token.")
    'Took two red. Returned 2 red and white.'
    >>> merge_returns("Returned a gold token.")
    'Returned a gold token.'
    """
    head, sep, _ = turn.partition("Returned a ")
    colors = turn[len(head):].split(". ")
    colors = [c.removeprefix("Returned a ").removesuffix(".").removesuffix(" token") for c in colors]
    if not sep or len(colors) < 2 or any(c not in TOKEN_COLORS for c in colors):
        return turn
    counts = {c: colors.count(c) for c in dict.fromkeys(colors)}
    said = join_words(f"{n} {c}" if n > 1 else c for c, n in counts.items())
    return f"{head}Returned {said}."


def short_move(action, name):
    """The move in a few words, for the status line of a phone (two short lines): what was taken, or which kind of
    card was bought or reserved; the log and the player's full view tell the rest (``describe_move``).

    >>> from splendor.engine import Action
    >>> short_move(Action.take("white", "blue"), "Bot 1")
    'Bot 1 took white and blue.'
    """
    k = action.kind
    if k == "take":
        return f"{name} took {join_words(list(action.colors))}."
    if k == "take_two":
        return f"{name} took two {action.colors[0]}."
    if k == "reserve":
        if action.card is None:
            return f"{name} reserved a level {action.level} card."  # (unseen: no colour to name; two lines hold it)
        return f"{name} reserved a level {action.card.level} {action.card.bonus} card."
    if k == "buy":
        return f"{name} bought a level {action.card.level} {action.card.bonus} card."
    if k == "return":
        return f"{name} returned {action.colors[0]}."
    if k == "noble":
        return f"{name} chose a noble."
    if k == "veto":
        return f"{name} removed a noble."
    return f"{name} passed."


def move_label(action, priced=False):
    """A move in a few words, without its mover, for the hint's list of the moves the expert weighed; ``priced``: a
    card's price said too (two cards of one level, color and points read the same without it).

    >>> from splendor.engine import Action, card_from_code
    >>> move_label(Action.take("white", "blue", "red"))
    'take white, blue and red'
    >>> move_label(Action.take_two("red"))
    'take two red'
    >>> move_label(Action.reserve(card_from_code("2U2:5u")), priced=True)
    'reserve a level 2 blue card (2 points) costing 5 blue'
    """
    k = action.kind
    if priced and action.card is not None and k in ("reserve", "buy"):
        return f"{move_label(action)} costing {counts_words(action.card.cost)}"
    if k == "take":
        return f"take {join_words(list(action.colors))}"
    if k == "take_two":
        return f"take two {action.colors[0]}"
    if k == "reserve":
        if action.card is None:
            return f"reserve a level {action.level} card unseen"
        return f"reserve {card_name(action.card)}"
    if k == "buy":
        return f"buy {card_name(action.card)}"
    return str(action.kind)


def describe_pending(game, actions):
    """The words on a confirm button's summary for the staged ``actions`` of the person."""
    if not actions:
        return ""
    a = actions[0]
    k = a.kind
    if k == "take":
        return f"Take {join_words(list(a.colors))}"
    if k == "take_two":
        return f"Take two {a.colors[0]}"
    if k == "reserve":
        gold = " and take 1 gold" if game.supply["gold"] else " (no gold left to take)"
        if a.card is None:
            return f"Reserve the top card of the level {a.level} deck{gold}"
        return f"Reserve {card_name(a.card)}{gold}"
    if k == "buy":
        paid = counts_words(a.payment)
        return f"Buy {card_name(a.card)}" + (" for free" if paid == "nothing" else f", paying {paid}")
    if k == "return":
        counts = {}
        for x in actions:
            counts[x.colors[0]] = counts.get(x.colors[0], 0) + 1
        return f"Return {counts_words(counts)}"
    if k == "noble":
        return f"Welcome {noble_name(a.noble)}"
    if k == "veto":
        return f"Remove {noble_name(a.noble)}"
    return "Pass"


#: A bot's sentence starts with its verb ("takes white ... toward ..."); a hint says the same to the person.
ADVICE_VERBS = {"takes": "take", "buys": "buy", "reserves": "reserve", "returns": "return", "chooses": "choose",
                "welcomes": "welcome", "removes": "remove", "passes": "pass", "gives": "give"}


def advice(sentence):
    """A bot's explanation turned into advice to the person, as one sentence without its full stop:
    ``advice("takes white and blue toward a card") -> 'take white and blue toward a card'``; '' when the
    sentence does not start with a known verb.

    >>> advice("takes white, blue and green toward the level 2 red card.")
    'take white, blue and green toward the level 2 red card'
    >>> advice("reserves the level 2 black card and takes 1 gold: it secures the card")
    'reserve the level 2 black card and take 1 gold: it secures the card'
    >>> advice("")
    ''
    """
    sentence = (sentence or "").strip().rstrip(".")
    verb, _, rest = sentence.partition(" ")
    if verb not in ADVICE_VERBS or not rest:
        return ""
    # (the verbs of the move's second half, said to the person too)
    rest = rest.replace(" and takes 1 gold", " and take 1 gold").replace(", then gives back ", ", then give back ")
    return f"{ADVICE_VERBS[verb]} {rest}"


def on_phone(advice, card=None):
    """The hint's advice as a phone's move box says it, one line shorter: ``card``, the card the table marks for the
    hint (to buy or reserve), is named without its printed cost (the mark tells two look-alike cards apart).

    >>> from splendor.engine import CARDS
    >>> card = next(c for c in CARDS if c.cost_t == (3, 2, 2, 0, 0))
    >>> on_phone("reserve the level 2 black card worth 1 point costing 3 white, 2 blue and 2 green and take 1 gold",
    ...          card)
    'reserve the level 2 black card worth 1 point and take 1 gold'
    >>> on_phone("take two red toward the level 1 blue card", None)
    'take two red toward the level 1 blue card'
    """
    if card is None:
        return advice
    return advice.replace(f" costing {counts_words(card.cost, COLORS)}", "", 1)


def seat_title(seats, seat):
    """'You' or 'Bot 1 (medium)'."""
    s = seats[seat]
    if not s.get("bot"):
        return s["name"]
    return f"{s['name']} ({s['bot']})"
