"""Fitting the expert's policy/value network (numpy): ``python -m splendor netfit``.

From recorded games with a search's visits at each decision (:mod:`.netdata`), a multilayer perceptron of the shape
:mod:`splendor.ai.netfile` describes is fitted by Adam: the policy by cross-entropy to the visits (pruned of forced
playouts where the search added them), the value (tanh of the last output) by squared error to ``value_mix`` x the
search's value + (1 - ``value_mix``) x the game's result. Whole games are held out (every ``holdout``-th game); the
figures on them go into the file's meta: how often the net's favourite is the search's most visited move, the
policy's cross-entropy, the value's error. The market's four slots of a level, the nobles and the reserved cards are
shuffled within their groups at every batch (the game does not care about their order; the input and the move index
do). The gem colors are not renamed: the 90 cards are not closed under any renaming, and a fit that renamed them
learned a worse policy (docs/HISTORY.md).

    python -m splendor netfit --data GAMES.jsonl.gz [...] --out splendor/ai/expert_net.json --epochs 30

``--cache FILE.npz`` keeps the encoded positions (built once from the games: about a minute for 170k positions).
"""

import argparse
import json
import math
import os
import sys
import time

from ..ai import encoding as enc
from ..ai.netfile import Net, write_net


def _groups(players=enc.PLAYERS):
    """Column and move-index permutations that leave the game unchanged at a table of ``players``: (list of (x
    column blocks, move index blocks) per interchangeable group)."""
    lay = enc.LAYOUTS[players]
    base, slot, size = lay.market, lay.slot, enc.RESERVED
    market = []
    for lv in range(3):
        cols = [list(range(base + (4 * lv + s) * slot, base + (4 * lv + s + 1) * slot)) for s in range(4)]
        moves = [[enc.BUY_MARKET + 4 * lv + s, enc.RESERVE_MARKET + 4 * lv + s] for s in range(4)]
        market.append((cols, moves))
    reserved = []
    for k in range(players):
        start = lay.reserved + k * 3 * size
        cols = [list(range(start + j * size, start + (j + 1) * size)) for j in range(3)]
        moves = [[enc.BUY_RESERVED + j] if k == 0 else [] for j in range(3)]
        reserved.append((cols, moves))
    at, width, count = lay.noble_at, lay.noble, lay.nobles
    nobles = [([list(range(at + j * width, at + (j + 1) * width)) for j in range(count)], [[] for _ in range(count)])]
    return market + reserved + nobles


def permutation(rng, players=enc.PLAYERS):
    """A random (x column order, move order) from shuffling each interchangeable group."""
    import numpy as np

    xcols = np.arange(enc.inputs_for(players))
    mcols = np.arange(enc.ACTION_COUNT)
    for cols, moves in _groups(players):
        order = rng.permutation(len(cols))
        for dst, src in enumerate(order):
            xcols[cols[dst]] = cols[src]
            for a, b in zip(moves[dst], moves[src]):
                mcols[a] = b
    return xcols, mcols


def shuffle_batch(x, pi, rng, players=enc.PLAYERS):
    """A batch's inputs ``x`` and policy targets ``pi`` (rows) with one random shuffle of the interchangeable groups
    (:func:`permutation`): the input's column i is the old column ``xc[i]``, the target's move j the old move
    ``mc[j]``, so each row is the encoding of the shuffled position and the target its visits there."""
    xc, mc = permutation(rng, players)
    return x[:, xc], pi[:, mc]


class MLP:
    """The network being fitted, float32 numpy arrays: ``W[k]`` (in x out) and ``b[k]``; relu between layers."""

    def __init__(self, sizes, rng):
        import numpy as np

        self.W = [(rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32)
                  for a, b in zip(sizes, sizes[1:])]
        self.b = [np.zeros(b, np.float32) for b in sizes[1:]]

    def forward(self, x):
        import numpy as np

        hs = [x]
        h = x
        for k, (W, b) in enumerate(zip(self.W, self.b)):
            h = h @ W + b
            if k < len(self.W) - 1:
                h = np.maximum(h, 0.0)
            hs.append(h)
        return hs

    def to_net(self, meta, players=enc.PLAYERS):
        layers = []
        for k, (W, b) in enumerate(zip(self.W, self.b)):
            layers.append((W.T.astype("float16").astype(float).ravel().tolist(),
                           b.astype("float16").astype(float).tolist(), k < len(self.W) - 1))
        return Net(layers, players, meta=meta)

    @classmethod
    def from_net(cls, net):
        import numpy as np

        m = cls.__new__(cls)
        m.W = [np.asarray(W, np.float32).reshape(b_len, a).T.copy() for (a, b_len), (W, _, _) in
               zip(net.shapes, net.layers)]
        m.b = [np.asarray(b, np.float32) for _, b, _ in net.layers]
        return m


def _softmax(z):
    import numpy as np

    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def losses(model, x, pi, vt, pw=None, value_weight=1.0):
    """(policy cross-entropy, value loss, top-1 agreement, gradients) of a batch; ``pw`` (optional) weighs each
    position's policy term (the value's terms all weigh ``value_weight``). The value loss: at two seats (``vt`` one
    number a row) the squared error of tanh of the value output; at three and four (``vt`` a row of each seat's
    share of the win) the cross-entropy of the softmax of the value outputs."""
    import numpy as np

    hs = model.forward(x)
    out = hs[-1]
    logits = out[:, :enc.ACTION_COUNT]
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    ce_rows = -(pi * np.log(p + 1e-9)).sum(axis=1)
    n = len(x)
    if pw is None:
        ce = ce_rows.mean()
        scale = 1.0 / n
    else:
        total = max(float(pw.sum()), 1e-9)
        ce = float((ce_rows * pw).sum()) / total
        scale = (pw / total).astype(np.float32)[:, None]
    top1 = (logits.argmax(axis=1) == pi.argmax(axis=1)).mean()
    g = np.empty_like(out)
    g[:, :enc.ACTION_COUNT] = (p - pi) * scale
    if vt.ndim == 1:
        v = np.tanh(out[:, enc.ACTION_COUNT])
        mse = ((v - vt) ** 2).mean()
        g[:, enc.ACTION_COUNT] = 2.0 * value_weight * (v - vt) * (1.0 - v * v) / n
    else:
        q = _softmax(out[:, enc.ACTION_COUNT:])
        mse = float(-(vt * np.log(q + 1e-9)).sum(axis=1).mean())
        g[:, enc.ACTION_COUNT:] = value_weight * (q - vt) / n
    grads = []
    for k in range(len(model.W) - 1, -1, -1):
        grads.append((hs[k].T @ g, g.sum(axis=0)))
        if k:
            g = (g @ model.W[k].T) * (hs[k] > 0)
    return ce, mse, top1, grads[::-1]


def fit(data, epochs=20, batch=256, lr=1e-3, hidden=(256, 256), value_mix=0.5, holdout=10, seed=1,
        weight_decay=1e-4, log=print, start=None, shallow_weight=1.0, value_weight=1.0):
    """Fit a network to ``data`` (:func:`.netdata.build`'s arrays); returns (MLP, figures on the held-out games).
    ``shallow_weight``: the policy's weight on decisions of searches under 800 simulations (their values count
    whole); ``value_weight``: the value loss's weight beside the policy's (a few hundred games' results, shared by
    every position of a game, are learned by heart long before the policy is: a lighter value lets the policy fit
    longer)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    held = data["game"] % holdout == 0
    tr = np.flatnonzero(~held)
    te = np.flatnonzero(held)
    x, pi = data["x"], data["pi"]
    players = seats_of(data)
    if players == 2:
        vt = (value_mix * data["v"] + (1.0 - value_mix) * data["z"]).astype(np.float32)
    else:
        vt = share_targets(data["z"], data["v"], value_mix)
    pw = None
    if shallow_weight != 1.0 and "sims" in data:
        pw = np.where(data["sims"] >= 800, 1.0, shallow_weight).astype(np.float32)
    lay = enc.LAYOUTS[players]
    model = MLP.from_net(start) if start is not None else MLP([lay.inputs, *hidden, lay.outputs], rng)
    m = [np.zeros_like(w) for w in model.W] + [np.zeros_like(b) for b in model.b]
    s = [np.zeros_like(w) for w in model.W] + [np.zeros_like(b) for b in model.b]
    batch = max(1, min(batch, len(tr)))
    steps = epochs * (len(tr) // batch)
    t = 0
    figures = {}
    for epoch in range(epochs):
        started = time.time()
        order = rng.permutation(tr)
        tot = [0.0, 0.0, 0.0]
        nb = len(tr) // batch
        for k in range(nb):
            idx = np.sort(order[k * batch:(k + 1) * batch])
            xb, pb = shuffle_batch(x[idx], pi[idx], rng, players)
            ce, mse, top1, grads = losses(model, xb, pb, vt[idx], None if pw is None else pw[idx], value_weight)
            tot[0] += ce
            tot[1] += mse
            tot[2] += top1
            t += 1
            rate = lr * 0.5 * (1.0 + math.cos(math.pi * t / steps))
            params = model.W + model.b
            flat = [gw for gw, _ in grads] + [gb for _, gb in grads]
            for j, (p, gr) in enumerate(zip(params, flat)):
                if j < len(model.W):
                    gr = gr + weight_decay * p
                m[j] = 0.9 * m[j] + 0.1 * gr
                s[j] = 0.999 * s[j] + 0.001 * gr * gr
                p -= rate * (m[j] / (1 - 0.9 ** t)) / (np.sqrt(s[j] / (1 - 0.999 ** t)) + 1e-8)
        figures = evaluate(model, data, te, vt)
        log(f"epoch {epoch + 1}/{epochs}: train ce {tot[0] / nb:.3f} value {'mse' if players == 2 else 'ce'} "
            f"{tot[1] / nb:.3f} top-1 "
            f"{tot[2] / nb:.3f}; held out {json.dumps(figures)} ({time.time() - started:.0f} s)")
    return model, figures


def share_targets(z, v, mix):
    """The value targets at 3-4 seats: each seat's share of the win ``z`` (rows, the mover's first), the mover's own
    mixed with the search's chance for it, ``mix`` x (``v`` + 1) / 2 + (1 - ``mix``) x its share (a search's value
    is a far steadier target than one game's result), the others' shares scaled to the rest (evenly where the mover
    won alone), so that every row still sums to one."""
    import numpy as np

    z = z.astype(np.float64)
    mover = mix * (np.clip(v, -1.0, 1.0) + 1.0) / 2.0 + (1.0 - mix) * z[:, 0]
    rest = z[:, 1:]
    left = rest.sum(axis=1, keepdims=True)
    even = np.full_like(rest, 1.0 / rest.shape[1])
    others = np.where(left > 0, rest / np.maximum(left, 1e-12), even) * (1.0 - mover)[:, None]
    return np.concatenate([mover[:, None], others], axis=1).astype(np.float32)


def seats_of(data):
    """The table size of :func:`.netdata.build`'s arrays: 2 where a result is one number, else its seats."""
    z = data["z"]
    return 2 if z.ndim == 1 else int(z.shape[1])


def evaluate(model, data, rows, vt=None):
    """Figures on ``rows``: top-1 agreement with the most visited move (``top1``; ``top1_800`` on the decisions of
    800-simulation searches where the data says so), policy cross-entropy; at two seats the value's squared error
    against the result (``value_mse_result``) and how often the value's sign is the result's (``value_sign``); at
    three and four the value's cross-entropy against the shares of the win (``value_ce``) and how often the seat
    it gives the best chance is a winner (``value_top``)."""
    import numpy as np

    lay = enc.LAYOUTS[seats_of(data)]
    out = []
    for k in range(0, len(rows), 4096):
        out.append(model.forward(data["x"][rows[k:k + 4096]])[-1])
    out = np.concatenate(out) if out else np.zeros((0, lay.outputs), np.float32)
    pi = data["pi"][rows]
    logits = out[:, :enc.ACTION_COUNT]
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    agree = logits.argmax(axis=1) == pi.argmax(axis=1)
    z = data["z"][rows]
    fig = {"positions": int(len(rows)), "top1": round(float(agree.mean()), 4),
           "policy_ce": round(float(-(pi * np.log(p + 1e-9)).sum(axis=1).mean()), 4)}
    if lay.values == 1:
        v = np.tanh(out[:, enc.ACTION_COUNT])
        fig["value_mse_result"] = round(float(((v - z) ** 2).mean()), 4)
        fig["value_sign"] = round(float(((v > 0) == (z > 0))[z != 0].mean()), 4)
    else:
        q = _softmax(out[:, enc.ACTION_COUNT:])
        fig["value_ce"] = round(float(-(z * np.log(q + 1e-9)).sum(axis=1).mean()), 4)
        fig["value_top"] = round(float((z[np.arange(len(z)), q.argmax(axis=1)] > 0).mean()), 4) if len(z) else 0.0
    if "sims" in data:
        deep = data["sims"][rows] >= 800
        if deep.any():
            fig["top1_800"] = round(float(agree[deep].mean()), 4)
    return fig


def command_words(argv):
    """A command's words for a file's meta, each path's folders left out (no machine's folders in a file)."""
    return [os.path.basename(w) if os.sep in w else w for w in argv]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m splendor netfit", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", nargs="+", default=[], help="game records with decisions (.jsonl or .jsonl.gz)")
    ap.add_argument("--cache", help="an .npz of encoded positions: read if present, else written after the build")
    ap.add_argument("--out", required=True, help="the network file to write")
    ap.add_argument("--start", help="a network file to continue from (same shape)")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--hidden", default="256,256", help="hidden layers' widths, multiples of 8")
    ap.add_argument("--value-mix", type=float, default=0.5,
                    help="value target: this share of the search's value, the rest the game's result")
    ap.add_argument("--shallow-weight", type=float, default=1.0,
                    help="the policy's weight on decisions searched under 800 simulations (default 1)")
    ap.add_argument("--value-weight", type=float, default=1.0, help="the value loss's weight (default 1)")
    ap.add_argument("--holdout", type=int, default=10, help="every Nth game is held out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                    help="the table size whose games train the network (default 2)")
    ap.add_argument("--dtype", default="int8", choices=("int8", "float16"),
                    help="how the file stores the weights (int8: a scale per row, half the bytes; default)")
    a = ap.parse_args(argv)
    import numpy as np

    from . import netdata
    from ..ai.netfile import read_net

    hidden = tuple(int(h) for h in a.hidden.split(","))
    if any(h % 8 for h in hidden):
        ap.error("hidden widths must be multiples of 8")
    if a.cache and os.path.exists(a.cache):
        data = dict(np.load(a.cache))
    else:
        if not a.data:
            ap.error("give --data (or an existing --cache)")
        data = netdata.build(a.data, jobs=a.jobs, players=a.players)
        if a.cache:
            np.savez(a.cache, **data)
    start = None
    if a.start:
        with open(a.start, encoding="utf-8") as f:
            start = read_net(f.read())
    print(f"{len(data['x'])} positions from {int(data['game'].max()) + 1 if len(data['game']) else 0} games",
          flush=True)
    model, figures = fit(data, epochs=a.epochs, batch=a.batch, lr=a.lr, hidden=hidden, value_mix=a.value_mix,
                         holdout=a.holdout, seed=a.seed, start=start, shallow_weight=a.shallow_weight,
                         value_weight=a.value_weight,
                         log=lambda s: print(s, flush=True))
    words = command_words(argv if argv is not None else sys.argv[1:])
    meta = {"command": "python -m splendor netfit " + " ".join(words),  # file names, not this machine's folders
            "data": [os.path.basename(p) for p in a.data] or [os.path.basename(a.cache)],
            "positions": int(len(data["x"])), "held_out": figures}
    text = write_net(model.to_net(meta, seats_of(data)), dtype=a.dtype)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {a.out}: {len(text)} bytes; held out {json.dumps(figures)}")
    return 0
