"""Running the expert's network: three backends behind one ``forward(x) -> outputs``, and the evaluator the
search asks.

- ``WasmRunner`` (:mod:`splendor.web.wasm_net`, the browser's edge): in the worker (Pyodide), the WebAssembly SIMD
  kernel of ``kernel.wat`` (its bytes in :mod:`.kernel_wasm`) over the weights copied once into the kernel's memory
  as float32; the input goes in and the outputs come out through Pyodide's zero-copy buffer calls.
- ``NumpyRunner`` (:mod:`splendor.training.netnumpy`): under CPython with numpy (training, arenas, the command
  line, the tests).
- :class:`PythonRunner`: the reference, plain Python in double precision (slow: tests and the canary).

All three compute the same function of the stored weights; the tests hold them within float32 rounding of each other.
:func:`runner_for` picks the best one registered (:func:`register_backend`: the edges register theirs). The search
sees only :class:`NetEvaluator`
(``evaluate(game) -> (moves, priors, value)``, and ``evaluate_later`` for the positions it may never walk through)
or another object with ``evaluate`` (:class:`UniformEvaluator` for search tests without a net), never a backend.
"""

import math
from functools import partial

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


#: The backends the program's edges have registered: name -> (rank, class). The plain-Python reference is always
#: here; the browser's worker adds the WebAssembly kernel (splendor.web.wasm_net), the command line and the training
#: commands add numpy (splendor.training.netnumpy). splendor.ai itself imports neither the browser nor numpy.
_BACKENDS = {"python": (0, PythonRunner)}


def register_backend(name, runner, rank):
    """Offer ``runner`` (a class made from a Net, with ``forward(x)``) as backend ``name``; :func:`runner_for` takes
    the registered backend of highest ``rank``."""
    _BACKENDS[name] = (rank, runner)


def runner_for(net, prefer=None):
    """A backend for ``net``: the registered one of highest rank, or ``prefer`` ('python', 'numpy', 'wasm') by name;
    ValueError for a backend nobody registered."""
    if prefer is None:
        prefer = max(_BACKENDS, key=lambda k: _BACKENDS[k][0])
    if prefer not in _BACKENDS:
        raise ValueError(f"no {prefer!r} backend registered here (registered: {', '.join(sorted(_BACKENDS))})")
    return _BACKENDS[prefer][1](net)


class NetEvaluator:
    """What the search asks of the network: ``evaluate(game)`` for the seat to move in an action phase gives (the
    legal moves, one per move index, their priors summing to 1, the value: at two seats the mover's in [-1, 1], at
    three and four every seat's, the mover's first, each its chance to win scaled to [-1, 1];
    :func:`splendor.ai.puct.seat_values`). ``values``: how many value outputs the runner's network has (1 or the
    table's seats)."""

    def __init__(self, runner, values=1):
        self.runner = runner
        self.values = values
        self.evaluations = 0

    def evaluate(self, game):
        value, pending = self.evaluate_later(game)
        return (*pending(), value)

    def evaluate_later(self, game):
        """(the mover's value, a call that gives (the legal moves, their priors)): the network runs now, the moves
        and the softmax over them wait until the search needs them (:func:`splendor.ai.puct.make_leaf`)."""
        out = self.runner.forward(enc.encode(game))
        self.evaluations += 1
        if self.values == 1:
            return _TANH(out[enc.ACTION_COUNT]), partial(moves_and_priors, game, out)
        return seat_chances(out), partial(moves_and_priors, game, out)


def seat_chances(out):
    """Each seat's value in [-1, 1] (the mover's first) from a 3-4 seat network's outputs ``out``: twice the
    softmax of its value outputs, less one."""
    vals = out[enc.ACTION_COUNT:]
    top = max(vals)
    ex = [_EXP(v - top) for v in vals]
    s = sum(ex)
    return [2.0 * e / s - 1.0 for e in ex]


def moves_and_priors(game, out):
    """(the legal moves of ``game``'s action phase, one per move index, their priors): the softmax of the network's
    outputs ``out`` (a list) over those moves' indices."""
    moves, index = enc.legal_indexed(game)
    logits = [out[i] for i in index]
    top = max(logits)
    ex = [_EXP(v - top) for v in logits]
    s = sum(ex)
    return moves, [e / s for e in ex]


class UniformEvaluator:
    """A stand-in without a network (search tests): every move equally likely, every position even (each seat's
    chance 1 / seats)."""

    evaluations = 0

    def evaluate(self, game):
        moves, _ = enc.legal_indexed(game)
        self.evaluations += 1
        n = game.n
        return moves, [1.0 / len(moves)] * len(moves), 0.0 if n == 2 else [2.0 / n - 1.0] * n
