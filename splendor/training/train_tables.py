"""The value model of a larger table: ``python -m splendor train --players N --base PATH --out PATH --seed N``.

A model fitted to two-player games judges a 3- or 4-player table poorly: at four seats it explains less than half
of what a model fitted to four-player games does (held-out log loss of the winner 1.322 against 1.225, a uniform
guess 1.386, 3,000 medium games), and where a seat sits in the turn order counts for much more. So a table can get
its own model (:class:`~splendor.ai.learned.TableModel`), added to the two-player model of ``--base``. (Fitted to
medium's games, the better judge made the expert's search play worse at four seats: none is shipped; docs/BOTS.md.)

1. Plays ``--games`` games of ``--players`` seats (``--bots`` fill the seats cyclically, rotated one seat a game;
   deal k of seed S is ``arena.game_seed("train-S-Np", k)``) and records every action-phase position: the stage,
   every seat's features (:data:`~splendor.ai.learned.FEATURES`), the seat to move, the seat that started, and each
   seat's share of the result.
2. Fits a conditional logit, the chance that seat s wins being the softmax over the seats of
   ``sum(features x (base + per_stage x stage)) + order[(s - to move) % N] + seat[(s - started) % N]``, by Newton's
   method (the Hessian from a sample of positions), L2-penalised; games k % ``--holdout`` == 0 are held out.
3. Prints the held-out log loss of the fitted table, of the base model as the search used it at that table (its
   chances against the best other seat, normalised) and of a uniform guess; writes ``--base``'s model with the
   table added (or replaced) to ``--out``.

``--bots`` may seat the expert (``--model``: its judge in the games, default the shipped one, which may itself hold
a table): a table fitted to the search's own games, the next generation playing with it (expert iteration).
``--save-positions PATH`` keeps the played games' positions and ``--positions PATH`` (given once or more) fits saved
games again without playing, as for the two-player model; a file records its table's size.

Pure Python, standard library only, like the two-player fit.
"""

import math
import operator
import random
import sys
import time

from ..ai.budget import Budget
from ..ai.heuristic import Weights
from ..ai.features import FEATURES, READ_WEIGHTS, game_features
from ..ai.learned import TableModel
from . import arena
from .common import (HESSIAN_SAMPLE, L2, newton, position_sources, read_position_files, run_games, training_bot,
                     write_positions)


def seating(k, players, names):
    """The levels at each seat of game k: ``names`` cycled over the seats, rotated by k."""
    return [names[(s + k) % len(names)] for s in range(players)]


def one_game(task):
    """(k, [(stage, [every seat's features], seat to move, seat that started)], [each seat's share of the result]),
    or (k, [], None) when the game did not finish."""
    k, seed, players, names, iterations, model_path = task
    w = Weights(**READ_WEIGHTS)
    rows = []

    def watch(game, seat, action):
        if game.phase_ == "action":
            stage, feats = game_features(game, w)
            rows.append((stage, feats, game.current, game.start))

    bots = [training_bot(n, model_path) for n in seating(k, players, names)]
    budgets = [Budget(iterations=iterations)] * players if iterations else None
    result = arena.play_game(bots, arena.game_seed(f"train-{seed}-{players}p", k), budgets, watch=watch)
    if result["status"] != "ok":
        return k, [], None
    win = result["winners"]
    return k, rows, [1.0 / len(win) if s in win else 0.0 for s in range(players)]


def play(games, seed, players, names, iterations=None, jobs=1, out=print, model_path=None):
    """[(k, rows, shares)] in game order, printing progress with the time left (``model_path``: the expert's
    model, default the shipped one)."""
    return run_games(one_game, [(k, seed, players, names, iterations, model_path) for k in range(games)], jobs, out,
                     chunksize=8 if "expert" not in names else 1)


def design(rows, shares, players):
    """Regression rows (per seat inputs, shares): a seat's inputs are its features, the same times the stage, and
    one-hot places in the turn order and from the start (place 0 left out: softmax needs no constant)."""
    out = []
    for stage, feats, cur, start in rows:
        zs = []
        for s, f in enumerate(feats):
            order = [0.0] * (players - 1)
            place = [0.0] * (players - 1)
            d, r = (s - cur) % players, (s - start) % players
            if d:
                order[d - 1] = 1.0
            if r:
                place[r - 1] = 1.0
            zs.append(list(f) + [x * stage for x in f] + order + place)
        out.append((zs, shares))
    return out


def _log_softmax(z):
    top = max(z)
    lse = top + math.log(sum(math.exp(v - top) for v in z))
    return [v - lse for v in z]


def log_loss(data, w):
    """Mean of -sum(share x log chance) over the positions."""
    mul = operator.mul
    total = 0.0
    for zs, y in data:
        lp = _log_softmax([sum(map(mul, w, z)) for z in zs])
        total -= sum(a * b for a, b in zip(y, lp) if a)
    return total / len(data)


def fit(data, l2=L2, steps=20, sample=HESSIAN_SAMPLE // 2, seed=0, out=print):
    """The conditional logit's w minimizing the mean log loss + l2/2 |w|^2 (:func:`splendor.training.common.newton`, the
    Hessian from up to ``sample`` positions drawn with ``seed``)."""
    n = len(data[0][0][0])
    N = len(data)
    mul = operator.mul
    hs = data if N <= sample else random.Random(seed).sample(data, sample)

    def chances(zs, w):
        return [math.exp(v) for v in _log_softmax([sum(map(mul, w, z)) for z in zs])]

    def gradient(w):
        g = [0.0] * n
        for zs, y in data:
            for p, a, z in zip(chances(zs, w), y, zs):
                r = p - a
                if r:
                    for i in range(n):
                        g[i] += r * z[i]
        return [gi / N for gi in g]

    def hessian(w):  # sum over positions of the chances' covariance of the seats' inputs
        h = [[0.0] * n for _ in range(n)]
        for zs, _ in hs:
            ps = chances(zs, w)
            mean = [sum(p * z[i] for p, z in zip(ps, zs)) for i in range(n)]
            for p, z in zip(ps, zs):
                c = [zi - mi for zi, mi in zip(z, mean)]
                for i in range(n):
                    pc = p * c[i]
                    if pc:
                        hi = h[i]
                        for j in range(i, n):
                            hi[j] += pc * c[j]
        return h, len(hs)

    return newton(lambda w: log_loss(data, w), gradient, hessian, n, l2, steps, out)


def base_loss(model, games, holdout):
    """Held-out log loss of ``model``'s chances at this table as the search read them before the table had a
    model of its own (each seat's chance against the best other seat, normalised to add up to 1)."""
    k = len(FEATURES)
    total, count = 0.0, 0
    for g, rows, y in games:
        if y is None or g % holdout:
            continue
        for stage, feats, cur, start in rows:
            ch = model.chances_against_best(model.standings_of(stage, [f[:k] for f in feats]), cur)
            tot = sum(ch)
            total -= sum(a * math.log(max(1e-12, c / tot)) for a, c in zip(y, ch) if a)
            count += 1
    return total / count


def table_from(w, players, meta):
    k = len(FEATURES)
    return TableModel(players, w[:k], w[k:2 * k], [0.0] + w[2 * k:2 * k + players - 1],
                      [0.0] + w[2 * k + players - 1:], meta)


def table_vector(table):
    """The fit's vector of a :class:`TableModel` (the inverse of :func:`table_from`)."""
    return table.base + table.per_stage + table.order[1:] + table.seat[1:]


def main_table(parser, args, base, names, iterations, l2, argv):
    """Play (or read, ``--positions``), fit and write a table's model (``train --players N``) added to ``base`` (the
    linear model read from ``--base``); the arguments were checked by train.main."""
    t0 = time.perf_counter()
    players = args.players
    seed, model, sources = args.seed, args.model, {}
    if args.positions:
        games, headers = read_position_files(parser, args.positions, players)
        seed, names, iterations = headers[0]["seed"], headers[0]["bots"], headers[0]["budget_iterations"]
        model = headers[0].get("model")
        if len(headers) > 1:
            sources["sources"] = position_sources(args.positions, headers)
    else:
        print(f"playing {args.games} games of {players} players, {', '.join(names)} (seed {seed}"
              f"{f', {iterations} iterations a move' if iterations else ''}, {args.jobs} job(s))", flush=True)
        games = play(args.games, seed, players, names, iterations, args.jobs, model_path=model)
        if args.save_positions:
            write_positions(args.save_positions, {"players": players, "seed": seed, "bots": names,
                                                  "budget_iterations": iterations, "model": model,
                                                  "games": args.games}, games)
            print(f"wrote the positions to {args.save_positions}", flush=True)
    train, test = [], []
    unfinished = 0
    for k, rows, y in games:
        if y is None:
            unfinished += 1
        elif k % args.holdout:
            train += design(rows, y, players)
        else:
            test += design(rows, y, players)
    if not train or not test:
        print("too few finished games to fit and to judge the model: play more (--games)", file=sys.stderr)
        return 1
    print(f"{len(train)} positions to fit, {len(test)} held out (games k % {args.holdout} == 0); "
          f"{unfinished} unfinished games left out [{time.perf_counter() - t0:.0f} s]", flush=True)
    w = fit(train, l2=l2, seed=seed)
    held, fitted = log_loss(test, w), log_loss(train, w)
    before = base_loss(base, games, args.holdout)
    uniform = math.log(players)
    print(f"log loss of the winner: held-out {held:.4f} (fitted positions {fitted:.4f}); on the held-out positions "
          f"the base model (as the search read it at {players} players) scores {before:.4f}, a uniform guess "
          f"{uniform:.4f} [{time.perf_counter() - t0:.0f} s]", flush=True)
    if players in base.tables:  # the question a new fit must answer: does it judge better than the table in play?
        mine = log_loss(test, table_vector(base.tables[players]))
        sources["base_table_held_out_log_loss"] = round(mine, 5)
        print(f"the {players}-player table of {args.base or 'the shipped weights'} scores {mine:.4f} on the same "
              f"positions", flush=True)
    meta = {"command": "python -m splendor train " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seed": seed, "games": len(games), "bots": names, "budget_iterations": iterations, "model": model,
            "holdout": args.holdout, "l2": l2, "positions_fitted": len(train), "positions_held_out": len(test),
            "held_out_log_loss": round(held, 5), "fitted_log_loss": round(fitted, 5),
            "base_held_out_log_loss": round(before, 5), "uniform_log_loss": round(uniform, 5), **sources}
    table = table_from(w, players, meta)
    base.tables[players] = table
    base.save(args.out)
    print("coefficients (base, per stage):")
    for name, b, s in zip(FEATURES, table.base, table.per_stage):
        print(f"  {name:<14} {b:+.4f} {s:+.4f}")
    print(f"  turn order from the seat to move: {', '.join(f'{x:+.4f}' for x in table.order)}")
    print(f"  place from the seat that started: {', '.join(f'{x:+.4f}' for x in table.seat)}")
    print(f"wrote {args.out}, the model of {args.base or 'the shipped weights'} with a {players}-player table "
          f"[{time.perf_counter() - t0:.0f} s]")
    return 0
