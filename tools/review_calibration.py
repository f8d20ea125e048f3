"""How good the review's chances are: calibration, log loss and zigzag on held-out games, the review's judge (the
expert's search, :func:`splendor.ai.review.review_judge`) beside the value model that judged reviews before it.

    python3 tools/review_calibration.py [--players 2] [--games 300] [--seed 500000] [--judges review,value-model]
                                        [--bots "expert,medium;hard,medium;expert,hard;medium,easy"] [--fit]

Plays ``--games`` games between the named bots (:func:`lineup`: by default the four pairings of the levels a person
meets, in turn, every level in every seat; the hard bot on 40 iterations a move, the expert on 200) on the deals
``--seed``, ``--seed`` + 1, ... (the training commands play the deals ``arena.game_seed("train-N", k)``, drawn from
2^31 seeds, so these are other deals) and reads every position after every turn with each judge:
``review`` is the chart a review draws (:func:`splendor.ai.review.review_game`), ``value-model`` is the expert's
learned value model read at each position (the seats' chances scaled to sum to 1), the review's judge before this
one. For each judge it prints, for each band of chance, how many (position, seat) pairs were given it and how many
of those the seat won (a calibrated judge's seats given 70% win about 70% of the time), the log loss and the Brier
score beside a constant 1/players as the baseline, the zigzag (the mean over the seats' lines of
|next - 2 x this + previous|: a line that rises and falls with whose turn it is bends most) and, for the review,
how many turning points were moves of a seat whose chance rose (there should be none). A shared victory counts as a
share of a win.

It also prints the *tempo*: each seat's mean change of chance over its own turns, less over the others' turns (a
judge whose line rises and falls with whose turn it is shows it far from 0; a judge that reads every position alike
shows only what the moves changed).

``--fit`` weighs a temperature for the review's chances (each seat's chance raised to a power, scaled back to a sum
of 1: a line squeezed toward even zigzags less): the log loss and zigzag for each power, the least log loss marked.
Fitted on other deals than the measurement's (``--seed 600000``); the review takes none (docs/BOTS.md).
"""

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import splendor  # noqa: E402
import splendor.training.netnumpy  # noqa: E402,F401  (the network on numpy, as the arenas run it)
from splendor.training.arena import make_bot  # noqa: E402
from splendor.ai.learned import load_expert  # noqa: E402
from splendor.ai.review import review_game, turns_of  # noqa: E402

BANDS = [(0.0, 0.1), (0.1, 0.2), (0.2, 0.3), (0.3, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 0.9),
         (0.9, 1.0001)]


#: Iterations a move of the searching levels in the games played (quick, and strong enough to tell the levels apart).
ITERATIONS = {"hard": 40, "expert": 200}


def lineup(bots, k, players):
    """The levels at each seat of game ``k``: ``bots`` is one lineup ("hard,medium", filling the seats in rotation)
    or several separated by ";", taken in turn, each turned one seat further every time it comes back (so every
    level sits in every seat)."""
    lineups = [x.split(",") for x in bots.split(";")]
    levels = lineups[k % len(lineups)]
    turn = k // len(lineups)
    return [levels[(s + turn) % len(levels)] for s in range(players)]


def play(seed, levels, players):
    g = splendor.new_game(players=players, seed=seed)
    bots = [make_bot(levels[s % len(levels)]) for s in range(players)]
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.current_player
        level = levels[seat % len(levels)]
        its = ITERATIONS.get(level)
        g.apply(bots[seat].choose(g.observation(seat), rng, {"iterations": its} if its else None))
    return g


def value_model_line(record, model):
    """Every seat's chance at the deal and after every turn by the value model (the review's judge before the
    expert's search)."""
    game = splendor.new_game(players=record["players"], seed=record["seed"])

    def read():
        ch = list(model.win_chances(game))
        total = sum(ch)
        return [x / total for x in ch] if total > 0 else [1 / len(ch)] * len(ch)

    out = [read()]
    for first, end, _ in turns_of(record):
        for text in record["actions"][first:end]:
            game.apply(text)
        out.append(read())
    return out


def powered(chances, power):
    """Every seat's chance raised to ``power``, scaled back to a sum of 1 (``--fit``)."""
    xs = [x ** power if x > 0 else 0.0 for x in chances]
    total = sum(xs)
    return [x / total for x in xs] if total > 0 else [1 / len(xs)] * len(xs)


class Tally:
    def __init__(self, name):
        self.name = name
        self.rows = []  # (chance given, result) per seat of every position after a turn, the end left out
        self.bends = []
        self.own = []  # a seat's change of chance over its own turns ...
        self.others = []  # ... and over the other seats' turns
        self.gainers = 0
        self.turning = 0

    def add(self, line, won, movers=None):
        """``line``: every seat's chances after each turn (the deal's first when ``movers``, who played each turn,
        is given: the tempo is then counted)."""
        n = len(won)
        if movers is not None:
            for t, mover in enumerate(movers[:-1]):
                for s in range(n):
                    (self.own if s == mover else self.others).append(line[t + 1][s] - line[t][s])
            line = line[1:]
        for ch in line[:-1]:
            self.rows.extend((ch[s], won[s]) for s in range(n))
        for s in range(n):
            xs = [ch[s] for ch in line[:-1]]
            self.bends.extend(abs(xs[i + 1] - 2 * xs[i] + xs[i - 1]) for i in range(1, len(xs) - 1))

    def report(self, n):
        rows = self.rows
        print(f"-- {self.name}: {len(rows)} (position, seat) pairs")
        print(f"{'chance given':>14} {'pairs':>8} {'mean given':>11} {'won':>7}")
        for lo, hi in BANDS:
            band = [(p, y) for p, y in rows if lo <= p < hi]
            if band:
                print(f"{lo:>6.0%} - {min(hi, 1):>4.0%} {len(band):>8} {sum(p for p, _ in band) / len(band):>11.1%} "
                      f"{sum(y for _, y in band) / len(band):>7.1%}")
        eps = 1e-6
        loss = -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps)) for p, y in rows) / len(rows)
        brier = sum((p - y) ** 2 for p, y in rows) / len(rows)
        base = 1 / n
        base_loss = -(base * math.log(base) + (1 - base) * math.log(1 - base))
        print(f"log loss {loss:.4f} (constant {base:.0%}: {base_loss:.4f}); Brier {brier:.4f} "
              f"(constant: {base * (1 - base):.4f})")
        print(f"zigzag {sum(self.bends) / len(self.bends):.4f} (mean |next - 2 x this + previous| over the seats' "
              "lines)")
        if self.own:
            own, others = sum(self.own) / len(self.own), sum(self.others) / len(self.others)
            print(f"tempo {own - others:+.4f}: a seat's mean change over its own turns {own:+.4f}, over the others' "
                  f"{others:+.4f}")
        if self.turning:
            print(f"turning points {self.turning}, of a seat whose chance rose: {self.gainers}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=500000)
    ap.add_argument("--bots", default="expert,medium;hard,medium;expert,hard;medium,easy")
    ap.add_argument("--judges", default="review,value-model")
    ap.add_argument("--fit", action="store_true", help="print the log loss and zigzag of each temperature")
    args = ap.parse_args(argv)
    if args.fit:
        return fit(args)
    judges = args.judges.split(",")
    model = load_expert()[0] if "value-model" in judges else None
    tallies = {j: Tally({"review": "the review's judge (the expert's search)",
                         "value-model": "the value model (the review's judge before)"}[j]) for j in judges}
    t0 = time.perf_counter()
    n = args.players
    for k in range(args.games):
        g = play(args.seed + k, lineup(args.bots, k, n), n)
        record = g.record()
        won = [(1.0 / len(g.winners)) if s in g.winners else 0.0 for s in range(n)]
        movers = [seat for _, _, seat in turns_of(record)]
        if "review" in tallies:
            review = review_game(record, [])
            tallies["review"].add([p["chances"] for p in review["positions"]], won, movers)
            for tp in review["turning"]:
                tallies["review"].turning += 1
                if tp["to"] >= tp["from"]:
                    tallies["review"].gainers += 1
        if "value-model" in tallies:
            tallies["value-model"].add(value_model_line(record, model), won, movers)
    secs = time.perf_counter() - t0
    print(f"{args.games} held-out {n}-player games ({args.bots}, seats rotating; seeds {args.seed}-"
          f"{args.seed + args.games - 1}), {secs:.0f} s")
    for t in tallies.values():
        t.report(n)


POWERS = (0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2, 1.5)


def fit(args):
    n = args.players
    games = []
    for k in range(args.games):
        g = play(args.seed + k, lineup(args.bots, k, n), n)
        won = [(1.0 / len(g.winners)) if s in g.winners else 0.0 for s in range(n)]
        games.append(([p["chances"] for p in review_game(g.record(), [])["positions"][1:]], won))
    rows = []
    for power in POWERS:
        t = Tally("")
        for line, won in games:
            t.add([powered(ch, power) for ch in line], won)
        eps = 1e-6
        loss = -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps)) for p, y in t.rows) / len(t.rows)
        rows.append((loss, power, sum(t.bends) / len(t.bends)))
    best = min(rows)[1]
    print(f"the review's chances at each temperature, {args.games} {n}-player games ({args.bots}, seeds "
          f"{args.seed}-{args.seed + args.games - 1})")
    for loss, power, zigzag in sorted(rows, key=lambda r: r[1]):
        mark = "  <- least log loss" if power == best else ""
        print(f"power {power:.1f}: log loss {loss:.4f}, zigzag {zigzag:.4f}{mark}")


if __name__ == "__main__":
    main()
