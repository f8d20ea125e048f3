"""Expert iteration for the expert bot: ``python -m splendor selfplay --out DIR [--generations G] [--games N] ...``.

Each generation:

1. plays ``--games`` 2-player games of the expert against itself, both seats searching ``--iterations`` iterations a
   move with the previous generation's model (its value at the leaves, its policy choosing and steering the root's
   moves); the first ``--explore`` action-phase moves of each game are drawn in proportion to the root's visit counts
   (so the games differ and visit the positions the search's other moves lead to), the rest are the search's choice.
   Every action-phase position is recorded with both seats' vectors (:mod:`splendor.ai.valuenet`) and the game's
   result; every search with its root moves' features (:mod:`splendor.ai.policy`) and their visit counts.
2. fits the value net (``--hidden`` units, :func:`splendor.training.train.fit_net`) to the results of this
   generation's games and the ``--window`` - 1 before it, and the policy (softmax regression, :func:`fit_policy`) to
   the visit counts; games with k % ``--holdout`` == 0 are held out;
3. writes ``DIR/gen-NNN.json``: the value net and the policy together (the format ``splendor.ai.learned`` reads), with
   the command line, the seed and the held-out figures (the value's log loss against the previous model's on the
   same positions; the policy's cross-entropy and how often its favourite is the search's) in its ``meta``; and
   ``DIR/games-NNN.json`` with the generation's records, from which a resumed run refits.

A run resumes from the last generation in ``DIR``. Games are played in ``--workers`` local processes
(``concurrent.futures``), or, with ``--address`` (``auto`` or a ``ray://`` address), as tasks of a Ray cluster.
numpy and Ray are training-only installs (requirements-train.txt): the engine, the page and the worker never import
this package.
"""

import argparse
import glob
import json
import math
import os
import sys
import time

from ..ai.budget import Budget
from ..ai.learned import BUNDLE, load_model, read_model, read_policy
from ..ai.policy import ACTION_FEATURES, DEFAULT_SEARCH, PolicyModel
from .common import position_recorder, progress, run_games

POLICY_L2 = 1e-3


# -- the games ------------------------------------------------------------------------------------------------------
_MODELS = {}


def _model(path):
    """(value model, policy) of the generation file ``path`` (None: the linear model of expert_model.json, no
    policy); kept per process."""
    if path not in _MODELS:
        if path is None:
            _MODELS[path] = (load_model(), None)
        else:
            _MODELS[path] = (read_model(path), read_policy(path))
    return _MODELS[path]


class _Explorer:
    """The expert of a training game: its first ``explore`` action-phase moves are drawn from the root's visits."""

    level = "expert"

    def __init__(self, bot, explore):
        self.bot, self.explore, self.moves = bot, explore, 0
        self.value = None  # the last decision's search value for the mover (None: no search was made)

    def choose(self, observation, rng, budget=None):
        before = len(self.bot.record)
        action, info = self.bot.decide(observation, rng, budget)
        self.value = info.get("win_chance")
        if len(self.bot.record) > before:  # a search was made (not a forced move)
            self.moves += 1
            feats, visits, cands = self.bot.record[-1]
            if self.moves <= self.explore and sum(visits):
                x = rng.random() * sum(visits)
                for n, a in zip(visits, cands):
                    x -= n
                    if x < 0:
                        return a
        return action


def play_one(task):
    """One self-play game: (k, value rows, policy records, result for seat 0 or None when it did not finish). A value
    row is :func:`common.position_recorder`'s with, last, seat 0's chance by the search of the move made there (None
    where the move was forced). ``task``: (k, seed, model file, iterations, explore, search settings)."""
    from ..ai.expert import ExpertBot
    from . import arena
    k, seed, model_path, iterations, explore, search = task
    value, policy = _model(model_path)
    rows = []
    record_row = position_recorder(rows)
    records = [[], []]
    bots = [_Explorer(ExpertBot(model=value, policy=policy, record=records[s], tree_horizon=search["horizon"],
                                tree_prior=search["below_root"]), explore) for s in range(2)]

    def watch(game, seat, action):
        before = len(rows)
        record_row(game, seat, action)
        if len(rows) > before:
            v = bots[seat].value
            rows[-1] = rows[-1] + (None if v is None else (v if seat == 0 else 1.0 - v),)

    result = arena.play_game(bots, arena.game_seed(f"selfplay-{seed}", k), [Budget(iterations=iterations)] * 2,
                             watch=watch)
    recs = [(f, v) for r in records for f, v, _ in r]
    if result["status"] != "ok":
        return k, [], recs, None
    win = result["winners"]
    return k, rows, recs, (1.0 / len(win) if 0 in win else 0.0)


def match_one(task):
    """One game of generation ``new`` against ``old`` (model files; None: the linear model), the new one at seat k %
    2: (k, [], [], the new one's share of the result, or None when the game did not finish)."""
    from ..ai.expert import ExpertBot
    from . import arena
    k, seed, new, old, iterations = task
    bots = [ExpertBot(model=m, policy=p) for m, p in (_model(new), _model(old))]
    if k % 2:
        bots.reverse()
    result = arena.play_game(bots, arena.game_seed(f"selfplay-match-{seed}", k), [Budget(iterations=iterations)] * 2)
    if result["status"] != "ok":
        return k, [], [], None
    win = result["winners"]
    return k, [], [], (1.0 / len(win) if k % 2 in win else 0.0)


def run_tasks(tasks, workers=1, address=None, out=print, one=play_one):
    """``one`` (:func:`play_one`) of every task, in ``workers`` local processes (:func:`common.run_games`) or as tasks
    of the Ray cluster at ``address``, printing progress with the time left; the results in k's order."""
    if not address:
        return run_games(one, tasks, workers, out, chunksize=1)
    import ray  # training-only: requirements-cluster.txt
    ray.init(address=address, ignore_reinit_error=True)
    remote = ray.remote(one)
    note, done = progress(len(tasks), out)
    pending = [remote.remote(t) for t in tasks]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        note(ray.get(ready[0]))
    done.sort(key=lambda r: r[0])
    return done


# -- the policy's fit -----------------------------------------------------------------------------------------------
def policy_arrays(games, holdout):
    """(fit, held out): each a list of (features matrix, visit shares) of the searches of games k % holdout != 0 / 0."""
    import numpy as np
    parts = ([], [])
    for k, _, recs, _ in games:
        for feats, visits in recs:
            total = sum(visits)
            if total and len(feats) > 1:
                parts[k % holdout == 0].append((np.asarray(feats, dtype=np.float64),
                                                np.asarray(visits, dtype=np.float64) / total))
    return parts


def policy_loss(w, data):
    """(mean cross-entropy of the visit shares under the policy ``w``, share of searches whose most visited move is
    the policy's favourite)."""
    import numpy as np
    if not data:
        return float("nan"), float("nan")
    ce = top = 0.0
    for x, t in data:
        z = x @ w
        z = z - z.max()
        logp = z - math.log(float(np.exp(z).sum()))
        ce -= float(t @ logp)
        top += 1.0 if int(np.argmax(z)) == int(np.argmax(t)) else 0.0
    return ce / len(data), top / len(data)


def fit_policy(train, start=None, steps=400, lr=0.05, l2=POLICY_L2, seed=0):
    """Weights of a linear softmax policy fitted to ``train`` ([(features, visit shares)]) by Adam on the mean
    cross-entropy + l2/2 |w|^2, from ``start`` (default: the scorer's opinion alone)."""
    import numpy as np
    f = len(ACTION_FEATURES)
    w = np.zeros(f) if start is None else np.asarray(start, dtype=np.float64)
    if start is None:
        w[0] = 1.0
    # one padded batch: moves of a search in a row, missing moves masked out
    m = max(len(x) for x, _ in train)
    X = np.zeros((len(train), m, f))
    T = np.zeros((len(train), m))
    mask = np.full((len(train), m), -1e9)
    for i, (x, t) in enumerate(train):
        X[i, :len(x)] = x
        T[i, :len(t)] = t
        mask[i, :len(x)] = 0.0
    mom = np.zeros(f)
    vel = np.zeros(f)
    for step in range(1, steps + 1):
        z = X @ w + mask
        z -= z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        g = np.einsum("nm,nmf->f", p - T, X) / len(train) + l2 * w
        mom = 0.9 * mom + 0.1 * g
        vel = 0.999 * vel + 0.001 * g * g
        w -= lr * (mom / (1 - 0.9 ** step)) / (np.sqrt(vel / (1 - 0.999 ** step)) + 1e-8)
    return [float(x) for x in w]


# -- the generations ------------------------------------------------------------------------------------------------
def generation_files(out_dir):
    """{generation number: path} of the generation files in ``out_dir``."""
    found = {}
    for p in glob.glob(os.path.join(out_dir, "gen-*.json")):
        name = os.path.basename(p)[4:-5]
        if name.isdigit():
            found[int(name)] = p
    return found


def _save_games(path, games):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"format": "splendor-selfplay-games", "version": 1,
                   "games": [[k, [list(r) for r in rows], recs, y] for k, rows, recs, y in games]}, f,
                  separators=(",", ":"))


def _load_games(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if data.get("format") != "splendor-selfplay-games":
        raise ValueError(f"{path}: not a self-play games file")
    return [(k, [tuple(r) for r in rows], [(x, v) for x, v in recs], y) for k, rows, recs, y in data["games"]]


def value_loss(model, games, holdout):
    """Mean log loss of ``model``'s chance for seat 0 on the held-out positions of ``games`` (rows as
    :func:`play_one`'s), judged as the search judges them."""
    from ..ai.valuenet import ValueNet
    total = n = 0
    for k, rows, _, y in games:
        if y is None or k % holdout:
            continue
        for stage, v0, v1, mv, st, hand, table in (r[:7] for r in rows):
            if isinstance(model, ValueNet):
                z = model.logits_of(table, [v0, v1], 0 if mv > 0 else 1, 0)[0]
            else:
                feats = [v0[:13], v1[:13]]
                st_ = model.standings_of(stage, feats)
                tm = model.to_move if mv > 0 else -model.to_move
                z = st_[0] - st_[1] + tm
            p = min(max(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))), 1e-6), 1 - 1e-6)
            total -= y * math.log(p) + (1 - y) * math.log(1 - p)
            n += 1
    return total / n if n else float("nan")


def main(argv=None, out=print):
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="python -m splendor selfplay", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the folder of the generations (made if missing; resumed)")
    parser.add_argument("--generations", type=int, default=1, help="generations to reach (default 1)")
    parser.add_argument("--games", type=int, default=200, help="self-play games a generation (default 200)")
    parser.add_argument("--iterations", type=int, default=100, help="search iterations a move (default 100)")
    parser.add_argument("--explore", type=int, default=8, help="moves of each game drawn from the visits (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=16, help="the value net's hidden units (default 16)")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--window", type=int, default=2, help="generations of games fitted (default 2)")
    parser.add_argument("--holdout", type=int, default=10, help="every n-th game is held out (default 10)")
    parser.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
    parser.add_argument("--address", default=None, help="a Ray cluster's address ('auto', 'ray://host:port')")
    parser.add_argument("--match", type=int, default=20,
                        help="games of each new generation against the one before, seats alternating (default 20)")
    parser.add_argument("--horizon", type=int, default=DEFAULT_SEARCH["horizon"],
                        help="turns a new leaf of the search is played on before the value judges it (default "
                             f"{DEFAULT_SEARCH['horizon']})")
    parser.add_argument("--prior-below-root", action="store_true",
                        help="the policy's priors steer the search below the root too (default: the root only)")
    parser.add_argument("--value-mix", type=float, default=0.0,
                        help="the share of the search's value in the value net's targets, the game's result the "
                             "rest (default 0: the results alone)")
    parser.add_argument("--start", default=None,
                        help="generation 0's model file (default: the linear model, expert_model.json)")
    args = parser.parse_args(argv)
    if not 0.0 <= args.value_mix <= 1.0:
        parser.error(f"--value-mix {args.value_mix} must be between 0 and 1")
    if args.horizon < 0:
        parser.error(f"--horizon {args.horizon} must be 0 or more")
    search = {"horizon": args.horizon, "below_root": args.prior_below_root}
    if args.games < args.holdout:
        parser.error(f"--games {args.games} leaves no game to hold out (every {args.holdout}th is held out)")
    try:
        import numpy  # noqa: F401
    except ImportError:
        parser.error("the fit needs numpy: pip install -r requirements-train.txt")
    os.makedirs(args.out, exist_ok=True)
    have = generation_files(args.out)
    last = max(have) if have else 0
    prev_path = have.get(last, args.start)
    t_run = time.perf_counter()
    todo = args.generations - last
    if todo <= 0:
        out(f"{args.out} already holds generation {last}: nothing to do")
        return 0
    out(f"selfplay: generations {last + 1}-{args.generations}, {args.games} games each at {args.iterations} "
        f"iterations, {'Ray at ' + args.address if args.address else f'{args.workers} local process(es)'}", flush=True)
    for gen in range(last + 1, args.generations + 1):
        t0 = time.perf_counter()
        out(f"generation {gen}: games with {prev_path or 'the linear model'}", flush=True)
        tasks = [(k, f"{args.seed}/{gen}", prev_path, args.iterations, args.explore, search)
                 for k in range(args.games)]
        games = run_tasks(tasks, args.workers, args.address, out)
        _save_games(os.path.join(args.out, f"games-{gen:03d}.json"), games)
        window = list(games)
        for g in range(max(1, gen - args.window + 1), gen):
            path = os.path.join(args.out, f"games-{g:03d}.json")
            if os.path.exists(path):
                window += [(k + 100_000 * (gen - g), rows, recs, y) for k, rows, recs, y in _load_games(path)]
        finished = [g for g in window if g[3] is not None]
        from .train import fit_net, net_arrays
        from ..ai.valuenet import ValueNet
        train_a, test_a = net_arrays([(k, rows, y) for k, rows, _, y in finished], args.holdout, args.value_mix)
        arrays, held, epoch = fit_net(train_a, test_a, hidden=args.hidden, epochs=args.epochs, seed=args.seed + gen,
                                      out=lambda *a, **k: None)
        net = ValueNet(arrays["first"].tolist(), arrays["second"].tolist(), arrays["table"].tolist(),
                       arrays["to_move"].tolist(), arrays["bias"].tolist(), arrays["out"].tolist())
        prev_value, prev_policy = _model(prev_path)
        prev_two = getattr(prev_value, "two", prev_value)
        others = getattr(prev_value, "others", prev_value)  # larger tables keep the model they had
        prev_loss = value_loss(prev_two, finished, args.holdout)
        p_fit, p_held = policy_arrays(window, args.holdout)
        w = fit_policy(p_fit, prev_policy.weights if prev_policy else None, seed=args.seed + gen)
        ce, top = policy_loss(w, p_held)
        import numpy as np
        ce0, top0 = policy_loss(np.asarray(prev_policy.weights if prev_policy else
                                           [1.0] + [0.0] * (len(ACTION_FEATURES) - 1)), p_held)
        wins = sum(y for _, _, _, y in games if y is not None)
        n_ok = sum(1 for g in games if g[3] is not None)
        meta = {
            "command": "python -m splendor selfplay " + " ".join(argv), "seed": args.seed, "generation": gen,
            "games": args.games, "finished": n_ok, "iterations": args.iterations, "explore": args.explore,
            "search": search, "value_mix": args.value_mix,
            "positions": len(train_a[0]) + len(test_a[0]), "searches": len(p_fit) + len(p_held),
            "held_out": {"value_log_loss": round(held, 4), "previous_value_log_loss": round(prev_loss, 4),
                         "policy_cross_entropy": round(ce, 4), "previous_policy_cross_entropy": round(ce0, 4),
                         "policy_top1": round(top, 4), "previous_policy_top1": round(top0, 4)},
            "seat0_share": round(wins / n_ok, 4) if n_ok else None, "best_epoch": epoch,
            "seconds": round(time.perf_counter() - t0, 1),
            "previous": os.path.basename(prev_path) if prev_path else None,
        }
        value_dict = net.to_dict()
        if prev_loss < held:  # the new net judges the held-out games worse: the previous value is kept
            value_dict = prev_two.to_dict()
            meta["value_kept_from"] = meta["previous"] or "the linear model"
        bundle = {"format": BUNDLE, "version": 1, "value": value_dict, "others": others.to_dict(),
                  "policy": PolicyModel(w, {}, search=search).to_dict(), "meta": meta}
        path = os.path.join(args.out, f"gen-{gen:03d}.json")
        with open(path + ".part", "w", encoding="utf-8") as f:
            json.dump(bundle, f, separators=(",", ":"), sort_keys=True)
            f.write("\n")
        os.replace(path + ".part", path)
        if args.match:
            out(f"generation {gen} against {os.path.basename(prev_path) if prev_path else 'the linear model'}:",
                flush=True)
            res = run_tasks([(k, f"{args.seed}/{gen}", path, prev_path, args.iterations) for k in range(args.match)],
                            args.workers, args.address, out, one=match_one)
            done = [y for _, _, _, y in res if y is not None]
            share = sum(done) / len(done) if done else float("nan")
            meta["match"] = {"games": len(done), "share": round(share, 4), "iterations": args.iterations}
            out(f"  the new generation's share: {share:.3f} of {len(done)} games", flush=True)
            with open(path + ".part", "w", encoding="utf-8") as f:
                json.dump(bundle, f, separators=(",", ":"), sort_keys=True)
                f.write("\n")
            os.replace(path + ".part", path)
        h = meta["held_out"]
        left = (time.perf_counter() - t_run) / (gen - last) * (args.generations - gen)
        out(f"generation {gen}: {path}; held out: value log loss {h['value_log_loss']} (previous model "
            f"{h['previous_value_log_loss']}), policy cross-entropy {h['policy_cross_entropy']} (previous "
            f"{h['previous_policy_cross_entropy']}), top-1 {h['policy_top1']} (previous {h['previous_policy_top1']}); "
            f"{meta['seconds']} s; about {left:.0f} s left", flush=True)
        prev_path = path
    return 0


if __name__ == "__main__":
    sys.exit(main())
