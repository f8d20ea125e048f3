"""The twin held to the engine: ``python -m splendor twin --check --random N [--selfplay M] [--seed S]``.

Plays ``N`` games of random legal moves through both, the engine (:mod:`splendor.engine`, the one source of the
rules) and the twin (:mod:`.rules`), and compares at every step the legal moves (the same moves in the same order),
the state after every move (every field of the twin's array against the engine's game), the network's input in every
action phase (:mod:`.encode` against :func:`splendor.ai.encoding.encode`), the end and the winners.
``--selfplay M`` also plays M games of the expert's network against itself (two players, Gumbel's root at
``--sims``) and replays each through both, compared the same way: the positions self-play reaches. Prints each
difference found (the first few in full) and "0 differences" when they agree. Random games rotate through the player
counts (``--players``); a game's first seat is drawn from its seed, as a new game's is.
"""

import argparse
import random
import sys
import time

import numpy as np

from ...ai import encoding
from ...engine.game import new_game, parse_action
from . import encode as twin_encode
from . import rules as R
from .bridge import code_of, state_of  # noqa: F401 (the check's own names for them too)

def field_name(i):
    """The twin's array index ``i`` in words (for a difference)."""
    for name in ("N", "CUR", "PHASE", "FINAL", "PASSES", "TURNS", "START"):
        if getattr(R, name) == i:
            return name
    for name, start, size in (("supply", R.SUP, 6), ("market", R.MKT, 12), ("deck lengths", R.DLEN, 3),
                              ("decks", R.DECK, 90), ("nobles", R.NOB, 5), ("noble count", R.NNOB, 1)):
        if start <= i < start + size:
            return f"{name}[{i - start}]"
    seat, off = divmod(i - R.PLY, R.PSIZE)
    return f"seat {seat} field {off}"


def check_random(games, seed=0, players=(2, 3, 4), log=None, show=5):
    """Play ``games`` random games through both; the differences found, in words (empty when they agree), and the
    moves played."""
    rng = random.Random(seed)
    out = []
    buf = np.zeros(R.MAX_MOVES, dtype=np.int32)
    moves = 0
    for k in range(games):
        n = players[k % len(players)]
        game = new_game(players=n, seed=rng.randrange(1, 2**31), first_player="random")
        twin = state_of(game)
        found = _compare(game, twin, buf, f"game {k} at the start")
        x = np.zeros(encoding.inputs_for(n), dtype=np.float64)
        while not found and not game.is_over:
            legal = game.legal_actions()
            found = _step(game, twin, buf, x, legal[rng.randrange(len(legal))], f"game {k}")
            moves += 1
        if not found and game.is_over:
            bits = sum(1 << w for w in game.winners)
            if R.winners(twin) != bits:
                found = f"game {k}: winners differ: engine {game.winners}, twin bits {R.winners(twin)}"
        if found:
            out.append(found)
            if log and len(out) <= show:
                log(found)
    return out, moves


def check_records(records, log=None, show=5):
    """Replay game records (self-play's, :mod:`splendor.training.netplay`) through both, comparing as
    :func:`check_random` does at every move; the differences found, and the moves replayed."""
    out = []
    buf = np.zeros(R.MAX_MOVES, dtype=np.int32)
    moves = 0
    for k, rec in enumerate(records):
        game = new_game(players=rec["players"], seed=rec["seed"], first_player=rec["first_player"])
        twin = state_of(game)
        x = np.zeros(encoding.inputs_for(game.n), dtype=np.float64)
        found = _compare(game, twin, buf, f"record {k} at the start")
        for text in rec["actions"]:
            if found:
                break
            action = parse_action(game, text)  # (a buy as recorded: the twin pays the default way, as self-play does)
            found = _step(game, twin, buf, x, action, f"record {k}")
            moves += 1
        if not found and game.is_over and R.winners(twin) != sum(1 << w for w in game.winners):
            found = f"record {k}: winners differ"
        if found:
            out.append(found)
            if log and len(out) <= show:
                log(found)
    return out, moves


def _step(game, twin, buf, x, action, where):
    """One move through both (after comparing the legal moves and the input there); a difference in words, or ''."""
    if game.phase == "action":
        twin_encode.encode(twin, x)
        want = np.array(encoding.encode(game))
        if not np.array_equal(want, x):
            i = int(np.nonzero(want != x)[0][0])
            return f"{where} move {len(game.history)}: input {i} engine {want[i]!r}, twin {x[i]!r}"
    codes = [code_of(a) for a in game.legal_actions()]
    count = R.legal_moves(twin, buf)
    if list(buf[:count]) != codes:
        return f"{where} move {len(game.history)}: legal moves differ: engine {codes}, twin {list(buf[:count])}"
    code = code_of(action)
    if code not in codes:
        return f"{where} move {len(game.history)}: {action} is not among the legal moves"
    game.apply_unchecked(action)
    R.apply_move(twin, code)
    return _compare(game, twin, buf, f"{where} after move {len(game.history)} ({action})")


def selfplay_records(games, seed=0, sims=16):
    """``games`` two-player games of the expert's network against itself (:func:`splendor.training.netplay.play`,
    Gumbel's root at ``sims`` simulations): their records."""
    from ...ai.netfile import read_net
    from ..netplay import play
    from pathlib import Path
    net = read_net((Path(__file__).resolve().parents[2] / "ai" / "expert_net.json").read_text("utf-8"))
    records = []
    for start in range(0, games, 16):
        seeds = [seed * 100_000 + g for g in range(start, min(games, start + 16))]
        records += play(net, seeds, sims=sims, rng_seed=seed + start, search="gumbel")[0]
    return records


def _compare(game, twin, buf, where):
    want = state_of(game)
    diff = np.nonzero(want != twin)[0]
    if len(diff):
        i = int(diff[0])
        return f"{where}: {field_name(i)} engine {int(want[i])}, twin {int(twin[i])}"
    return ""


def bench(games, seed=0, players=(2, 3, 4)):
    """Random playouts from the same deals through the engine (``legal_actions`` and ``apply_unchecked``) and through
    the twin (:func:`.rules.random_playout`, after one playout that compiles it): (engine moves/s, twin moves/s)."""
    rng = random.Random(seed)
    deals = [new_game(players=players[k % len(players)], seed=rng.randrange(1, 2**31)) for k in range(games)]
    t = time.perf_counter()
    moves = 0
    for g in deals:
        g = g.copy()
        while not g.is_over:
            legal = g.legal_actions()
            g.apply_unchecked(legal[rng.randrange(len(legal))])
            moves += 1
    engine = moves / (time.perf_counter() - t)
    states = [state_of(g) for g in deals]
    R.random_playout(states[0].copy(), 0)
    t = time.perf_counter()
    moves = sum(R.random_playout(s, k) for k, s in enumerate(states))
    return engine, moves / (time.perf_counter() - t)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m splendor twin", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare the twin with the engine")
    ap.add_argument("--random", type=int, default=1000, metavar="N", help="random games to play through both")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", default="2,3,4", help="player counts, in turn (default 2,3,4)")
    ap.add_argument("--bench", type=int, metavar="GAMES", help="random playouts' moves a second, engine and twin")
    ap.add_argument("--selfplay", type=int, default=0, metavar="M",
                    help="also play M games of the expert's network against itself (Gumbel, --sims) and replay them "
                         "through both")
    ap.add_argument("--sims", type=int, default=16, help="simulations a move of --selfplay's games")
    args = ap.parse_args(argv)
    players = tuple(int(x) for x in args.players.split(","))
    compiled = "compiled (numba)" if R.COMPILED else "plain Python (numba not installed)"
    if args.bench:
        engine, twin = bench(args.bench, args.seed, players)
        print(f"random playouts, {args.bench} games: engine {engine:,.0f} moves/s; twin {compiled} {twin:,.0f} "
              f"moves/s ({twin / engine:.1f} times)")
    if not args.check:
        if not args.bench:
            ap.print_help()
        return 0
    t = time.time()
    found, moves = check_random(args.random, args.seed, players, log=lambda s: print(s, flush=True))
    if args.random:
        print(f"{args.random} random games, {moves:,} moves: {len(found)} differences")
    if args.selfplay:
        t_play = time.time()
        records = selfplay_records(args.selfplay, args.seed, args.sims)
        played = time.time() - t_play
        more, replayed = check_records(records, log=lambda s: print(s, flush=True))
        print(f"{len(records)} self-play games ({args.sims} simulations a move, played in {played:.0f} s), "
              f"{replayed:,} moves: {len(more)} differences")
        found += more
    print(f"in all (twin {compiled}, {time.time() - t:.1f} s): {len(found)} differences")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
