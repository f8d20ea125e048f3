"""Engine speed: ``python -m splendor bench [--games N] [--seed S] [--players 2,3,4]``.

For each player count: seeded random playouts as a bot would run them (``legal_actions()`` then
``apply_unchecked`` of a uniformly random one), giving actions per second, games per second and the mean game length
in actions and rounds; then the same games again through the checked ``apply()`` as a baseline, and the ratio. Then
the cost of the operations a search leans on, in microseconds: ``copy()``, an ``apply_unchecked`` + ``undo`` pair,
and ``legal_actions()`` alone, measured on positions taken from those games.

Times are wall-clock; the playouts' CPU time is printed too (``cpu a/s``): on a shared machine other programs slow
the wall clock, and the share of CPU the bench got says how much. Figures, not a test. Target: at least 50,000
actions per second for 2 players under CPython 3.11.
"""

import argparse
import platform
import random
import sys
import time

from .engine import new_game

DEFAULT_GAMES = 800  # per player count: about 10-20 s in all on a 2-core machine


def playouts(players, games, seed, checked):
    """Play ``games`` seeded random games; return (wall seconds, CPU seconds, actions, turns, positions sampled)."""
    rng = random.Random(seed)
    actions = turns = 0
    samples = []
    clock = time.perf_counter
    cpu_clock = time.process_time
    elapsed = cpu = 0.0
    for k in range(games):
        game = new_game(players=players, seed=seed * 100_003 + k)
        start, cpu_start = clock(), cpu_clock()
        if checked:
            apply = game.apply
            while game.phase_ != "over":
                moves = game.legal_actions()
                apply(moves[rng.randrange(len(moves))])
                actions += 1
        else:
            apply = game.apply_unchecked
            while game.phase_ != "over":
                moves = game.legal_actions()
                apply(moves[rng.randrange(len(moves))])
                actions += 1
        elapsed += clock() - start
        cpu += cpu_clock() - cpu_start
        turns += game.turns
        if not checked and k < 60:  # a few positions from each game, for the operation costs below
            history = game.history
            replayed = new_game(players=players, seed=seed * 100_003 + k)
            for i, action in enumerate(history):
                if i % 7 == 3 and replayed.phase_ != "over":
                    samples.append(replayed.copy())
                replayed.apply_unchecked(action)
    return elapsed, cpu, actions, turns, samples


def per_call_us(positions, work, min_seconds=0.3):
    """Microseconds per unit of ``work(positions)`` (which returns how many units it did), repeated to last."""
    units = 0
    clock = time.perf_counter
    start = clock()
    while True:
        units += work(positions)
        spent = clock() - start
        if spent >= min_seconds:
            return spent / units * 1e6


def _copies(positions):
    for game in positions:
        game.copy()
    return len(positions)


def _apply_undo(positions):
    pairs = 0
    for game in positions:
        apply, undo = game.apply_unchecked, game.undo
        for action in game.legal_actions():
            apply(action)
            undo()
            pairs += 1
    return pairs


def _legal(positions):
    for game in positions:
        game.legal_actions()
    return len(positions)


def _load_note():
    try:
        import os

        return f", load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    except (AttributeError, OSError):  # no load average on this platform (Pyodide, Windows)
        return ""


def run(players_list, games, seed, out=print):
    out(f"Splendor engine bench: Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{games} games per player count, seed {seed}" + _load_note())
    out(f"{'players':>7} {'actions/s':>10} {'cpu a/s':>9} {'games/s':>8} {'actions/game':>12} {'rounds/game':>11} "
        f"{'checked a/s':>11} {'ratio':>6} {'copy us':>8} {'apply+undo us':>13} {'legal us':>8}")
    results = {}
    for players in players_list:
        seconds, cpu, actions, turns, samples = playouts(players, games, seed, checked=False)
        c_seconds, _, c_actions, _, _ = playouts(players, games, seed, checked=True)
        assert c_actions == actions, "the checked and unchecked playouts must be the same games"
        row = {
            "actions_per_s": actions / seconds,
            "actions_per_cpu_s": actions / cpu if cpu else float("nan"),
            "games_per_s": games / seconds,
            "actions_per_game": actions / games,
            "rounds_per_game": turns / players / games,
            "checked_actions_per_s": c_actions / c_seconds,
            "ratio": c_seconds / seconds,
            "copy_us": per_call_us(samples, _copies),
            "apply_undo_us": per_call_us(samples, _apply_undo),
            "legal_us": per_call_us(samples, _legal),
        }
        results[players] = row
        out(f"{players:>7} {row['actions_per_s']:>10,.0f} {row['actions_per_cpu_s']:>9,.0f} "
            f"{row['games_per_s']:>8,.1f} {row['actions_per_game']:>12.1f} "
            f"{row['rounds_per_game']:>11.1f} {row['checked_actions_per_s']:>11,.0f} {row['ratio']:>5.2f}x "
            f"{row['copy_us']:>8.1f} {row['apply_undo_us']:>13.2f} {row['legal_us']:>8.2f}")
    out("actions/s and games/s: random playouts with legal_actions() + apply_unchecked(); checked a/s: the same games "
        "through apply(), ratio = checked time / unchecked time.")
    out("copy, apply+undo (one pair) and legal_actions(): microseconds each (wall clock), on positions from those "
        "games. cpu a/s: the unchecked playouts per second of this process's CPU time.")
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m splendor bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per player count (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and of the random choices")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma separated (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        players_list = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players takes counts such as 2,3,4, not {args.players!r}")
    if any(p not in (2, 3, 4) for p in players_list) or args.games < 1:
        parser.error("player counts are 2, 3 or 4 and --games is at least 1")
    run(players_list, args.games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
