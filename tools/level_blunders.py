"""How often each level throws the game away: its moves that lose more than 20 points of its chance, by the coach.

    python3 tools/level_blunders.py [--games 20] [--from medium] [--seed 800000] [--threshold 0.20] [--jobs 2]

For each ladder level from ``--from`` up, plays ``--games`` 2-player games against the level below it (the arena's
deals of ``--seed``, seats alternating, each level on its own counts as the browser's worker plays it) and judges
every move of the level from an action phase with a choice as the game review does
(``splendor.ai.review.ExpertJudge``: the expert's search of the position from the mover's view, the move played
forced to a subtree of its own; a loss found is judged again ``CONFIRM`` times longer and that judgement stands).
A move *blunders* when the mover's chance after it is more than ``--threshold`` below its best choice's. Prints, per
level, the moves judged, the blunders, their share ("1 in N") and the largest loss. The issue's bar: at most 1 move in
50 from medium up.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import splendor.training.netnumpy  # noqa: E402,F401  (the network on numpy, as the arenas run it)
from splendor.ai import get_bot  # noqa: E402
from splendor.ai.ladder import NAMES  # noqa: E402
from splendor.ai.review import CONFIRM, ExpertJudge, _loss  # noqa: E402
from splendor.engine.game import new_game  # noqa: E402
from splendor.training import arena  # noqa: E402


def judged_game(args):
    """(losses of the seat's moves, in order) in game ``k`` of ``level`` against ``below``; each loss is the best
    choice's chance less the move played's for its mover, confirmed by a longer look where it is over ``threshold``."""
    k, seed, level, below, threshold, make = args
    names = [level, below]
    seats = arena.seating(k, 2, 2)
    bots = [make(names[e]) for e in seats]
    budgets = [arena.entry_budget(names[e], 2) for e in seats]
    game_seed = arena.game_seed(seed, k)
    game = new_game(players=2, seed=game_seed, first_player=0)
    import random

    rngs = [random.Random(f"splendor-bot/{game_seed}/{s}") for s in range(2)]
    judge = ExpertJudge()
    losses = []
    n = 0
    while not game.is_over and n < arena.MAX_ACTIONS:
        seat = game.current
        action = bots[seat].choose(game.observation(seat), rngs[seat], budgets[seat])
        if seats[seat] == 0 and game.phase == "action" and len(game.legal_actions()) > 1:
            key = f"blunders:{game_seed}:{n}"
            j = judge.judgement(game, seat, action, key)
            loss = _loss(j, seat, action)
            if loss > threshold:
                loss = _loss(judge.judgement(game, seat, action, key, CONFIRM.get(game.n, 2)), seat, action)
            losses.append(loss)
        game.apply(action)
        n += 1
    return losses


def measure(level, below, games, seed, threshold, jobs=1, make=get_bot):
    """All the losses of ``level``'s moves over ``games`` games against ``below``."""
    tasks = [(k, seed, level, below, threshold, make) for k in range(games)]
    if jobs > 1 and games > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(judged_game, tasks)
    else:
        parts = [judged_game(t) for t in tasks]
    return [x for part in parts for x in part]


def line(level, below, losses, threshold):
    bad = [x for x in losses if x > threshold]
    share = f"1 in {len(losses) / len(bad):.0f}" if bad else "none"
    rate = 100 * len(bad) / max(1, len(losses))
    return (f"{level:<9} vs {below:<9} {len(losses):>5} moves, {len(bad):>3} lose more than {100 * threshold:.0f} "
            f"points ({share}; {rate:.1f}%), largest {100 * max(losses, default=0):.0f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--from", dest="first", default="medium", choices=NAMES[1:])
    ap.add_argument("--seed", type=int, default=800000)
    ap.add_argument("--threshold", type=float, default=0.20)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    total = bad = 0
    for i in range(NAMES.index(args.first), len(NAMES)):
        level, below = NAMES[i], NAMES[i - 1]
        losses = measure(level, below, args.games, args.seed, args.threshold, args.jobs)
        total += len(losses)
        bad += sum(1 for x in losses if x > args.threshold)
        print(line(level, below, losses, args.threshold), flush=True)
    print(f"all: {bad} of {total} moves ({100 * bad / max(1, total):.1f}%); {args.games} games a level, seed "
          f"{args.seed}; {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
