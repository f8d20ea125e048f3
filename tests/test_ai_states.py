"""Positions for the bot tests, built by editing ``Game.to_dict()`` data (every card kept exactly once)."""

import splendor
from splendor.engine.cards import CARDS, card_from_code


def _remove(d, code):
    """Take the card ``code`` out of the market (refilling the slot from its deck) or out of its deck."""
    lv = card_from_code(code).level - 1
    row = d["market"][lv]
    if code in row:
        slot = row.index(code)
        row[slot] = d["decks"][lv].pop() if d["decks"][lv] else None
        return
    d["decks"][lv].remove(code)


def build(players=2, seed=1, current=0, phase="action", tokens=None, cards=None, reserved=None, market=None,
          nobles=None, variants=()):
    """A consistent state: ``tokens`` {seat: six counts}, ``cards`` {seat: codes bought}, ``reserved`` {seat:
    [(code, hidden)]}, ``market`` (3 rows of 4 codes, the rest of the cards go to the decks), ``nobles`` (codes on
    the table). The supply gets whatever tokens the seats do not hold."""
    d = splendor.new_game(players=players, seed=seed, variants=variants).to_dict()
    d["actions"] = []
    if market is not None:
        used = {c for row in market for c in row if c}
        d["market"] = [list(row) for row in market]
        d["decks"] = [[c.code for c in CARDS if c.level == lv + 1 and c.code not in used] for lv in range(3)]
    for seat, codes in (cards or {}).items():
        for code in codes:
            _remove(d, code)
        d["tableaus"][seat]["cards"] = list(codes)
    for seat, items in (reserved or {}).items():
        for code, _ in items:
            _remove(d, code)
        d["tableaus"][seat]["reserved"] = [{"card": code, "hidden": hidden} for code, hidden in items]
    per = {2: 4, 3: 5, 4: 7}[players]
    supply = [per] * 5 + [5]
    for seat, counts in (tokens or {}).items():
        d["tableaus"][seat]["tokens"] = dict(zip(splendor.TOKEN_COLORS, counts))
        for i in range(6):
            supply[i] -= counts[i]
    d["supply"] = dict(zip(splendor.TOKEN_COLORS, supply))
    if nobles is not None:
        d["nobles"] = list(nobles)
    for t in d["tableaus"]:
        t.pop("points", None)
    d["current"] = current
    d["phase"] = phase
    return splendor.Game.from_dict(d)


def pass_position():
    """Seat 0 to act with nothing possible but a pass: no colored token left, three reserved cards, nothing
    affordable (every market and reserved card needs red or black, which seat 0 lacks, and it has no gold)."""
    needs_rk = [c for c in CARDS if c.cost_t[3] or c.cost_t[4]]
    market = []
    for lv in (1, 2, 3):
        pool = [c.code for c in needs_rk if c.level == lv]
        market.append(pool[:4])
    reserved = [c.code for c in needs_rk if c.level == 3][4:7]
    return build(tokens={0: (4, 4, 2, 0, 0, 0), 1: (0, 0, 2, 4, 4, 0)},
                 reserved={0: [(code, False) for code in reserved]}, market=market)


def return_position():
    """Seat 0 holds 12 tokens and must give two back."""
    return build(phase="return", tokens={0: (3, 3, 3, 2, 1, 0)})


def noble_position():
    """Seat 0 meets two nobles at once and must choose one."""
    whites = [c.code for c in CARDS if c.bonus == "white" and c.level == 1][:3]
    blues = [c.code for c in CARDS if c.bonus == "blue" and c.level == 1][:3]
    greens = [c.code for c in CARDS if c.bonus == "green" and c.level == 1][:3]
    blacks = [c.code for c in CARDS if c.bonus == "black" and c.level == 1][:3]
    return build(phase="noble", cards={0: whites + blues + greens + blacks},
                 nobles=["3w3u3g", "3w3u3k", "4g4r"])


def test_positions_are_what_they_claim():
    g = pass_position()
    assert g.phase == "action" and [str(a) for a in g.legal_actions()] == ["pass"]
    g = return_position()
    assert g.phase == "return" and g.players[0].token_count == 12
    g = noble_position()
    assert g.phase == "noble" and len(g.legal_actions()) == 2
