"""The game review's cost (splendor/ai/review.py), as the page's worker computes it: a finished 2-player game of
about 60 turns (the person's seat played by the medium bot's favourite among a few random moves, so it has moves
to improve on; the other seat medium), reviewed piece by piece through ``review_json`` as the page asks.

    python3 tools/bench_review.py            # under CPython
    node tools/bench_review_pyodide.mjs      # under Pyodide in node (runs this file's ``report``), CPython beside it

Prints the turns, the seconds of the whole review, the seconds per position and how many better moves it named.
"""

import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import splendor  # noqa: E402
from splendor.ai import get_bot  # noqa: E402
from splendor.ai.review import assemble, review_json, turns_of  # noqa: E402
from splendor.web.review.state import PIECE  # noqa: E402


def sixty_turns(target=60):
    """The first seed's game whose turns come nearest ``target`` among a few seeds."""
    best = None
    medium = get_bot("medium")
    for seed in range(1, 9):
        g = splendor.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.current_player
            if seat == 0 and g.phase == "action" and rng.random() < 0.3:
                g.apply(rng.choice(g.legal_actions()))
            else:
                g.apply(medium.choose(g.observation(seat), random.Random(len(g.history))))
        n = len(turns_of(g.record()))
        if best is None or abs(n - target) < abs(best[0] - target):
            best = (n, g.record())
    return best[1]


def review_seconds(record):
    t0 = time.perf_counter()
    total = len(turns_of(record)) + 1
    entries = []
    while len(entries) < total:
        reply = json.loads(review_json(json.dumps({"id": 1, "record": record, "people": [0],
                                                   "start": len(entries), "stop": len(entries) + PIECE})))
        entries.extend(reply["entries"])
    review = assemble(record, [0], entries)
    return time.perf_counter() - t0, review


def backend():
    """The network's backend, as the page's worker (the WebAssembly kernel) or the arenas (numpy) run it."""
    if sys.platform == "emscripten":
        from splendor.web import wasm_net  # noqa: F401  (registers the kernel)
    else:
        import splendor.training.netnumpy  # noqa: F401


def report(record=None):
    backend()
    record = record or sixty_turns()
    review_seconds(record)  # the first run reads the model's file and warms the imports
    secs, review = review_seconds(record)
    turns = len(review["moves"])
    better = sum(1 for p in review["positions"] if p.get("better"))
    where = "Pyodide, Python" if sys.platform == "emscripten" else "CPython"
    from splendor.ai import coach
    ev = coach.expert().evaluator
    net = f"the network on {ev.runner.name}" if ev is not None else "no network: the tree search judged"
    return (f"{where} {sys.version.split()[0]} ({net}): review of a {turns}-turn 2-player game "
            f"({review['actions']} actions) in {secs:.2f} s ({1000 * secs / (turns + 1):.1f} ms a position, "
            f"pieces of {PIECE}); {better} better moves named, {len(review['turning'])} turning points")


if __name__ == "__main__":
    if "--record" in sys.argv:
        print(json.dumps(sixty_turns()))
    else:
        print(report())
