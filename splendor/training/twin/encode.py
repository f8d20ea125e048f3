"""The network's input over the twin's array: :func:`splendor.ai.encoding.encode` number for number (issue 74).

:func:`encode` writes the input of the seat to move into a float64 array of ``encoding.inputs_for(players)``
(zeros past what it writes: the padding); :mod:`.check` compares it with the engine's encoding at every step of
its games. The base game only (no open reservations: an opponent's blind reservation shows only its level).
"""

import numpy as np

from ...ai import encoding as E
from ...engine.cards import CARDS
from . import rules as R
from .rules import njit

STATIC = np.array([E._static(c) for c in CARDS], dtype=np.float64)  # by card id: the card's own 14 numbers
CARD = STATIC.shape[1]
RESERVE_LIMIT = 3


@njit(cache=True)
def encode(s, x):
    """The input for the seat to move in the state ``s``, written into ``x`` (float64, zeroed here)."""
    x[:] = 0.0
    n = s[R.N]
    me = s[R.CUR]
    k = 0
    for i in range(5):
        x[k] = s[R.SUP + i] / 4
        k += 1
    x[k] = s[R.SUP + 5] / 5
    x[k + 1] = s[R.DLEN] / 40
    x[k + 2] = s[R.DLEN + 1] / 30
    x[k + 3] = s[R.DLEN + 2] / 20
    place = (me - s[R.START]) % n
    x[k + 4] = 1.0 if s[R.FINAL] else 0.0
    x[k + 5] = 1.0 if place == n - 1 else 0.0
    x[k + 6] = s[R.TURNS] / (30.0 * n)
    k += 7
    if n > 2:
        x[k + place] = 1.0
        k += n
    for q in range(n):  # each seat, the mover first
        b = R.PLY + R.PSIZE * ((me + q) % n)
        total = 0
        for i in range(5):
            x[k + i] = s[b + R.TOK + i] / 4
            total += s[b + R.TOK + i]
        total += s[b + R.TOK + 5]
        x[k + 5] = s[b + R.TOK + 5] / 5
        for i in range(5):
            x[k + 6 + i] = s[b + R.BON + i] / 5
        x[k + 11] = s[b + R.PTS] / 15
        x[k + 12] = total / 10
        x[k + 13] = s[b + R.NRES] / 3
        x[k + 14] = s[b + R.PNOB] / 3
        k += 15
    slot = CARD + 3 + 2 * (n - 1)
    mb = R.PLY + R.PSIZE * me
    for m in range(12):
        c = s[R.MKT + m]
        if c < 0:
            k += slot
            continue
        for j in range(CARD):
            x[k + j] = STATIC[c, j]
        k += CARD
        mine = 0
        after = 0
        for i in range(5):
            d = R.COST[c, i] - s[mb + R.BON + i]
            if d > 0:
                after += d
                d -= s[mb + R.TOK + i]
                if d > 0:
                    mine += d
        x[k] = mine / 10
        x[k + 1] = 1.0 if mine <= s[mb + R.TOK + 5] else 0.0
        k += 2
        for q in range(1, n):
            ob = R.PLY + R.PSIZE * ((me + q) % n)
            theirs = 0
            for i in range(5):
                d = R.COST[c, i] - s[ob + R.BON + i] - s[ob + R.TOK + i]
                if d > 0:
                    theirs += d
            x[k] = theirs / 10
            x[k + 1] = 1.0 if theirs <= s[ob + R.TOK + 5] else 0.0
            k += 2
        x[k] = after / 10
        k += 1
    reserved = 2 + CARD + 2
    for q in range(n):
        b = R.PLY + R.PSIZE * ((me + q) % n)
        for j in range(RESERVE_LIMIT):
            if j >= s[b + R.NRES]:
                k += reserved
                continue
            c = s[b + R.RES + j]
            if q > 0 and s[b + R.HID + j]:
                x[k] = 1.0
                x[k + 2 + 11 + R.LEVEL[c]] = 1.0  # (the level only: its one-hot among the card's numbers)
                k += reserved
                continue
            m = 0
            for i in range(5):
                d = R.COST[c, i] - s[b + R.BON + i] - s[b + R.TOK + i]
                if d > 0:
                    m += d
            x[k] = 1.0
            x[k + 1] = 1.0
            for t in range(CARD):
                x[k + 2 + t] = STATIC[c, t]
            x[k + 2 + CARD] = m / 10
            x[k + 3 + CARD] = 1.0 if m <= s[b + R.TOK + 5] else 0.0
            k += reserved
    noble = 6 + n
    for j in range(n + 1):
        if j >= s[R.NNOB]:
            k += noble
            continue
        nb = s[R.NOB + j]
        x[k] = 1.0
        for i in range(5):
            x[k + 1 + i] = R.NEED[nb, i] / 4
        for q in range(n):
            b = R.PLY + R.PSIZE * ((me + q) % n)
            lack = 0
            for i in range(5):
                if R.NEED[nb, i] > s[b + R.BON + i]:
                    lack += R.NEED[nb, i] - s[b + R.BON + i]
            x[k + 6 + q] = lack / 8
        k += noble
    return k
