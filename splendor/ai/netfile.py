"""The expert's network file: what it holds, how it is read, and why a file is refused.

A network file is JSON (docs/NETWORK.md describes it field by field)::

    {"format": "splendor-net", "version": 1,          the file format and its version (NET_FORMAT_VERSION)
     "encoding": 1,                                   the input and move index's version (encoding.ENCODING_VERSION)
     "players": 2,                                    the table size it plays (2, 3 or 4)
     "inputs": 408, "actions": 61,                    the input's length at that table and the move index's size
     "layers": [[408, 256, "relu"], [256, 256, "relu"], [256, 62, "linear"]],
     "dtype": "int8",                                 how the numbers are stored: "float16", or "int8" with a scale
     "weights": "<base64>",                           per layer, W (out x in, row by row) [int8: then each row's
                                                      float16 scale] then b (out, float16), little-endian
     "meta": {...}}                                   how it was made: data, command, held-out figures

The last layer's outputs are the move index's logits (``actions`` of them) and the value: at 2 players one number
(tanh of it is the mover's expected result in [-1, 1]), at 3 and 4 one per seat, the mover's first (their softmax
is each seat's chance to win; :class:`splendor.ai.encoding.Layout`). A file that does not fit (another format or
version, another encoding, a table size, a wrong shape, weights of the wrong length) raises :class:`NetFileError`
saying which, and the expert plays on with its tree search.

>>> net = random_net(seed=1, hidden=(16,))
>>> again = read_net(write_net(net))
>>> again.shapes == net.shapes, again.players
(True, 2)
>>> read_net(write_net(random_net(seed=1, hidden=(16,), players=4))).shapes
[(624, 16), (16, 65)]
>>> read_net('{"format": "splendor-net", "version": 9}')
Traceback (most recent call last):
...
splendor.ai.netfile.NetFileError: network file version 9 is not supported (this version reads 1)
"""

import array
import base64
import json
import math
import random
import struct
import sys

from . import encoding as enc

FORMAT = "splendor-net"
#: The file format's version (docs/NETWORK.md has the table of versions).
NET_FORMAT_VERSION = 1
ACTIVATIONS = ("relu", "linear")
#: How the weights may be stored: float16, or int8 with a float16 scale per row of W (half the bytes).
DTYPES = ("float16", "int8")


class NetFileError(ValueError):
    """A network file that cannot be used, with the reason in words."""


class Net:
    """A network read from a file: ``layers`` is a list of (W, b, relu) with W a flat sequence of out x in floats
    (row by row) and b one of out floats, the values the file stores (float16, or int8 times its row's scale), in
    float32 arrays (:func:`read_net`; a list of floats serves as well); ``shapes`` the (in, out) of each."""

    __slots__ = ("layers", "shapes", "players", "encoding", "meta")

    def __init__(self, layers, players=enc.PLAYERS, encoding=enc.ENCODING_VERSION, meta=None):
        self.layers = layers
        self.shapes = [(len(W) // len(b), len(b)) for W, b, _ in layers]
        self.players = players
        self.encoding = encoding
        self.meta = meta or {}

    @property
    def parameters(self):
        return sum(len(W) + len(b) for W, b, _ in self.layers)


def _half(values):
    """``values`` rounded to float16, as Python floats."""
    return list(struct.unpack(f"<{len(values)}e", struct.pack(f"<{len(values)}e", *values)))


def check_shapes(shapes, relus, players=enc.PLAYERS):
    """The reason a stack of layers cannot be the expert's network at a table of ``players``, or None."""
    lay = enc.LAYOUTS[players]
    if not shapes:
        return "it has no layers"
    if shapes[0][0] != lay.inputs:
        return f"its input has {shapes[0][0]} numbers, the encoding {lay.inputs}"
    for (_, out), (nxt, _) in zip(shapes, shapes[1:]):
        if out != nxt:
            return f"a layer of {out} outputs feeds one of {nxt} inputs"
        if out % 8:
            return f"a hidden layer of {out} is not a multiple of 8 (the kernel's width)"
    if shapes[-1][1] != lay.outputs:
        values = "a value" if lay.values == 1 else f"{lay.values} values"
        return f"its last layer has {shapes[-1][1]} outputs, not {enc.ACTION_COUNT} moves and {values}"
    if relus[-1]:
        return "its last layer must be linear"
    return None


def read_net(text):
    """The :class:`Net` in a network file's text; :class:`NetFileError` with the reason if it does not fit."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise NetFileError(f"the network file is not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NetFileError(f"not a network file (its format is not {FORMAT!r})")
    if data.get("version") != NET_FORMAT_VERSION:
        raise NetFileError(f"network file version {data.get('version')!r} is not supported "
                           f"(this version reads {NET_FORMAT_VERSION})")
    if data.get("encoding") != enc.ENCODING_VERSION:
        raise NetFileError(f"the network was trained for input encoding {data.get('encoding')!r}; this expert "
                           f"encodes version {enc.ENCODING_VERSION}")
    players = data.get("players")
    if players not in enc.LAYOUTS or isinstance(players, bool):
        raise NetFileError(f"the network is for {players!r} players; a table has 2, 3 or 4")
    if data.get("inputs") != enc.inputs_for(players) or data.get("actions") != enc.ACTION_COUNT:
        raise NetFileError(f"the network reads {data.get('inputs')!r} inputs and {data.get('actions')!r} moves; "
                           f"the encoding has {enc.inputs_for(players)} and {enc.ACTION_COUNT} at {players} players")
    dtype = data.get("dtype")
    if dtype not in DTYPES:
        raise NetFileError(f"weights stored as {dtype!r}; this version reads {' or '.join(DTYPES)}")
    layers = data.get("layers")
    if (not isinstance(layers, list) or not all(isinstance(l, list) and len(l) == 3 for l in layers)
            or not all(isinstance(a, int) and isinstance(b, int) and a > 0 and b > 0 and f in ACTIVATIONS
                       for a, b, f in layers)):
        raise NetFileError("the network's layers must be a list of [inputs, outputs, 'relu' or 'linear']")
    shapes = [(a, b) for a, b, _ in layers]
    relus = [f == "relu" for _, _, f in layers]
    reason = check_shapes(shapes, relus, players)
    if reason:
        raise NetFileError(f"the network does not fit the expert: {reason}")
    try:
        raw = base64.b64decode(data.get("weights", ""), validate=True)
    except (ValueError, TypeError):
        raise NetFileError("the network's weights are not base64") from None
    want = sum(_stored_bytes(a, b, dtype) for a, b in shapes)
    if len(raw) != want:
        raise NetFileError(f"the network's weights are {len(raw)} bytes; its layers stored as {dtype} need {want}")
    out = []
    at = 0
    for (a, b), relu in zip(shapes, relus):
        # float32 arrays, a row at a time: every stored value (a float16, or a whole number up to 127 times a
        # float16 scale) is a float32 exactly, and an array holds it in 4 bytes where a list of floats takes 32.
        W = array.array("f")
        if dtype == "float16":
            for _ in range(b):
                W.extend(struct.unpack_from(f"<{a}e", raw, at))
                at += 2 * a
        else:
            q = array.array("b", raw[at:at + a * b])
            at += a * b
            scales = struct.unpack_from(f"<{b}e", raw, at)
            at += 2 * b
            for j, scale in enumerate(scales):
                W.extend([v * scale for v in q[j * a:(j + 1) * a]])
        bias = array.array("f", struct.unpack_from(f"<{b}e", raw, at))
        at += 2 * b
        if not math.isfinite(sum(W) + sum(bias)):  # (an inf or a nan makes the sum one; finite ones cannot)
            raise NetFileError("the network's weights hold a number that is not finite")
        out.append((W, bias, relu))
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    return Net(out, data["players"], data["encoding"], meta)


def write_net(net, meta=None, dtype="float16"):
    """A network file's text for ``net``, its weights stored as ``dtype``: "float16" (rounded), or "int8" (each
    row of W as whole numbers from -127 to 127 times the row's float16 scale; biases float16)."""
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {DTYPES}, not {dtype!r}")
    raw = bytearray()
    layers = []
    for (a, b), (W, bias, relu) in zip(net.shapes, net.layers):
        if dtype == "float16":
            raw += struct.pack(f"<{a * b}e", *W)
        else:
            scales = [v or 1.0 for v in _half([max(abs(v) for v in W[j * a:(j + 1) * a]) / 127 for j in range(b)])]
            q = [max(-127, min(127, round(v / scales[j]))) for j in range(b) for v in W[j * a:(j + 1) * a]]
            raw += struct.pack(f"<{a * b}b", *q) + struct.pack(f"<{b}e", *scales)
        raw += struct.pack(f"<{b}e", *bias)
        layers.append([a, b, "relu" if relu else "linear"])
    data = {"format": FORMAT, "version": NET_FORMAT_VERSION, "encoding": net.encoding, "players": net.players,
            "inputs": enc.inputs_for(net.players), "actions": enc.ACTION_COUNT, "layers": layers, "dtype": dtype,
            "meta": meta if meta is not None else net.meta, "weights": base64.b64encode(bytes(raw)).decode("ascii")}
    return json.dumps(data, separators=(",", ":"))


def _stored_bytes(a, b, dtype):
    """Bytes of a layer of ``a`` inputs and ``b`` outputs as ``dtype``: W, (int8: the rows' scales,) b."""
    return 2 * (a * b + b) if dtype == "float16" else a * b + 2 * b + 2 * b


def random_net(seed=0, hidden=(64,), scale=None, players=enc.PLAYERS):
    """A network of random weights (float16) for a table of ``players``, for tests and canaries: ``hidden`` the
    hidden layers' widths."""
    rng = random.Random(seed)
    lay = enc.LAYOUTS[players]
    sizes = [lay.inputs, *hidden, lay.outputs]
    layers = []
    for a, b in zip(sizes, sizes[1:]):
        s = scale if scale is not None else (2.0 / a) ** 0.5
        W = _half([rng.gauss(0.0, s) for _ in range(a * b)])
        bias = _half([rng.gauss(0.0, 0.1) for _ in range(b)])
        layers.append((W, bias, b != sizes[-1]))
    return Net(layers, players, meta={"made_by": f"random_net(seed={seed}, hidden={list(hidden)})"})


def describe(net):
    """A few lines saying what a network file holds (``python -m splendor describenet FILE``)."""
    lines = [f"splendor-net version {NET_FORMAT_VERSION}, input encoding {net.encoding}, {net.players} players",
             "layers: " + " -> ".join([str(net.shapes[0][0])] + [f"{b} {'relu' if r else 'linear'}"
                                                                   for (_, b), (_, _, r) in
                                                                   zip(net.shapes, net.layers)]),
             f"parameters: {net.parameters} ({2 * net.parameters} bytes as float16, about half as int8)"]
    for k, v in sorted(net.meta.items()):
        lines.append(f"{k}: {json.dumps(v)}")
    return "\n".join(lines)


def main(argv=None):
    """``python -m splendor describenet FILE``: what a network file holds, or why it is refused."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) != 1:
        print("usage: python -m splendor describenet FILE", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as f:
            print(describe(read_net(f.read())))
    except (OSError, NetFileError) as e:
        print(f"{argv[0]}: {e}", file=sys.stderr)
        return 1
    return 0
