// The net-guided expert's figures of record under Pyodide (the browser's Python, run under node: the same V8 as
// Chromium, no browser needed):
//
//   node tools/bench_net_pyodide.mjs [positions per seed, default 3] [seconds, default 0.8] [net file]
//
// Prints: which backend runs the network, microseconds per evaluation called from Python (the WebAssembly kernel,
// and the plain-Python reference on the same input for comparison), the encoder's microseconds, and the PUCT
// search's simulations completed in the browser's budget (median, least, most over positions reached by medium
// bots from four seeds) with seconds per move, and the same positions' rate from the best of three searches of 400
// simulations (a busy machine's pauses stop a timed search early; the best of three is what a quiet one gives). The
// net file defaults to splendor/ai/expert_net.json; the positions are of the table the network plays (its file's
// "players": node tools/bench_net_pyodide.mjs 3 0.8 NET_4P.json for a 4-player network).
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const perSeed = Number(process.argv[2] || 3);
const seconds = Number(process.argv[3] || 0.8);
const netFile = process.argv[4] ? resolve(process.argv[4]) : join(root, "splendor/ai/expert_net.json");
const index = process.env.PYODIDE_INDEX || join(root, "node_modules/pyodide");
const { loadPyodide } = await import(pathToFileURL(join(index, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: index + "/" });
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.FS.mkdirTree("/netdir");
py.FS.mount(py.FS.filesystems.NODEFS, { root: dirname(netFile) }, "/netdir");
py.globals.set("per_seed", perSeed);
py.globals.set("budget_seconds", seconds);
py.globals.set("net_path", "/netdir/" + netFile.split("/").pop());
console.log(py.runPython(`
import random, statistics, sys, time
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
import splendor
from splendor import ai
from splendor.ai import encoding, expert, netrun
from splendor.web import wasm_net  # registers the kernel
net, problem = expert.load_net(net_path)
assert net is not None, problem
wasm = netrun.runner_for(net)
ref = netrun.runner_for(net, "python")
players = net.players
game = splendor.new_game(players=players, seed=3)
x = encoding.encode(game)
def per_call(f, n):
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            f()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6
evaluator = netrun.NetEvaluator(wasm, encoding.LAYOUTS[players].values)
lines = [f"Pyodide {sys.version.split()[0]} under node; {players} players; network {net.shapes[0][0]}->" + "->".join(str(b) for _, b in net.shapes)
         + f" ({net.parameters} parameters), backend {wasm.name}",
         f"forward {per_call(lambda: wasm.forward(x), 2000):.1f} us (plain-Python reference {per_call(lambda: ref.forward(x), 3):.0f} us); "
         f"encode {per_call(lambda: encoding.encode(game), 2000):.1f} us; evaluate (encode, forward, priors) "
         f"{per_call(lambda: evaluator.evaluate(game), 2000):.1f} us"]
bot = expert.ExpertBot(net=net)
rows = []
rates = []
for seed in (3, 5, 8, 13):
    game = splendor.new_game(players=players, seed=seed)
    for i in range(per_seed):
        for j in range(6):
            if game.is_over:
                break
            game.apply(ai.get_bot("medium").choose(game.observation(game.current_player), random.Random(j), None))
        if game.is_over or game.phase != "action":
            continue
        obs = game.observation(game.current_player)
        start = time.perf_counter()
        _, info = bot.decide(obs, random.Random(1), {"seconds": budget_seconds})
        rows.append((info.get("iterations", 0), time.perf_counter() - start))
        best = 1e9
        for _ in range(3):  # the same position at a fixed count, best of three: what a quiet machine gives
            start = time.perf_counter()
            bot.decide(obs, random.Random(1), {"iterations": 400})
            best = min(best, time.perf_counter() - start)
        rates.append(400 / best * budget_seconds)
its = [r[0] for r in rows]
secs = sorted(r[1] for r in rows)
lines.append(f"PUCT search, budget {budget_seconds} s: {len(its)} positions, simulations median {statistics.median(its):.0f}, "
             f"min {min(its)}, max {max(its)}; seconds per move median {statistics.median(secs):.3f}, max {secs[-1]:.3f}")
lines.append(f"simulations in {budget_seconds} s at the rate of the best of three 400-simulation searches of each position "
             f"(unmoved by a busy machine's pauses): median {statistics.median(rates):.0f}, min {min(rates):.0f}, max {max(rates):.0f}")
"\\n".join(lines)
`));
