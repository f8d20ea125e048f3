// Each ladder level's time per move in Pyodide, as the page's worker plays it: the level's own counts and the
// browser's time cap (splendor.ai.protocol.default_budget), the WebAssembly kernel registered first
// (splendor/web/wasm_net.py), under node with the shipped Pyodide (the same V8 engine as Chromium).
//
//   node tools/bench_levels_pyodide.mjs [positions per seed, default 3] [players, default 2]
//
// Plays medium against medium from a few seeds and, every few moves, asks each level for a move from the same
// positions; prints per level the median, 95th percentile and most seconds a move and the median iterations, then
// whether any level's median is above the expert's (the bar: no level slower in the browser than the
// expert). Each level's first move is left out (it reads the network file and builds the kernel: once a page).
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const perSeed = Number(process.argv[2] || 3);
const players = Number(process.argv[3] || 2);
if (![2, 3, 4].includes(players)) throw new Error(`players must be 2, 3 or 4, not ${process.argv[3]}`);
const index = process.env.PYODIDE_INDEX || join(root, "node_modules/pyodide");
const { loadPyodide } = await import(pathToFileURL(join(index, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: index + "/" });
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.globals.set("per_seed", perSeed);
py.globals.set("players", players);
console.log(py.runPython(`
import random, statistics, sys, time
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
import splendor
from splendor import ai
from splendor.ai.ladder import NAMES
from splendor.ai.protocol import default_budget
from splendor.web import wasm_net  # registers the kernel, as the page's worker does
positions = []
for seed in (3, 5, 8, 13):
    game = splendor.new_game(players=players, seed=seed)
    for i in range(per_seed):
        for j in range(6):
            if game.is_over:
                break
            game.apply(ai.get_bot("medium").choose(game.observation(game.current_player), random.Random(j), None))
        if game.is_over:
            break
        positions.append(game.observation(game.current_player))
lines = [f"{players} players, {len(positions)} positions, Pyodide {sys.version.split()[0]} under node; "
         "seconds a move as the worker plays each level (its counts, capped at the browser's time):"]
medians = {}
for level in NAMES:
    ai.get_bot(level).decide(positions[0], random.Random(0), default_budget(level, players))  # (files read, kernel)
    secs, its = [], []
    for k, obs in enumerate(positions):
        start = time.perf_counter()
        _, info = ai.get_bot(level).decide(obs, random.Random(k), default_budget(level, players))
        secs.append(time.perf_counter() - start)
        its.append(info.get("iterations", 0))
    secs.sort()
    medians[level] = statistics.median(secs)
    lines.append(f"  {level:<9} median {medians[level]:.3f} s, p95 {secs[min(len(secs) - 1, int(0.95 * len(secs)))]:.3f}"
                 f", max {secs[-1]:.3f}; iterations median {statistics.median(its):.0f} "
                 f"(budget {default_budget(level, players).to_dict()})")
slower = [n for n in NAMES if medians[n] > medians["expert"]]
lines.append("no level is slower than the expert" if not slower else f"slower than the expert: {', '.join(slower)}")
"\\n".join(lines)
`));
