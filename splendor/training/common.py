"""What both training commands share: the bots of the training games, running games in processes, Newton's method
for the fits and the files of saved positions (:mod:`splendor.training.train` for two players,
:mod:`splendor.training.train_tables` for a larger table)."""

import gzip
import json
import os
import sys
import time

from ..ai import get_bot
from ..ai.bots import prepare
from ..ai.expert import ExpertBot
from ..ai.heuristic import Scorer, Weights
from ..ai.learned import READ_WEIGHTS, load_model

L2 = 1e-3
POSITIONS_FORMAT = "splendor-positions"
HESSIAN_SAMPLE = 30_000


# -- the games ------------------------------------------------------------------------------------------------------
def training_bot(name, model_path, explore=0.0):
    """The bot of level ``name`` in a training game: an expert judges by ``model_path`` (default the shipped model);
    with ``explore``, an :class:`Explorer` around it."""
    if name == "expert":
        bot = ExpertBot(model=load_model(model_path) if model_path else None, net=None)
    else:
        bot = get_bot(name)
    return Explorer(bot, explore) if explore else bot


class Explorer:
    """Plays ``bot``'s moves, except that an action-phase move is, with chance ``eps``, one of the hard scorer's
    ``width`` best-looking moves at random (the moves the search compares): training games that also visit the
    positions the search's other candidates lead to, so the model learns to judge them (``train --explore``)."""

    def __init__(self, bot, eps, width=8):
        self.bot, self.eps, self.width = bot, eps, width
        self.level = bot.level
        self.scorer = Scorer(Weights(**READ_WEIGHTS))

    def choose(self, observation, rng, budget=None):
        if observation.get("phase") == "action" and rng.random() < self.eps:
            game, seat = prepare(observation, rng)
            scored = self.scorer.scores(game, seat, game.legal_actions())
            scored.sort(key=lambda t: -t[0])
            return rng.choice(scored[: self.width])[1]
        return self.bot.choose(observation, rng, budget)


def position_recorder(rows):
    """A ``watch`` for ``arena.play_game`` that appends each action-phase position to ``rows``: (stage, seat 0's
    vector, seat 1's, seat 0 to move +1/-1, seat 0 started +1/-1, the hand-set leaf's logit, the table's numbers);
    a seat's vector (:func:`splendor.ai.valuenet.seat_vector`) begins with the linear model's features."""
    from ..ai.heuristic import seat_values
    from ..ai.valuenet import game_vectors
    w = Weights(**READ_WEIGHTS)

    def watch(game, seat, action):
        if game.phase_ == "action":
            table, (v0, v1) = game_vectors(game, w)
            v = seat_values(game, w)
            rows.append((table[0], v0, v1, 1.0 if game.current == 0 else -1.0, 1.0 if game.start == 0 else -1.0,
                         (v[0] - v[1]) / 3.0, table))

    return watch


def progress(total, out, t0=None):
    """A ``note(result)`` that keeps the results (each (k, rows, ...)) and prints, every twentieth of ``total``, the
    games done, the positions recorded, the seconds spent and about how many are left; returns (note, results)."""
    t0 = time.perf_counter() if t0 is None else t0
    done = []
    step = max(1, total // 20)

    def note(r):
        done.append(r)
        n = len(done)
        if n % step == 0 or n == total:
            el = time.perf_counter() - t0
            out(f"  games {n}/{total}, {sum(len(x[1]) for x in done)} positions, {el:.0f} s, "
                f"about {el / n * (total - n):.0f} s left", flush=True)

    return note, done


def run_games(one, tasks, jobs=1, out=print, chunksize=4):
    """``one(task)`` of every task (a task begins with its game's k), in ``jobs`` processes when more than one,
    printing progress with the time left; the results in k's order."""
    games = len(tasks)
    note, done = progress(games, out)
    if jobs > 1 and games > 1:
        import multiprocessing  # the command line only: the bots never use processes
        with multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(jobs) as pool:
            for r in pool.imap_unordered(one, tasks, chunksize=chunksize):
                note(r)
    else:
        for t in tasks:
            note(one(t))
    done.sort(key=lambda r: r[0])
    return done


# -- the fit --------------------------------------------------------------------------------------------------------
def solve(a, b):
    """x with a x = b (Gaussian elimination, partial pivoting; a is small and positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (m[c][n] - sum(m[c][j] * x[j] for j in range(c + 1, n))) / m[c][c]
    return x


def newton(loss, gradient, hessian, n, l2, steps, out):
    """The w of ``n`` numbers minimizing ``loss(w)`` + l2/2 |w|^2 by Newton steps from 0: ``gradient(w)`` the loss's
    mean gradient, ``hessian(w)`` (the upper triangle of its summed Hessian, the count summed over); a step is halved
    while it does not lower the objective; stops after ``steps`` or when a step gains less than 1e-7."""

    def objective(w):
        return loss(w) + 0.5 * l2 * sum(x * x for x in w)

    w = [0.0] * n
    obj = objective(w)
    for step in range(steps):
        g = [gi + l2 * wi for gi, wi in zip(gradient(w), w)]
        h, count = hessian(w)
        for i in range(n):
            for j in range(i):
                h[i][j] = h[j][i]
        h = [[v / count + (l2 if i == j else 0.0) for j, v in enumerate(row)] for i, row in enumerate(h)]
        d = solve(h, g)
        t = 1.0
        while True:
            w2 = [wi - t * di for wi, di in zip(w, d)]
            obj2 = objective(w2)
            if obj2 <= obj or t < 1e-3:
                break
            t /= 2
        gain = obj - obj2
        w, obj = w2, obj2
        out(f"  fit step {step + 1}: objective {obj:.5f}", flush=True)
        if gain < 1e-7:
            break
    return w


# -- saved positions ------------------------------------------------------------------------------------------------
def write_positions(path, header, games):
    """The played games (as :func:`play` returns them) to a gzipped JSON-lines file: a header, then a game a line."""
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(json.dumps({"format": POSITIONS_FORMAT, "version": 1, **header}) + "\n")
        for k, rows, y in games:
            f.write(json.dumps([k, y, rows], separators=(",", ":")) + "\n")


def read_positions(path):
    """(header, games) of a :func:`write_positions` file; ValueError when it is not one."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            header = json.loads(f.readline())
            if not isinstance(header, dict) or header.get("format") != POSITIONS_FORMAT:
                raise ValueError(f"{path} is not a positions file (format {POSITIONS_FORMAT!r} expected)")
            games = [(k, [tuple(r) for r in rows], y) for k, y, rows in map(json.loads, f)]
    except (OSError, EOFError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot be read as gzipped JSON lines ({exc})") from None
    return header, games


def read_position_files(parser, paths, players):
    """(games, headers) of the ``--positions`` files ``paths``, all of games of ``players`` seats (a file that cannot
    be read, or holds another table's games, stops the command with a clear error), printing what each holds. Each
    file's games keep their own k: the same games are held out whichever files are fitted together."""
    games, headers = [], []
    for path in paths:
        try:
            header, more = read_positions(path)
        except (OSError, ValueError) as exc:
            parser.error(f"--positions: {exc}")
        n = header.get("players", 2)
        if n != players:
            parser.error(f"--positions: {path} holds games of {n} players (fit them with --players {n})")
        what = " against ".join(header["bots"]) if n == 2 else f"{n} players, {', '.join(header['bots'])}"
        print(f"read {len(more)} games of {what} (seed {header['seed']}) from {path}", flush=True)
        games += more
        headers.append(header)
    return games, headers


def position_sources(paths, headers):
    """What a model fitted to several ``--positions`` files records of each (its ``meta``'s ``sources``)."""
    return [{"file": os.path.basename(path), "seed": h["seed"], "bots": h["bots"],
             "budget_iterations": h["budget_iterations"], "model": h.get("model"), "explore": h.get("explore", 0.0),
             "games": h.get("games")} for path, h in zip(paths, headers)]
