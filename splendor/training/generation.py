"""One self-play generation of the expert's network in one command, resumable after an interruption:
``python -m splendor generation --net PREVIOUS.json --dir DIR --games 10000 --sims 32 --seed 300000``.

Its steps, each leaving one file in ``--dir``; a step whose file is there is skipped when the command runs again, so
a run stopped midway loses at most the step it was in:

1. ``games.jsonl.gz``: self-play of the previous network (``netplay``, Gumbel's search by default; ``--twin``: on
   the compiled twin), written under a partial name and renamed once every game is in (a partial file is started
   afresh);
2. ``net.json``: the fit (``netfit --start PREVIOUS``) on those games and, with ``--agent-data``, the agent's games
   beside them (the mix that held best in docs/HISTORY.md's generations);
3. ``screen.json``: the new network against the previous one in the arena, seats alternating, on the arena's deals
   (none of self-play's), each at ``--screen-sims`` simulations a move;
4. ``generation.json``: what made it (the commands, seeds, held-out figures), the screen's result, with ``passed``
   when the new network won more than half, and each step's seconds; it prints the row for docs/HISTORY.md's
   generations table and the generation's time.

Each step's wall-clock seconds are kept in ``times.json`` as the step ends, so a generation resumed after an
interruption still reports the time its steps took (the steps it lost are not counted).

The measurement of record, against the outside agent, is the sparring harness's (outside the project); a network
that passes is the next generation's ``--net``.
"""

import argparse
import json
import os
import sys
import time

from . import arena, netfit, netplay


def games_step(a, path):
    partial = path.replace(".jsonl.gz", ".partial.jsonl.gz")
    if os.path.exists(partial):
        os.remove(partial)  # a run stopped inside this step: its games start afresh
    args = ["--net", a.net, "--games", str(a.games), "--sims", str(a.sims), "--search", a.search, "--seed",
            str(a.seed), "--workers", str(a.jobs), "--out", partial]
    args += ["--twin"] if a.twin else []
    args += ["--batch", str(a.batch)] if a.batch else []
    code = netplay.main(args)
    if code:
        raise SystemExit(code)
    os.replace(partial, path)
    return args


def fit_step(a, games, path):
    args = ["--data", games, *a.agent_data, "--start", a.net, "--out", path, "--epochs", str(a.epochs),
            "--lr", str(a.lr), "--jobs", str(a.jobs)]
    code = netfit.main(args)
    if code:
        raise SystemExit(code)
    return args


def screen_step(a, net, path):
    names = [f"{arena.NET_PREFIX}{net}@{a.screen_sims}", f"{arena.NET_PREFIX}{a.net}@{a.screen_sims}"]
    results = arena.run(names, players=2, games=a.screen_games, seed=a.screen_seed, jobs=a.jobs)
    new, old = arena.summarize(names, results)
    out = {"games": new["games"], "wins": new["wins"], "win_rate": round(new["win_rate"], 4),
           "interval": [round(v, 4) for v in new["interval"]], "previous_wins": old["wins"],
           "sims": a.screen_sims, "seed": a.screen_seed}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f)
    return out


STEPS = ("self_play", "fit", "screen")


def timed(path, step, run):
    """Run ``run()``, then record its wall-clock seconds in ``path`` (``times.json``) under ``step``; its result."""
    started = time.time()
    result = run()
    times = read_times(path)
    times[step] = round(time.time() - started)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(times, f)
    return result


def read_times(path):
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m splendor generation", description=__doc__.split("\n\n")[0])
    ap.add_argument("--net", required=True, help="the previous generation's network file")
    ap.add_argument("--dir", required=True, help="this generation's folder (made if missing; its files are resumed)")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--batch", type=int, default=None, help="games in lockstep in a process (default 16, twin 256)")
    ap.add_argument("--sims", type=int, default=32, help="self-play's simulations a move")
    ap.add_argument("--search", choices=("puct", "gumbel"), default="gumbel")
    ap.add_argument("--twin", action="store_true",
                    help="self-play on the compiled twin (netplay --twin: Gumbel; numba, requirements-twin.txt)")
    ap.add_argument("--seed", type=int, default=300000, help="self-play's first deal (game g: seed + g)")
    ap.add_argument("--agent-data", nargs="*", default=[], help="the agent's games to fit beside self-play's")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--screen-games", type=int, default=400)
    ap.add_argument("--screen-sims", type=int, default=200)
    ap.add_argument("--screen-seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="processes for self-play, the fit's data and the screen")
    a = ap.parse_args(argv)
    if a.twin and a.search != "gumbel":
        ap.error("--twin plays Gumbel's root search (--search gumbel)")
    a.batch = a.batch or (None if a.twin else 16)  # (the twin's own default, 256)
    os.makedirs(a.dir, exist_ok=True)
    games, net = os.path.join(a.dir, "games.jsonl.gz"), os.path.join(a.dir, "net.json")
    screen, record = os.path.join(a.dir, "screen.json"), os.path.join(a.dir, "generation.json")
    times = os.path.join(a.dir, "times.json")
    if os.path.exists(games):
        print(f"generation: {games} is there: self-play skipped")
    else:
        timed(times, "self_play", lambda: games_step(a, games))
    if os.path.exists(net):
        print(f"generation: {net} is there: the fit skipped")
    else:
        timed(times, "fit", lambda: fit_step(a, games, net))
    if os.path.exists(screen):
        with open(screen, encoding="utf-8") as f:
            result = json.load(f)
        print(f"generation: {screen} is there: the screen skipped")
    else:
        result = timed(times, "screen", lambda: screen_step(a, net, screen))
    with open(net, encoding="utf-8") as f:
        held = json.load(f).get("meta", {}).get("held_out", {})
    passed = result["wins"] > result["games"] / 2
    meta = {"command": "python -m splendor generation " + " ".join(netfit.command_words(argv)),
            "previous": os.path.basename(a.net),
            "self_play": {"games": a.games, "sims": a.sims, "search": a.search, "seed": a.seed, "twin": a.twin},
            "agent_data": [os.path.basename(p) for p in a.agent_data], "held_out": held, "screen": result,
            "passed": passed, "seconds": read_times(times)}
    meta["seconds"]["total"] = sum(meta["seconds"].get(step, 0) for step in STEPS)
    with open(record, "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)
    lo, hi = result["interval"]
    print(f"| {os.path.basename(os.path.normpath(a.dir))} | {a.games} games, {a.sims} simulations ({a.search}) | "
          f"top-1 {held.get('top1')}, value's sign {held.get('value_sign')} | {result['wins']:g} of "
          f"{result['games']}, **{100 * result['win_rate']:.1f}%** [{100 * lo:.1f}%, {100 * hi:.1f}%] | "
          f"{'passed' if passed else 'not passed'} |")
    spent = meta["seconds"]
    print(f"generation: {a.games} games in {spent['total'] / 60:.1f} minutes (" +
          ", ".join(f"{step.replace('_', '-')} {spent[step]} s" for step in STEPS if step in spent) + ")")
    return 0
