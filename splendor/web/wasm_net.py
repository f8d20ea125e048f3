"""The expert's network in the browser's worker: the WebAssembly kernel (splendor/ai/kernel.wat) run from Pyodide,
registered as the best backend of :func:`splendor.ai.netrun.runner_for` when imported in Pyodide (the worker
imports it at start)."""

import array
import sys

from splendor.ai import netrun


class WasmRunner:
    """The network in the WebAssembly kernel (Pyodide only: it needs ``js``). The kernel's memory holds, 16-byte
    aligned, each layer's W and b as float32, then two activation buffers that the layers alternate between."""

    name = "wasm"

    def __init__(self, net, rows=1):
        import js
        from pyodide.ffi import to_js

        from splendor.ai.kernel_wasm import WASM

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


if sys.platform == "emscripten":
    netrun.register_backend("wasm", WasmRunner, 2)
