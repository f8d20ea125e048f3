"""The network's WebAssembly kernel: the committed bytes are the assembly of kernel.wat, and inside Pyodide the
kernel computes what the plain-Python reference computes (to float32 rounding: both read the same float16
weights), one row or several, and the expert's search runs on it. Needs node and node_modules (marked ``site``)."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.site


def _node():
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules/pyodide").is_dir():
        pytest.fail("node and node_modules/pyodide are needed (make test installs them)")
    return node


def test_the_committed_kernel_is_the_assembly_of_its_source():
    if not (ROOT / "node_modules/wabt").is_dir():
        pytest.fail("node_modules/wabt is needed (package.json's devDependencies; npm ci installs it)")
    printed = subprocess.run([_node(), "tools/build_kernel.mjs", "--print"], cwd=ROOT, capture_output=True,
                             text=True, check=True, timeout=120).stdout
    assert printed == (ROOT / "splendor/ai/kernel_wasm.py").read_text()


def test_the_kernel_in_pyodide_computes_the_reference_and_drives_the_search():
    done = subprocess.run([_node(), "tests/pyodide_net_check.mjs"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["platform"] == "emscripten" and out["backend"] == "wasm"
    assert out["compared"] > 500
    assert out["worst"] < 1e-5  # float32 sums of the same float16 weights
    assert out["rows_worst"] < 1e-4
    search = out["search"]
    assert search["legal"] and search["same"] and search["iterations"] == 150 and search["net"] is True
    assert search["backend"] == "wasm"


@pytest.mark.parametrize("players, search", [(2, "network on wasm"), (4, "tree search")])
def test_the_bots_bench_runs_the_expert_as_the_browser_does(players, search):
    """``tools/bench_bot_pyodide.mjs``'s expert is the worker's: at 2 players its network on the kernel (the plain-
    Python reference gave a tenth of the browser's simulations), at 4 the tree search; the table is said."""
    done = subprocess.run([_node(), "tools/bench_bot_pyodide.mjs", "1", "expert", "0.3", str(players)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    line = done.stdout.strip().splitlines()[-1]
    assert f"expert bot ({search}), {players} players" in line, line
