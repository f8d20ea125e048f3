"""Training positions for the expert's network from recorded games with a search's visits at each decision.

A record is the project's game record (``Game.record()`` with ``deals``) plus ``decisions``: per search decision,
``{"ply", "visits", "value", "prior"}`` (the format of the agent's games kept as training data, and of the games
``python -m splendor netplay`` records), and ``forced_playouts``: whether the searches that made its visits added
forced playouts (KataGo's; the agent's searches do, ``netplay``'s do not; a decision may say so for itself). Each
decision becomes one row: the input (:func:`splendor.ai.encoding.encode` of the position the deciding seat saw), the
policy target (the visits on the fixed move index, pruned of the forced playouts where the search added them, as the
agent's own training does; a decision's ``policy``, a Gumbel search's improved policy, where it has one), and two
value targets, the game's result for the deciding seat (1 won, -1 lost, 0 a shared win or a game cut before its
end) and the search's own value for that seat.

``python -m splendor netdata --harness RAW.jsonl --sims 100 --out GAMES.jsonl.gz`` turns the raw log of the team's
sparring harness (the agent against itself with ``--log-visits``: each seat's decisions as ``az_visits`` /
``opp_visits``) into such records, each game replayed through the engine and checked against the log's winners.

Needs numpy (requirements-train.txt) to build arrays; the conversion does not.
"""

import argparse
import gzip
import json
import math
import sys
from functools import partial

from ..ai import encoding as enc
from ..engine.game import Game, new_game, parse_action


#: KataGo's forced playouts: a root move of prior P is walked at least sqrt(FORCED_K x P x the root's visits) times
#: (k = 2 in KataGo's paper, "Accelerating Self-Play Learning in Go", and in the agent's search).
FORCED_K = 2.0


def pruned(visits, prior, sims):
    """The visits a search with forced playouts (KataGo's, k = 2) trains on: every move but the most visited loses
    the floor of sqrt(2 x prior x sims) visits (the playouts it was forced to), and counts of 1 or less become 0.
    Without a prior the visits stay. Only for a search that did force playouts: :func:`record_rows` asks the record.

    >>> pruned({"a": 500, "b": 30, "c": 2}, {"a": 0.5, "b": 0.3, "c": 0.2}, 800)
    {'a': 500, 'b': 9, 'c': 0}
    """
    if not prior:
        return dict(visits)
    best = max(visits.values())
    out = {}
    for k, n in visits.items():
        if n != best:  # (as the agent's training: every move at the top count keeps its visits)
            n -= math.floor(math.sqrt(FORCED_K * prior.get(k, 0.0) * sims))
            if n <= 1:
                n = 0
        out[k] = n
    return out


#: Whether a record that does not say (``forced_playouts``) came from a search with forced playouts: the records
#: written before the field are the agent's games (``from_harness``), whose searches forced them.
FORCED_BY_DEFAULT = True


def forced_playouts(rec, decision=None):
    """Whether the search behind ``decision`` of the record ``rec`` (or behind the record's decisions) added forced
    playouts: the decision's own ``forced_playouts``, else the record's, else :data:`FORCED_BY_DEFAULT`."""
    if decision is not None and "forced_playouts" in decision:
        return bool(decision["forced_playouts"])
    return bool(rec.get("forced_playouts", FORCED_BY_DEFAULT))


def result_for(seat, winners):
    """The game's result for ``seat``: 1 its win alone, 0 a shared win, -1 a loss; 0 for a game cut before its end
    (no winners: ``netplay`` stops a game at its round limit). A cut game is neither seat's loss: -1 for both would
    teach the network that both sides of one position lose, while the search backs up one seat's value as the
    other's negation (the values are zero-sum). A game still going at the round limit, far past a game's usual
    length, is one neither seat was managing to win: 0, the value of a draw, keeps the seats' targets each other's
    negation."""
    if not winners:
        return 0.0
    if seat not in winners:
        return -1.0
    return 0.0 if len(winners) > 1 else 1.0


def seat_shares(mover, winners, n):
    """Each seat's share of the win (the mover's first, then the seats after it in turn order), the value target of
    a 3-4 seat network: 1 for a win alone, 1/k each for a win shared by k seats, 0 for a loss; even shares for a
    game cut before its end (no winners)."""
    if not winners:
        return [1.0 / n] * n
    return [1.0 / len(winners) if (mover + k) % n in winners else 0.0 for k in range(n)]


def game_record(game, decisions, **fields):
    """A self-play game's record as netplay writes it (and :func:`record_rows` reads it): the game's record with its
    ``deals``, ``winners`` (none for a game cut short), ``scores``, the search's ``fields`` (``sims``, ``search``...)
    and the ``decisions``. The searches that write these force no playouts: their visits are taken as they are."""
    rec = game.record()
    rec["deals"] = game.dealt()
    rec["winners"] = list(game.winners) if game.is_over else []
    rec["scores"] = list(game.scores)
    rec.update(fields)
    rec["forced_playouts"] = False
    rec["decisions"] = decisions
    return rec


def record_rows(rec, players=enc.PLAYERS):
    """(input, policy target over the move index, result, search value, simulations) for each decision of the
    record ``rec`` made in an action phase, when it is a game of ``players`` seats. The target is the decision's
    ``policy`` where it has one (a Gumbel search's improved policy, taken as it is), else its visits, pruned of
    forced playouts only where the search added them (:func:`forced_playouts`). At three and four seats the result
    is :func:`seat_shares` (a list) and the search value the deciding seat's."""
    at = {d["ply"]: d for d in rec.get("decisions", ())}
    if rec["players"] != players or not at:
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
            if d.get("policy"):  # a Gumbel search's improved policy (netplay --search gumbel): the target itself
                visits = d["policy"]
            else:
                visits = pruned(d["visits"], d.get("prior"), sims) if forced_playouts(rec, d) else d["visits"]
            for move, n in visits.items():
                if n > 0:
                    target[enc.action_index(game, parse_action(game, move))] += n
            total = sum(target)
            if total > 0:
                result = result_for(seat, winners)
                rows.append((enc.encode(game), [t / total for t in target],
                             result if players == 2 else seat_shares(seat, winners, players),
                             float(d.get("value", result)), sims))
        game.apply(parse_action(game, text))
    return rows


#: Games whose rows are held as Python lists before they become float32 arrays. A row's input is hundreds of numbers;
#: as lists, a 20,000-game file's 1.1 million rows took more than 20 GB (the fit's worker was killed for memory), as
#: arrays they take 2 GB.
CHUNK_GAMES = 1000

#: The arrays of :func:`build`, in the order of :func:`record_rows`' rows and their types.
COLUMNS = (("x", "float32"), ("pi", "float32"), ("z", "float32"), ("v", "float32"), ("sims", "int32"),
           ("game", "int32"))


def _arrays(columns):
    import numpy as np

    return {name: np.asarray(col, dtype) for (name, dtype), col in zip(COLUMNS, columns)}


def _joined(parts):
    """One set of :data:`COLUMNS` arrays from ``parts`` (each such a set), in order; empty arrays for none."""
    import numpy as np

    filled = [p for p in parts if len(p["x"])]
    if not filled:
        return _arrays(tuple([] for _ in COLUMNS))
    if len(filled) == 1:
        return filled[0]
    return {name: np.concatenate([p[name] for p in filled]) for name, _ in COLUMNS}


def _file_rows(path, players=enc.PLAYERS, chunk=None):
    """(:func:`build`'s arrays for the records in one file, their ``game`` counted from 0 in this file; the file's
    count of records). The rows become arrays every ``chunk`` records (:data:`CHUNK_GAMES`), so the Python lists
    never hold more than that many games."""
    chunk = chunk or CHUNK_GAMES
    parts = []
    columns = tuple([] for _ in COLUMNS)
    n = 0
    with gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            for row in record_rows(json.loads(line), players):
                for col, value in zip(columns, (*row, n)):
                    col.append(value)
            n += 1
            if n % chunk == 0 and columns[0]:
                parts.append(_arrays(columns))
                columns = tuple([] for _ in COLUMNS)
    if columns[0]:
        parts.append(_arrays(columns))
    return _joined(parts), n


def build(paths, jobs=1, players=enc.PLAYERS):
    """Arrays for the records of ``players`` seats in ``paths`` (jsonl, optionally gzip): ``x`` float32 (rows,
    inputs), ``pi`` float32 (rows, ACTION_COUNT), ``z`` results (at 3-4 seats (rows, seats): :func:`seat_shares`),
    ``v`` search values, ``sims`` the search's simulations, ``game`` the index of the row's game (to hold out whole
    games; every record counts, one of another table size too). Each file is read in its own process with ``jobs``
    above 1, its rows made arrays as it goes (:data:`CHUNK_GAMES`)."""
    rows_of = partial(_file_rows, players=players)
    if jobs > 1:
        from multiprocessing import Pool

        with Pool(jobs) as pool:
            per_file = pool.map(rows_of, paths)
    else:
        per_file = [rows_of(p) for p in paths]
    offset = 0
    for arrays, games in per_file:
        arrays["game"] += offset
        offset += games
    return _joined([arrays for arrays, _ in per_file])


def from_harness(raw, sims):
    """The record (with ``deals`` and ``decisions``) of one game of the sparring harness's raw log ``raw`` (a dict,
    of 2, 3 or 4 players: at 3-4 ``az_visits`` maps each agent seat's label to its decisions), searched at ``sims``
    simulations a move. ValueError when the log's moves do not replay to its winners."""
    game = new_game(players=raw.get("players", 2), seed=raw["seed"], first_player=raw["first_player"])
    decisions = []
    logs = [raw.get("az_visits"), raw.get("opp_visits")]
    if isinstance(logs[0], dict):  # 3-4 players: each agent seat's label -> its decisions
        logs = list(logs[0].values())
    for in_log in logs:
        for ply, visits, value, extra in in_log or ():
            d = {"ply": ply, "visits": visits, "value": value}
            for name in ("prior", "untranslated"):
                if (extra or {}).get(name):
                    d[name] = extra[name]
            if "forced_playouts" in (extra or {}):  # a log that says whether this search forced playouts
                d["forced_playouts"] = bool(extra["forced_playouts"])
            decisions.append(d)
    decisions.sort(key=lambda d: d["ply"])
    for text in raw["actions"]:
        game.apply(parse_action(game, text))
    if not game.is_over or sorted(game.winners) != sorted(raw["winners"]):
        raise ValueError(f"game of seed {raw['seed']}: the moves do not replay to the log's winners")
    rec = game.record()
    rec["deals"] = game.dealt()
    rec["winners"] = list(game.winners)
    rec["scores"] = [p.points for p in game.player_list]
    rec["sims"] = sims
    rec["forced_playouts"] = True  # the agent's searches force playouts (and its own training prunes them)
    rec["decisions"] = decisions
    return rec


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m splendor netdata", description=__doc__.split("\n\n")[0])
    ap.add_argument("--harness", nargs="+", required=True, help="raw logs of the sparring harness (.jsonl)")
    ap.add_argument("--sims", type=int, required=True, help="the agent's simulations a move in those games")
    ap.add_argument("--out", required=True, help="the records to write (.jsonl.gz)")
    a = ap.parse_args(argv)
    done = refused = 0
    with gzip.open(a.out, "wt", encoding="utf-8") as out:
        for path in a.harness:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        continue
                    try:
                        rec = from_harness(json.loads(line), a.sims)
                    except (ValueError, KeyError) as e:
                        refused += 1
                        print(f"refused: {e}", file=sys.stderr)
                        continue
                    out.write(json.dumps(rec, separators=(",", ":")) + "\n")
                    done += 1
    print(f"{done} games written to {a.out}; {refused} refused")
    return 0 if done else 1
