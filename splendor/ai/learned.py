"""A learned evaluation: a seat's chance to win, as a logistic model of features of its position, fitted to the
results of played games (``python -m splendor train``, :mod:`splendor.training.train`).

Each seat gets a few features (:data:`FEATURES`): the parts of its hand-written value (``heuristic.seat_parts``, read
with the hard bot's weights) and some facts the hand-written value does not weigh (bonuses and tokens held, how many
visible cards it can buy now and the most points among them, points past 10, nobles within two bonuses). A seat's
*standing* is the sum of its features, each weighted by ``base + per_stage x stage`` (the stage: the leader's points
over 15), and the chance that seat ``s`` wins against the best other seat is the logistic of
``standing[s] - max(other standings) + to_move x (1 if s is to move else -1)``.

Inference is pure Python, standard library only (it runs in the page's worker on Pyodide): one pricing of the visible
cards per seat, then sums over a dozen numbers. The weights live in ``expert_model.json`` beside this module (a
few kilobytes, a plain file of the site that the bot worker fetches) and are read only when an expert bot is first
made (:func:`load_expert`), not when the package is imported.
"""

import json
import math
import os

from .features import FEATURES, READ_WEIGHTS, check_header, game_features, sigmoid as _sigmoid
from .heuristic import Weights, result_share

FORMAT = "splendor-value-model"
#: The expert level's model, and the reference that ``python -m splendor train`` compares a new fit with: the linear
#: model that command fitted (an expert-model file of the self-play command, value and prior, would take its place).
MODEL_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expert_model.json")


class ValueModel:
    """The learned evaluation (see the module text). ``base``, ``per_stage``: one coefficient per feature;
    ``to_move``: the logit worth of being the seat to move. ``meta``: what the training command recorded (seed,
    games, held-out loss...). ``tables``: {players: :class:`TableModel`}, a 3- or 4-player table's own model (none
    shipped)."""

    def __init__(self, base, per_stage, to_move=0.0, meta=None, tables=None):
        _check_coefficients(base, per_stage)
        self.base = [float(x) for x in base]
        self.per_stage = [float(x) for x in per_stage]
        self.to_move = float(to_move)
        self.meta = dict(meta or {})
        self.read = Weights(**READ_WEIGHTS)
        self.tables = dict(tables or {})

    # -- inference ----------------------------------------------------------------------------------------------
    def standings(self, game):
        """Every seat's standing (a logit; differences between seats are what count), by the table's model when
        there is one for this many players."""
        t = self.tables.get(len(game.player_list))
        return self.standings_of(*game_features(game, self.read), t)

    def standings_of(self, stage, feats, table=None):
        """The standings of seats with features ``feats`` at ``stage``, by ``table``'s coefficients when given, else
        the two-player model's (the training command judges recorded positions with it)."""
        base, per_stage = (table.base, table.per_stage) if table else (self.base, self.per_stage)
        co = [b + k * stage for b, k in zip(base, per_stage)]
        return [sum(c * x for c, x in zip(co, f)) for f in feats]

    def win_chance(self, game, seat):
        """The model's chance that ``seat`` wins (the result itself when the game is over)."""
        return self.win_chances(game)[seat]

    def win_chances(self, game):
        """Every seat's :meth:`win_chance`, the standings read once (the tree search judges every seat at a leaf)."""
        n = len(game.player_list)
        if game.phase == "over":
            return [result_share(game, s) for s in range(n)]
        if n in self.tables:
            return self._table_shares(game)
        return self.chances_against_best(self.standings(game), game.current)

    def chances_against_best(self, st, cur):
        """Each seat's chance to beat the best other seat, from the standings ``st``, ``cur`` the seat to move (the
        two-player model's chances, read at any table without a model of its own)."""
        tm = self.to_move
        out = []
        for s, v in enumerate(st):
            best = max(u for j, u in enumerate(st) if j != s)
            out.append(_sigmoid(v - best + (tm if cur == s else -tm)))
        return out

    def _table_shares(self, game):
        """Every seat's chance to win by the table's model: the softmax over the seats of standing + the worth of
        its place in the turn order (``order``: 0 the seat to move, 1 the next...) + the worth of its place from
        the seat that started (``seat``)."""
        n = len(game.player_list)
        t = self.tables[n]
        st = self.standings(game)
        cur, start, order, place = game.current, game.start, t.order, t.seat
        z = [v + order[(s - cur) % n] + place[(s - start) % n] for s, v in enumerate(st)]
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        return [x / total for x in e]

    # -- the weights file ---------------------------------------------------------------------------------------
    def to_dict(self):
        out = {"format": FORMAT, "version": 1, "features": list(FEATURES),
               "base": [round(x, 6) for x in self.base], "per_stage": [round(x, 6) for x in self.per_stage],
               "to_move": round(self.to_move, 6), "meta": self.meta}
        if self.tables:
            out["tables"] = {str(n): t.to_dict() for n, t in sorted(self.tables.items())}
        return out

    @classmethod
    def from_dict(cls, data):
        check_header(data, FORMAT, "value model")
        if list(data.get("features", ())) != list(FEATURES):
            raise ValueError(f"the value model's features {data.get('features')!r} are not this code's "
                             f"{list(FEATURES)!r}: retrain it with python -m splendor train")
        tables = {}
        for key, t in (data.get("tables") or {}).items():
            if not (isinstance(key, str) and key.isdigit() and 3 <= int(key) <= 4):
                raise ValueError(f"a value model's table is for 3 or 4 players, not {key!r}")
            tables[int(key)] = TableModel.from_dict(t, int(key))
        return cls(data["base"], data["per_stage"], data.get("to_move", 0.0), data.get("meta"), tables)

    def save(self, path):
        text = json.dumps(self.to_dict(), indent=1, sort_keys=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")

    @classmethod
    def load(cls, path):
        return _read(path, cls.from_dict)


def _check_coefficients(base, per_stage):
    if len(base) != len(FEATURES) or len(per_stage) != len(FEATURES):
        raise ValueError(f"a value model needs {len(FEATURES)} base and per-stage coefficients "
                         f"({', '.join(FEATURES)})")


class TableModel:
    """A :class:`ValueModel`'s model of a table of ``players`` seats (``python -m splendor train --players N``):
    its own feature coefficients (``base``, ``per_stage``), the logit worth of each place in the turn order from the
    seat to move (``order``, ``players`` numbers, the first 0) and from the seat that started (``seat``, the same).
    A seat's chance to win is the softmax of standing + both worths over the seats (:meth:`ValueModel.win_chances`).
    """

    def __init__(self, players, base, per_stage, order, seat, meta=None):
        _check_coefficients(base, per_stage)
        if len(order) != players or len(seat) != players:
            raise ValueError(f"a {players}-player table needs {players} turn-order and {players} seat worths")
        self.players = players
        self.base = [float(x) for x in base]
        self.per_stage = [float(x) for x in per_stage]
        self.order = [float(x) for x in order]
        self.seat = [float(x) for x in seat]
        self.meta = dict(meta or {})

    def to_dict(self):
        return {"base": [round(x, 6) for x in self.base], "per_stage": [round(x, 6) for x in self.per_stage],
                "order": [round(x, 6) for x in self.order], "seat": [round(x, 6) for x in self.seat],
                "meta": self.meta}

    @classmethod
    def from_dict(cls, data, players):
        if not isinstance(data, dict):
            raise ValueError(f"the {players}-player table is not an object")
        return cls(players, data["base"], data["per_stage"], data["order"], data["seat"], data.get("meta"))


def _read(path, parse):
    """``parse`` of the JSON in ``path``; a file that cannot be read as one raises ValueError naming the file."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except ValueError as exc:
        raise ValueError(f"{path}: not valid JSON: {exc}") from None
    try:
        return parse(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from None


#: A file holding both of the expert's learned parts: {"format": BUNDLE, "version": 1, "value": a value model's or
#: net's dict, "policy": a :class:`~splendor.ai.policy.PolicyModel`'s dict or null, "meta": ...}
BUNDLE = "splendor-expert-model"


class ByTable:
    """The value of an expert-model file that has a model of its own for larger tables: ``two`` judges 2-player
    games, ``others`` 3- and 4-player ones (the self-play that trains ``two`` plays 2-player games only)."""

    def __init__(self, two, others, meta=None):
        self.two, self.others = two, others
        self.meta = dict(meta or {})

    def of(self, game):
        """The model that judges ``game``."""
        return self.two if len(game.player_list) == 2 else self.others

    def win_chance(self, game, seat):
        return self.of(game).win_chance(game, seat)

    def win_chances(self, game):
        m = self.of(game)
        every = getattr(m, "win_chances", None)
        return every(game) if every else [m.win_chance(game, s) for s in range(len(game.player_list))]


def _either(data):
    if isinstance(data, dict) and data.get("format") == BUNDLE:
        check_header(data, BUNDLE, "expert model")
        meta = data.get("meta") or {}
        value = _either(data.get("value"))
        value.meta = {**meta, **value.meta}
        if data.get("others"):
            return ByTable(value, _either(data["others"]), meta)
        return value
    if isinstance(data, dict) and data.get("format") == "splendor-value-net":
        from .valuenet import ValueNet
        return ValueNet.from_dict(data)
    return ValueModel.from_dict(data)


_SHIPPED = None


def read_policy(path):
    """The policy in the expert-model file ``path``, None when the file holds a value model alone."""
    def parse(data):
        if isinstance(data, dict) and data.get("format") == BUNDLE and data.get("policy"):
            from .policy import PolicyModel
            return PolicyModel.from_dict(data["policy"])
        return None
    return _read(path, parse)


def load_policy(path=None):
    """The policy in ``path`` (default: the expert's, MODEL_FILE, read once with its value), None when there is none."""
    return read_policy(path) if path is not None else load_expert()[1]


_EXPERT = None


def load_expert():
    """The expert level's (value, policy): MODEL_FILE, read once and kept."""
    global _EXPERT
    if _EXPERT is None:
        _EXPERT = (read_model(MODEL_FILE), read_policy(MODEL_FILE))
    return _EXPERT


def read_model(path):
    """The model in the JSON file ``path``: a :class:`ValueModel` or a :class:`~splendor.ai.valuenet.ValueNet`,
    as its ``format`` says. A file that is neither raises ValueError naming the file."""
    return _read(path, _either)


def load_model(path=None):
    """The model in ``path`` (default: the shipped ``expert_model.json``, read once and kept)."""
    global _SHIPPED
    if path is not None:
        return read_model(path)
    if _SHIPPED is None:
        _SHIPPED = read_model(MODEL_FILE)
    return _SHIPPED
