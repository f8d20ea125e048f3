"""Bot-vs-bot games with seats rotated: ``python -m splendor arena --bots hard,medium --players 2 --games 200``.

Game k is dealt from a seed drawn from ``--seed`` and k, seat 0 starts, and seat s is played by the bot listed at
position (s + k) mod (number of bots): with two bots in a 2-player game each starts half the games, and with 3-4
players the listed bots fill the seats cyclically. Each bot sees only ``game.observation(seat)``. Printed per listed
bot: seats played, wins (a shared victory counts as a fraction), win rate with its 95% Wilson interval, mean points,
mean game length in rounds, median and maximum wall time per move (action-phase decisions; token returns, noble
choices and forced moves are quick and left out) and the median processor time per move (the same figure on an
idle machine; on a shared one the wall time also counts waiting for a core). A game that passes the action cap is
counted as stuck, a bot that fails or answers an illegal action as an error.

``--jobs N`` plays games in N processes (command line only; the results do not depend on it).
"""

import argparse
import math
import random
import statistics
import sys
import time

from ..ai import LEVELS, get_bot
from ..ai.budget import Budget
from ..engine.game import new_game

MAX_ACTIONS = 1500
#: The arena's default thinking budget: 400 search iterations per move, about what the browser's 0.8 s buys the
#: hard bot in Pyodide (312-588 iterations, median 390: node tools/bench_bot_pyodide.mjs), so the
#: arena plays at the browser's strength and its results do not depend on the machine (0.4-0.5 s a move here).
DEFAULT_BUDGET = Budget(iterations=400)


def wilson(wins, n, z=1.96):
    """95% Wilson score interval of a proportion (wins may be fractional: shared victories)."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def game_seed(seed, k):
    return random.Random(f"splendor-arena/{seed}/{k}").randrange(1, 2**31)


def seating(k, players, entries):
    """The listed-bot index at each seat of game k."""
    return [(s + k) % entries for s in range(players)]


def play_game(bots, seed, budgets=None, max_actions=MAX_ACTIONS, variants=(), watch=None, start=None):
    """Play one game; ``bots`` is one Bot per seat. Returns a dict: status ('ok', 'stuck' or 'error'), scores,
    winners, rounds, actions, times (per seat: seconds of each action-phase decision), error. ``watch(game, seat,
    action)``, when given, sees each legal action just before it is applied (tools/bot_style.py counts them);
    ``start(game)``, the game before its first move (tools/bot_style.py reads the game played from it)."""
    players = len(bots)
    budgets = budgets or [None] * players
    game = new_game(players=players, seed=seed, first_player=0, variants=variants)
    if start is not None:
        start(game)
    rngs = [random.Random(f"splendor-bot/{seed}/{s}") for s in range(players)]
    times = [[] for _ in range(players)]
    cpu = [[] for _ in range(players)]
    status, error = "ok", None
    actions = 0
    while not game.is_over:
        if actions >= max_actions:
            status = "stuck"
            break
        seat = game.current
        obs = game.observation(seat)
        phase = game.phase_
        forced = len(game.legal_actions()) == 1
        t0 = time.perf_counter()
        c0 = time.process_time()
        try:
            action = bots[seat].choose(obs, rngs[seat], budgets[seat])
        except Exception as exc:  # a bot failure is a result to count, not a crash of the arena
            status, error = "error", f"seat {seat} ({bots[seat].level}) raised {type(exc).__name__}: {exc}"
            break
        dt = time.perf_counter() - t0
        if phase == "action" and not forced:
            times[seat].append(dt)
            cpu[seat].append(time.process_time() - c0)
        reason = game.why_illegal(action)
        if reason:
            status, error = "error", f"seat {seat} ({bots[seat].level}) chose {action}: {reason}"
            break
        if watch is not None:
            watch(game, seat, action)
        game.apply_unchecked(action)
        actions += 1
    return {
        "status": status,
        "error": error,
        "scores": list(game.scores),
        "winners": list(game.winners) if game.is_over else [],
        "rounds": game.round - 1 if game.is_over else game.round,
        "actions": actions,
        "times": times,
        "cpu": cpu,
    }


#: Bots the arena knows besides the levels: the expert without its network (the tree search over the linear model
#: that the expert plays at 3 and 4 players), for measuring the network's expert against it, and the hand-written
#: search bot that was the hard level before the ladder (splendor.ai.search.HardBot; the expert's tree search and
#: the coach build on it).
EXTRA_BOTS = ("expert-tree", "hard-classic")


#: A ``--bots`` entry ``net=FILE``: the expert with that network file instead of the shipped one (a fit being
#: screened against the shipped network: ``--bots net=new.json@200,expert@200``).
NET_PREFIX = "net="


#: A ``--bots`` entry ``weak/SIMS/TEMPERATURE/FLOOR[/TREE][/g]``: the expert made weaker with those settings
#: (:class:`splendor.ai.weakened.WeakenedExpert`; ``g``: with its guard), a configuration that is not a level
#: (``weak/0/1/0.1``, ``weak/8/0/0/24/g``).
WEAK_PREFIX = "weak/"


def weak_settings(base):
    """The WeakenedExpert's settings of a ``weak/...`` entry; ValueError in words."""
    parts = base[len(WEAK_PREFIX):].split("/")
    guard = parts[-1] == "g"
    if guard:
        parts = parts[:-1]
    if not 3 <= len(parts) <= 4:
        raise ValueError(f"{base!r}: write weak/SIMS/TEMPERATURE/FLOOR, then /TREE and /g if wanted")
    try:
        out = {"sims": int(parts[0]), "temperature": float(parts[1]), "floor": float(parts[2]), "guard": guard}
        if len(parts) == 4:
            out["tree_iterations"] = int(parts[3])
    except ValueError:
        raise ValueError(f"{base!r}: SIMS and TREE are whole numbers, TEMPERATURE and FLOOR numbers") from None
    from ..ai.weakened import checked_settings

    try:
        checked_settings(**{k: v for k, v in out.items() if k != "guard"})  # (the ranges, without making a bot)
    except ValueError as e:
        raise ValueError(f"{base!r}: {e}") from None
    return out


def parse_entry(name):
    """(bot name, iterations or None) of a ``--bots`` entry: a level, an EXTRA_BOTS name or ``net=FILE``,
    optionally with ``@N``, its own budget of N iterations a move (``expert@1500,expert-tree@290``)."""
    base, _, its = name.rpartition("@") if "@" in name else (name, "", "")
    if base.startswith(NET_PREFIX):
        from ..ai.expert import load_net

        net, problem = load_net(base[len(NET_PREFIX):])
        if net is None:
            raise ValueError(f"{name!r}: {problem}")
    elif base.startswith(WEAK_PREFIX):
        weak_settings(base)
    elif base not in LEVELS and base not in EXTRA_BOTS:
        raise ValueError(f"unknown bot {base!r}: choose from {', '.join(LEVELS + EXTRA_BOTS)}")
    if its:
        if not its.isdigit() or not 0 < int(its) <= Budget.MAX_ITERATIONS:
            raise ValueError(f"{name!r}: the iterations after @ must be a whole number from 1 to "
                             f"{Budget.MAX_ITERATIONS}")
        return base, int(its)
    return base, None


def make_bot(name):
    base, _ = parse_entry(name)
    if base == "expert-tree":
        from ..ai.expert import ExpertBot

        return ExpertBot(net=None)
    if base == "hard-classic":
        from ..ai.search import HardBot

        return HardBot()
    if base.startswith(NET_PREFIX):
        from ..ai.expert import ExpertBot, load_net

        return ExpertBot(net=load_net(base[len(NET_PREFIX):])[0])
    if base.startswith(WEAK_PREFIX):
        from ..ai.weakened import WeakenedExpert

        return WeakenedExpert(level=base, **weak_settings(base))
    return get_bot(base)


def entry_budget(name, players, budget=None):
    """The budget of a ``--bots`` entry at a table of ``players``: its own ``@N`` iterations, else ``budget`` (the
    command's option), else a level's own counts as the browser's worker plays it, without its time cap
    (:meth:`splendor.ai.ladder.Level.budget`), else (the bots that are not levels) DEFAULT_BUDGET."""
    base, its = parse_entry(name)
    if its:
        return Budget(iterations=its)
    if budget is not None:
        return budget
    if base in LEVELS:
        from ..ai.protocol import default_budget

        return Budget(iterations=default_budget(base, players).iterations)
    return DEFAULT_BUDGET


def _run_one(args):
    k, seed, players, names, budget_dict, max_actions = args
    seats = seating(k, players, len(names))
    bots = [make_bot(names[e]) for e in seats]
    budget = Budget.parse(budget_dict) if budget_dict else None
    budgets = [entry_budget(names[e], players, budget) for e in seats]
    result = play_game(bots, game_seed(seed, k), budgets, max_actions)
    result["seats"] = seats
    result["k"] = k
    return result


def run(names, players=2, games=10, seed=1, budget=None, jobs=1, max_actions=MAX_ACTIONS, progress=None, ks=None):
    """Play the games (``ks``: their numbers, default 0 to ``games`` - 1) and return the list of results (in game
    order). ``budget`` None: each entry its own (:func:`entry_budget`)."""
    budget_dict = budget.to_dict() if budget is not None else None
    tasks = [(k, seed, players, list(names), budget_dict, max_actions) for k in (range(games) if ks is None else ks)]
    results = []
    if jobs > 1 and len(tasks) > 1:
        import multiprocessing  # only here: the bots themselves never use processes (they run in Pyodide)

        with multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork").Pool(jobs) as pool:
            for r in pool.imap(_run_one, tasks):
                results.append(r)
                if progress:
                    progress(r)
    else:
        for t in tasks:
            r = _run_one(t)
            results.append(r)
            if progress:
                progress(r)
    return results


def summarize(names, results):
    """Per listed bot: seats, wins, win rate and interval, mean points, rounds, move times."""
    rows = []
    for e, name in enumerate(names):
        seats = wins = points = 0.0
        rounds = []
        times = []
        cpu = []
        for r in results:
            if r["status"] != "ok":
                continue
            for s, who in enumerate(r["seats"]):
                if who != e:
                    continue
                seats += 1
                points += r["scores"][s]
                rounds.append(r["rounds"])
                times.extend(r["times"][s])
                cpu.extend(r["cpu"][s])
                if s in r["winners"]:
                    wins += 1.0 / len(r["winners"])
        lo, hi = wilson(wins, seats)
        rows.append({
            "bot": f"{name} ({e + 1})" if names.count(name) > 1 else name,
            "games": int(seats),
            "wins": wins,
            "win_rate": wins / seats if seats else 0.0,
            "interval": (lo, hi),
            "mean_points": points / seats if seats else 0.0,
            "mean_rounds": statistics.fmean(rounds) if rounds else 0.0,
            "median_move": statistics.median(times) if times else 0.0,
            "max_move": max(times) if times else 0.0,
            "median_cpu": statistics.median(cpu) if cpu else 0.0,
            "moves": len(times),
        })
    return rows


def report(names, players, results, seed, budget, seconds):
    lines = []
    b = ", ".join(f"{k}={v:g}" for k, v in budget.to_dict().items() if k != "cpu") if budget else "level defaults"
    if budget and budget.cpu:
        b += " (processor time)"
    lines.append(f"arena: {' vs '.join(names)}; {players} players; {len(results)} games; seed {seed}; "
                 f"budget {b}")
    head = (f"{'bot':<12} {'games':>5} {'wins':>7} {'win rate':>8}  {'95% interval':<15} {'points':>6} "
            f"{'rounds':>6} {'median s/move':>13} {'max s/move':>10} {'median cpu s':>12}")
    lines.append(head)
    for row in summarize(names, results):
        lo, hi = row["interval"]
        lines.append(f"{row['bot']:<12} {row['games']:>5} {row['wins']:>7.1f} {100 * row['win_rate']:>7.1f}%  "
                     f"[{100 * lo:4.1f}%, {100 * hi:5.1f}%] {row['mean_points']:>6.2f} {row['mean_rounds']:>6.2f} "
                     f"{row['median_move']:>13.4f} {row['max_move']:>10.4f} {row['median_cpu']:>12.4f}")
    ok = [r for r in results if r["status"] == "ok"]
    stuck = sum(1 for r in results if r["status"] == "stuck")
    errors = [r for r in results if r["status"] == "error"]
    rounds = [r["rounds"] for r in ok]
    shared = sum(1 for r in ok if len(r["winners"]) > 1)
    lines.append(f"finished {len(ok)}, stuck {stuck}, errors {len(errors)}, shared wins {shared}; "
                 f"game length {statistics.fmean(rounds) if rounds else 0:.2f} rounds on average "
                 f"(max {max(rounds) if rounds else 0}); {seconds:.1f} s")
    for r in errors[:5]:
        lines.append(f"error in game {r['k']}: {r['error']}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m splendor arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="medium,easy",
                        help=f"comma-separated levels ({', '.join(LEVELS + EXTRA_BOTS)}), filling the seats in "
                             "rotation; NAME@N gives that bot N iterations a move")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--budget-iterations", type=int,
                       help="search iterations per move for every bot (default: each level its own counts, as the "
                            f"browser's worker plays it; {DEFAULT_BUDGET.iterations} for the bots that are not levels)")
    group.add_argument("--budget-seconds", type=float, help="thinking time per move (the browser's: 0.8)")
    group.add_argument("--budget-cpu-seconds", type=float,
                       help="processor time per move (a measurement on a busy machine: each bot still gets its "
                            "seconds of a core)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once in separate processes")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS, help="actions before a game counts as stuck")
    parser.add_argument("--progress", action="store_true", help="print a line per finished game")
    args = parser.parse_args(argv)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not names:
        parser.error(f"name the bots: choose from {', '.join(LEVELS + EXTRA_BOTS)}")
    for b in names:
        try:
            parse_entry(b)
        except ValueError as e:
            parser.error(str(e))
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    budget = None  # each level its own counts (entry_budget)
    if args.budget_iterations is not None:
        budget = Budget(iterations=args.budget_iterations)
    elif args.budget_seconds is not None:
        budget = Budget(seconds=args.budget_seconds)
    elif args.budget_cpu_seconds is not None:
        budget = Budget(seconds=args.budget_cpu_seconds, cpu=True)

    def progress(r):
        if args.progress:
            print(f"game {r['k'] + 1}: {r['status']} scores {r['scores']} winners {r['winners']} "
                  f"rounds {r['rounds']} bots {[names[e] for e in r['seats']]}", flush=True)

    t0 = time.perf_counter()
    results = run(names, args.players, args.games, args.seed, budget, args.jobs, args.max_actions, progress)
    print(report(names, args.players, results, args.seed, budget, time.perf_counter() - t0), flush=True)
    bad = sum(1 for r in results if r["status"] != "ok")
    return 1 if bad else 0
