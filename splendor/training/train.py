"""Train the expert bot's value model: ``python -m splendor train --out PATH --seed N [--games N] [--jobs N]``.

1. Plays ``--games`` 2-player games between ``--bots`` (default medium against medium; ``expert`` or ``hard`` with
   ``--budget-iterations`` for games of the search bots: the expert plays with ``--model``, default the shipped
   weights - one step of expert iteration). Deal k of seed N is ``arena.game_seed("train-N", k)``: never one of the
   arena's deals. Every action-phase position is recorded with both seats' vectors (:mod:`splendor.ai.valuenet`;
   they begin with the linear model's features, :mod:`splendor.ai.learned`) and the game's result for seat 0 (1 a
   win, 0 a loss, a share of a shared victory). ``--save-positions PATH`` writes them to a file; ``--positions PATH``
   reads such a file instead of playing.
2. Games with k % ``--holdout`` == 0 are held out; the rest are fitted by logistic regression of the result on the
   difference between the seats' features, the same differences times the stage, whether seat 0 is to move and
   whether it started the game (the last one is left out of the model: every move the search compares shares it),
   with an L2 penalty. Newton's method, the Hessian taken from a sample of the positions (pure Python, standard
   library: no numpy needed).
   With ``--net H`` a value net of H hidden units is fitted instead (:func:`fit_net`: numpy, a training-only
   package, requirements-train.txt).
3. Prints the log loss on the held-out positions: the fitted model's, the hard bot's hand-set leaf's and a constant
   guess's; writes the model (JSON, a few kilobytes; a net a few dozen) with the settings and the figures in its
   ``meta``.

Progress and the time left are printed as games finish. Only this command (and ``--jobs``) uses processes; the model
it writes is read by ``splendor.ai.learned`` (``load_model``) in pure Python.
"""

import argparse
import math
import operator
import os
import random
import sys
import time

from ..ai import LEVELS
from ..ai.budget import Budget
from ..ai.learned import FEATURES, MODEL_FILE, ValueModel, load_model, read_model
from ..ai.valuenet import MARKET_SLOTS, NOBLE_SLOTS, ValueNet
from . import arena
from .common import (HESSIAN_SAMPLE, L2, newton, position_recorder, position_sources, read_position_files, run_games,
                     training_bot, write_positions)
from .common import read_positions  # noqa: F401  (train.read_positions: reads what --save-positions wrote)
from .train_tables import main_table

NET_L2 = 1e-4
NET_EPOCHS = 20


# -- the games ------------------------------------------------------------------------------------------------------


def one_game(task):
    """(k, [(stage, vector seat 0, vector seat 1, seat 0 to move, seat 0 started, hand-set leaf logit, table)],
    result for seat 0), or (k, [], None) when the game did not finish. A seat's vector
    (:func:`splendor.ai.valuenet.seat_vector`) begins with the linear model's features."""
    k, seed, names, iterations, model_path, explore = task
    rows = []
    watch = position_recorder(rows)
    order = names if k % 2 == 0 else names[::-1]
    bots = [training_bot(n, model_path, explore) for n in order]
    budgets = [Budget(iterations=iterations)] * 2 if iterations else None
    result = arena.play_game(bots, arena.game_seed(f"train-{seed}", k), budgets, watch=watch)
    if result["status"] != "ok":
        return k, [], None
    win = result["winners"]
    return k, rows, (1.0 / len(win) if 0 in win else 0.0)


def play(games, seed, names, iterations=None, model_path=None, jobs=1, out=print, explore=0.0):
    """[(k, rows, result)] in game order, printing progress with the time left."""
    return run_games(one_game, [(k, seed, names, iterations, model_path, explore) for k in range(games)], jobs, out,
                     chunksize=4)


# -- the fit --------------------------------------------------------------------------------------------------------
def design(rows, y):
    """Regression rows (x, y): x = feature differences, the same times the stage, to move, started."""
    out = []
    k = len(FEATURES)
    for stage, f0, f1, mv, st, *_ in rows:
        d = [a - b for a, b in zip(f0[:k], f1[:k])]
        out.append((d + [x * stage for x in d] + [mv, st], y))
    return out


def _sigmoid(z):
    if z < -30:
        return 0.0
    if z > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))


def log_loss(data, w):
    mul = operator.mul
    total = 0.0
    for x, y in data:
        p = min(1 - 1e-9, max(1e-9, _sigmoid(sum(map(mul, w, x)))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(data)


def fit(data, l2=L2, steps=25, sample=HESSIAN_SAMPLE, seed=0, out=print):
    """Logistic regression: the w minimizing the mean log loss + l2/2 |w|^2 (Newton steps, the Hessian taken from up
    to ``sample`` positions drawn with ``seed``, halved when a step does not lower the objective)."""
    n = len(data[0][0])
    N = len(data)
    mul = operator.mul
    hs = data if N <= sample else random.Random(seed).sample(data, sample)

    def gradient(w):
        g = [0.0] * n
        for x, y in data:
            r = _sigmoid(sum(map(mul, w, x))) - y
            if r:
                for i in range(n):
                    g[i] += r * x[i]
        return [gi / N for gi in g]

    def hessian(w):
        h = [[0.0] * n for _ in range(n)]
        for x, _ in hs:
            p = _sigmoid(sum(map(mul, w, x)))
            q = p * (1.0 - p)
            for i in range(n):
                qx = q * x[i]
                if qx:
                    hi = h[i]
                    for j in range(i, n):
                        hi[j] += qx * x[j]
        return h, len(hs)

    return newton(lambda w: log_loss(data, w), gradient, hessian, n, l2, steps, out)


def net_arrays(games, holdout, mix=0.0):
    """numpy arrays of the net's training and held-out positions: (first seat's vectors, second's, table numbers
    without who is to move, seat 0 to move +1/-1, target for seat 0, game number), for games k % holdout != 0 and
    == 0. The target is the game's result for seat 0; for a training position whose row carries the search's chance
    for seat 0 (an eighth item, :func:`splendor.training.selfplay.play_one`), (1 - ``mix``) x the result + ``mix`` x
    that chance. Held-out targets stay the results, so held-out losses compare across mixes."""
    import numpy as np
    parts = {True: ([], [], [], [], [], []), False: ([], [], [], [], [], [])}
    for k, rows, y in games:
        if y is None:
            continue
        held = k % holdout == 0
        a, b, t, m, r, g = parts[held]
        for row in rows:
            stage, v0, v1, mv, st, hand, table = row[:7]
            q = row[7] if len(row) > 7 else None
            a.append(v0)
            b.append(v1)
            t.append(table)
            m.append(mv)
            r.append(y if held or q is None or not mix else (1.0 - mix) * y + mix * q)
            g.append(k)
    out = []
    for key in (False, True):
        out.append(tuple(np.asarray(x, dtype=np.float64) for x in parts[key]))
    return out


def _slot_groups():
    """Columns of a seat's vector and of the table's numbers that are slots of one kind (nobles; the market's cards
    of each level), as lists of column lists: for the seat [[nobles' columns], [level 1 cards'], ...]; a reserved
    card's two numbers stay in their slot (reservations keep their order)."""
    nob = list(range(13, 13 + NOBLE_SLOTS))
    m0 = 13 + NOBLE_SLOTS
    seat = [nob] + [list(range(m0 + 4 * lv, m0 + 4 * lv + 4)) for lv in range(MARKET_SLOTS // 4)]
    table = [list(range(1 + 4 * lv, 1 + 4 * lv + 4)) for lv in range(MARKET_SLOTS // 4)]
    return seat, table


def _scaling(np, x, groups):
    """(mean, spread) of each column of ``x``, pooled within each group; a column that never changes gets spread 1."""
    mu, sd = x.mean(0), x.std(0)
    for cols in groups:
        mu[cols] = x[:, cols].mean()
        sd[cols] = x[:, cols].std()
    sd[sd < 1e-9] = 1.0
    return mu, sd


def _shuffled_slots(np, rng, seat_groups, table_groups, d, td):
    """Column orders for a batch: each group of slots in a random order; the market's levels move the same way in
    the seats' vectors and the table's (a card's shortfall and its points stay together)."""
    sp, tp = np.arange(d), np.arange(td)
    nob = seat_groups[0]
    sp[nob] = rng.permutation(nob)
    for scols, tcols in zip(seat_groups[1:], table_groups):
        order = rng.permutation(len(scols))
        sp[scols] = np.asarray(scols)[order]
        tp[tcols] = np.asarray(tcols)[order]
    return sp, tp


def fit_net(train, test, hidden=32, epochs=30, l2=1e-4, seed=0, lr=2e-3, batch=1024, out=print):
    """The :class:`~splendor.ai.valuenet.ValueNet` fitted to ``train`` (arrays of :func:`net_arrays`) by Adam on the
    mean log loss + l2/2 |weights|^2, each position seen both ways round (s, o) and (o, s). A tenth of the training
    games (k % 10 == 1: positions of one game are alike, so whole games) watches for overfitting: the weights of
    the epoch with the lowest loss on them are kept. Returns (the net's arrays, held-out log loss, best epoch)."""
    import numpy as np  # the command line checked it is there, before the games
    rng = np.random.default_rng(seed)
    A, B, T, M, Y, K = train
    n, d = A.shape
    td = T.shape[1]
    # inputs scaled to mean 0, spread 1 (the scaling is folded into the weights at the end); the slots of one kind
    # (the nobles, the four market cards of a level) share one scaling, and each batch is shown with them in a random
    # order (the same for both seats and the table): a card or noble weighs the same in every slot, and the nobles'
    # slots that a 2-player game leaves empty (4- and 5-player tables fill them) learn what the others learn
    seat_groups, table_groups = _slot_groups()
    seats = np.concatenate([A, B])
    mu_s, sd_s = _scaling(np, seats, seat_groups)
    mu_t, sd_t = _scaling(np, T, table_groups)

    def norm(a, b, t):
        return (a - mu_s) / sd_s, (b - mu_s) / sd_s, (t - mu_t) / sd_t

    watch_i, fit_i = np.nonzero(K % 10 == 1)[0], np.nonzero(K % 10 != 1)[0]
    Xa, Xb, Xt = norm(A, B, T)
    params = {
        "first": rng.normal(0, 1 / np.sqrt(2 * d + td), (hidden, d)),
        "second": rng.normal(0, 1 / np.sqrt(2 * d + td), (hidden, d)),
        "table": rng.normal(0, 1 / np.sqrt(2 * d + td), (hidden, td)),
        "to_move": np.zeros(hidden), "bias": np.full(hidden, 0.1),
        "out": rng.normal(0, 1 / np.sqrt(hidden), hidden),
    }
    mom = {k: np.zeros_like(v) for k, v in params.items()}
    vel = {k: np.zeros_like(v) for k, v in params.items()}

    def forward(p, a, b, t, m):
        c = t @ p["table"].T + p["bias"]
        z1 = a @ p["first"].T + b @ p["second"].T + c + m[:, None] * p["to_move"]
        z2 = b @ p["first"].T + a @ p["second"].T + c - m[:, None] * p["to_move"]
        h1, h2 = np.maximum(z1, 0), np.maximum(z2, 0)
        return (h1 - h2) @ p["out"], (z1, z2, h1, h2)

    def loss(p, idx=None, arrays=None):
        a, b, t, m, y = arrays if arrays is not None else (Xa[idx], Xb[idx], Xt[idx], M[idx], Y[idx])
        z, _ = forward(p, a, b, t, m)
        return float(np.mean(np.logaddexp(0, z) - y * z))

    best = (loss(params, watch_i), {k: v.copy() for k, v in params.items()}, 0)
    history = []
    step = 0
    b1, b2 = 0.9, 0.999
    for epoch in range(1, epochs + 1):
        order = rng.permutation(fit_i)
        rate = lr * 0.5 * (1 + math.cos(math.pi * (epoch - 1) / epochs))  # a cosine schedule, down to near 0
        for s0 in range(0, len(order), batch):
            idx = order[s0:s0 + batch]
            sp, tp = _shuffled_slots(np, rng, seat_groups, table_groups, d, td)
            a, b, t, m, y = Xa[idx][:, sp], Xb[idx][:, sp], Xt[idx][:, tp], M[idx], Y[idx]
            z, (z1, z2, h1, h2) = forward(params, a, b, t, m)
            g = (1 / (1 + np.exp(-z)) - y) / len(idx)
            grads = {"out": (h1 - h2).T @ g}
            d1 = np.outer(g, params["out"]) * (z1 > 0)
            d2 = -np.outer(g, params["out"]) * (z2 > 0)
            grads["first"] = d1.T @ a + d2.T @ b
            grads["second"] = d1.T @ b + d2.T @ a
            grads["table"] = (d1 + d2).T @ t
            grads["to_move"] = (d1 - d2).T @ m
            grads["bias"] = (d1 + d2).sum(0)
            step += 1
            for k, v in params.items():
                gk = grads[k] + (l2 * v if k in ("first", "second", "table", "out") else 0)
                mom[k] = b1 * mom[k] + (1 - b1) * gk
                vel[k] = b2 * vel[k] + (1 - b2) * gk * gk
                v -= rate * (mom[k] / (1 - b1 ** step)) / (np.sqrt(vel[k] / (1 - b2 ** step)) + 1e-8)
        fit_loss, watch_loss = loss(params, fit_i[:50_000]), loss(params, watch_i)
        history.append((epoch, fit_loss, watch_loss))
        if watch_loss < best[0]:
            best = (watch_loss, {k: v.copy() for k, v in params.items()}, epoch)
        out(f"  epoch {epoch}/{epochs}: log loss {fit_loss:.4f} fitted, {watch_loss:.4f} watched"
            f"{' (best so far)' if best[2] == epoch else ''}", flush=True)
    p = best[1]
    held = loss(p, arrays=(*norm(*test[:3]), test[3], test[4]))
    # fold the scaling into the weights: W ((x - mu) / sd) = (W / sd) x - (W / sd) mu
    first, second, table = p["first"] / sd_s, p["second"] / sd_s, p["table"] / sd_t
    bias = p["bias"] - first @ mu_s - second @ mu_s - table @ mu_t
    arrays = {"first": first, "second": second, "table": table, "to_move": p["to_move"], "bias": bias,
              "out": p["out"]}
    return arrays, held, best[2]


def search_vector(model):
    """The regression coefficients (:func:`design`'s order) that judge a position as ``model`` does in the search:
    its features' weights, their per-stage weights, its to-move term and 0 for the start seat (left out of models)."""
    return model.base + model.per_stage + [model.to_move, 0.0]


def model_from(w, meta):
    k = len(FEATURES)
    return ValueModel(w[:k], w[k:2 * k], w[2 * k], meta)


def main_net(args, games, seed, names, iterations, l2, argv, t0, sources):
    """Fit and write a :class:`~splendor.ai.valuenet.ValueNet` (``--net H``)."""
    import numpy as np
    train, test = net_arrays(games, args.holdout)
    if not len(train[0]) or not len(test[0]):
        print("too few finished games to fit and to judge the model: play more (--games)", file=sys.stderr)
        return 1
    print(f"{len(train[0])} positions to fit, {len(test[0])} held out (games k % {args.holdout} == 0); fitting a "
          f"net of {args.net} hidden units [{time.perf_counter() - t0:.0f} s]", flush=True)
    arrays, held, epoch = fit_net(train, test, hidden=args.net, epochs=args.epochs, l2=l2, seed=seed)
    hand, const = _baselines(games, args.holdout)
    print(f"log loss: held-out {held:.4f} (the epoch {epoch} weights); on the held-out positions the hard bot's "
          f"hand-set leaf scores {hand:.4f}, a constant guess {const:.4f} [{time.perf_counter() - t0:.0f} s]",
          flush=True)
    meta = _meta(argv, seed, games, names, iterations, args.holdout, l2, len(train[0]), len(test[0]), held, hand,
                 const, hidden=args.net, epochs=args.epochs, best_epoch=epoch, **sources)
    net = ValueNet(*(np.asarray(arrays[k]).tolist() for k in ("first", "second", "table", "to_move", "bias",
                                                               "out")), meta=meta)
    net.save(args.out)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes) [{time.perf_counter() - t0:.0f} s]")
    return 0


def _meta(argv, seed, games, names, iterations, holdout, l2, fitted, held_out, held, hand, const, **more):
    """What a model file records of how it was made (its ``meta``): the command, the games, the figures."""
    return {"command": "python -m splendor train " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seed": seed, "games": len(games), "bots": names, "budget_iterations": iterations, "holdout": holdout,
            "l2": l2, "positions_fitted": fitted, "positions_held_out": held_out,
            "held_out_log_loss": round(held, 5), "hand_leaf_held_out_log_loss": round(hand, 5),
            "constant_held_out_log_loss": round(const, 5), **more}


def _baselines(games, holdout):
    """Held-out log loss of the hard bot's hand-set leaf and of a constant guess (the training games' mean)."""
    hand = []
    ys = []
    for k, rows, y in games:
        if y is None:
            continue
        if k % holdout == 0:
            hand += [(r[5], y) for r in rows]
        else:
            ys += [y] * len(rows)
    mean = min(1 - 1e-9, max(1e-9, sum(ys) / len(ys)))
    h = sum(-(y * math.log(max(1e-9, _sigmoid(z))) + (1 - y) * math.log(max(1e-9, 1 - _sigmoid(z))))
            for z, y in hand) / len(hand)
    c = sum(-(y * math.log(mean) + (1 - y) * math.log(1 - mean)) for _, y in hand) / len(hand)
    return h, c


def _levels(args):
    """The levels ``--bots`` names, in order; None when one is not a level (:data:`splendor.ai.LEVELS`)."""
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    return names if all(n in LEVELS for n in names) else None


def _check_games(parser, args, names):
    """The checks every fit's command line shares (the games' counts, the files it will write, the expert's
    ``--model``), made now rather than after the games; the search's iterations a move (default 50 when ``names``
    has a searching level)."""
    if args.games < 2 or args.holdout < 2 or args.jobs < 1:
        parser.error("--games and --holdout must be at least 2, --jobs at least 1")
    iterations = args.budget_iterations
    if iterations is None and any(n in ("hard", "expert") for n in names):
        iterations = 50
    if iterations is not None and iterations < 1:
        parser.error("--budget-iterations must be at least 1")
    for opt, path in (("--out", args.out), ("--save-positions", args.save_positions)):
        folder = os.path.dirname(os.path.abspath(path)) if path else "."
        if not os.path.isdir(folder):
            parser.error(f"{opt}: the folder {folder} does not exist")
    if args.model:
        try:
            load_model(args.model)  # a bad file fails now, not in the middle of the games
        except (OSError, ValueError) as exc:
            parser.error(f"--model: {exc}")
    return iterations


def _table_main(parser, args, argv):
    """``train --players 3|4``: checks, then :func:`splendor.training.train_tables.main_table`."""
    for opt, used in (("--net", args.net), ("--explore", args.explore)):
        if used:
            parser.error(f"{opt} is for two-player models, not with --players {args.players}")
    if args.seed is None and not args.positions:
        parser.error("--seed is needed to play games (or --positions to fit saved ones)")
    names = _levels(args)
    if not names:
        parser.error(f"--bots takes levels among {', '.join(LEVELS)} (they fill the seats in turn)")
    iterations = _check_games(parser, args, names)
    try:
        base = read_model(args.base or MODEL_FILE)  # a bad file fails now, not after the games
    except (OSError, ValueError) as exc:
        parser.error(f"--base: {exc}")
    if not isinstance(base, ValueModel):
        parser.error("--base: a table is added to a linear value model, not to a net")
    return main_table(parser, args, base, names, iterations, args.l2 if args.l2 is not None else L2, argv)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m splendor train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="where to write the model (JSON)")
    parser.add_argument("--seed", type=int, default=None, help="the training deals' seed (needed unless --positions)")
    parser.add_argument("--games", type=int, default=3000, help="games to play (default 3000)")
    parser.add_argument("--bots", default="medium,medium", help="the two levels that play the games "
                        "(medium, hard, expert; default medium,medium); with --players 3 or 4 the levels fill the "
                        "seats in turn")
    parser.add_argument("--budget-iterations", type=int, default=None,
                        help="search iterations a move for hard and expert (default: 50)")
    parser.add_argument("--model", default=None,
                        help="the expert's model for its games (default: shipped; it may hold a table's model)")
    parser.add_argument("--explore", type=float, default=0.0, metavar="EPS",
                        help="the chance that a move of the games is one of the scorer's 8 best at random instead of "
                        "the bot's (default 0)")
    parser.add_argument("--holdout", type=int, default=5, help="every n-th game is held out (default 5)")
    parser.add_argument("--l2", type=float, default=None,
                        help=f"L2 penalty (default {L2:g}; with --net {NET_L2:g})")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in separate processes")
    parser.add_argument("--net", type=int, default=0, metavar="H",
                        help="fit a value net with H hidden units (needs numpy: requirements-train.txt) instead "
                        "of the linear model")
    parser.add_argument("--epochs", type=int, default=NET_EPOCHS, help=f"the net's epochs (default {NET_EPOCHS})")
    parser.add_argument("--save-positions", default=None, metavar="PATH",
                        help="also write the played games' positions there (gzipped JSON lines) to fit again later")
    parser.add_argument("--positions", action="append", default=None, metavar="PATH",
                        help="fit to the positions of a --save-positions file instead of playing games "
                        "(its seed, bots and games are recorded, not --seed's); give it again to fit several "
                        "files together")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                        help="the games' players (default 2); 3 or 4 fit that table's model and add it to --base's "
                        "(splendor.training.train_tables)")
    parser.add_argument("--base", default=None, metavar="PATH",
                        help="with --players 3 or 4: the model the table is added to (default: the shipped one)")
    args = parser.parse_args(argv)
    if args.players > 2:
        return _table_main(parser, args, argv)
    if args.base:
        parser.error("--base is for --players 3 or 4 (a table's model is added to it)")
    if args.seed is None and not args.positions:
        parser.error("--seed is needed to play games (or --positions to fit saved ones)")
    if args.net < 0 or args.epochs < 1:
        parser.error("--net must be at least 1 hidden unit (0: the linear model) and --epochs at least 1")
    l2 = args.l2 if args.l2 is not None else (NET_L2 if args.net else L2)
    names = _levels(args)
    if names is None or len(names) != 2:
        parser.error(f"--bots takes two levels among {', '.join(LEVELS)}")
    if not 0.0 <= args.explore <= 1.0:
        parser.error("--explore is a chance: between 0 and 1")
    iterations = _check_games(parser, args, names)
    if args.net:
        try:
            import numpy  # noqa: F401  (now, not after the games)
        except ImportError:
            parser.error("--net needs numpy, a training-only package: pip install -r requirements-train.txt")
    t0 = time.perf_counter()
    sources = {}  # more of the model's meta: what the games were (several files, exploring moves)
    if args.positions:
        games, headers = read_position_files(parser, args.positions, 2)
        seed, names, iterations = headers[0]["seed"], headers[0]["bots"], headers[0]["budget_iterations"]
        if headers[0].get("explore"):
            sources["explore"] = headers[0]["explore"]
        if len(headers) > 1:  # the first file's seed drives the fit; the model's meta lists every file
            sources["sources"] = position_sources(args.positions, headers)
    else:
        seed = args.seed
        print(f"playing {args.games} games of {' against '.join(names)} (seed {seed}"
              f"{f', {iterations} iterations a move' if iterations else ''}, {args.jobs} job(s))", flush=True)
        games = play(args.games, seed, names, iterations, args.model, args.jobs, explore=args.explore)
        if args.explore:
            sources["explore"] = args.explore
        if args.save_positions:
            write_positions(args.save_positions, {"seed": seed, "bots": names, "budget_iterations": iterations,
                                                  "model": args.model, "games": args.games,
                                                  "explore": args.explore}, games)
            print(f"wrote the positions to {args.save_positions}", flush=True)
    if args.net:
        return main_net(args, games, seed, names, iterations, l2, argv, t0, sources)
    train, test = [], []
    unfinished = 0
    for k, rows, y in games:
        if y is None:
            unfinished += 1
            continue
        if k % args.holdout:
            train += design(rows, y)
        else:
            test += design(rows, y)
    if not train or not test:
        print("too few finished games to fit and to judge the model: play more (--games)", file=sys.stderr)
        return 1
    print(f"{len(train)} positions to fit, {len(test)} held out (games k % {args.holdout} == 0); "
          f"{unfinished} unfinished games left out [{time.perf_counter() - t0:.0f} s]", flush=True)
    w = fit(train, l2=l2, seed=seed)
    held = log_loss(test, w)
    hand, const = _baselines(games, args.holdout)
    train_loss = log_loss(train, w)
    print(f"log loss: held-out {held:.4f} (fitted positions {train_loss:.4f}); on the held-out positions the "
          f"hard bot's hand-set leaf scores {hand:.4f}, a constant guess {const:.4f} "
          f"[{time.perf_counter() - t0:.0f} s]", flush=True)
    # the question a new fit must answer: does it judge these games better than the model that plays now?
    ref_path = args.model or MODEL_FILE
    ref = load_model(ref_path)
    if isinstance(ref, ValueModel):
        as_read, ref_loss = log_loss(test, w[:-1] + [0.0]), log_loss(test, search_vector(ref))
        print(f"as the search reads them (the start seat's term left out), on the same held-out positions: this "
              f"model {as_read:.4f}, {'--model' if args.model else 'the shipped model'} {ref_loss:.4f}", flush=True)
        sources.update(read_held_out_log_loss=round(as_read, 5),
                       reference={"file": os.path.basename(ref_path), "held_out_log_loss": round(ref_loss, 5)})
    meta = _meta(argv, seed, games, names, iterations, args.holdout, l2, len(train), len(test), held, hand, const,
                 model=args.model, fitted_log_loss=round(train_loss, 5), started=round(w[-1], 6), **sources)
    model = model_from(w, meta)
    model.save(args.out)
    print("coefficients (base, per stage):")
    for name, b, s in zip(FEATURES, model.base, model.per_stage):
        print(f"  {name:<14} {b:+.4f} {s:+.4f}")
    print(f"  to move {model.to_move:+.4f}, started the game {w[-1]:+.4f} (not used by the search)")
    print(f"wrote {args.out} [{time.perf_counter() - t0:.0f} s]")
    return 0
