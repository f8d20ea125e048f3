"""Compact positions for engine tests: start from a real deal and edit it, then read it back through from_dict.

``position(players=3, tokens={0: "3w2u1*"}, cards={0: ["1W0:1u1g1r1k"]}, ...)`` builds a Game in which:

- ``cards`` / ``reserved`` place the named cards in a seat's tableau / reserve, wherever the deal had put them; a
  market card taken away this way is replaced from the top of its deck (as a refill would);
- ``bonuses={seat: "3w2u"}`` adds 0-point level 1 cards of those bonus colors to the tableau (any free ones);
- ``market={(level, slot): code}`` puts a card in a market slot (the card it displaces goes to the bottom of the
  deck), ``deck_top={level: [codes]}`` puts cards on top of a deck (last one on top, drawn first);
- ``tokens={seat: "3w2u1*"}`` sets a seat's tokens (letters w u g r k and * for gold); the supply is what is left;
- ``nobles=[codes]`` are the nobles on the table, ``claimed={seat: [codes]}`` the nobles a seat holds;
- ``current``, ``phase``, ``final``, ``passes``, ``turns`` set the turn's bookkeeping.

Every edit goes through ``Game.from_dict``, so a fixture can never be an inconsistent position.
"""

import pytest

import splendor
from splendor.engine.cards import LETTER_INDEX, TOKEN_COLORS, _parse_counts

CODE = {c.code: c for c in splendor.CARDS}


def token_dict(text):
    """``"3w2u1*"`` -> {"white": 3, "blue": 2, "gold": 1, other colors 0}."""
    out = dict.fromkeys(TOKEN_COLORS, 0)
    number = ""
    for ch in text:
        if ch.isdigit():
            number += ch
        else:
            out[TOKEN_COLORS[LETTER_INDEX[ch]]] += int(number)
            number = ""
    assert not number, f"token text {text!r} ends with a number"
    return out


def free_cards(data, level, bonus, count, points=0, exclude=()):
    """``count`` cards of ``level`` and ``bonus`` with ``points`` that sit in a deck of ``data`` (not in the market
    or a seat), in catalogue order."""
    in_deck = set(data["decks"][level - 1])
    out = [c.code for c in splendor.CARDS_BY_LEVEL[level - 1]
           if c.bonus == bonus and c.points == points and c.code in in_deck and c.code not in exclude]
    assert len(out) >= count, f"only {len(out)} free level {level} {bonus} cards with {points} points"
    return out[:count]


def position(players=2, seed=1, variants=(), first_player=0, *, cards=None, reserved=None, bonuses=None,
             market=None, deck_top=None, tokens=None, nobles=None, claimed=None, current=None,
             phase="action", final=False, passes=0, turns=0, game_index=0, series_results=None):
    """A Game built from a fresh deal of (players, seed, variants) and the edits named (see the module text)."""
    game = splendor.new_game(players=players, seed=seed, first_player=first_player, variants=variants)
    data = game.to_dict()
    data["actions"] = []
    for t in data["tableaus"]:
        t.pop("points", None)
    data["game_index"] = game_index
    data["series_results"] = [list(r) for r in (series_results or [])]
    data["start"] = (first_player + game_index) % players

    def take_out(code):
        """Remove ``code`` from wherever it is; a market slot it leaves is marked for a refill."""
        for row in data["market"]:
            if code in row:
                row[row.index(code)] = "refill"
                return
        for deck in data["decks"]:
            if code in deck:
                deck.remove(code)
                return
        for t in data["tableaus"]:
            if code in t["cards"]:
                t["cards"].remove(code)
                return
            for r in t["reserved"]:
                if r["card"] == code:
                    t["reserved"].remove(r)
                    return
        raise AssertionError(f"card {code} is nowhere")

    for (level, slot), code in (market or {}).items():
        take_out(code)
        old = data["market"][level - 1][slot]
        if old not in (None, "refill"):
            data["decks"][level - 1].insert(0, old)
        data["market"][level - 1][slot] = code
    for seat, codes in (cards or {}).items():
        for code in codes:
            take_out(code)
            data["tableaus"][seat]["cards"].append(code)
    for seat, spec in (bonuses or {}).items():
        for color, count in zip(splendor.COLORS, _parse_counts(spec, "bonuses")):
            for code in free_cards(data, 1, color, count):
                take_out(code)
                data["tableaus"][seat]["cards"].append(code)
    for seat, codes in (reserved or {}).items():
        for item in codes:
            code, hidden = (item, False) if isinstance(item, str) else item
            take_out(code)
            data["tableaus"][seat]["reserved"].append({"card": code, "hidden": hidden})
    for level, codes in (deck_top or {}).items():
        for code in codes:
            take_out(code)
            data["decks"][level - 1].append(code)
    for lv, row in enumerate(data["market"]):
        for slot, code in enumerate(row):
            if code == "refill":
                row[slot] = data["decks"][lv].pop() if data["decks"][lv] else None

    held = dict.fromkeys(TOKEN_COLORS, 0)
    for seat, text in (tokens or {}).items():
        data["tableaus"][seat]["tokens"] = token_dict(text) if isinstance(text, str) else dict(text)
    for t in data["tableaus"]:
        for c in TOKEN_COLORS:
            held[c] += t["tokens"].get(c, 0)
    full = splendor.new_game(players=players, seed=seed).supply
    data["supply"] = {c: full[c] - held[c] for c in TOKEN_COLORS}

    if nobles is not None:
        data["nobles"] = list(nobles)
    for seat, codes in (claimed or {}).items():
        data["tableaus"][seat]["nobles"] = list(codes)
        data["nobles"] = [nb for nb in data["nobles"] if nb not in codes]
    data["current"] = data["start"] if current is None else current
    data["phase"] = phase
    data["final_round"] = final
    data["passes"] = passes
    data["turns"] = turns
    return splendor.Game.from_dict(data)


def noble_codes(game):
    return [nb.code for nb in game.nobles]


def state(game):
    """The full serialized state: what 'unchanged' means in these tests."""
    return game.to_dict()


def play(game, *texts):
    """Apply each action text through the checked path."""
    for text in texts:
        game.apply(text)
    return game


def cards_worth(points, count, exclude=(), levels=(3, 2, 1)):
    """``count`` card codes (levels 3, 2, then 0-point level 1 fillers) whose points sum to ``points``, none in
    ``exclude``: for positions that need a seat at an exact score with an exact number of bought cards."""
    pool = [c for lv in levels for c in splendor.CARDS_BY_LEVEL[lv - 1] if c.code not in exclude]
    pool.sort(key=lambda c: -c.points)

    def search(start, left, k, chosen):
        if k == 0:
            return chosen if left == 0 else None
        for j in range(start, len(pool)):
            c = pool[j]
            if c.points <= left and (k - 1) * pool[j].points >= left - c.points:
                found = search(j + 1, left - c.points, k - 1, chosen + [c.code])
                if found:
                    return found
        return None

    found = search(0, points, count, [])
    assert found, f"no {count} cards worth {points}"
    return found


def refused(game, action, *words):
    """``action`` is refused with a message holding every word, and the state does not change."""
    before = game.to_dict()
    with pytest.raises(splendor.IllegalActionError) as info:
        game.apply(action)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert game.to_dict() == before
    return message


def forced_pass_position(**extra):
    """2 players, every colored token held, seat 0 holds 3 reserved cards and can afford nothing: it must pass."""
    # Every market card needs blue or green (seat 0 holds neither) and white or red (seat 1 holds neither).
    market = {(1, 0): "1W0:1u1g1r1k", (1, 1): "1U0:1w1g1r1k", (1, 2): "1G0:1w1u1r1k", (1, 3): "1R0:1w1u1g1k",
              (2, 0): "2W1:2w3u3r", (2, 1): "2U2:5u", (2, 2): "2G2:5g", (2, 3): "2R2:1w4u2g",
              (3, 0): "3W3:3u3g5r3k", (3, 1): "3K4:3g6r3k", (3, 2): "3G4:7u", (3, 3): "3R4:7g"}
    spec = dict(market=market, tokens={0: "4w4r2k", 1: "4u4g2k"},
                reserved={0: ["3W5:3w7k", "3U5:7w3u", "3G5:7u3g"]})
    spec.update(extra)
    return position(2, seed=4, **spec)


def record_over_ten_tokens():
    """A game record whose first player takes past 10 tokens and then plays on without returning any."""
    g = splendor.new_game(players=2, seed=7, first_player=0)
    for take in ("white blue green", "red black white", "blue green red", "black white blue"):
        g.apply("take " + take)
        if g.phase == "return":
            break
        g.apply("reserve deck 1")
    assert g.phase == "return" and g.current_player == 0
    record = g.record()
    record["actions"].append("take white blue green")  # not a return: the rules refuse it
    return record


def record_card_twice():
    """A game record that reserves the same market card twice (it left the market the first time)."""
    g = splendor.new_game(players=2, seed=7, first_player=0)
    card = g.market[0][0].code
    g.apply(f"reserve {card}")
    g.apply("take white blue green")
    record = g.record()
    record["actions"].append(f"reserve {card}")
    return record
