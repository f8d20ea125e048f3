"""Train the expert bot's value model: ``python -m splendor train --out PATH --seed N [--games N] [--jobs N]``.

1. Plays ``--games`` 2-player games between ``--bots`` (default medium against medium; ``expert`` or ``hard`` with
   ``--budget-iterations`` for games of the search bots: the expert plays with ``--model``, default the shipped
   weights - one step of expert iteration). Deal k of seed N is ``arena.game_seed("train-N", k)``: never one of the
   arena's deals. Every action-phase position is recorded with both seats' features (:mod:`splendor.ai.learned`)
   and the game's result for seat 0 (1 a win, 0 a loss, a share of a shared victory).
2. Games with k % ``--holdout`` == 0 are held out; the rest are fitted by logistic regression of the result on the
   difference between the seats' features, the same differences times the stage, whether seat 0 is to move and
   whether it started the game (the last one is left out of the model: every move the search compares shares it),
   with an L2 penalty. Newton's method, the Hessian taken from a sample of the positions (pure Python, standard
   library: no numpy needed).
3. Prints the log loss on the held-out positions: the fitted model's, the hard bot's hand-set leaf's and a constant
   guess's; writes the model (JSON, a few kilobytes) with the settings and the figures in its ``meta``.

Progress and the time left are printed as games finish. Only this command (and ``--jobs``) uses processes; the model
it writes is read by ``splendor.ai.learned`` in pure Python.
"""

import argparse
import math
import operator
import os
import random
import sys
import time

from .heuristic import Weights, seat_values
from .learned import FEATURES, READ_WEIGHTS, ValueModel, game_features, load_model

L2 = 1e-3
HESSIAN_SAMPLE = 30_000


# -- the games ------------------------------------------------------------------------------------------------------
def _bot(name, model_path):
    from . import get_bot
    if name == "expert":
        from .expert import ExpertBot
        return ExpertBot(model=load_model(model_path) if model_path else None)
    return get_bot(name)


def one_game(task):
    """(k, [(stage, features seat 0, features seat 1, seat 0 to move, seat 0 started, hand-set leaf logit)],
    result for seat 0), or (k, [], None) when the game did not finish."""
    from . import arena
    from .budget import Budget
    k, seed, names, iterations, model_path = task
    w = Weights(**READ_WEIGHTS)
    rows = []

    def watch(game, seat, action):
        if game.phase_ == "action":
            stage, (f0, f1) = game_features(game, w)
            v = seat_values(game, w)
            rows.append((stage, f0, f1, 1.0 if game.current == 0 else -1.0, 1.0 if game.start == 0 else -1.0,
                         (v[0] - v[1]) / 3.0))

    order = names if k % 2 == 0 else names[::-1]
    bots = [_bot(n, model_path) for n in order]
    budgets = [Budget(iterations=iterations)] * 2 if iterations else None
    result = arena.play_game(bots, arena.game_seed(f"train-{seed}", k), budgets, watch=watch)
    if result["status"] != "ok":
        return k, [], None
    win = result["winners"]
    return k, rows, (1.0 / len(win) if 0 in win else 0.0)


def play(games, seed, names, iterations=None, model_path=None, jobs=1, out=print):
    """[(k, rows, result)] in game order, printing progress with the time left."""
    tasks = [(k, seed, names, iterations, model_path) for k in range(games)]
    t0 = time.perf_counter()
    done = []
    step = max(1, games // 20)

    def note(r):
        done.append(r)
        n = len(done)
        if n % step == 0 or n == games:
            el = time.perf_counter() - t0
            out(f"  games {n}/{games}, {sum(len(x[1]) for x in done)} positions, {el:.0f} s, "
                f"about {el / n * (games - n):.0f} s left", flush=True)

    if jobs > 1 and games > 1:
        import multiprocessing  # the command line only: the bots never use processes
        with multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(jobs) as pool:
            for r in pool.imap_unordered(one_game, tasks, chunksize=4):
                note(r)
    else:
        for t in tasks:
            note(one_game(t))
    done.sort(key=lambda r: r[0])
    return done


# -- the fit --------------------------------------------------------------------------------------------------------
def design(rows, y):
    """Regression rows (x, y): x = feature differences, the same times the stage, to move, started."""
    out = []
    for stage, f0, f1, mv, st, _ in rows:
        d = [a - b for a, b in zip(f0, f1)]
        out.append((d + [x * stage for x in d] + [mv, st], y))
    return out


def _sigmoid(z):
    if z < -30:
        return 0.0
    if z > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))


def log_loss(data, w):
    mul = operator.mul
    total = 0.0
    for x, y in data:
        p = min(1 - 1e-9, max(1e-9, _sigmoid(sum(map(mul, w, x)))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(data)


def solve(a, b):
    """x with a x = b (Gaussian elimination, partial pivoting; a is small and positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (m[c][n] - sum(m[c][j] * x[j] for j in range(c + 1, n))) / m[c][c]
    return x


def fit(data, l2=L2, steps=25, sample=HESSIAN_SAMPLE, seed=0, out=print):
    """Logistic regression: the w minimizing the mean log loss + l2/2 |w|^2 (Newton steps, the Hessian taken from up
    to ``sample`` positions drawn with ``seed``, halved when a step does not lower the objective)."""
    n = len(data[0][0])
    N = len(data)
    mul = operator.mul
    hs = data if N <= sample else random.Random(seed).sample(data, sample)
    w = [0.0] * n

    def objective(w):
        return log_loss(data, w) + 0.5 * l2 * sum(x * x for x in w)

    obj = objective(w)
    for step in range(steps):
        g = [0.0] * n
        for x, y in data:
            r = _sigmoid(sum(map(mul, w, x))) - y
            if r:
                for i in range(n):
                    g[i] += r * x[i]
        g = [gi / N + l2 * wi for gi, wi in zip(g, w)]
        h = [[0.0] * n for _ in range(n)]
        for x, _ in hs:
            p = _sigmoid(sum(map(mul, w, x)))
            q = p * (1.0 - p)
            for i in range(n):
                qx = q * x[i]
                if qx:
                    hi = h[i]
                    for j in range(i, n):
                        hi[j] += qx * x[j]
        for i in range(n):
            for j in range(i):
                h[i][j] = h[j][i]
        h = [[v / len(hs) + (l2 if i == j else 0.0) for j, v in enumerate(row)] for i, row in enumerate(h)]
        d = solve(h, g)
        t = 1.0
        while True:
            w2 = [wi - t * di for wi, di in zip(w, d)]
            obj2 = objective(w2)
            if obj2 <= obj or t < 1e-3:
                break
            t /= 2
        gain = obj - obj2
        w, obj = w2, obj2
        out(f"  fit step {step + 1}: objective {obj:.5f}", flush=True)
        if gain < 1e-7:
            break
    return w


def model_from(w, meta):
    k = len(FEATURES)
    return ValueModel(w[:k], w[k:2 * k], w[2 * k], meta)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m splendor train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="where to write the model (JSON)")
    parser.add_argument("--seed", type=int, required=True, help="the training deals' seed")
    parser.add_argument("--games", type=int, default=3000, help="games to play (default 3000)")
    parser.add_argument("--bots", default="medium,medium", help="the two levels that play the games "
                        "(medium, hard, expert; default medium,medium)")
    parser.add_argument("--budget-iterations", type=int, default=None,
                        help="search iterations a move for hard and expert (default: 50)")
    parser.add_argument("--model", default=None, help="the expert's model for its games (default: shipped)")
    parser.add_argument("--holdout", type=int, default=5, help="every n-th game is held out (default 5)")
    parser.add_argument("--l2", type=float, default=L2, help=f"L2 penalty (default {L2:g})")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in separate processes")
    args = parser.parse_args(argv)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(names) != 2 or any(n not in ("random", "easy", "medium", "hard", "expert") for n in names):
        parser.error("--bots takes two levels among random, easy, medium, hard, expert")
    if args.games < 2 or args.holdout < 2 or args.jobs < 1:
        parser.error("--games and --holdout must be at least 2, --jobs at least 1")
    iterations = args.budget_iterations
    if iterations is None and any(n in ("hard", "expert") for n in names):
        iterations = 50
    if iterations is not None and iterations < 1:
        parser.error("--budget-iterations must be at least 1")
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder):
        parser.error(f"--out: the folder {folder} does not exist")  # now, not after the games
    if args.model:
        try:
            load_model(args.model)  # a bad file fails now, not in the middle of the games
        except (OSError, ValueError) as exc:
            parser.error(f"--model: {exc}")
    t0 = time.perf_counter()
    print(f"playing {args.games} games of {' against '.join(names)} (seed {args.seed}"
          f"{f', {iterations} iterations a move' if iterations else ''}, {args.jobs} job(s))", flush=True)
    games = play(args.games, args.seed, names, iterations, args.model, args.jobs)
    train, test, test_hand = [], [], []
    unfinished = 0
    for k, rows, y in games:
        if y is None:
            unfinished += 1
            continue
        if k % args.holdout:
            train += design(rows, y)
        else:
            test += design(rows, y)
            test_hand += [(r[5], y) for r in rows]
    if not train or not test:
        print("too few finished games to fit and to judge the model: play more (--games)", file=sys.stderr)
        return 1
    print(f"{len(train)} positions to fit, {len(test)} held out (games k % {args.holdout} == 0); "
          f"{unfinished} unfinished games left out [{time.perf_counter() - t0:.0f} s]", flush=True)
    w = fit(train, l2=args.l2, seed=args.seed)
    held = log_loss(test, w)
    hand = sum(-(y * math.log(max(1e-9, _sigmoid(z))) + (1 - y) * math.log(max(1e-9, 1 - _sigmoid(z))))
               for z, y in test_hand) / len(test_hand)
    mean = sum(y for _, y in train) / len(train)
    mean = min(1 - 1e-9, max(1e-9, mean))
    const = sum(-(y * math.log(mean) + (1 - y) * math.log(1 - mean)) for _, y in test) / len(test)
    train_loss = log_loss(train, w)
    print(f"log loss: held-out {held:.4f} (fitted positions {train_loss:.4f}); on the held-out positions the "
          f"hard bot's hand-set leaf scores {hand:.4f}, a constant guess {const:.4f} "
          f"[{time.perf_counter() - t0:.0f} s]", flush=True)
    meta = {"command": "python -m splendor train " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seed": args.seed, "games": args.games, "bots": names, "budget_iterations": iterations,
            "model": args.model, "holdout": args.holdout, "l2": args.l2, "positions_fitted": len(train),
            "positions_held_out": len(test), "held_out_log_loss": round(held, 5),
            "fitted_log_loss": round(train_loss, 5), "hand_leaf_held_out_log_loss": round(hand, 5),
            "constant_held_out_log_loss": round(const, 5), "started": round(w[-1], 6)}
    model = model_from(w, meta)
    model.save(args.out)
    print("coefficients (base, per stage):")
    for name, b, s in zip(FEATURES, model.base, model.per_stage):
        print(f"  {name:<14} {b:+.4f} {s:+.4f}")
    print(f"  to move {model.to_move:+.4f}, started the game {w[-1]:+.4f} (not used by the search)")
    print(f"wrote {args.out} [{time.perf_counter() - t0:.0f} s]")
    return 0
