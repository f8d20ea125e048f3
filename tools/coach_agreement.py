"""Whether the game review agrees with the hint: a seat that plays every hint, reviewed afterwards.

    python3 tools/coach_agreement.py [--games 8] [--seed 700000] [--players 2] [--opponent medium]
                                     [--hint-iterations 1000]

Plays ``--games`` games in which seat 0 plays, at every decision, what the hint says
(``splendor.ai.protocol.hint_json``, on ``--hint-iterations`` walks of the expert's search: about what the
browser's 0.5 s buys in Pyodide at two players) and the other seats are ``--opponent`` bots, then reviews each game
as the page does (``splendor.ai.review.review_game``, seat 0 as the person) and counts the followed hints the review
names as a loss: a better move by at least ``BETTER_MARGIN`` (3 points), the turning points among them, and how
much the named ones lost. The issue's bar: at most 1 followed hint in 20 so named (the hard bot's hint against the
value model's review: 28 of 119).
"""

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import splendor  # noqa: E402
import splendor.training.netnumpy  # noqa: E402,F401  (the network on numpy, as the arenas run it)
from splendor.ai import get_bot  # noqa: E402
from splendor.ai.protocol import hint_json  # noqa: E402
from splendor.ai.review import review_game, turns_of  # noqa: E402


def play(seed, players, opponent, hint_iterations):
    g = splendor.new_game(players=players, seed=seed)
    bot = get_bot(opponent)
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.current_player
        if seat == 0:
            reply = json.loads(hint_json(json.dumps({"turn_id": 1, "observation": g.observation(0),
                                                     "seed": len(g.history),
                                                     "budget": {"iterations": hint_iterations}})))
            g.apply(reply["action"])
        else:
            g.apply(bot.choose(g.observation(seat), rng, {"iterations": 40}))
    return g


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=700000)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--opponent", default="medium")
    ap.add_argument("--hint-iterations", type=int, default=1000)
    args = ap.parse_args(argv)
    followed = named = turning = won = 0
    losses = []
    t0 = time.perf_counter()
    for k in range(args.games):
        g = play(args.seed + k, args.players, args.opponent, args.hint_iterations)
        won += 0 in g.winners
        record = g.record()
        review = review_game(record, [0])
        for t, (first, end, seat) in enumerate(turns_of(record), 1):
            e = review["positions"][t]
            if seat != 0 or "played" not in e:
                continue
            followed += 1
            if e.get("better"):
                named += 1
                losses.append(e["better"]["chance"] - e["played"])
        turning += sum(1 for tp in review["turning"] if tp["mover"] == 0)
    secs = time.perf_counter() - t0
    print(f"{args.games} {args.players}-player games, seat 0 playing every hint ({args.hint_iterations} walks) "
          f"against {args.opponent} (seeds {args.seed}-{args.seed + args.games - 1}), seat 0 won {won}, {secs:.0f} s")
    print(f"followed hints the review judged: {followed}; named a loss of 3 points or more against a better move: "
          f"{named} ({named / max(1, followed):.1%}; the bar: 1 in 20, 5%); turning points among them: {turning}")
    if losses:
        print(f"those losses: mean {sum(losses) / len(losses):.3f}, largest {max(losses):.3f}")


if __name__ == "__main__":
    main()
