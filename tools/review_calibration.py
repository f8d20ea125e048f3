"""How good the review's chances are: their calibration on held-out games (games the value model was not fitted on).

    python3 tools/review_calibration.py [--games 300] [--seed 500000] [--bots medium,medium]

Plays ``--games`` 2-player games between the named bots on the deals ``--seed``, ``--seed`` + 1, ... (the training
command plays the deals ``arena.game_seed("train-N", k)``, drawn from 2^31 seeds, so these are other deals), reads
every position after every turn with the review's evaluator (``splendor.ai.review.review_evaluator``, the chances the
chart shows) and prints, for each band of chance, how many positions were given it and how many of those were won by
the seat given it: a calibrated evaluator's seats given 70% win about 70% of the time. Also prints the log loss and
the Brier score, beside a constant 50% as the baseline, and how much the chart's line zigzags. A shared victory counts
as half a win.
"""

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import splendor  # noqa: E402
from splendor.ai import get_bot  # noqa: E402
from splendor.ai.review import review_evaluator, turns_of  # noqa: E402

BANDS = [(0.0, 0.1), (0.1, 0.2), (0.2, 0.3), (0.3, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 0.9),
         (0.9, 1.0001)]


def play(seed, levels):
    g = splendor.new_game(players=2, seed=seed)
    bots = [get_bot(level) for level in levels]
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.current_player
        g.apply(bots[seat].choose(g.observation(seat), rng, {"iterations": 40} if levels[seat] in ("hard", "expert")
                                  else None))
    return g


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=500000)
    ap.add_argument("--bots", default="medium,medium")
    args = ap.parse_args(argv)
    levels = args.bots.split(",")
    ev = review_evaluator()
    rows = []  # (chance given, result) for both seats of every position after a turn, the end left out
    bends = []  # how much the first seat's line bends at each position: |next - 2 x this + previous|
    t0 = time.perf_counter()
    for k in range(args.games):
        g = play(args.seed + k, levels)
        record = g.record()
        won = [(1.0 / len(g.winners)) if s in g.winners else 0.0 for s in range(2)]
        game = splendor.new_game(players=2, seed=record["seed"])
        line = []
        for first, end, _ in turns_of(record)[:-1]:
            for text in record["actions"][first:end]:
                game.apply(text)
            ch = ev.chances(game)
            rows.extend((ch[s], won[s]) for s in range(2))
            line.append(ch[0])
        bends.extend(abs(line[i + 1] - 2 * line[i] + line[i - 1]) for i in range(1, len(line) - 1))
    secs = time.perf_counter() - t0
    print(f"{ev.name}: {args.games} held-out games ({' vs '.join(levels)}, "
          f"seeds {args.seed}-{args.seed + args.games - 1}), "
          f"{len(rows) // 2} positions after a turn (both seats counted), {secs:.0f} s")
    print(f"{'chance given':>14} {'positions':>10} {'mean given':>11} {'won':>7}")
    for lo, hi in BANDS:
        band = [(p, y) for p, y in rows if lo <= p < hi]
        if band:
            print(f"{lo:>6.0%} - {min(hi, 1):>4.0%} {len(band):>10} {sum(p for p, _ in band) / len(band):>11.1%} "
                  f"{sum(y for _, y in band) / len(band):>7.1%}")
    seventy = [(p, y) for p, y in rows if 0.65 <= p < 0.75]
    if seventy:
        won = sum(y for _, y in seventy) / len(seventy)
        print(f"given 65-75% (about 70%): {len(seventy)} positions, won {won:.1%}")
    eps = 1e-6
    loss = -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps)) for p, y in rows) / len(rows)
    brier = sum((p - y) ** 2 for p, y in rows) / len(rows)
    print(f"log loss {loss:.4f} (constant 50%: {math.log(2):.4f}); Brier {brier:.4f} (constant 50%: 0.2500)")
    print(f"zigzag: a line bends by {sum(bends) / len(bends):.3f} a position on average (|next - 2 x this + previous|; "
          "a line that jumps up and down from turn to turn by whose turn it is bends most)")


if __name__ == "__main__":
    main()
