// The game review's cost under Pyodide (the same V8 engine as Chromium, run under node with the shipped Pyodide;
// no browser needed), with the same review under CPython printed beside it as the baseline:
//
//   node tools/bench_review_pyodide.mjs
//
// Reviews a finished 2-player game of about 60 turns piece by piece, as the page's worker does
// (tools/bench_review.py). Target: at most 10 s on a desktop.
import { execFileSync } from "node:child_process";
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const python = process.env.PYTHON || "python3";
const record = execFileSync(python, [join(root, "tools/bench_review.py"), "--record"], { encoding: "utf8" });
const index = process.env.PYODIDE_INDEX || join(root, "node_modules/pyodide");
const { loadPyodide } = await import(pathToFileURL(join(index, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: index + "/" });
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/repo");
py.globals.set("record_text", record);
console.log(py.runPython(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo/tools")
import bench_review
bench_review.report(json.loads(record_text))
`));
console.log(execFileSync(python, ["-c", `import json, sys; sys.path.insert(0, ${JSON.stringify(join(root, "tools"))}); ` +
  `import bench_review; print(bench_review.report(json.loads(sys.stdin.read())))`], { input: record, encoding: "utf8" }).trim());
