"""CPU time per search iteration of the hard and expert bots on the same positions (up to 3 per seed of 4 medium
games; 100 iterations each, twice).

    .venv/bin/python tools/bench_iteration_cost.py
"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import random, time, splendor
from splendor import ai
pos = []
for seed in (3, 5, 8, 13):
    game = splendor.new_game(players=2, seed=seed)
    for i in range(3):
        for j in range(6):
            if game.is_over: break
            game.apply(ai.get_bot("medium").choose(game.observation(game.current_player), random.Random(j), None))
        if not game.is_over: pos.append(game.observation(game.current_player))
for rep in range(2):
    for level in ("hard", "expert"):
        bot = ai.get_bot(level)
        t = time.process_time(); n = 0
        for o in pos:
            _, info = bot.decide(o, random.Random(1), {"iterations": 100}); n += info.get("iterations", 0)
        print(level, f"{(time.process_time() - t) / n * 1000:.2f} ms cpu per iteration over {n} iterations")
