// How many search iterations a search bot (hard or expert) gets from the browser's 0.8 s budget in Pyodide (the
// same V8 engine as Chromium, run under node with the shipped Pyodide; no browser needed), and how long its moves
// take there. The arena's default budget (splendor/training/arena.py DEFAULT_BUDGET, 400 iterations) is chosen from this.
//
//   node tools/bench_bot_pyodide.mjs [positions per seed, default 3] [level, default hard] [seconds, default 0.8]
//                                    [players, default 2]
//   node tools/bench_bot_pyodide.mjs [positions per seed] levels 0 [players]
//
// The second form times every ladder level as the page's worker plays it (its own counts, with the browser's time
// cap: splendor.ai.protocol.default_budget) on the same positions, and says whether any level's median move is
// slower than the expert's (no level may be). Each level's first move is left out (files read, kernel built).
//
// The bots are made as the page's worker makes them: the WebAssembly kernel is registered first
// (splendor/web/wasm_net.py), so the expert's network at 2 players runs where the browser runs it (without it, the
// plain-Python reference ran the network and the expert's figure was a tenth of the browser's); the line says
// which backend the expert's network used, and at 3 and 4 players which search the expert is.
// Plays medium against medium from a few seeds and, every few moves, asks the bot for a move with the time budget;
// prints the median, least and most iterations it completed and the seconds per move (median, 95th percentile,
// most), and what one evaluation by the expert's value model costs (tools/bench_value_model.py). The first move is timed from before the bot is made, so the expert's includes reading its weights file.
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const perSeed = Number(process.argv[2] || 3);
const level = process.argv[3] || "hard";
const seconds = Number(process.argv[4] || 0.8);
const players = Number(process.argv[5] || 2);
if (![2, 3, 4].includes(players)) throw new Error(`players must be 2, 3 or 4, not ${process.argv[5]}`);
// PYODIDE_INDEX: another folder holding the same Pyodide (e.g. a built site's runtime/pyodide)
const index = process.env.PYODIDE_INDEX || join(root, "node_modules/pyodide");
const { loadPyodide } = await import(pathToFileURL(join(index, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: index + "/" });
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.globals.set("per_seed", perSeed);
py.globals.set("level", level);
py.globals.set("budget_seconds", seconds);
py.globals.set("players", players);
console.log(py.runPython(`
import random, statistics, sys, time
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
import splendor
from splendor import ai
from splendor.web import wasm_net  # registers the kernel, as the page's worker does
rows = []
first = None
backend = ""
positions = []  # every few moves of medium against medium, from a few seeds: the same for every level timed
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
for obs in positions if level != "levels" else ():
    start = time.perf_counter()
    _, info = ai.get_bot(level).decide(obs, random.Random(1), {"seconds": budget_seconds})
    dt = time.perf_counter() - start
    if first is None:
        first = dt
    if info.get("iterations"):
        rows.append((info["iterations"], dt))
    backend = backend or (f"network on {info['backend']}" if info.get("backend") else
                          "network search" if info.get("net") else "tree search" if level == "expert" else "")

def each_level():
    from splendor.ai.ladder import NAMES
    from splendor.ai.protocol import default_budget
    lines = [f"{players} players, {len(positions)} positions, Pyodide {sys.version.split()[0]} under node; seconds a "
             "move as the worker plays each level (its counts, capped at the browser's time):"]
    medians = {}
    for name in NAMES:
        ai.get_bot(name).decide(positions[0], random.Random(0), default_budget(name, players))  # (files, kernel)
        secs, its = [], []
        for k, obs in enumerate(positions):
            start = time.perf_counter()
            _, info = ai.get_bot(name).decide(obs, random.Random(k), default_budget(name, players))
            secs.append(time.perf_counter() - start)
            its.append(info.get("iterations", 0))
        secs.sort()
        medians[name] = statistics.median(secs)
        lines.append(f"  {name:<9} median {medians[name]:.3f} s, p95 {secs[min(len(secs) - 1, int(0.95 * len(secs)))]:.3f}"
                     f", max {secs[-1]:.3f}; iterations median {statistics.median(its):.0f} "
                     f"(budget {default_budget(name, players).to_dict()})")
    slower = [n for n in NAMES if medians[n] > medians["expert"]]
    lines.append("no level is slower than the expert" if not slower else f"slower than the expert: {', '.join(slower)}")
    return "\\n".join(lines)


its = [r[0] for r in rows] or [0]
secs = sorted(r[1] for r in rows) or [0.0]
p95 = secs[min(len(secs) - 1, int(0.95 * len(secs)))]
sys.path.insert(0, "/repo/tools")
import bench_value_model
each_level() if level == "levels" else (bench_value_model.report() + "; " + f"{level} bot ({backend or 'its search'}), {players} players, budget {budget_seconds} s, "
 f"Pyodide {sys.version.split()[0]} under node: {len(its)} positions, "
 f"iterations median {statistics.median(its):.0f}, min {min(its)}, max {max(its)}; seconds per move median "
 f"{statistics.median(secs):.3f}, p95 {p95:.3f}, max {secs[-1]:.3f}; first move (bot made, weights read) {first:.3f}")
`));
