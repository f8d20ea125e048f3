"""A learned evaluation with a hidden layer: the chance that one seat beats another, judged from both seats at once.

:mod:`splendor.ai.learned`'s linear model gives each seat a standing of its own and compares standings, so it cannot
see a race: two seats a bonus from the same noble, both short of the same market card. This model reads the two seats
side by side. Each seat gets a vector (:func:`seat_vector`, :data:`SEAT_INPUTS` numbers): the linear model's 13
features, its distance to each noble on the table, what it still lacks to buy each market card (the 12 slots in the
market's order) and each of its reserved cards, and those cards' points; the table adds the stage (the leader's
points over 15), who is to move and each market card's points. A pair ``(s, o)`` is the input ``[vector of s,
vector of o, table]``; one hidden layer of ReLU units and an output give ``N(s, o)``, and the logit that ``s`` wins
against ``o`` is ``N(s, o) - N(o, s)`` (so the two chances of a 2-player game add up to 1). At a larger table a
seat's logit is its worst against any other seat.

Inference is pure Python, standard library only (it runs in the page's worker on Pyodide): the first layer splits
into a part for the first seat, one for the second and one for the table, so each seat's two parts are computed once
and every pair adds three short lists. The weights (inputs' scaling folded in) are trained by ``python -m splendor
train --net H`` (numpy, a training-only install) and stored as JSON lists.
"""

import json
import operator

from .heuristic import Weights, result_share, stage_of
from .features import READ_WEIGHTS, check_header, seat_features, sigmoid as _sigmoid

FORMAT = "splendor-value-net"
NOBLE_SLOTS = 5
MARKET_SLOTS = 12
RESERVE_SLOTS = 3
FAR = 10  # what a missing noble or card counts as: as far as it can be
#: numbers of a seat's vector: 13 linear features, nobles' distances, market cards' shortfalls, reserved cards'
#: shortfalls and points
SEAT_INPUTS = 13 + NOBLE_SLOTS + MARKET_SLOTS + 2 * RESERVE_SLOTS
#: numbers of the table's part: stage, to move, market cards' points
TABLE_INPUTS = 2 + MARKET_SLOTS


def _short(needs, bon, tok):
    """Tokens still lacking to buy a card with needs ``needs`` (gold counts), 0 when it can be bought now."""
    s = 0
    for i, n in needs:
        d = n - bon[i] - tok[i]
        if d > 0:
            s += d
    s -= tok[5]
    return s if s > 0 else 0


def seat_vector(w, p, slots, market, nobles, stage, supply):
    """The :data:`SEAT_INPUTS` numbers of player ``p``; ``slots``: the market's 12 slots (None where empty)."""
    out = list(seat_features(w, p, market, nobles, stage, supply))
    bon = p.bon
    tok = p.tok
    for j in range(NOBLE_SLOTS):
        if j < len(nobles):
            need = 0
            for i, n in nobles[j].needs:
                if bon[i] < n:
                    need += n - bon[i]
            out.append(need)
        else:
            out.append(FAR)
    for c in slots:
        out.append(FAR if c is None else _short(c.needs, bon, tok))
    res = p.reserved_list
    for j in range(RESERVE_SLOTS):
        if j < len(res):
            c = res[j]
            out.append(_short(c.needs, bon, tok))
            out.append(c.points)
        else:
            out.append(FAR)
            out.append(0)
    return out


def game_vectors(game, w):
    """(table numbers without who is to move: [stage, market points...], [each seat's vector])."""
    stage = stage_of(game)
    slots = [c for row in game.market_rows for c in row]
    while len(slots) < MARKET_SLOTS:
        slots.append(None)
    market = [c for c in slots if c is not None]
    nobles = game.noble_list[:NOBLE_SLOTS]
    supply = game.supply_list
    table = [stage] + [0 if c is None else c.points for c in slots]
    return table, [seat_vector(w, p, slots, market, nobles, stage, supply) for p in game.player_list]


def _dots(rows, x):
    mul = operator.mul
    return [sum(map(mul, r, x)) for r in rows]


class ValueNet:
    """See the module text. ``first``/``second``: the hidden layer's weights on the first and second seat's vector
    (``hidden`` rows of :data:`SEAT_INPUTS`), ``table``: on the table's numbers without who is to move (``hidden``
    rows of TABLE_INPUTS - 1), ``to_move``: the weight of who is to move (+1: the first seat, -1: the second, 0:
    neither), ``bias``: the hidden units' biases, ``out``: the output's weights."""

    def __init__(self, first, second, table, to_move, bias, out, meta=None):
        h = len(bias)
        if not (len(first) == len(second) == len(table) == len(to_move) == len(out) == h and h > 0):
            raise ValueError("a value net's layers disagree on the number of hidden units")
        if any(len(r) != SEAT_INPUTS for r in first) or any(len(r) != SEAT_INPUTS for r in second):
            raise ValueError(f"a value net reads {SEAT_INPUTS} numbers of each seat")
        if any(len(r) != TABLE_INPUTS - 1 for r in table):
            raise ValueError(f"a value net reads {TABLE_INPUTS - 1} numbers of the table besides who is to move")
        self.first = [[float(v) for v in r] for r in first]
        self.second = [[float(v) for v in r] for r in second]
        self.table = [[float(v) for v in r] for r in table]
        self.to_move = [float(v) for v in to_move]
        self.bias = [float(v) for v in bias]
        self.out = [float(v) for v in out]
        self.meta = dict(meta or {})
        self.read = Weights(**READ_WEIGHTS)

    # -- inference ----------------------------------------------------------------------------------------------
    def logits(self, game, seat):
        """[the logit that ``seat`` beats each other seat] (seat order, ``seat`` itself left out)."""
        table, vecs = game_vectors(game, self.read)
        return self.logits_of(table, vecs, game.current, seat)

    def logits_of(self, table, vecs, current, seat):
        """As :meth:`logits`, from :func:`game_vectors`' numbers and the seat to move."""
        c = [b + t for b, t in zip(self.bias, _dots(self.table, table))]
        a = [_dots(self.first, x) for x in vecs]
        b = [_dots(self.second, x) for x in vecs]
        mv = self.to_move
        out = self.out
        cur = current
        res = []
        for o in range(len(vecs)):
            if o == seat:
                continue
            m = 1.0 if cur == seat else (-1.0 if cur == o else 0.0)
            n1 = 0.0
            n2 = 0.0
            for as_, bo, ao, bs, cc, mm, w in zip(a[seat], b[o], a[o], b[seat], c, mv, out):
                z = as_ + bo + cc + m * mm
                if z > 0.0:
                    n1 += w * z
                z = ao + bs + cc - m * mm
                if z > 0.0:
                    n2 += w * z
            res.append(n1 - n2)
        return res

    def win_chance(self, game, seat):
        """The model's chance that ``seat`` wins (its worst pairing; the result itself when the game is over)."""
        if game.phase == "over":
            return result_share(game, seat)
        return _sigmoid(min(self.logits(game, seat)))

    def win_chances(self, game):
        """Every seat's :meth:`win_chance`, the position read once (the tree search judges every seat at a leaf; at
        two seats one pairing gives both, the net being antisymmetric)."""
        n = len(game.player_list)
        if game.phase == "over":
            return [result_share(game, s) for s in range(n)]
        table, vecs = game_vectors(game, self.read)
        if n == 2:
            p = _sigmoid(self.logits_of(table, vecs, game.current, 0)[0])
            return [p, 1.0 - p]
        return [_sigmoid(min(self.logits_of(table, vecs, game.current, s))) for s in range(n)]

    # -- the weights file ---------------------------------------------------------------------------------------
    def to_dict(self):
        def r(m):
            return [[round(v, 6) for v in row] for row in m]
        return {"format": FORMAT, "version": 1, "seat_inputs": SEAT_INPUTS, "table_inputs": TABLE_INPUTS,
                "hidden": len(self.bias), "first": r(self.first), "second": r(self.second), "table": r(self.table),
                "to_move": [round(v, 6) for v in self.to_move], "bias": [round(v, 6) for v in self.bias],
                "out": [round(v, 6) for v in self.out], "meta": self.meta}

    @classmethod
    def from_dict(cls, data):
        check_header(data, FORMAT, "value net")
        if data.get("seat_inputs") != SEAT_INPUTS or data.get("table_inputs") != TABLE_INPUTS:
            raise ValueError(f"the value net reads {data.get('seat_inputs')!r} numbers a seat and "
                             f"{data.get('table_inputs')!r} of the table, this code {SEAT_INPUTS} and "
                             f"{TABLE_INPUTS}: retrain it with python -m splendor train --net")
        return cls(data["first"], data["second"], data["table"], data["to_move"], data["bias"], data["out"],
                   data.get("meta"))

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, separators=(",", ":"), sort_keys=True)
            f.write("\n")
