"""Fit the hard bot's leaf model (``search.FITTED_LEAF``) to the results of medium self-play games.

    .venv/bin/python tools/fit_leaf.py [--games 4000] [--seed 1000] [--jobs 2]

Plays ``--games`` medium-against-medium games (deal k: ``arena.game_seed(seed + k // 1000, k)``: other deals than
those of the arena's seeds 1 and 2), records every action-phase position, and fits a logistic regression of the
result for seat 0 (1 win, 0 loss, a share for a shared victory) on:

- the difference between the two seats' parts of value (``heuristic.seat_parts``, read with ``HARD_WEIGHTS``), and
  the same differences times the stage (the leader's points over 15): a part's coefficient is base + per_stage x
  stage;
- whether seat 0 is to move (+1 or -1) and whether it started the game (+1 or -1). These two are common to every
  move the search compares, so the bot leaves them out.

The games with k % 5 != 0 are fitted (Newton's method, L2 penalty 5e-4 on every coefficient); the others are held
out and the log loss on them is printed for the fitted model and for the hand-set leaf (the seats' values over a
logistic scale of 3). Prints the coefficients as ``FITTED_LEAF``'s argument. Standard library only: 4,000 games
(180,000 fitted positions) take about 2 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from splendor.ai import get_bot  # noqa: E402
from splendor.training import arena  # noqa: E402
from splendor.ai.heuristic import PARTS, Weights, seat_parts, stage_of  # noqa: E402
from splendor.ai.search import HARD_WEIGHTS  # noqa: E402
from splendor.training.common import solve  # noqa: E402  (Newton's step: the expert's training shares it)

L2 = 5e-4


def features(game, weights):
    """The regression's inputs for seat 0 in a 2-player game, before its action."""
    stage = stage_of(game)
    market = [c for row in game._market for c in row if c is not None]
    a, b = (seat_parts(weights, p, market, game._nobles, stage, game._supply) for p in game._players)
    diff = [x - y for x, y in zip(a, b)]
    return diff + [d * stage for d in diff] + [1.0 if game.current == 0 else -1.0, 1.0 if game.start == 0 else -1.0]


def one_game(task):
    """[(features, result for seat 0)] of every action-phase position of game k."""
    k, seed = task
    weights = Weights(**HARD_WEIGHTS)
    rows = []

    def watch(game, seat, action):
        if game.phase_ == "action":
            rows.append(features(game, weights))

    result = arena.play_game([get_bot("medium"), get_bot("medium")], arena.game_seed(seed + k // 1000, k),
                             watch=watch)
    if result["status"] != "ok":
        return k, []
    win = result["winners"]
    y = 1.0 / len(win) if 0 in win else 0.0
    return k, [(x, y) for x in rows]


def sigmoid(z):
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def log_loss(rows, predict):
    total = 0.0
    for x, y in rows:
        p = min(1 - 1e-9, max(1e-9, predict(x)))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def fit(rows, l2=L2, steps=30, tol=1e-10):
    """Logistic regression by Newton's method: the coefficients minimizing the summed log loss + l2/2 |w|^2."""
    n = len(rows[0][0])
    w = [0.0] * n
    for _ in range(steps):
        g = [l2 * wi for wi in w]
        h = [[l2 if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in rows:
            p = sigmoid(sum(wi * xi for wi, xi in zip(w, x)))
            r = p - y
            q = p * (1.0 - p)
            for i in range(n):
                xi = x[i]
                if xi:
                    g[i] += r * xi
                    qx = q * xi
                    hi = h[i]
                    for j in range(i, n):
                        hi[j] += qx * x[j]
        for i in range(n):
            for j in range(i):
                h[i][j] = h[j][i]
        step = solve(h, g)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < tol:
            break
    return w


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    tasks = [(k, args.seed) for k in range(args.games)]
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            games = pool.map(one_game, tasks, chunksize=20)
    else:
        games = [one_game(t) for t in tasks]
    train = [r for k, rows in games if k % 5 for r in rows]
    test = [r for k, rows in games if not k % 5 for r in rows]
    print(f"{args.games} medium self-play games: {len(train)} positions fitted, {len(test)} held out "
          f"[{time.perf_counter() - t0:.0f} s]")
    w = fit(train)
    weights = Weights(**HARD_WEIGHTS)
    hand = [1.0, 1.0, 1.0, -weights.reserve_slot, 1.0, weights.token, weights.gold]
    n = len(PARTS)
    hand_loss = log_loss(test, lambda x: sigmoid(sum(c * v for c, v in zip(hand, x)) / 3.0))
    fitted_loss = log_loss(test, lambda x: sigmoid(sum(c * v for c, v in zip(w, x))))
    print(f"held-out log loss: hand-set leaf {hand_loss:.4f}, fitted {fitted_loss:.4f} "
          f"[{time.perf_counter() - t0:.0f} s]")
    print(f"to move {w[-2]:+.3f}, started the game {w[-1]:+.3f} (left out of the leaf)")
    print("{")
    for i, name in enumerate(PARTS):
        print(f'    "{name}": ({w[i]:.3f}, {w[n + i]:.3f}),')
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
