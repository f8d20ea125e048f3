"""How steady the game review's line is: every position's chance by the review as the page computes it, against the
same review at ``--scale`` times the budget (walks and the move played's), over games between the bot levels.

    python3 tools/review_agreement.py [--games 20] [--players 2] [--scale 8] [--within 0.06] [--seed 910000]
                                      [--lineups "hard,medium;skilled,casual;advanced,hard;elite,skilled;medium,easy"]
                                      [--jobs 2] [--before]

Plays ``--games`` games, the lineups in turn (every level in every seat: each lineup turned one seat further when
it comes back), each level on its own counts as the arena plays it, and reviews each game with seat 0 as the person
(:func:`splendor.ai.review.review_game`) twice: at the page's budget and at ``--scale`` times it. Prints, over every
position but the finished game's last (the result, the same in both), the share whose chances agree within
``--within`` for every seat, the mean and the largest difference, and how many points of each line move 10 or more
from their neighbour (a jagged line). ``--before`` prints the same figures beside them for the review before the one
view (each turn judged from its mover's view with deals of its own, the chart's point the move played's chance).
The issue's bar: 95% of positions within 6 points over 20 two-player games.
"""

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import splendor  # noqa: E402
import splendor.training.netnumpy  # noqa: E402,F401  (the network on numpy, as the arenas run it)
from splendor.ai.review import ExpertJudge, review_game  # noqa: E402
from splendor.training.arena import entry_budget, make_bot  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from review_calibration import lineup  # noqa: E402  (the same lineups in turn, every level in every seat)

LINEUPS = "hard,medium;skilled,casual;advanced,hard;elite,skilled;medium,easy"


def play(seed, levels):
    import random
    g = splendor.new_game(players=len(levels), seed=seed, first_player=0)
    bots = [make_bot(x) for x in levels]
    budgets = [entry_budget(x, len(levels)) for x in levels]
    rngs = [random.Random(f"review-agreement/{seed}/{s}") for s in range(len(levels))]
    while not g.is_over:
        s = g.current_player
        g.apply(bots[s].choose(g.observation(s), rngs[s], budgets[s]))
    return g.record()


def compare(a, b, within):
    """(positions, agreeing, summed difference, largest) of two reviews' lines, the last position left out."""
    n = agree = 0
    total = worst = 0.0
    for pa, pb in zip(a["positions"][:-1], b["positions"][:-1]):
        d = max(abs(x - y) for x, y in zip(pa["chances"], pb["chances"]))
        n += 1
        agree += d <= within + 1e-9
        total += d
        worst = max(worst, d)
    return n, agree, total, worst


def jumps(review):
    """Points of the line (any seat's) that move 10 points or more from the one before."""
    pos = review["positions"]
    return sum(1 for p, q in zip(pos, pos[1:]) if max(abs(x - y) for x, y in zip(p["chances"], q["chances"])) >= .1)


def one_game(args):
    k, seed, lineups, players, scale, within, before = args
    levels = lineup(lineups, k, players)
    record = play(seed + k, levels)
    out = {"levels": levels, "turns": None}
    kinds = [("now", True)] + ([("before", False)] if before else [])
    for name, one_view in kinds:
        short = review_game(record, [0], ExpertJudge(one_view=one_view))
        long = review_game(record, [0], ExpertJudge(one_view=one_view, scale=scale))
        out[name] = compare(short, long, within) + (jumps(short),)
        out["turns"] = len(short["moves"])
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--scale", type=int, default=8)
    ap.add_argument("--within", type=float, default=0.06)
    ap.add_argument("--seed", type=int, default=910000)
    ap.add_argument("--lineups", default=LINEUPS)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--before", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    jobs = [(k, args.seed, args.lineups, args.players, args.scale, args.within, args.before)
            for k in range(args.games)]
    sums = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for k, res in enumerate(pool.map(one_game, jobs)):
            line = [f"game {k + 1:2d} {'-'.join(res['levels']):20s} {res['turns']:3d} turns"]
            for name in ("now", "before"):
                if name not in res:
                    continue
                n, agree, total, worst, jag = res[name]
                acc = sums.setdefault(name, [0, 0, 0.0, 0.0, 0])
                acc[0] += n
                acc[1] += agree
                acc[2] += total
                acc[3] = max(acc[3], worst)
                acc[4] += jag
                line.append(f"{name}: {agree}/{n} within, largest {100 * worst:.0f}, jumps {jag}")
            print("  ".join(line), flush=True)
    print(f"{args.games} {args.players}-player games, the review against itself at {args.scale} times the budget, "
          f"{time.perf_counter() - t0:.0f} s:")
    for name, label in (("now", "the review (one view)"), ("before", "the review before the one view")):
        if name in sums:
            n, agree, total, worst, jag = sums[name]
            print(f"  {label}: {agree}/{n} positions within {100 * args.within:.0f} points ({agree / n:.1%}; "
                  f"the bar 95%), mean difference {100 * total / n:.1f} points, largest {100 * worst:.0f}; "
                  f"points moving 10 or more: {jag}")


if __name__ == "__main__":
    main()
