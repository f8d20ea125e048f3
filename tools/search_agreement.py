"""Does more search change a bot's move? The move a search bot picks with a small budget, against the move it picks
with a much larger one, on the same positions.

    .venv/bin/python tools/search_agreement.py [--level expert] [--iterations 200] [--reference 1600] [--runs 4]
        [--seeds 7,8,9] [--every 5]

The positions: every ``--every``-th round of 2-player games of hard bots (30 iterations a move) dealt from
``--seeds``, both seats' turns. At each, the bot decides once with ``--reference`` iterations (its rng seeded 99) and
``--runs`` times with ``--iterations`` (rng seeded 0, 1, ...); printed: each position's reference move, its two best
candidates' values, how many small-budget runs picked it, and the share over all positions. A share near 100% says
the budget is not what limits the bot's play (its judgement of the moves is); a low share that the search is still
noisy at that budget.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import splendor  # noqa: E402
from splendor.ai import Budget  # noqa: E402
from splendor.ai.search import HardBot  # noqa: E402
from splendor.training.arena import make_bot  # noqa: E402


def positions(seeds, every, iterations=30):
    """[(round, observation of the seat to act)], every ``every``-th round of games of the hand-written search bot
    (``iterations`` a move) dealt from ``seeds``."""
    out = []
    bot = HardBot()
    for seed in seeds:
        game = splendor.new_game(players=2, seed=seed)
        while not game.is_over:
            if game.phase == "action" and game.round % every == 2 % every:
                out.append((game.round, game.observation(game.current_player)))
            budget = Budget(iterations=iterations)
            game.apply(bot.choose(game.observation(game.current_player), random.Random(0), budget))
    return out


def agreement(bot, observations, iterations, reference, runs, out=print):
    """(agreeing runs, all runs) over ``observations`` (as :func:`positions` gives them), printing a line a position."""
    agree = total = 0
    for rnd, obs in observations:
        ref, info = bot.decide(obs, random.Random(99), Budget(iterations=reference))
        picks = [str(bot.decide(obs, random.Random(s), Budget(iterations=iterations))[0]) for s in range(runs)]
        n = picks.count(str(ref))
        agree += n
        total += runs
        best = ", ".join(f"{c['action']} {c['value']:.3f}" for c in info.get("candidates", [])[:2])
        out(f"round {rnd}, seat {obs['seat']}: {reference} iterations pick {ref} ({best}); "
            f"{n} of {runs} runs at {iterations} agree", flush=True)
    return agree, total


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert",
                        help="the bot (a search that takes an iteration budget: expert, expert-tree or hard-classic)")
    parser.add_argument("--iterations", type=int, default=200, help="the small budget (default 200)")
    parser.add_argument("--reference", type=int, default=1600, help="the large budget (default 1600)")
    parser.add_argument("--runs", type=int, default=4, help="small-budget runs a position (default 4)")
    parser.add_argument("--seeds", default="7,8,9", help="the games' seeds (default 7,8,9)")
    parser.add_argument("--every", type=int, default=5, help="a position every n rounds (default 5)")
    args = parser.parse_args(argv)
    if min(args.iterations, args.reference, args.runs, args.every) < 1:
        parser.error("--iterations, --reference, --runs and --every must be at least 1")
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    obs = positions(seeds, args.every)
    agree, total = agreement(make_bot(args.level), obs, args.iterations, args.reference, args.runs)
    print(f"{args.level}: {agree} of {total} runs at {args.iterations} iterations pick the move of {args.reference} "
          f"({agree / total:.1%}) over {len(obs)} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
