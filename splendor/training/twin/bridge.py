"""The engine and the twin side by side: the twin's array for an engine's game (:func:`state_of`) and the twin's
move for an engine's action (:func:`code_of`)."""

from ...engine.actions import COLOR_INDEX
from . import rules as R

PHASES = {"action": R.ACTION, "return": R.RETURN, "noble": R.NOBLE, "over": R.OVER}


def state_of(game):
    """The twin's array for the engine's ``game`` (base game; read from the game's own lists)."""
    s = R.new_state()
    n = game.n
    s[R.N], s[R.CUR], s[R.PHASE] = n, game.current, PHASES[game.phase]  # (the seat last to act, once over)
    s[R.FINAL], s[R.PASSES], s[R.TURNS], s[R.START] = game.final, game.passes, game.turns, game.start
    s[R.SUP:R.SUP + 6] = game.supply_list
    for lv, row in enumerate(game.market_rows):
        for slot, card in enumerate(row):
            s[R.MKT + 4 * lv + slot] = -1 if card is None else card.id
    for lv, deck in enumerate(game._decks):  # (the twin's check reads the engine's decks: it deals the same cards)
        s[R.DLEN + lv] = len(deck)
        s[R.DECK + R.DOFF[lv]:R.DECK + R.DOFF[lv] + len(deck)] = [c.id for c in deck]
    nobles = game.noble_list
    s[R.NNOB] = len(nobles)
    s[R.NOB:R.NOB + len(nobles)] = [nb.id for nb in nobles]
    for seat, p in enumerate(game.player_list):
        b = R.PLY + R.PSIZE * seat
        s[b + R.TOK:b + R.TOK + 6] = p.tok
        s[b + R.BON:b + R.BON + 5] = p.bon
        s[b + R.PTS], s[b + R.NCARDS], s[b + R.NRES] = p.points, len(p.cards), len(p.reserved_list)
        s[b + R.RES:b + R.RES + len(p.reserved_list)] = [c.id for c in p.reserved_list]
        s[b + R.HID:b + R.HID + len(p.hidden)] = [1 if h else 0 for h in p.hidden]
        s[b + R.PNOB] = len(p.nobles)
    return s


def code_of(action):
    """The twin's move for the engine's ``action``."""
    k = action.kind
    if k == "buy":
        return R.move_code(R.BUY, action.card.id)
    if k == "take":
        return R.move_code(R.TAKE, sum(1 << COLOR_INDEX[c] for c in action.colors))
    if k == "take_two":
        return R.move_code(R.TAKE2, COLOR_INDEX[action.colors[0]])
    if k == "reserve":
        return R.move_code(R.BLIND, action.level - 1) if action.card is None else R.move_code(R.RESERVE,
                                                                                             action.card.id)
    if k == "return":
        return R.move_code(R.GIVE, COLOR_INDEX[action.colors[0]])
    if k == "noble":
        return R.move_code(R.CHOOSE, action.noble.id)
    return R.move_code(R.PASS, 0)
