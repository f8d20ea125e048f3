"""The guided first game: given a game and the person's seat, what to point at and what to say.

Works for any deal. In the first turns (until the person has bought a card) it points at ONE inexpensive level 1
card the person can pay for soon and the gems to take now toward it: the gems are a legal take, and with them and
the tokens in hand the card can be paid on the next turn or after one more take. Among such (card, take) pairs the
choice is the bots' own: every take is rated by the heuristic scorer the easy, medium and hard bots are built on
(:class:`splendor.ai.heuristic.Scorer`). Then it points out each new idea once, the first time it matters: the
token limit, a discount from a bought card, a reservation's gold, a noble coming within reach, the final round.

Pure Python, no browser imports: tested under CPython over many seeds. The bots' module is imported on first use
only, so a page without a guided game does not load it.

>>> import splendor
>>> game = splendor.new_game(players=2, seed=4711)
>>> advice = advise(game, 0)
>>> advice.card.level, game.why_illegal(advice.take) is None
(1, True)
"""

import json
from itertools import combinations

from ...engine import COLORS, TOKEN_COLORS
from ..records.storage import StorageError

GUIDE_KEY = "splendor.guide.v1"
GUIDE_VERSION = 1
#: The ideas, in the order of precedence when several matter at once (one is explained per turn).
IDEAS = ("limit", "final", "discount", "gold", "noble")
TOKEN_LIMIT = 10
NEAR_LIMIT = 8  # tokens held at the start of a turn from which the limit is worth a word
NOBLE_NEAR = 3  # bonuses still missing for a noble to count as within reach
#: The most characters of a first-turns advice (words and idea): on a 360x640 phone its box lies over the level 3 and
#: 2 rows, and longer words would reach the level 1 card it points at (tests/browser/test_short_phones.py).
FIRST_TURNS_WORDS = 230


class Advice:
    """What the guide shows now.

    ``card``: the card to point at (None when there is none); ``take``: the take to point at on the supply (an
    Action, or None); ``colors``: its colors; ``buy``: True when the card can be bought now; ``text``: one or two
    sentences; ``idea`` / ``idea_text``: the new idea explained this turn, if any; ``noble``: a noble to point at;
    ``short`` / ``idea_short``: the same in fewer words, for the shortest phones (where the box lies over the
    market: issue 72, it hid the level 2 cards and the prices it explained).
    """

    __slots__ = ("card", "take", "buy", "text", "idea", "idea_text", "noble", "short", "idea_short")

    def __init__(self, card=None, take=None, buy=False, text="", idea=None, idea_text="", noble=None, short="",
                 idea_short=""):
        self.card = card
        self.take = take
        self.buy = buy
        self.text = text
        self.idea = idea
        self.idea_text = idea_text
        self.noble = noble
        self.short = short or text
        self.idea_short = idea_short or idea_text

    @property
    def colors(self):
        if self.take is None:
            return ()
        return self.take.colors

    def to_dict(self):
        """JSON-able: what the page keeps and renders."""
        return {"card": self.card.code if self.card else None, "colors": list(self.colors),
                "take": str(self.take) if self.take else None, "buy": self.buy, "text": self.text,
                "idea": self.idea, "idea_text": self.idea_text, "noble": self.noble.code if self.noble else None,
                "short": self.short, "idea_short": self.idea_short}


# -- words ----------------------------------------------------------------------------------------------------------
def _join(items):
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def card_words(card):
    """'the marked level 1 green card (1 white, 1 blue, 2 red)', with its points when it has any."""
    pts = f"{card.points} point{'s' if card.points != 1 else ''}; " if card.points else ""
    cost = ", ".join(f"{n} {COLORS[i]}" for i, n in card.needs)
    return f"the marked level {card.level} {card.bonus} card ({pts}{cost})"


def take_words(take):
    if take.kind == "take_two":
        return f"two {take.colors[0]}"
    return _join(take.colors)


# -- the first card --------------------------------------------------------------------------------------------------
def _short(price, tok):
    """Gold still needed to pay ``price`` (five colors, after bonuses) with the tokens ``tok`` (six, gold last)."""
    short = 0
    for i in range(5):
        d = price[i] - tok[i]
        if d > 0:
            short += d
    short -= tok[5]
    return short if short > 0 else 0


def _next_takes(supply):
    """The token gains one take could bring with this supply (lists of six): three different colors (or as many as
    have tokens), or two of a color whose pile holds 4 or more."""
    avail = [i for i in range(5) if supply[i] > 0]
    out = []
    for combo in combinations(avail, min(3, len(avail))):
        gain = [0] * 6
        for i in combo:
            gain[i] = 1
        out.append(gain)
    for i in range(5):
        if supply[i] >= 4:
            gain = [0] * 6
            gain[i] = 2
            out.append(gain)
    return out


def turns_to_pay(price, tok, supply):
    """0 when ``tok`` pays ``price`` now, 1 when one more take (from ``supply``) makes it payable, else None."""
    if _short(price, tok) == 0:
        return 0
    for gain in _next_takes(supply):
        if _short(price, [tok[i] + gain[i] for i in range(6)]) == 0:
            return 1
    return None


def _after(game, take, tok, supply):
    k = 2 if take.kind == "take_two" else 1
    tok = list(tok)
    supply = list(supply)
    for c in take.colors:
        i = TOKEN_COLORS.index(c)
        tok[i] += k
        supply[i] -= k
    return tok, supply


def _scores(game, seat, actions):
    """The bots' rating of ``actions`` (higher is better), by the heuristic scorer every bot level uses."""
    from ...ai.heuristic import Scorer  # the bots' code loads only when a guided game needs it

    return {a: s for s, a in Scorer().scores(game, seat, actions)}


def first_card(game, seat, target=None):
    """The guide's pick in the first turns: (card, take or None, turns) or None.

    ``take`` None means the card can be bought now. Otherwise ``take`` is a legal take now that pays toward the
    level 1 market ``card`` as much as any take after which the card is payable on the next turn (``turns`` 0) or
    after one more take (``turns`` 1), and keeps the person at 10 tokens or fewer. ``target``: the code of the card
    picked on an earlier turn, kept while it is still in the market and still within reach.
    """
    if game.is_over or game.current_player != seat or game.phase != "action":
        return None
    p = game.players[seat]
    tok = [p.tokens[c] for c in TOKEN_COLORS]
    supply = [game.supply[c] for c in TOKEN_COLORS]
    cards = [c for c in game.market[0] if c is not None]
    if not cards:
        return None
    prices = {c: [game.price(c, seat)[color] for color in COLORS] for c in cards}
    legal = game.legal_actions()
    # A card that can be bought now: buy it (the kept target first, then the bots' favourite).
    buys = [a for a in legal if a.kind == "buy" and a.card in prices]
    if buys:
        kept = [a for a in buys if a.card.code == target]
        if kept:
            return kept[0].card, None, 0
        scores = _scores(game, seat, buys)
        best = max(buys, key=lambda a: (scores[a], -a.card.total_cost))
        return best.card, None, 0
    takes = [a for a in legal if a.kind in ("take", "take_two")]
    gains = []  # (card, take, gain, tokens after, supply after)
    for take in takes:
        tok2, sup2 = _after(game, take, tok, supply)
        if sum(tok2) > TOKEN_LIMIT:
            continue  # no giving back in the first turns
        for card in cards:
            price = prices[card]
            gain = _short(price, tok) - _short(price, tok2)
            if gain > 0:
                gains.append((card, take, gain, tok2, sup2))
    # For each card, the takes that pay the most toward it among those after which it is soon payable (the
    # biggest gain is tried first: most of the time it is the one).
    options = []  # (card, take, turns)
    for card in cards:
        mine = sorted((g for g in gains if g[0] is card), key=lambda g: -g[2])
        level = None
        for _, take, gain, tok2, sup2 in mine:
            if level is not None and gain < level:
                break
            turns = turns_to_pay(prices[card], tok2, sup2)
            if turns is not None:
                level = gain
                options.append((card, take, turns))
    if not options:
        return None
    kept = [o for o in options if o[0].code == target]
    if kept:
        options = kept
    scores = _scores(game, seat, list({o[1] for o in options}))
    card, take, turns = max(options, key=lambda o: (-o[2], scores[o[1]], -o[0].total_cost, o[0].points))
    return card, take, turns


def _first_card_advice(game, seat, target, first):
    pick = first_card(game, seat, target)
    if pick is None:
        return Advice(text="No cheap card is within two turns now. Take gems toward a card you like, or tap Hint "
                           "for a suggestion.", short="No cheap card is near: take gems toward one, or tap Hint.")
    card, take, turns = pick
    if take is None:
        return Advice(card=card, buy=True, text=(
            f"You can buy {card_words(card)}: tap it, then Buy. Its bonus takes one {card.bonus} off later "
            "cards."), short=f"Buy the marked {card.bonus} card: tap it, then Buy.")
    price = game.price(card, seat)
    mine = game.players[seat].tokens
    extra = [c for c in take.colors if price[c] <= mine[c]]
    when = "is yours to buy next turn" if turns == 0 else "is one more take away"
    said = f"Take {take_words(take)} (marked). Then {card_words(card)} {when}"
    if extra:
        said += f"; the {_join(extra)} {'is' if len(extra) == 1 else 'are'} for a later card"
    why = ("Cheap cards first: a card's bonus is a lasting discount on later cards." if first else
           "Gems score nothing: they are for buying cards.")
    soon = "yours next turn" if turns == 0 else "one take away"
    short = f"Take {take_words(take)}: then the marked {card.bonus} card is {soon}."
    return Advice(card=card, take=take, text=f"{said}. {why}", short=short)


# -- the ideas ------------------------------------------------------------------------------------------------------
def _noble_in_reach(game, seat):
    """(noble, bonuses still missing) for the nearest noble the person's bonuses have started on, or None."""
    bon = game.players[seat].bonuses
    best = None
    for nb in game.nobles:
        started = any(bon[COLORS[i]] for i, _ in nb.needs)
        missing = sum(max(0, n - bon[COLORS[i]]) for i, n in nb.needs)
        if started and 0 < missing <= NOBLE_NEAR and (best is None or missing < best[1]):
            best = (nb, missing)
    return best


def idea_now(game, seat, seen=()):
    """(idea, sentence, noble or None, the sentence in fewer words) for the first idea not yet ``seen`` that matters
    now, or None."""
    if game.is_over or game.current_player != seat:
        return None
    p = game.players[seat]
    count = p.token_count
    candidates = []
    if game.phase == "return":
        extra = count - TOKEN_LIMIT
        candidates.append(("limit", (
            f"You hold {count} tokens, and at the end of a turn you may keep at most 10, gold included (cards and "
            f"nobles do not count). Give back {extra}: any colors, even ones you just took."), None,
            f"You may keep 10 tokens, gold included: give back {extra}, any colors."))
    if game.phase != "action":
        return _first(candidates, seen)
    if game.final_round:
        candidates.append(("final", (
            "A player has reached 15 points, so this is the final round: it is played out so that everyone has the "
            "same number of turns. Then the highest score wins, and a tie goes to the player with fewer bought "
            "cards (still tied: a shared victory)."), None,
            "Final round: it is played out, then the highest score wins (tie: fewer cards)."))
    if p.cards:
        color = next((c for c in COLORS if p.bonuses[c]), p.cards[0].bonus)
        candidates.append(("discount", (
            f"Your {color} card is a bonus for good: every card costing {color} now costs you one less (the "
            "numbers on the cards show what you pay). Bonuses are never spent, so each card makes the next ones "
            "cheaper."), None,
            f"Your {color} card is a lasting bonus: {color} costs you one less (see the prices)."))
    if p.reserved or p.tokens["gold"]:
        gold = ("Your reservation gave you a gold: it pays for one token of any color."
                if p.tokens["gold"] else "A reservation gives a gold when any is left: gold pays for any color.")
        candidates.append(("gold", gold + " A reserved card is yours alone to buy later; you may hold 3, and they "
                                          "score only once bought.", None,
                           "Gold pays for any color; a reserved card is yours alone to buy later."))
    near = _noble_in_reach(game, seat)
    if near is not None:
        nb, missing = near
        needs = _join(f"{n} {COLORS[i]}" for i, n in nb.needs)
        candidates.append(("noble", (
            f"The noble needing {needs} is {missing} bonus{'es' if missing > 1 else ''} away. A noble comes by "
            "itself at the end of your turn when your bonuses (bought cards, not tokens) meet its needs: 3 points, "
            "no action needed."), nb,
            f"The marked noble is {missing} bonus{'es' if missing > 1 else ''} away; it comes by itself: 3 points."))
    if count >= NEAR_LIMIT:
        candidates.append(("limit", (
            f"You hold {count} tokens; you may keep 10 at a turn's end, gold included: a good time to buy."),
            None, f"You hold {count} tokens and may keep 10: a good time to buy."))
    return _first(candidates, seen)


def _first(candidates, seen):
    for idea in IDEAS:
        for key, text, noble, short in candidates:
            if key == idea and key not in seen:
                return key, text, noble, short
    return None


def first_turn(game, seat):
    """True while the person has nothing yet: no token, card or reserved card (their first turn, as a rule)."""
    p = game.players[seat]
    return not p.token_count and not p.cards and not p.reserved


def in_first_turns(game, seat):
    """True until the person has bought a card: the guide then points at a first card."""
    return not game.players[seat].cards


def advise(game, seat, seen=(), target=None, first=True):
    """What the guide shows when it is ``seat``'s turn (None on other players' turns and once the game is over).

    ``seen``: ideas already explained; ``target``: the card code picked on an earlier turn; ``first``: the
    person's first turn (it says why a cheap card is a good start; later turns say something shorter).
    """
    if game.is_over or game.current_player != seat or game.phase not in ("action", "return"):
        return None
    advice = Advice()
    if game.phase == "action" and in_first_turns(game, seat):
        advice = _first_card_advice(game, seat, target, first)
    idea = idea_now(game, seat, seen)
    if idea is not None:
        advice.idea, advice.idea_text, advice.noble, advice.idea_short = idea
    if not advice.text and not advice.idea:
        return None
    return advice


# -- what the browser remembers ---------------------------------------------------------------------------------------
class GuideState:
    """The guide's flag and progress under GUIDE_KEY: whether the guided game was offered (it is offered once),
    which game is guided, the ideas already explained, the card picked, the idea on show."""

    def __init__(self, storage, key=GUIDE_KEY):
        self.storage = storage
        self.key = key
        self.offered = False
        self.game = None
        self.seen = []
        self.target = None
        self.shown = None  # {"idea": key, "at": number of actions when it was shown}

    def load(self):
        """Read the stored state. Unreadable storage or a damaged value count as 'already offered': the offer is
        never forced on anyone twice."""
        try:
            raw = self.storage.get(self.key)
        except StorageError:
            self.offered = True
            return
        if raw is None:
            return
        try:
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("version") != GUIDE_VERSION:
                raise ValueError("not a guide state")
        except ValueError:
            self.offered = True
            return
        self.offered = True
        game = data.get("game")
        self.game = game if isinstance(game, str) and len(game) <= 64 else None
        seen = data.get("seen")
        self.seen = [x for x in seen if x in IDEAS] if isinstance(seen, list) else []
        target = data.get("target")
        self.target = target if isinstance(target, str) and len(target) <= 20 else None
        shown = data.get("shown")
        if (isinstance(shown, dict) and shown.get("idea") in IDEAS and isinstance(shown.get("at"), int)
                and not isinstance(shown.get("at"), bool)):
            self.shown = {"idea": shown["idea"], "at": shown["at"]}

    def save(self):
        data = {"version": GUIDE_VERSION, "offered": True, "game": self.game, "seen": self.seen,
                "target": self.target, "shown": self.shown}
        try:
            self.storage.set(self.key, json.dumps(data, separators=(",", ":")))
        except StorageError:
            pass  # the guide then simply forgets; the game itself is unaffected

    def begin(self, game_id):
        """Guide the game ``game_id`` from its start (ideas explained in an earlier guided game stay explained)."""
        self.offered = True
        self.game = game_id
        self.target = None
        self.shown = None
        self.save()

    def decline(self):
        self.offered = True
        self.save()

    def stop(self):
        self.game = None
        self.target = None
        self.shown = None
        self.save()

    def follow(self, game, seat, game_id):
        """The advice for the position of the guided game (None elsewhere), with the state updated: the idea
        shown is marked as explained, but stays on show until the position changes."""
        if game is None or game_id is None or game_id != self.game:
            return None
        if game.is_over:
            if self.shown is not None:
                self.shown = None
                self.save()
            return None
        at = len(game.history)
        seen = list(self.seen)
        if self.shown and self.shown["at"] == at:
            seen = [x for x in seen if x != self.shown["idea"]]  # the idea on show stays on show after a reload
        advice = advise(game, seat, seen, self.target, first_turn(game, seat))
        changed = False
        if advice is not None and advice.card is not None and advice.card.code != self.target:
            self.target = advice.card.code
            changed = True
        if advice is not None and advice.idea:
            if advice.idea not in self.seen:
                self.seen.append(advice.idea)
            if self.shown != {"idea": advice.idea, "at": at}:
                self.shown = {"idea": advice.idea, "at": at}
                changed = True
        if changed:
            self.save()
        return advice

