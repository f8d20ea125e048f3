"""The rules of the base game over one small integer array: the compiled twin's state, legal moves and moves (issue
74). Training only: the page and the bots play :mod:`splendor.engine`, the one source of the rules; this is held to
it move for move by :mod:`.check` (``python -m splendor twin --check``; a sample runs in ``make test``).

Every function here is written in the subset of Python that numba compiles (``@njit``): with numba installed
(``requirements-twin.txt``) they run compiled; without it they run as they are, under CPython, which is how the
test suite checks them against the engine on a fresh machine without a compiler.

A state is one ``int16`` array of :data:`SIZE` (so a search copies it with one ``copy()``):

- ``[N]`` players, ``[CUR]`` the seat to act, ``[PHASE]`` (:data:`ACTION`, :data:`RETURN`, :data:`NOBLE`,
  :data:`OVER`), ``[FINAL]`` (someone reached 15), ``[PASSES]`` in a row, ``[TURNS]``, ``[START]`` (the first seat);
- ``[SUP:SUP+6]`` the supply (five colours, gold last);
- ``[MKT:MKT+12]`` the market by level and slot (card ids; -1 an empty slot);
- ``[DLEN:DLEN+3]`` the decks' lengths, ``[DECK+DOFF[lv] ...]`` each deck's cards, drawn from its end;
- ``[NOB:NOB+5]`` the nobles on the table in the engine's order (-1 after them), ``[NNOB]`` how many;
- ``[PLY + PSIZE * seat + ...]`` each seat: ``TOK`` six tokens, ``BON`` five bonuses, ``PTS``, ``NCARDS`` (cards
  bought), ``NRES`` and ``RES`` three reserved card ids in order, ``HID`` three flags (reserved unseen),
  ``PNOB`` nobles won.

A move is one ``int32``: ``kind * 1000 + arg`` (:func:`move_code`): a buy (the card, paid the default way: own
tokens first, then gold), a take of up to three colours (their bits), a take of two (the colour), a reserve of a
face-up card (the card) or of a deck's top card (the level, 0-2), a return (the colour), a noble (its id), a pass.
"""

import os

import numpy as np

try:  # compiled where numba is installed (training machines); plain Python otherwise
    from numba import njit
    COMPILED = os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")  # (numba's switch to run the Python as it is)
except ImportError:  # pragma: no cover - depends on the machine
    COMPILED = False

    def njit(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda f: f

from ...engine.cards import CARDS, NOBLES
from ...engine.rules import RESERVE_LIMIT, TOKEN_LIMIT, WINNING_POINTS

N, CUR, PHASE, FINAL, PASSES, TURNS, START = range(7)
SUP = 8
MKT = 14
DLEN = 26
DECK = 29
DOFF = np.array([0, 40, 70], dtype=np.int64)
NOB = 119
NNOB = 124
PLY = 128
PSIZE = 32
TOK, BON, PTS, NCARDS, NRES, RES, HID, PNOB = 0, 6, 11, 12, 13, 14, 17, 20
SIZE = PLY + 4 * PSIZE

ACTION, RETURN, NOBLE, OVER = 0, 1, 2, 4
BUY, TAKE, TAKE2, RESERVE, BLIND, GIVE, CHOOSE, PASS = range(8)
MAX_MOVES = 64  # more than a position ever offers (12 + 3 buys, 10 takes, 5 doubles, 12 + 3 reserves: 45)

#: The cards' and nobles' tables, by id.
COST = np.array([c.cost_t for c in CARDS], dtype=np.int16)
BONUS = np.array([c.bonus_i for c in CARDS], dtype=np.int16)
POINTS = np.array([c.points for c in CARDS], dtype=np.int16)
LEVEL = np.array([c.level - 1 for c in CARDS], dtype=np.int16)
NEED = np.array([nb.req_t for nb in NOBLES], dtype=np.int16)
NOBLE_POINTS = np.array([nb.points for nb in NOBLES], dtype=np.int16)
MIN_NOBLE_NEED = int(min(sum(nb.req_t) for nb in NOBLES))


def move_code(kind, arg):
    return kind * 1000 + arg


@njit(cache=True)
def shortfall(s, seat, card):
    """The gold ``seat`` needs to buy ``card`` (0 when its coloured tokens and bonuses pay it)."""
    b = PLY + PSIZE * seat
    short = 0
    for i in range(5):
        d = COST[card, i] - s[b + BON + i] - s[b + TOK + i]
        if d > 0:
            short += d
    return short


@njit(cache=True)
def legal_moves(s, out):
    """Write the legal moves into ``out`` (an int32 array of :data:`MAX_MOVES`) in the engine's order; their count."""
    k = 0
    phase = s[PHASE]
    cur = s[CUR]
    b = PLY + PSIZE * cur
    if phase == ACTION:
        gold = s[b + TOK + 5]
        for m in range(12):
            card = s[MKT + m]
            if card >= 0 and shortfall(s, cur, card) <= gold:
                out[k] = BUY * 1000 + card
                k += 1
        for r in range(s[b + NRES]):
            card = s[b + RES + r]
            if shortfall(s, cur, card) <= gold:
                out[k] = BUY * 1000 + card
                k += 1
        avail = 0
        count = 0
        for i in range(5):
            if s[SUP + i] > 0:
                avail |= 1 << i
                count += 1
        want = min(3, count)
        if want > 0:  # every combination of ``want`` available colours, in the engine's order
            k = _takes(avail, want, out, k)
        for i in range(5):
            if s[SUP + i] >= 4:
                out[k] = TAKE2 * 1000 + i
                k += 1
        if s[b + NRES] < RESERVE_LIMIT:
            for m in range(12):
                card = s[MKT + m]
                if card >= 0:
                    out[k] = RESERVE * 1000 + card
                    k += 1
            for lv in range(3):
                if s[DLEN + lv] > 0:
                    out[k] = BLIND * 1000 + lv
                    k += 1
        if k == 0:
            out[k] = PASS * 1000
            k += 1
    elif phase == RETURN:
        for i in range(6):
            if s[b + TOK + i] > 0:
                out[k] = GIVE * 1000 + i
                k += 1
    elif phase == NOBLE:
        for j in range(s[NNOB]):
            nb = s[NOB + j]
            if _meets(s, b, nb):
                out[k] = CHOOSE * 1000 + nb
                k += 1
    return k


@njit(cache=True)
def _takes(avail, want, out, k):
    """The takes of ``want`` colours among ``avail`` (bits), in lexicographic order of the colours' indices."""
    colors = np.empty(5, dtype=np.int64)
    n = 0
    for i in range(5):
        if avail >> i & 1:
            colors[n] = i
            n += 1
    if want == 1:
        for a in range(n):
            out[k] = TAKE * 1000 + (1 << colors[a])
            k += 1
    elif want == 2:
        for a in range(n):
            for c in range(a + 1, n):
                out[k] = TAKE * 1000 + (1 << colors[a] | 1 << colors[c])
                k += 1
    else:
        for a in range(n):
            for c in range(a + 1, n):
                for d in range(c + 1, n):
                    out[k] = TAKE * 1000 + (1 << colors[a] | 1 << colors[c] | 1 << colors[d])
                    k += 1
    return k


@njit(cache=True)
def _meets(s, b, nb):
    for i in range(5):
        if s[b + BON + i] < NEED[nb, i]:
            return False
    return True


@njit(cache=True)
def _draw(s, lv):
    """The top card of deck ``lv`` (taken off it), or -1 when it is empty."""
    n = s[DLEN + lv]
    if n == 0:
        return -1
    s[DLEN + lv] = n - 1
    card = s[DECK + DOFF[lv] + n - 1]
    s[DECK + DOFF[lv] + n - 1] = 0  # (what lies past a deck's length is 0, as in a fresh state)
    return card


@njit(cache=True)
def apply_move(s, move):
    """Apply a legal ``move`` (from :func:`legal_moves`) to the state ``s``, in place."""
    kind = move // 1000
    arg = move % 1000
    cur = s[CUR]
    b = PLY + PSIZE * cur
    if kind == TAKE:
        for i in range(5):
            if arg >> i & 1:
                s[SUP + i] -= 1
                s[b + TOK + i] += 1
        s[PASSES] = 0
        _end_turn(s)
    elif kind == TAKE2:
        s[SUP + arg] -= 2
        s[b + TOK + arg] += 2
        s[PASSES] = 0
        _end_turn(s)
    elif kind == BUY:
        card = arg
        gold = 0
        for i in range(5):
            need = COST[card, i] - s[b + BON + i]
            if need > 0:
                own = s[b + TOK + i]
                paid = need if own >= need else own
                gold += need - paid
                s[b + TOK + i] -= paid
                s[SUP + i] += paid
        s[b + TOK + 5] -= gold
        s[SUP + 5] += gold
        found = -1
        for r in range(s[b + NRES]):
            if s[b + RES + r] == card:
                found = r
        if found >= 0:
            nres = s[b + NRES]
            for r in range(found, nres - 1):
                s[b + RES + r] = s[b + RES + r + 1]
                s[b + HID + r] = s[b + HID + r + 1]
            s[b + RES + nres - 1] = -1
            s[b + HID + nres - 1] = 0
            s[b + NRES] = nres - 1
        else:
            for m in range(12):
                if s[MKT + m] == card:
                    s[MKT + m] = _draw(s, LEVEL[card])
        s[b + NCARDS] += 1
        s[b + BON + BONUS[card]] += 1
        s[b + PTS] += POINTS[card]
        s[PASSES] = 0
        _end_turn(s)
    elif kind == RESERVE or kind == BLIND:
        r = s[b + NRES]
        if kind == BLIND:
            s[b + RES + r] = _draw(s, arg)
            s[b + HID + r] = 1
        else:
            for m in range(12):
                if s[MKT + m] == arg:
                    s[MKT + m] = _draw(s, LEVEL[arg])
            s[b + RES + r] = arg
            s[b + HID + r] = 0
        s[b + NRES] = r + 1
        if s[SUP + 5] > 0:
            s[SUP + 5] -= 1
            s[b + TOK + 5] += 1
        s[PASSES] = 0
        _end_turn(s)
    elif kind == GIVE:
        s[SUP + arg] += 1
        s[b + TOK + arg] -= 1
        _end_turn(s)
    elif kind == CHOOSE:
        _claim(s, arg)
        _finish_turn(s)
    else:  # pass
        s[PASSES] += 1
        _end_turn(s)


@njit(cache=True)
def _claim(s, nb):
    b = PLY + PSIZE * s[CUR]
    n = s[NNOB]
    j = 0
    while s[NOB + j] != nb:
        j += 1
    for t in range(j, n - 1):
        s[NOB + t] = s[NOB + t + 1]
    s[NOB + n - 1] = -1
    s[NNOB] = n - 1
    s[b + PNOB] += 1
    s[b + PTS] += NOBLE_POINTS[nb]


@njit(cache=True)
def _end_turn(s):
    """The end of a turn, in the rules' order: the token limit, then the nobles, then the score check."""
    b = PLY + PSIZE * s[CUR]
    total = 0
    for i in range(6):
        total += s[b + TOK + i]
    if total > TOKEN_LIMIT:
        s[PHASE] = RETURN
        return
    bonuses = 0
    for i in range(5):
        bonuses += s[b + BON + i]
    met = 0
    first = -1
    if s[NNOB] > 0 and bonuses >= MIN_NOBLE_NEED:
        for j in range(s[NNOB]):
            if _meets(s, b, s[NOB + j]):
                met += 1
                if first < 0:
                    first = s[NOB + j]
    if met > 1:
        s[PHASE] = NOBLE
        return
    if met == 1:
        _claim(s, first)
    _finish_turn(s)


@njit(cache=True)
def _finish_turn(s):
    n = s[N]
    cur = s[CUR]
    if s[FINAL] == 0 and s[PLY + PSIZE * cur + PTS] >= WINNING_POINTS:
        s[FINAL] = 1
    s[TURNS] += 1
    if (s[FINAL] == 1 and cur == (s[START] - 1) % n) or s[PASSES] >= n:
        s[PHASE] = OVER
        return
    s[CUR] = (cur + 1) % n
    s[PHASE] = ACTION


@njit(cache=True)
def winners(s):
    """The winning seats' bits once the game is over: most points, then fewest cards bought (several: shared)."""
    n = s[N]
    best = -1
    for i in range(n):
        best = max(best, s[PLY + PSIZE * i + PTS])
    fewest = 1000
    for i in range(n):
        if s[PLY + PSIZE * i + PTS] == best:
            fewest = min(fewest, s[PLY + PSIZE * i + NCARDS])
    bits = 0
    for i in range(n):
        if s[PLY + PSIZE * i + PTS] == best and s[PLY + PSIZE * i + NCARDS] == fewest:
            bits |= 1 << i
    return bits


def new_state():
    s = np.full(SIZE, 0, dtype=np.int16)
    s[MKT:MKT + 12] = -1
    s[NOB:NOB + 5] = -1
    for seat in range(4):
        b = PLY + PSIZE * seat
        s[b + RES:b + RES + 3] = -1
    return s


@njit(cache=True)
def random_playout(s, seed):
    """Play random legal moves from ``s`` (in place) to the end; the moves played (the twin's speed, :mod:`.check`
    ``--bench``)."""
    np.random.seed(seed)
    buf = np.empty(MAX_MOVES, dtype=np.int32)
    moves = 0
    while s[PHASE] != OVER:
        k = legal_moves(s, buf)
        apply_move(s, buf[np.random.randint(0, k)])
        moves += 1
    return moves
