// For tests/test_ai_kernel.py: the network's WebAssembly kernel inside Pyodide (under node), against the plain-Python
// reference, on random networks and positions; and an expert's search running on the kernel. Prints one JSON line.
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const index = process.env.PYODIDE_INDEX || join(root, "node_modules/pyodide");
const { loadPyodide } = await import(pathToFileURL(join(index, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: index + "/" });
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
console.log(py.runPython(`
import json, random, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo")
import splendor
from splendor.ai import encoding, netfile, netrun
from splendor.web import wasm_net  # registers the kernel
from splendor.ai.expert import ExpertBot
out = {"platform": sys.platform, "worst": 0.0, "compared": 0}
rng = random.Random(5)
games = []
g = splendor.new_game(players=2, seed=11)
while not g.is_over and len(games) < 12:
    g.apply(rng.choice(g.legal_actions()))
    if g.phase == "action":
        games.append(g.copy())
for seed, hidden in ((1, (16,)), (2, (64, 32)), (3, (256, 256))):
    net = netfile.read_net(netfile.write_net(netfile.random_net(seed=seed, hidden=hidden)))
    wasm = netrun.runner_for(net)
    ref = netrun.runner_for(net, "python")
    out["backend"] = wasm.name
    for game in games[::3]:
        x = encoding.encode(game)
        a, b = ref.forward(x), wasm.forward(x)
        scale = max(1.0, max(abs(v) for v in a))
        out["worst"] = max(out["worst"], max(abs(u - v) for u, v in zip(a, b)) / scale)
        out["compared"] += len(a)
    if hidden == (64, 32):  # several rows at once: each row as alone
        xs = [encoding.encode(gm) for gm in games[:3]]
        wide = wasm_net.WasmRunner(net, rows=3)
        rows = wide.forward_rows([v for x in xs for v in x], 3)
        n = net.shapes[-1][1]
        out["rows_worst"] = max(abs(rows[k * n + j] - v) for k, x in enumerate(xs) for j, v in enumerate(ref.forward(x)))
net = netfile.random_net(seed=4, hidden=(32,))
bot = ExpertBot(net=net)
game = games[4]
obs = game.observation(game.current_player)
first = bot.decide(obs, random.Random(3), {"iterations": 150})
again = bot.decide(obs, random.Random(3), {"iterations": 150})
out["search"] = {"action": str(first[0]), "legal": first[0] in game.legal_actions(), "same": str(again[0]) == str(first[0])
                 and first[1]["candidates"] == again[1]["candidates"], "iterations": first[1]["iterations"],
                 "net": first[1].get("net"), "backend": first[1].get("backend")}
json.dumps(out)
`));
