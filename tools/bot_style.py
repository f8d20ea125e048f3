"""How the hard bot plays against itself, for tuning its game length (issue 4's self-play target).

    .venv/bin/python tools/bot_style.py [--games 40] [--first 0] [--iterations 100 | --seconds 0.25] [--seed 1]
        [--jobs 2] [--players 2]
        [--hard '{"leaf_opponent": 0.8}'] [--weights '{"bonus": 1.0}'] [--vs medium] [--per-game]
        [--pair LOG]

Plays the arena's deals (``arena.game_seed``, seats rotated the same way) with a hard bot built from ``--hard``
(HardBot keyword arguments, or ExpertBot's with ``"expert": true``: :func:`hard_bot`) and ``--weights`` (overrides
of the hard bot's weights), and prints the mean game length with its standard error, then the action mix per game
(both seats): buys by level, buys from the reserve, reservations (blind ones too), reserved cards never bought,
takes, token returns, and the round in which the leader first held 5, 10 and 13 points. With ``--vs`` the other seat
is that level and the hard bot's win rate is printed too, with its 95% interval, and how each bot plays apart: per
seat, the tuned bot's actions, nobles and points at the end and the round in which it first held 5 and 10 points,
then the same for the other seats (is a bot slow to start, or late to finish?); ``--players 3`` or ``4`` seats the
tuned bot with two or three of ``--vs`` on the arena's deals, seated as ``arena --bots tuned,vs,vs`` seats them (so
a run pairs game by game with such an arena log). ``--seconds S`` gives both seats S seconds a move instead of an
iteration count: bots whose iterations cost differently compare at an equal time, as in the browser (0.25 s under
CPython buys the hard bot about 110 iterations and the expert about 96 here, about half what 0.8 s buys them in
Pyodide; both processes of ``--jobs 2`` need a core each). ``--first K`` starts at the arena's game K + 1 (to split
a long run, or finish one); ``--per-game`` prints each game's length in the arena's ``--progress`` format ("game 12:
... rounds 28"), so two runs, or a run and an arena log, compare game by game; ``--pair LOG`` does that comparison:
over the games found in both, the mean difference in rounds (this run minus the log) with its standard error.

The same deals for every setting make two runs a paired comparison: 40 games at 100 iterations take about 2.5
minutes on 2 cores; confirm a setting with the arena itself (200 games, the default 400 iterations).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from splendor.training.arena import make_bot  # noqa: E402
from splendor.training import arena  # noqa: E402
from splendor.ai.budget import Budget  # noqa: E402
from splendor.ai.expert import ExpertBot  # noqa: E402
from splendor.ai.heuristic import Weights, result_share, seat_values  # noqa: E402
from splendor.ai.learned import load_model, read_policy  # noqa: E402
from splendor.ai.search import HARD_WEIGHTS, HardBot  # noqa: E402

#: The points whose first round is printed: for the leader (the first seat to reach them), and per bot (5 and 10).
MARKS = (5, 10, 13)
SEAT_MARKS = (5, 10)


class HandJudge:
    """The hard bot's hand-set judge in the shape of a value model, so that the expert's tree can search with it
    (``"model": "hand"``): each seat's chance is the logistic of its value (``weights``) minus the best other
    seat's, over ``scale`` points - the hard bot's leaf with the opponent counted fully - and the result once the
    game is over."""

    def __init__(self, weights, scale=3.0):
        self.weights = weights
        self.scale = scale

    def values(self, game, weights=None):
        """The seats' values on the logistic's scale."""
        return [v / self.scale for v in seat_values(game, self.weights)]

    def win_chances(self, game):
        n = len(game._players)
        if game.phase_ == "over":
            return [result_share(game, s) for s in range(n)]
        vals = self.values(game)
        out = []
        for s in range(n):
            d = vals[s] - max(v for j, v in enumerate(vals) if j != s)
            out.append(0.0 if d < -30 else 1.0 / (1.0 + math.exp(-d)))
        return out

    def win_chance(self, game, seat):
        return self.win_chances(game)[seat]


def hard_bot(hard, weights):
    """The bot of ``--hard``: HardBot keyword arguments, or with ``"expert": true`` an ExpertBot's, whose ``model``
    is "learned" (the shipped expert model: value and prior, the default), "learned:PATH" (a model file written by
    ``python -m splendor train``) or "hand" (the hand-set values as a model, :class:`HandJudge`: the expert's tree
    searching with the hard bot's judge); ``weights``: overrides of HARD_WEIGHTS (``--weights``). A wrong keyword or
    weight raises here."""
    kw = dict(hard)
    weights = Weights(**{**HARD_WEIGHTS, **weights})
    if not kw.pop("expert", False):
        return HardBot(weights=weights, **kw)
    model = kw.pop("model", "learned")
    if model == "hand":
        model = HandJudge(weights)
    elif model == "learned":  # the shipped expert's model: its value and its prior
        return ExpertBot(weights=weights, **kw)
    elif isinstance(model, str) and model.startswith("learned:"):  # a model file: a linear model, a net or a bundle
        path = model.split(":", 1)[1]
        return ExpertBot(model=load_model(path), policy=read_policy(path), weights=weights, **kw)
    else:
        raise ValueError(f'the expert\'s model is "learned", "learned:PATH" or "hand", not {model!r}')
    return ExpertBot(model=model, weights=weights, **kw)


def note_marks(game, reached):
    """Record, per seat, the round in which it first holds each of MARKS points ({seat: {mark: round}}; the
    leader's round is the earliest seat's)."""
    for s, score in enumerate(game.scores):
        for mark in MARKS:
            if score >= mark and mark not in reached[s]:
                reached[s][mark] = game.round


def _indexed(task):
    return task[0], one_game(task)


def one_game(task):
    k, seed, budget, hard, weights, vs, players, tuned_budget = task
    seats = arena.seating(k, players, players)  # the tuned bot is entry 0, the others entries 1..: as the arena's

    # "level:hard" plays the shipped level of that name against the tuned bot (plain "hard": the tuned bot itself)
    bots = [hard_bot(hard, weights) if e == 0 or vs == "hard" else make_bot(vs.split(":")[-1]) for e in seats]

    def start(game):  # the game, played in place: the figures at the end read it
        final.append(game)

    seat_mix: list[dict[str, float]] = [{} for _ in range(players)]
    reached: list[dict[int, int]] = [{} for _ in range(players)]
    final = []

    def count(key, s):
        seat_mix[s][key] = seat_mix[s].get(key, 0) + 1

    def watch(game, s, action):
        kind = action.kind
        if kind == "buy":
            kind = f"buy L{action.card.level}"
            if action.card in game.players[s].reserved:
                count("buy reserved", s)
        elif kind == "reserve" and action.card is None:
            count("reserve blind", s)
        count(kind, s)
        note_marks(game, reached)  # the points before this action: a mark reached by the previous one

    budgets = [Budget(**(tuned_budget if e == 0 else budget)) for e in seats]
    result = arena.play_game(bots, arena.game_seed(seed, k), budgets, watch=watch, start=start)
    game = final[0]
    note_marks(game, reached)
    hard_seats = {s for s in range(players) if seats[s] == 0}
    win = result["winners"]
    hard_win = sum(1 / len(win) for s in win if s in hard_seats)
    seated = []  # per seat: the table's figures sum or take the first of these, per_bot splits them by bot
    for s in range(players):
        p = game.players[s]
        seated.append({"tuned": seats[s] == 0, "mix": seat_mix[s], "reached": reached[s],
                       "points": p.points, "nobles": len(p.nobles), "reserved unbought": len(p.reserved)})
    return result["rounds"], hard_win, seated


def mix_of(rows):
    """The actions of ``rows`` (per seat records of one_game), summed, with the reserved cards never bought."""
    totals: dict[str, float] = {}
    for row in rows:
        for key, value in row["mix"].items():
            totals[key] = totals.get(key, 0) + value
    totals["reserved unbought"] = sum(row["reserved unbought"] for row in rows)
    return totals


def per_bot(results):
    """Lines comparing the tuned bot's seats with the others': actions per seat and game, nobles and points at the
    end, and the round in which a seat first holds 5 and 10 points (averaged over the seats that reached it)."""
    lines = []
    for tuned, who in ((True, "tuned bot"), (False, "the others")):
        rows = [row for r in results for row in r[2] if row["tuned"] == tuned]
        if not rows:
            continue
        n = len(rows)
        parts = [f"{key} {value / n:.1f}" for key, value in sorted(mix_of(rows).items())]
        parts += [f"nobles {sum(r['nobles'] for r in rows) / n:.2f}",
                  f"points {sum(r['points'] for r in rows) / n:.2f}"]
        for mark in SEAT_MARKS:
            seen = [r["reached"][mark] for r in rows if mark in r["reached"]]
            parts.append(f"{mark} points in round {statistics.mean(seen):.1f} ({len(seen)} of {n})" if seen
                         else f"{mark} points never (0 of {n})")
        lines.append(f"{who}, per seat ({n} seats): " + ", ".join(parts))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    spend = parser.add_mutually_exclusive_group()
    spend.add_argument("--iterations", type=int, default=100)
    spend.add_argument("--seconds", type=float, default=None, help="a time budget a move instead of --iterations")
    parser.add_argument("--tuned-seconds", type=float, default=None,
                        help="the tuned bot's own seconds a move (with --seconds, which the other seats keep): "
                        "does more time make it stronger?")
    parser.add_argument("--cpu", action="store_true", help="--seconds of processor time, not of the clock (both "
                        "seats get their seconds of a core however busy the machine is)")
    parser.add_argument("--progress", action="store_true", help="print a line as each game ends")
    parser.add_argument("--first", type=int, default=0, help="the first game's index: play games first+1 ...")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                        help="the table's size: the tuned bot and players-1 of --vs, seated as the arena seats "
                        "--bots tuned,vs,vs...")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hard", default="{}", help="HardBot keyword arguments, as JSON")
    parser.add_argument("--weights", default="{}", help="overrides of the hard bot's weights (HARD_WEIGHTS), as JSON")
    parser.add_argument("--vs", default="hard", help="the other seat's level (default: the same hard bot; "
                        "level:hard for the shipped hard bot)")
    parser.add_argument("--per-game", action="store_true", help="print each game's length first")
    parser.add_argument("--pair", metavar="LOG", help="an arena --progress or --per-game log to compare game by game "
                        "(and the tuned bot's share, from a --progress log of this tool)")
    args = parser.parse_args(argv)
    hard, weights = json.loads(args.hard), json.loads(args.weights)
    hard_bot(hard, weights)  # a wrong setting fails here, before any game
    if args.games < 1 or args.first < 0:
        parser.error("--games must be at least 1 and --first at least 0")
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    games = range(args.first, args.first + args.games)
    if args.cpu and args.seconds is None:
        parser.error("--cpu goes with --seconds")
    if args.tuned_seconds is not None and (args.seconds is None or args.tuned_seconds <= 0):
        parser.error("--tuned-seconds goes with --seconds and must be more than 0")
    budget = {"iterations": args.iterations} if args.seconds is None else {"seconds": args.seconds}
    if args.cpu:
        budget["cpu"] = True
    tuned_budget = budget if args.tuned_seconds is None else {**budget, "seconds": args.tuned_seconds}
    tasks = [(k, args.seed, budget, hard, weights, args.vs, args.players, tuned_budget) for k in games]
    t0 = time.perf_counter()
    done = {}

    def note(k, r):
        done[k] = r
        if args.progress:
            wins = sum(x[1] for x in done.values())
            print(f"game {k + 1}: rounds {r[0]}, tuned bot's share {r[1]:g}; so far {wins:g} of {len(done)} "
                  f"[{time.perf_counter() - t0:.0f} s]", flush=True)

    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            for k, r in pool.imap_unordered(_indexed, tasks):
                note(k, r)
    else:
        for t in tasks:
            note(t[0], one_game(t))
    results = [done[t[0]] for t in tasks]
    if args.per_game:
        for task, r in zip(tasks, results):
            print(f"game {task[0] + 1}: rounds {r[0]}")
    n = len(results)
    rounds = [r[0] for r in results]
    se = statistics.pstdev(rounds) / n ** 0.5 if n > 1 else 0.0
    start = f" from game {args.first + 1}" if args.first else ""
    wins = sum(r[1] for r in results)
    low, high = arena.wilson(wins, n)
    spent = (f"{budget['seconds']:g} s{' of processor time' if args.cpu else ''} a move" if "seconds" in budget
             else f"{args.iterations} iterations")
    if args.tuned_seconds is not None:
        spent += f" ({args.tuned_seconds:g} s for the tuned bot)"
    table = f", {args.players} players" if args.players != 2 else ""
    print(f"hard {args.hard} weights {args.weights} vs {args.vs}{table}, {spent}, {n} games, "
          f"seed {args.seed}{start}: {statistics.mean(rounds):.2f} rounds (se {se:.2f}, max {max(rounds)})"
          + (f"; hard wins {wins / n:.1%} [{low:.1%}, {high:.1%}]" if args.vs != "hard" else "")
          + f" [{time.perf_counter() - t0:.0f} s]")
    totals = mix_of([row for r in results for row in r[2]])
    print("per game: " + ", ".join(f"{key} {value / n:.1f}" for key, value in sorted(totals.items())))
    marks = []
    for mark in MARKS:
        seen = [min(row["reached"][mark] for row in r[2] if mark in row["reached"]) for r in results
                if any(mark in row["reached"] for row in r[2])]
        if seen:
            marks.append(f"{mark} points in round {statistics.mean(seen):.1f}")
    print("the leader first holds " + ", ".join(marks))
    if args.vs != "hard":  # two kinds of bot at the table: how each plays
        for line in per_bot(results):
            print(line)
    if args.pair:
        print(paired(dict((task[0] + 1, r[0]) for task, r in zip(tasks, results)), args.pair))
        shares = paired_shares(dict((task[0] + 1, r[1]) for task, r in zip(tasks, results)), args.pair)
        if shares:
            print(shares)
    return 0


def _pairs(ours, log, pattern, cast):
    """{game number: value} read from ``log``'s lines matching ``pattern`` (the game number, then the value), paired
    with ``ours`` over the games in both: (ours, theirs, the differences, the se of their mean)."""
    theirs = {}
    for line in Path(log).read_text().splitlines():
        m = re.match(pattern, line)
        if m:
            theirs[int(m.group(1))] = cast(m.group(2))
    both = sorted(set(ours) & set(theirs))
    diff = [ours[k] - theirs[k] for k in both]
    se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
    return [ours[k] for k in both], [theirs[k] for k in both], diff, se


def paired(lengths, log):
    """This run's lengths {game number: rounds} against a log's "game N: ... rounds R" lines, game by game."""
    ours, theirs, diff, se = _pairs(lengths, log, r"game (\d+):.* rounds (\d+)", int)
    if not ours:
        return f"paired with {log}: no game in common"
    return (f"paired with {log}, {len(ours)} games: {statistics.mean(ours):.2f} against "
            f"{statistics.mean(theirs):.2f} rounds, difference {statistics.mean(diff):+.2f} (se {se:.2f})")


def paired_shares(shares, log):
    """This run's tuned bot's share {game number: share} against a ``--progress`` log's ("game N: rounds R, tuned
    bot's share S" lines), game by game; None when the log has no such line."""
    ours, theirs, diff, se = _pairs(shares, log, r"game (\d+): rounds \d+, tuned bot's share ([\d.]+)", float)
    if not ours:
        return None
    return (f"the tuned bot's share, paired with {log}, {len(ours)} games: {100 * statistics.mean(ours):.1f}% against "
            f"{100 * statistics.mean(theirs):.1f}%, difference {100 * statistics.mean(diff):+.1f} points "
            f"(se {100 * se:.1f}); the results differ in {sum(1 for d in diff if d)} games")


if __name__ == "__main__":
    sys.exit(main())
