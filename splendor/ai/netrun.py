"""Running the expert's network: three backends behind one ``forward(x) -> outputs``, and the evaluator the
search asks.

- :class:`WasmRunner`: in the browser's worker (Pyodide), the WebAssembly SIMD kernel of ``kernel.wat`` (its bytes
  in :mod:`.kernel_wasm`) over the weights copied once into the kernel's memory as float32; the input goes in and
  the outputs come out through Pyodide's zero-copy buffer calls.
- ``NumpyRunner`` (:mod:`splendor.ai.numpy_backend`): under CPython with numpy (training, arenas, the command
  line); left out of the site, since the page never has numpy.
- :class:`PythonRunner`: the reference, plain Python in double precision (slow: tests and the canary).

All three compute the same function of the float16-rounded weights; the tests hold them within float32 rounding of
each other. :func:`runner_for` picks the fastest one available. The search sees only :class:`NetEvaluator`
(``evaluate(game) -> (moves, priors, value)``) or another object with that method (:class:`UniformEvaluator` for
search tests without a net), never a backend.
"""

import array
import math
import sys

from . import encoding as enc

_TANH = math.tanh
_EXP = math.exp


class PythonRunner:
    """The reference: the network in plain Python (double precision)."""

    name = "python"

    def __init__(self, net):
        self.layers = [([W[j * a:(j + 1) * a] for j in range(b)], bias, relu)
                       for (a, b), (W, bias, relu) in zip(net.shapes, net.layers)]

    def forward(self, x):
        h = list(x)
        for rows, bias, relu in self.layers:
            out = []
            for row, b0 in zip(rows, bias):
                s = b0 + sum(w * v for w, v in zip(row, h))
                out.append(s if not relu or s > 0.0 else 0.0)
            h = out
        return h


class WasmRunner:
    """The network in the WebAssembly kernel (Pyodide only: it needs ``js``). The kernel's memory holds, 16-byte
    aligned, each layer's W and b as float32, then two activation buffers that the layers alternate between."""

    name = "wasm"

    def __init__(self, net, rows=1):
        import js
        from pyodide.ffi import to_js

        from .kernel_wasm import WASM

        module = js.WebAssembly.Module.new(to_js(WASM))
        self.exports = js.WebAssembly.Instance.new(module).exports
        widest = max(max(a, b) for a, b in net.shapes)
        at = 0
        placed = []
        for (a, b), (W, bias, relu) in zip(net.shapes, net.layers):
            w_at = at
            at += (a * b + 3) // 4 * 4
            b_at = at
            at += (b + 3) // 4 * 4
            placed.append((w_at, b_at, a, b, 1 if relu else 0, W, bias))
        self.buf = (at, at + rows * widest)  # two activation buffers (float offsets)
        total = (at + 2 * rows * widest) * 4
        mem = self.exports.mem
        pages = (total + 65535) // 65536
        if pages > 1:
            mem.grow(pages - 1)
        heap = js.Float32Array.new(mem.buffer)
        for w_at, b_at, a, b, relu, W, bias in placed:
            heap.subarray(w_at, w_at + a * b).assign(array.array("f", W))
            heap.subarray(b_at, b_at + b).assign(array.array("f", bias))
        self.heap = heap
        self.layers = [(4 * w_at, 4 * b_at, a, b, relu) for w_at, b_at, a, b, relu, _, _ in placed]
        self.n_in = net.shapes[0][0]
        self.n_out = net.shapes[-1][1]
        self.rows = rows
        self.x_view = heap.subarray(self.buf[0], self.buf[0] + rows * self.n_in)
        last = self.buf[(len(self.layers) - 1) % 2 == 0]
        self.y_view = heap.subarray(last, last + rows * self.n_out)
        self.out = array.array("f", bytes(4 * rows * self.n_out))
        self.dense = self.exports.dense

    def forward(self, x):
        return self.forward_rows(x, 1)

    def forward_rows(self, x, rows):
        """The outputs of ``rows`` inputs laid end to end in ``x``: one list, ``rows`` x outputs."""
        self.x_view.assign(array.array("f", x) if rows == self.rows else _padded(x, self.rows * self.n_in))
        dense = self.dense
        src, dst = self.buf
        for w, b, a, m, relu in self.layers:
            dense(w, b, 4 * src, 4 * dst, a, m, rows, relu)
            src, dst = dst, src
        self.y_view.assign_to(self.out)
        return self.out[:rows * self.n_out].tolist()


def _padded(x, n):
    out = array.array("f", x)
    out.extend([0.0] * (n - len(out)))
    return out


def runner_for(net, prefer=None):
    """The fastest backend here for ``net``: the kernel in Pyodide, numpy where it imports, else plain Python.
    ``prefer``: 'wasm', 'numpy' or 'python' to choose."""
    if prefer is None:
        if sys.platform == "emscripten":
            prefer = "wasm"
        else:
            from importlib.util import find_spec

            prefer = "numpy" if find_spec("numpy") is not None else "python"
    if prefer == "numpy":
        from .numpy_backend import NumpyRunner

        return NumpyRunner(net)
    return {"wasm": WasmRunner, "python": PythonRunner}[prefer](net)


class NetEvaluator:
    """What the search asks of the network: ``evaluate(game)`` for the seat to move in an action phase gives (the
    legal moves, one per move index, their priors summing to 1, the mover's value in [-1, 1])."""

    def __init__(self, runner):
        self.runner = runner
        self.evaluations = 0

    def evaluate(self, game):
        moves, index = enc.legal_indexed(game)
        out = self.runner.forward(enc.encode(game))
        self.evaluations += 1
        logits = [out[i] for i in index]
        top = max(logits)
        ex = [_EXP(v - top) for v in logits]
        s = sum(ex)
        return moves, [e / s for e in ex], _TANH(out[enc.ACTION_COUNT])


class UniformEvaluator:
    """A stand-in without a network (search tests): every move equally likely, every position even."""

    evaluations = 0

    def evaluate(self, game):
        moves, _ = enc.legal_indexed(game)
        self.evaluations += 1
        return moves, [1.0 / len(moves)] * len(moves), 0.0
