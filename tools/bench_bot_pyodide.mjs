// How many search iterations the hard bot gets from the browser's 0.8 s budget in Pyodide (the same V8 engine
// as Chromium, run under node with the shipped Pyodide; no browser needed). The arena's default budget
// (splendor/ai/arena.py DEFAULT_BUDGET, 400 iterations) is chosen from this figure.
//
//   node tools/bench_bot_pyodide.mjs [positions per seed, default 3]
//
// Plays medium against medium from a few seeds and, every few moves, asks the hard bot for a move with 0.8 s;
// prints the median, least and most iterations it completed (the arena prints CPython's time per move).
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const perSeed = Number(process.argv[2] || 3);
const { loadPyodide } = await import(pathToFileURL(join(root, "node_modules/pyodide/pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: join(root, "node_modules/pyodide") + "/" });
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.globals.set("per_seed", perSeed);
console.log(py.runPython(`
import random, statistics, sys, time
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
import splendor
from splendor import ai
rows = []
for seed in (3, 5, 8, 13):
    game = splendor.new_game(players=2, seed=seed)
    for i in range(per_seed):
        for j in range(6):
            if game.is_over:
                break
            game.apply(ai.get_bot("medium").choose(game.observation(game.current_player), random.Random(j), None))
        if game.is_over:
            break
        start = time.perf_counter()
        _, info = ai.get_bot("hard").decide(game.observation(game.current_player), random.Random(1), {"seconds": 0.8})
        if info.get("iterations"):
            rows.append((info["iterations"], time.perf_counter() - start))
its = [r[0] for r in rows]
(f"hard bot, budget 0.8 s, Pyodide {sys.version.split()[0]} under node: {len(its)} positions, iterations "
 f"median {statistics.median(its):.0f}, min {min(its)}, max {max(its)}; "
 f"seconds median {statistics.median(r[1] for r in rows):.2f}")
`));
