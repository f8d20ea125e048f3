"""Cost of one evaluation of a position by the expert's value model, against the hard bot's hand-written value.

    .venv/bin/python tools/bench_value_model.py [games, default 4]

Collects the action-phase positions of medium self-play games (seeds 3, 5, 8, 13, ...) and times the shipped model's
``win_chances`` (every seat's chance, what the expert's search asks at each leaf: a linear model's standings or a value
net's pairs) and ``heuristic.seat_values`` on each, several times over. The same code runs under Pyodide
(``node tools/bench_bot_pyodide.mjs`` prints it too).
"""

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import splendor  # noqa: E402
from splendor import ai  # noqa: E402
from splendor.ai.heuristic import Weights, seat_values  # noqa: E402
from splendor.ai.learned import READ_WEIGHTS, load_expert  # noqa: E402


def measure(games=4, repeat=5):
    """(positions, microseconds per position for the model, for the hand-written value)."""
    model = load_expert()[0]
    w = Weights(**READ_WEIGHTS)
    positions = []
    for seed in (3, 5, 8, 13, 21, 34, 55, 89)[:games]:
        game = splendor.new_game(players=2, seed=seed)
        bot = ai.get_bot("medium")
        while not game.is_over:
            if game.phase == "action":
                positions.append(game.copy())
            game.apply(bot.choose(game.observation(game.current_player), random.Random(0), None))
    judge = model.win_chances
    t0 = time.perf_counter()
    for _ in range(repeat):
        for g in positions:
            judge(g)
    t1 = time.perf_counter()
    for _ in range(repeat):
        for g in positions:
            seat_values(g, w)
    t2 = time.perf_counter()
    n = len(positions) * repeat
    return len(positions), (t1 - t0) / n * 1e6, (t2 - t1) / n * 1e6


def report(games=4):
    n, model_us, hand_us = measure(games)
    return (f"value model: {model_us:.0f} us a position (both seats), hand-written value {hand_us:.0f} us; "
            f"{n} positions of {games} medium games, Python {sys.version.split()[0]} ({sys.platform})")


if __name__ == "__main__":
    print(report(int(sys.argv[1]) if len(sys.argv) > 1 else 4))
