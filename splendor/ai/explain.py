"""One plain sentence saying why a move is played, built from the position (and the search, when there was one).

>>> import splendor
>>> game = splendor.new_game(players=2, seed=7)
>>> explain(game.observation(0), "take white blue green")[:22]
'takes white, blue and '

The sentence starts with the verb ("buys ...", "takes ...", "reserves ...") so the page can put a name before it
("Hard bot buys ...") or use it as a hint ("Hint: buys ..." ). ``voice="you"`` speaks to the person whose move it
is ("it brings you to 3 green"), ``voice="they"`` about a bot ("it brings them to 3 green").
"""

import random

from ..engine.cards import COLORS, TOKEN_COLORS
from ..engine.game import determinize, parse_action
from .heuristic import WINNING_POINTS

_WORDS = {
    "you": {"obj": "you", "pos": "your", "have": "you have", "can": "you can"},
    "they": {"obj": "them", "pos": "their", "have": "they have", "can": "they can"},
}


def join_words(words):
    """['white', 'blue', 'green'] -> 'white, blue and green'."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def cost_words(counts, colors=TOKEN_COLORS):
    """(2, 0, 1, 0, 0, 1) -> '2 white, 1 green and 1 gold'."""
    return join_words(f"{n} {colors[i]}" for i, n in enumerate(counts) if n)


def noble_words(noble):
    return "the noble needing " + join_words(f"{n} {COLORS[i]}" for i, n in noble.needs)


def card_words(card, visible=()):
    """'the level 2 green card worth 2 points'; the cost is added when another visible card reads the same."""
    pts = f" worth {card.points} point{'s' if card.points != 1 else ''}" if card.points else ""
    text = f"the level {card.level} {card.bonus} card{pts}"
    same = [c for c in visible if c is not card and c.level == card.level and c.bonus == card.bonus
            and c.points == card.points]
    if same:
        text += " costing " + cost_words(card.cost_t, COLORS)
    return text


def _visible_cards(game, seat):
    cards = [c for row in game.market_rows for c in row if c is not None]
    cards.extend(game.player_list[seat].reserved_list)
    return cards


def _shortfall(card, tok, bon):
    short = 0
    for i, n in card.needs:
        d = n - bon[i] - tok[i]
        if d > 0:
            short += d
    return max(0, short - tok[5])


def _best_noble_progress(game, seat, color_i):
    """(noble, have, need) for the noble that a bonus of ``color_i`` brings ``seat`` nearest to, or None."""
    bon = game.player_list[seat].bon
    best = None
    for nb in game.noble_list:
        req = nb.req_t[color_i]
        if req and bon[color_i] < req:
            missing = sum(max(0, n - bon[i]) for i, n in nb.needs)
            if best is None or missing < best[0]:
                best = (missing, nb)
    return best[1] if best else None


def _opponent_threat(game, seat, card):
    """True when an opponent could buy ``card`` now or after one more take."""
    for o, p in enumerate(game.player_list):
        if o == seat:
            continue
        if _shortfall(card, p.tok, p.bon) <= 2:
            return True
    return False


def _target(game, seat, tok_after, exclude=None):
    """The visible card the new tokens bring nearest: (card, shortfall_after) or None."""
    p = game.player_list[seat]
    best = None
    for card in _visible_cards(game, seat):
        if card is exclude:
            continue
        before = _shortfall(card, p.tok, p.bon)
        after = _shortfall(card, tok_after, p.bon)
        gain = before - after
        if gain <= 0:
            continue
        worth = card.points + 1.0
        key = (gain, -after, worth, -card.level)
        if best is None or key > best[0]:
            best = (key, card, after)
    return (best[1], best[2]) if best else None


def explain(observation, action, search_info=None, voice="you"):
    """One plain sentence about ``action`` (an Action or its notation) played from ``observation`` (the mover's
    ``game.observation(seat)``). ``search_info``: the bot's info dict, if any."""
    return explain_details(observation, action, search_info, voice)["sentence"]


def explain_details(observation, action, search_info=None, voice="you"):
    """The sentence of :func:`explain` and what it is about, for a page to highlight: ``{"sentence": ...,
    "card": code or None, "colors": [token colors involved], "noble": code or None}`` (for a take, ``card`` is the
    card the tokens bring nearest; for a buy, ``colors`` are the tokens paid)."""
    sentence, focus = _explain(observation, action, voice)
    out = {"sentence": sentence, "card": None, "colors": [], "noble": None}
    out.update(focus)
    return out


def _explain(observation, action, voice):
    words = _WORDS["they" if voice == "they" else "you"]
    game = determinize(observation, random.Random(0))  # only public facts and the mover's own cards are read
    seat = game.current
    if isinstance(action, str):
        action = parse_action(game, action)
    p = game.player_list[seat]
    kind = action.kind
    visible = _visible_cards(game, seat)
    opp = "your opponent" if game.n == 2 and voice == "you" else ("the opponent" if game.n == 2 else "the others")

    if kind == "buy":
        card = action.card
        pay = action.pay_t or (0,) * 6
        text = f"buys {card_words(card, visible)}"
        if card in p.reserved_list:
            text += f" from {words['pos']} reserve"
        reasons = []
        bon = p.bon[:]
        bon[card.bonus_i] += 1
        pts = p.points + card.points
        met = [nb for nb in game.noble_list if all(bon[i] >= n for i, n in nb.needs)]
        if met:
            pts += 3
            reasons.append(f"{noble_words(met[0])} visits {words['obj']}")
        else:
            nb = _best_noble_progress(game, seat, card.bonus_i)
            if nb is not None and sum(max(0, n - bon[i]) for i, n in nb.needs) > 4:
                nb = None  # still far: not worth a mention
            if nb is not None and card.points < 3:
                reasons.append(f"it brings {words['obj']} to {bon[card.bonus_i]} {card.bonus} for {noble_words(nb)}")
        points = f"{pts} point{'s' if pts != 1 else ''}"
        if pts >= WINNING_POINTS and p.points < WINNING_POINTS:
            # the round's last seat ends the game at once; after another player reached 15 nothing starts
            if (seat - game.start) % game.n == game.n - 1:
                then = "and ends the game"
            elif game.final:
                then = "in the final round"
            else:
                then = "which starts the final round"
            reasons.insert(0, f"it brings {words['obj']} to {points}{',' if then[0] == 'w' else ''} {then}")
        elif card.points and not reasons:
            reasons.append(f"it brings {words['obj']} to {points}")
        if not reasons:
            reasons.append(f"the {card.bonus} bonus makes later cards cheaper")
        if sum(pay) == 0:
            reasons.append(f"it is free with {words['pos']} bonuses")
        elif " costing " not in text:  # (a card told apart by its printed cost: one price in the sentence)
            reasons.append(f"it costs {cost_words(pay)}")
        paid = [c for c, n in zip(TOKEN_COLORS, pay) if n]
        return f"{text}: {join_words(reasons[:2])}", {"card": card.code, "colors": paid}

    if kind in ("take", "take_two"):
        tok = p.tok[:]
        k = 1 if kind == "take" else 2
        for c in action.colors:
            tok[TOKEN_COLORS.index(c)] += k
        taken = join_words(action.colors) if kind == "take" else f"two {action.colors[0]}"
        target = _target(game, seat, tok)
        over = sum(tok) - 10
        if target is None:
            text = f"takes {taken}, the colors that {words['pos']} plans lack most"
        else:
            card, after = target
            text = f"takes {taken} toward {card_words(card, visible)}"
            if card in p.reserved_list:
                text += f" in {words['pos']} reserve"
            if after == 0:
                text += f", so {words['can']} buy it next turn"
            else:
                text += f" ({after} more token{'s' if after != 1 else ''} needed)"
        if over > 0 and voice == "you":  # (advice; a bot's returns are told as they are made)
            text += f", then gives back {over} token{'s' if over != 1 else ''} to keep 10"
        return text, {"card": target[0].code if target else None, "colors": list(action.colors)}

    if kind == "reserve":
        gold = "and takes 1 gold" if game.supply_list[5] else "though no gold is left"
        gold_colors = ["gold"] if game.supply_list[5] else []
        if action.card is None:
            return (f"reserves the top card of the level {action.level} deck unseen {gold}, "
                    f"keeping {words['pos']} plans hidden"), {"colors": gold_colors}
        card = action.card
        text = f"reserves {card_words(card, visible)} {gold}"
        focus = {"card": card.code, "colors": gold_colors}
        if _opponent_threat(game, seat, card):
            return text + f": it keeps the card from {opp}", focus
        short = _shortfall(card, p.tok[:5] + [p.tok[5] + (1 if game.supply_list[5] else 0)], p.bon)
        if short == 0:
            return text + f": {words['can']} buy it next turn", focus
        return (text + f": it secures the card for later ({short} more token{'s' if short != 1 else ''} needed)",
                focus)

    if kind == "return":
        c = action.colors[0]
        extra = sum(p.tok) - 10
        more = f" ({extra - 1} more to give back)" if extra > 1 else ""
        if c == "gold":
            return f"returns a gold token: the other tokens are worth more to {words['obj']} now{more}", {"colors": [c]}
        return f"returns a {c} token, the color {words['pos']} plans need least{more}", {"colors": [c]}

    if kind == "noble":
        others = [nb for nb in game.qualifying_nobles() if nb != action.noble]
        tail = f"; {noble_words(others[0])} can come on a later turn" if others else ""
        return f"chooses {noble_words(action.noble)} for 3 points{tail}", {"noble": action.noble.code}

    if kind == "veto":
        return (f"removes {noble_words(action.noble)} from the game: it suits "
                f"{words['pos']} plans least"), {"noble": action.noble.code}

    return "passes: no other action is possible", {}
