"""Training positions for the expert's network from recorded games with a search's visits at each decision.

A record is the project's game record (``Game.record()`` with ``deals``) plus ``decisions``: per search decision,
``{"ply", "visits", "value", "prior"}`` (the format of the agent's games kept as training data, and of the games
``python -m splendor netplay`` records). Each decision becomes one row: the input (:func:`splendor.ai.encoding.encode`
of the position the deciding seat saw), the policy target (the visits on the fixed move index, pruned of the
forced playouts the agent's search adds, as its own training does), and two value targets, the game's result for the
deciding seat (1 won, -1 lost, 0 a shared win) and the search's own value.

Needs numpy (requirements-train.txt).
"""

import gzip
import json
import math

from ..ai import encoding as enc
from ..engine.game import Game, parse_action


def pruned(visits, prior, sims):
    """The visits a search with forced playouts (KataGo's, k = 0.5) would train on: every move but the most visited
    loses floor(sqrt(0.5 x prior x sims)) visits, and counts of 1 or less become 0. Without a prior the visits stay.

    >>> pruned({"a": 500, "b": 30, "c": 2}, {"a": 0.5, "b": 0.3, "c": 0.2}, 800)
    {'a': 500, 'b': 20, 'c': 0}
    """
    if not prior:
        return dict(visits)
    best = max(visits, key=visits.get)
    out = {}
    for k, n in visits.items():
        if k != best:
            n -= math.floor(math.sqrt(0.5 * prior.get(k, 0.0) * sims))
            if n <= 1:
                n = 0
        out[k] = n
    return out


def record_rows(rec):
    """(input, policy target over the move index, result, search value, simulations) for each decision of the
    record ``rec`` made in a 2-player game's action phase."""
    at = {d["ply"]: d for d in rec.get("decisions", ())}
    if rec["players"] != enc.PLAYERS or not at:
        return []
    game = Game(players=rec["players"], seed=rec["seed"] or 0, first_player=rec["first_player"],
                variants=rec.get("variants", ()), deals=rec.get("deals"))
    winners = rec["winners"]
    sims = rec.get("sims") or 800
    rows = []
    for ply, text in enumerate(rec["actions"]):
        d = at.get(ply)
        if d is not None and game.phase == "action":
            seat = game.current_player
            target = [0.0] * enc.ACTION_COUNT
            for move, n in pruned(d["visits"], d.get("prior"), sims).items():
                if n > 0:
                    target[enc.action_index(game, parse_action(game, move))] += n
            total = sum(target)
            if total > 0:
                result = (0.0 if len(winners) > 1 else 1.0) if seat in winners else -1.0
                rows.append((enc.encode(game), [t / total for t in target], result, float(d.get("value", result)),
                             sims))
        game.apply(parse_action(game, text))
    return rows


def _file_rows(path):
    out = []
    with gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                out.append(record_rows(json.loads(line)))
    return out


def build(paths, jobs=1):
    """Arrays for the records in ``paths`` (jsonl, optionally gzip): ``x`` float32 (rows, INPUTS), ``pi`` float32
    (rows, ACTION_COUNT), ``z`` results, ``v`` search values, ``sims`` the search's simulations, ``game`` the index
    of the row's game (to hold out whole games)."""
    import numpy as np

    if jobs > 1:
        from multiprocessing import Pool

        with Pool(jobs) as pool:
            per_file = pool.map(_file_rows, paths)
    else:
        per_file = [_file_rows(p) for p in paths]
    xs, pis, zs, vs, ss, gs = [], [], [], [], [], []
    g = 0
    for games in per_file:
        for rows in games:
            for x, pi, z, v, sims in rows:
                xs.append(x)
                pis.append(pi)
                zs.append(z)
                vs.append(v)
                ss.append(sims)
                gs.append(g)
            g += 1
    return {"x": np.asarray(xs, np.float32), "pi": np.asarray(pis, np.float32), "z": np.asarray(zs, np.float32),
            "v": np.asarray(vs, np.float32), "sims": np.asarray(ss, np.int32), "game": np.asarray(gs, np.int32)}
