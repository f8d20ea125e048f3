"""Self-play of the net-guided expert, many games in lockstep with their leaves evaluated in one batch:
``python -m splendor netplay``.

Every game searches its move with the expert's PUCT search (:mod:`splendor.ai.puct`, the same walk and values), but
instead of asking the network once per new position, each step walks one simulation down every game's tree, encodes
the positions reached, runs the network once over all of them (numpy, or torch when asked) and backs the values up
(KataGo's and Leela Chess Zero's self-play batch the same way). Each seat searches deals of what it may see
(``splendor.determinize`` of its observation, then the search's universes). The first ``--explore`` moves of a game
are drawn in proportion to the visits, the rest are the most visited. A game still going after round
``ROUND_LIMIT`` is cut there (no winners: :mod:`.netdata` gives its decisions a draw's result). Games are written as
the training data's records (:mod:`.netdata`): the game record with ``deals``, ``forced_playouts`` false (this
search forces none, so its visits are trained on as they are), and per decision the visits, the search's value (the
mean of every value backed up through the root, over its universes, for the mover: not the network's own value of
the root, which would train the network toward itself) and the network's prior, so ``python -m splendor netfit``
reads them as it reads the bootstrap games.

    python -m splendor netplay --net splendor/ai/expert_net.json --games 200 --sims 800 --out games.jsonl.gz
    python -m splendor netplay ... --workers 2            processes on this machine
    python -m splendor netplay ... --address auto         tasks on a Ray cluster (requirements-cluster.txt)

``--search gumbel`` (:mod:`.gumbel`) searches each root by Gumbel AlphaZero's sequential halving over ``--considered``
moves instead, plays the survivor and records an improved ``policy`` per decision, the fit's target in place of the
visits: a search that improves the policy at 16 to 64 simulations.

The runner prints games and positions (decisions recorded) per CPU-hour; ``--compare-selfplay`` plays the same
number of simulations with the older ``python -m splendor selfplay`` loop (one position at a time) side by side for
the ratio.
"""

import argparse
import gc
import gzip
import json
import math
import os
import random
import time
from functools import partial

from ..ai import encoding as enc
from ..ai import puct
from ..ai.netfile import read_net
from ..ai.netrun import moves_and_priors
from .netdata import game_record
from .netnumpy import NumpyRunner
from ..ai.search import resample
from ..engine.game import Game, determinize
from . import gumbel


#: The last round a self-play game plays: one still going after it is cut (a game usually ends near round 30).
ROUND_LIMIT = 80


def _judge(games, net):
    """For each game (action phases), from one batched forward pass: (the mover's value, a call that gives (the legal
    moves, their priors)), as ``NetEvaluator.evaluate_later`` gives for one."""
    out = net.forward_batch([enc.encode(g) for g in games]).tolist()
    return [(math.tanh(row[enc.ACTION_COUNT]), partial(moves_and_priors, g, row)) for g, row in zip(games, out)]


#: numpy's BLAS threads for one process of this runner: the batches are small (a few hundred numbers a row), extra
#: threads spin more than they help and take the core of a second worker (measured: 136 against 81 us of processor
#: time per position at batch 8, with the collector off as below).
BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def check_search(search, considered, c_scale):
    """Raise ValueError, in words, for a root search's settings that :func:`play` cannot use."""
    if search not in ("puct", "gumbel"):
        raise ValueError(f"search must be 'puct' or 'gumbel', not {search!r}")
    if isinstance(considered, bool) or not isinstance(considered, int) or considered < 1:
        raise ValueError(f"considered must be a whole number of at least 1, not {considered!r}")
    if isinstance(c_scale, bool) or not isinstance(c_scale, (int, float)) or not 0 <= c_scale <= 10:
        raise ValueError(f"c_scale must be a number from 0 to 10, not {c_scale!r}")


def play(net, seeds, sims=800, params=None, explore=10, rng_seed=1, progress=None, lazy=True,
         round_limit=ROUND_LIMIT, search="puct", considered=gumbel.CONSIDERED, c_scale=gumbel.C_SCALE):
    """Play one 2-player game per seed in lockstep; returns their records (with ``decisions``) and the count of
    positions evaluated. ``net``: a :class:`splendor.ai.netfile.Net`, or a runner with ``forward_batch(rows)`` (the
    tests' stand-ins). ``lazy``: the new positions' moves and priors are worked out when a walk first goes through
    them (:func:`splendor.ai.puct.make_leaf`; the same games as without, cheaper). ``round_limit``: games still going
    after that round are cut (recorded without winners). ``search``: "puct" (the expert's root, the move played the
    most visited, drawn by the visits in the first ``explore`` moves) or "gumbel" (:mod:`.gumbel`: ``considered``
    moves sampled at the root, sequential halving, the survivor played at every move, its Gumbel draw the
    exploration, and an improved ``policy`` recorded per decision for the fit; ``c_scale`` its sigma's scale).

    Python's cycle collector is off while the games play: the search trees are freed by reference counting (no
    cycles), and a collector walking millions of live nodes took a tenth to a quarter of the time (batch 8 to 32).
    """
    check_search(search, considered, c_scale)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _play(net, seeds, sims, params, explore, rng_seed, progress, lazy, round_limit, search, considered,
                     float(c_scale))
    finally:
        if collecting:
            gc.enable()


def search_value(roots):
    """The search's value of its roots (one per universe) for their mover: the mean of every value backed up through
    them (each root's ``W`` holds its mover's sums); the network's value of the first root before any walk when none
    was backed up."""
    n = sum(sum(r.N) for r in roots)
    if not n:
        return puct.mover_value(roots[0])
    return sum(sum(r.W) for r in roots) / n


def _play(net, seeds, sims, params, explore, rng_seed, progress, lazy, round_limit, search, considered, c_scale):
    params = params or puct.SearchParams()
    use_gumbel = search == "gumbel"
    batch = net if hasattr(net, "forward_batch") else NumpyRunner(net)
    rng = random.Random(rng_seed)
    games = [Game(players=2, seed=s, first_player=0) for s in seeds]
    decisions = [[] for _ in games]
    evaluations = 0
    while True:
        live = [k for k, g in enumerate(games) if not g.is_over and g.round <= round_limit]
        if not live:
            break
        # returns and nobles of the game's own turn: the quick rule the search plays them by
        for k in live:
            if games[k].phase != "action":
                puct.finish_turn(games[k])
        live = [k for k in live if games[k].phase == "action"]
        if not live:  # the quick rule ended the last games' turns and with them the games
            continue
        # set up each live game's search: its universes, the roots evaluated in one batch
        roots_games = []
        owners = []
        for k in live:
            g = games[k]
            base = determinize(g.observation(g.current_player), rng)
            for u in range(params.universes):
                roots_games.append(base if u == 0 else resample(base, g.current_player, rng))
                owners.append(k)
        searches = {k: [] for k in live}  # each live game's universes' roots
        for g, k, (value, later) in zip(roots_games, owners, _judge(roots_games, batch)):
            searches[k].append(puct.make_node(g, *later(), value))
        evaluations += len(roots_games)
        # Gumbel: the draw, the moves considered and their halving, per game (the universes share them)
        gumbels = None
        if use_gumbel:
            gumbels = {k: gumbel.RootSearch(searches[k], rng, sims, considered, c_scale=c_scale) for k in live}
        for step in range(sims):
            pending = []
            for k in live:
                roots = searches[k]
                if use_gumbel:  # the halving picks the root move, the walk below it is PUCT's
                    root, i = gumbels[k].next_walk()
                    path, g = puct.select_forced(root, i, params.c_puct, params.fpu)
                else:
                    root = roots[step % len(roots)]
                    path, g = puct.select(root, params.c_puct, params.fpu)
                if g is None:
                    puct.backup(path, (path[-1][0].kids[path[-1][1]] if path else root).v)
                elif g.phase_ == "over":
                    node, i = path[-1]
                    kid = node.kids[i] = puct.make_node(g)
                    puct.backup(path, kid.v)
                else:
                    pending.append((path, g))
            if pending:
                for (path, g), (value, later) in zip(pending, _judge([g for _, g in pending], batch)):
                    node, i = path[-1]
                    kid = node.kids[i] = puct.make_leaf(g, value, later) if lazy else puct.make_node(g, *later(), value)
                    puct.backup(path, kid.v)
                evaluations += len(pending)
        for k in live:
            g = games[k]
            roots = searches[k]
            first = roots[0]
            visits = [sum(r.N[i] for r in roots) for i in range(len(first.moves))]
            policy = None
            if use_gumbel:
                policy = gumbels[k].policy()
                value = gumbels[k].value(policy)  # the mover's
                pick = gumbels[k].survivor()
            else:
                value = search_value(roots)  # the mover's
                if g.turns < explore:
                    pick = rng.choices(range(len(visits)), weights=[v + 1e-9 for v in visits])[0]
                else:
                    pick = max(range(len(visits)), key=visits.__getitem__)
            prior = [sum(r.P[i] for r in roots) / len(roots) for i in range(len(first.moves))]
            decision = {"ply": len(g.history), "visits": {str(m): n for m, n in zip(first.moves, visits) if n},
                        "value": round(value, 4),
                        "prior": {str(m): round(p, 4) for m, p in zip(first.moves, prior) if p >= 1e-4}}
            if policy is not None:
                decision["policy"] = {str(m): round(p, 4) for m, p in zip(first.moves, policy) if p >= 1e-4}
            decisions[k].append(decision)
            g.apply(first.moves[pick])
        if progress:
            progress(sum(1 for g in games if g.is_over), len(games))
    fields = {"sims": sims, "search": search, **({"considered": considered, "c_scale": c_scale} if use_gumbel else {})}
    return [game_record(g, ds, **fields) for g, ds in zip(games, decisions)], evaluations


def _task(args):
    net_text, seeds, sims, params, explore, rng_seed, search, considered, c_scale = args
    t0 = time.process_time()
    records, evals = play(read_net(net_text), seeds, sims, puct.SearchParams(**params), explore, rng_seed,
                          search=search, considered=considered, c_scale=c_scale)
    return records, evals, time.process_time() - t0


_twin_compiled = []  # (this process has compiled the twin, or read it from numba's cache)


def _twin_task(args):
    """One batch of games on the compiled twin: (records, positions evaluated, processor seconds), the first batch
    of a process not timed while it compiles."""
    from .twin import selfplay as twin

    net_text, seeds, sims, rng_seed, considered, c_scale = args
    net = read_net(net_text)
    params = puct.SearchParams()
    if not _twin_compiled:
        twin.play(net, seeds[:1], sims=2, params=params)
        _twin_compiled.append(True)
    t0 = time.process_time()
    records, evals = twin.play(net, seeds, sims=sims, params=params, rng_seed=rng_seed, considered=considered,
                               c_scale=c_scale)
    return records, evals, time.process_time() - t0


def _finished(tasks, workers=1, address=None, task=None):
    """The results of ``task`` (netplay's own games unless given) over ``tasks``, each as soon as it is done (in any
    order with processes or Ray)."""
    task = task or _task
    if address:
        import ray

        ray.init(address=address, runtime_env={"env_vars": BLAS_THREADS})
        remote = ray.remote(task)
        waiting = [remote.remote(t) for t in tasks]
        while waiting:
            done, waiting = ray.wait(waiting)
            yield from ray.get(done)
    elif workers > 1:
        from multiprocessing import Pool

        with Pool(workers) as pool:
            yield from pool.imap_unordered(task, tasks)
    else:
        for t in tasks:
            yield task(t)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m splendor netplay", description=__doc__.split("\n\n")[0])
    ap.add_argument("--net", required=True, help="the network file that plays both seats")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--batch", type=int, default=None,
                    help="games in lockstep in one process (their leaves batched; default 32, with --twin 256)")
    ap.add_argument("--sims", type=int, default=800, help="simulations a move")
    ap.add_argument("--explore", type=int, default=10,
                    help="moves at the start drawn in proportion to the visits (puct; gumbel's draw explores)")
    ap.add_argument("--search", choices=("puct", "gumbel"), default="puct",
                    help="the root's search: the expert's PUCT, or Gumbel AlphaZero's sequential halving "
                         "(its improved policy recorded for the fit)")
    ap.add_argument("--considered", type=int, default=gumbel.CONSIDERED,
                    help="gumbel: moves sampled at the root (default %(default)s)")
    ap.add_argument("--c-scale", type=float, default=gumbel.C_SCALE,
                    help="gumbel: sigma's scale, (50 + the most visits) x this x q in [0, 1] (default %(default)s)")
    ap.add_argument("--seed", type=int, default=90001, help="the first game's deal (game g: seed + g)")
    ap.add_argument("--out", required=True, help="records (.jsonl or .jsonl.gz), appended to")
    ap.add_argument("--workers", type=int, default=1, help="processes on this machine")
    ap.add_argument("--address", help="a Ray cluster's address ('auto' for the one this machine belongs to)")
    ap.add_argument("--twin", action="store_true",
                    help="play on the compiled twin (splendor/training/twin: numba, requirements-twin.txt; "
                         "--search gumbel, --batch games in lockstep, 256 unless given, a batch a task)")
    ap.add_argument("--compare-python", type=int, default=0, metavar="N",
                    help="with --twin: then play N games of this Python loop at the same settings, and print both "
                         "figures of positions per CPU-hour")
    ap.add_argument("--compare-selfplay", type=int, default=0, metavar="N",
                    help="then play N games of 'python -m splendor selfplay' at the same simulations, one process, "
                         "and print both runners' games per CPU-hour")
    a = ap.parse_args(argv)
    try:
        check_search(a.search, a.considered, a.c_scale)
    except ValueError as e:  # (refused here, before any worker starts)
        ap.error(str(e))
    for k, v in BLAS_THREADS.items():  # before numpy is first imported (this process and the workers it starts)
        os.environ.setdefault(k, v)
    if a.twin:
        if a.search != "gumbel":
            ap.error("--twin plays Gumbel's root search: add --search gumbel")
        return _twin_main(a)
    a.batch = a.batch or 32
    with open(a.net, encoding="utf-8") as f:
        net_text = f.read()
    read_net(net_text)  # refused here, in words, before any game
    params = puct.SearchParams().to_dict()
    seeds = [a.seed + g for g in range(a.games)]
    tasks = [(net_text, seeds[i:i + a.batch], a.sims, params, a.explore, a.seed + i, a.search, a.considered,
              a.c_scale) for i in range(0, len(seeds), a.batch)]
    started = time.time()
    n = 0
    positions = 0
    cpu = 0.0
    evals = 0
    for records, e, c in _finished(tasks, a.workers, a.address):
        cpu += c
        evals += e
        n += len(records)
        positions += _append(a.out, records)
    wall = time.time() - started
    hours = cpu / 3600
    print(f"{n} games ({a.search}) at {a.sims} simulations a move in {wall:.0f} s ({cpu:.0f} s of processor time): "
          f"{n / hours if cpu else 0:.0f} games and {positions / hours if cpu else 0:.0f} positions (decisions "
          f"recorded) per CPU-hour, {1e6 * cpu / max(1, evals):.0f} us of processor time per evaluated position; "
          f"written to {a.out}")
    if a.compare_selfplay:
        from . import selfplay
        from ..ai.policy import DEFAULT_SEARCH

        t0 = time.process_time()
        for k in range(a.compare_selfplay):
            selfplay.play_one((k, a.seed, None, a.sims, a.explore, DEFAULT_SEARCH))
        old = time.process_time() - t0
        rate_new = n / (cpu / 3600) if cpu else 0.0
        rate_old = a.compare_selfplay / (old / 3600)
        games = f"{a.compare_selfplay} game{'s' if a.compare_selfplay != 1 else ''}"
        print(f"python -m splendor selfplay at {a.sims} iterations a move: {games} in {old:.0f} s "
              f"of processor time, {rate_old:.1f} games per CPU-hour; netplay {rate_new:.0f}: "
              f"{rate_new / rate_old:.1f} times as many")
    return 0


def _append(path, records):
    """Append a finished batch's records to ``path`` and close it (a .gz gets a whole member of its own), so a run
    stopped midway keeps every batch finished before it, readable; the positions (decisions recorded) written."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "at", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
    return sum(len(rec["decisions"]) for rec in records)


def _rate(positions, cpu):
    return positions / (cpu / 3600) if cpu else 0.0


def _twin_main(a):
    """``netplay --twin``: the games on the compiled twin (:mod:`.twin.selfplay`), then, with ``--compare-python N``,
    N games of this module's loop at the same network and search settings, each figure on its own line."""
    from .twin.rules import COMPILED

    with open(a.net, encoding="utf-8") as f:
        net_text = f.read()
    net = read_net(net_text)
    if a.compare_python and net.players != 2:
        print(f"netplay: --compare-python plays this module's loop, which plays two seats; {a.net} is a "
              f"{net.players}-player network (the twin plays it without the comparison)")
        return 2
    batch = a.batch or 256
    seeds = [a.seed + g for g in range(a.games)]
    tasks = [(net_text, seeds[i:i + batch], a.sims, a.seed + i, a.considered, a.c_scale)
             for i in range(0, len(seeds), batch)]
    positions = 0
    cpu = 0.0
    for records, _, c in _finished(tasks, a.workers, a.address, _twin_task):
        cpu += c
        positions += _append(a.out, records)
    how = "compiled" if COMPILED else "plain Python: numba is not installed"
    print(f"twin ({how}): {len(seeds)} games, {positions} positions at {a.sims} simulations in {cpu:.1f} s of "
          f"processor time: {_rate(positions, cpu):,.0f} positions per CPU-hour; written to {a.out}")
    if a.compare_python:
        t0 = time.process_time()
        records, _ = play(net, seeds[:a.compare_python], a.sims, puct.SearchParams(), rng_seed=a.seed, search="gumbel",
                          considered=a.considered, c_scale=a.c_scale)
        old = time.process_time() - t0
        old_positions = sum(len(r["decisions"]) for r in records)
        print(f"python: {len(records)} games, {old_positions} positions at {a.sims} simulations in {old:.1f} s of "
              f"processor time: {_rate(old_positions, old):,.0f} positions per CPU-hour")
        print(f"twin / python: {_rate(positions, cpu) / _rate(old_positions, old):.1f} times the positions per "
              f"CPU-hour")
    return 0
