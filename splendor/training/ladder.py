"""``python -m splendor levels``: the ladder's table; ``--measure`` plays its round robin and fits the ratings.

The round robin (two players): every pair of adjacent rungs ``--games`` games (400 by default) and every pair two
apart ``--games-apart`` (200), seats alternating, each level exactly as the browser's worker plays it but without the
time cap (:meth:`splendor.ai.ladder.Level.budget`), plus the configurations of ``--extra`` (bots that are not levels,
such as the simulated player of the rating's test) against the rungs their first games place them near. Games are
the arena's (:mod:`splendor.training.arena`): game k of a pair is dealt from the pair's seed and k. Each finished
game is appended to ``DIR/<pair>.jsonl`` as it ends, so a stopped run resumes where it was (``--dir``).

The ratings are the maximum-likelihood fit of a Bradley-Terry model on the Elo scale (P(i beats j) = 1 / (1 +
10 ** ((r_j - r_i) / 400)), a shared win half a win each) to every game played, medium fixed at 1000, as Ordo and
BayesElo fit chess engines; each rating's 95% interval is 1.96 standard errors from the inverse of the information
matrix (relative to medium, whose own rating is exact by definition). ``--tables`` also plays, at three and four
players, each level against tables of the level below it (``--table-games``) and records its share beside the
fair one. The outside agent is placed on the scale from the sparring figure (the expert's win rate against it).
"""

import argparse
import json
import math
import os
import sys
import time

from ..ai import ladder as _ladder
from . import arena

#: The sparring figure of record (docs/BOTS.md, "Strength against an outside player"): the shipped expert at 1,500
#: simulations against cestpasphoto's AlphaZero agent at 800, 400 games on deals 500001-500400.
AGENT = {"name": "the AlphaZero agent, 800 simulations", "level": "expert", "wins": 221, "games": 400}
ELO = 400.0 / math.log(10.0)


def expected(diff):
    """The stronger side's expected score for a rating difference ``diff`` (Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def elo_of(share):
    """The rating difference that gives the expected score ``share`` (strictly between 0 and 1)."""
    return 400.0 * math.log10(share / (1.0 - share))


def _solve(a, b):
    """x with a x = b (Gaussian elimination with pivoting; a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-12:
            raise ValueError("the games do not connect every entry to the anchor")
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a):
    n = len(a)
    cols = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def fit(results, anchor=_ladder.ANCHOR, prior=0):
    """Bradley-Terry ratings from ``results``: a list of (a, b, a's score, games) (a's score counts a shared win as
    a half). Returns {name: {"rating", "low", "high", "se", "games"}} with ``anchor`` = (name, rating) fixed.
    Newton's method on the log-likelihood; the intervals from the inverse of its negated Hessian. A name that
    won or lost every game has no finite rating: ValueError. ``prior``: virtual draws of each entry against the
    anchor, as BayesElo's prior (0 for the figures of record; a tiny trial needs some).

    >>> r = fit([("a", "b", 64, 100), ("b", "c", 64, 100)], ("b", 1000))
    >>> round(r["a"]["rating"]), round(r["c"]["rating"])
    (1100, 900)
    """
    names = sorted({x for a, b, _, _ in results for x in (a, b)})
    base, zero = anchor
    if base not in names:
        raise ValueError(f"no games of the anchor {base!r}")
    games = {n: 0 for n in names}
    for a, b, _, g in results:
        games[a] += g
        games[b] += g
    if prior:
        results = list(results) + [(n, base, prior / 2, prior) for n in names if n != base]
    won = {n: 0.0 for n in names}
    played = {n: 0.0 for n in names}
    for a, b, s, g in results:
        won[a] += s
        won[b] += g - s
        played[a] += g
        played[b] += g
    for n in names:
        if won[n] in (0, played[n]):
            raise ValueError(f"{n} {'lost' if won[n] == 0 else 'won'} every game: its rating is not finite")
    free = [n for n in names if n != base]
    index = {n: i for i, n in enumerate(free)}
    r = {n: 0.0 for n in names}  # natural units (ratings / ELO)
    for _ in range(100):
        grad = [0.0] * len(free)
        hess = [[0.0] * len(free) for _ in free]
        for a, b, s, g in results:
            p = 1.0 / (1.0 + math.exp(r[b] - r[a]))
            d, w = s - g * p, g * p * (1.0 - p)
            ia, ib = index.get(a), index.get(b)
            if ia is not None:
                grad[ia] += d
                hess[ia][ia] += w
            if ib is not None:
                grad[ib] -= d
                hess[ib][ib] += w
            if ia is not None and ib is not None:
                hess[ia][ib] -= w
                hess[ib][ia] -= w
        step = _solve(hess, grad)
        for n, i in index.items():
            r[n] += step[i]
        if max((abs(x) for x in step), default=0.0) < 1e-9:
            break
    if any(abs(v) > 20 for v in r.values()):
        raise ValueError("the games leave a rating not finite (a group of entries won every game against the rest)")
    cov = _inverse(hess) if free else []
    out = {}
    for n in names:
        se = ELO * math.sqrt(cov[index[n]][index[n]]) if n in index else 0.0
        rating = zero + ELO * r[n]
        out[n] = {"rating": rating, "low": rating - 1.96 * se, "high": rating + 1.96 * se, "se": se,
                  "games": games[n]}
    return out


# --- the round robin --------------------------------------------------------------------------------------------------

def pairs(names, games, games_apart):
    """[(stronger, weaker, games)]: every adjacent pair of ``names`` (weakest first), then every pair two apart."""
    out = [(names[i + 1], names[i], games) for i in range(len(names) - 1)]
    if games_apart:
        out += [(names[i + 2], names[i], games_apart) for i in range(len(names) - 2)]
    return out


def _slug(entries):
    return "_vs_".join(e.replace("/", "-") for e in entries)


def _seed(entries):
    """A pair's deals depend on its entries only (not on the order pairs are played)."""
    return sum((i + 1) * ord(c) for i, c in enumerate("|".join(entries))) % 100_000 + 1


def _read(path):
    done = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    row = json.loads(line)
                    done[row["k"]] = row
                except (ValueError, KeyError):
                    continue  # a line cut short by a stop: the game is played again
    return done


def play_pair(folder, entries, players, games, jobs, log=print):
    """Play (or resume) the games of ``entries`` (arena entries, one per listed bot, filling the seats in turn) into
    ``folder``; returns the finished games' rows {k, seats, winners, scores, rounds, status}."""
    path = os.path.join(folder, f"{players}p_{_slug(entries)}.jsonl")
    done = _read(path)
    todo = [k for k in range(games) if k not in done]
    if todo:
        t0 = time.perf_counter()
        log(f"{players} players, {' vs '.join(entries)}: {len(todo)} of {games} games to play")
        with open(path, "a", encoding="utf-8") as f:

            def keep(r):  # each game as it ends, so that a stop loses only the games being played
                row = {k: r[k] for k in ("k", "seats", "winners", "scores", "rounds", "status")}
                f.write(json.dumps(row) + "\n")
                f.flush()
                done[r["k"]] = row

            arena.run(list(entries), players, ks=todo, seed=_seed(entries), jobs=jobs, progress=keep)
        log(f"  {time.perf_counter() - t0:.0f} s")
    return [done[k] for k in range(games) if k in done]


def score(rows, e):
    """(entry ``e``'s score (a shared win a fraction), games) over ``rows`` that finished."""
    s = n = 0.0
    for r in rows:
        if r["status"] != "ok":
            continue
        for seat, who in enumerate(r["seats"]):
            if who == e:
                n += 1
                if seat in r["winners"]:
                    s += 1.0 / len(r["winners"])
    return s, n


def measure(folder, games=400, games_apart=200, extra=(), extra_games=200, tables=False, table_games=60, jobs=1,
            prior=0, log=print):
    """Play the round robin into ``folder`` (resumable) and return the ladder's record (see :func:`write`)."""
    os.makedirs(folder, exist_ok=True)
    names = list(_ladder.NAMES)
    results, pair_rows = [], []
    for a, b, n in pairs(names, games, games_apart):
        rows = play_pair(folder, (a, b), 2, n, jobs, log)
        s, g = score(rows, 0)
        results.append((a, b, s, g))
        pair_rows.append({"stronger": a, "weaker": b, "games": int(g), "score": s, "share": s / g if g else None})
    ratings = fit(results, prior=prior)
    others = {}
    for x in extra:  # placed against the two rungs nearest the rating its first games give
        near = sorted(names, key=lambda n: abs(ratings[n]["rating"] - _place(folder, x, names, ratings, jobs, log)))
        for n in sorted(near[:2], key=names.index):
            rows = play_pair(folder, (x, n), 2, extra_games, jobs, log)
            s, g = score(rows, 0)
            results.append((x, n, s, g))
            pair_rows.append({"stronger": x, "weaker": n, "games": int(g), "score": s, "share": s / g if g else None})
        others[x] = fit(results, prior=prior)[x]
    ratings = fit(results, prior=prior)
    record = {"levels": {n: _round(ratings[n]) for n in names}, "others": {x: _round(ratings[x]) for x in extra},
              "pairs": pair_rows}
    ag = AGENT
    if ag["level"] in ratings:
        share = ag["wins"] / ag["games"]
        lo, hi = arena.wilson(ag["wins"], ag["games"])
        top = ratings[ag["level"]]
        record["agent"] = {"name": ag["name"], "rating": round(top["rating"] - elo_of(share)),
                           "low": round(top["low"] - elo_of(hi)), "high": round(top["high"] - elo_of(lo)),
                           "from": f"the expert won {ag['wins']} of {ag['games']} against it"}
    if tables:
        record["tables"] = {}
        for players in (3, 4):
            rows_out = []
            for i in range(1, len(names)):
                entries = (names[i],) + (names[i - 1],) * (players - 1)
                rows = play_pair(folder, entries, players, table_games, jobs, log)
                s, g = score(rows, 0)
                lo, hi = arena.wilson(s, g)
                rows_out.append({"level": names[i], "below": names[i - 1], "games": int(g), "share": round(s / g, 3),
                                 "low": round(lo, 3), "high": round(hi, 3), "fair": round(1 / players, 3)})
            record["tables"][str(players)] = rows_out
    return record


def _place(folder, x, names, ratings, jobs, log):
    """A first estimate of ``x``'s rating: 40 games against medium."""
    rows = play_pair(folder, (x, _ladder.ANCHOR[0]), 2, 40, jobs, log)
    s, g = score(rows, 0)
    share = min(max(s / g, 0.02), 0.98) if g else 0.5
    return ratings[_ladder.ANCHOR[0]]["rating"] + elo_of(share)


def _round(row):
    return {"rating": round(row["rating"]), "low": round(row["low"]), "high": round(row["high"]),
            "games": int(row["games"])}


def write(record, command, path=_ladder.RATINGS_FILE):
    """Write the ladder's record (the levels' definitions beside their ratings) where the page reads it."""
    data = {"format": "splendor-ladder", "version": 1, "anchor": {"level": _ladder.ANCHOR[0],
                                                                  "rating": _ladder.ANCHOR[1]},
            "command": command, "definitions": {lv.name: lv.settings() for lv in _ladder.LADDER}}
    data.update(record)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


# --- the table ------------------------------------------------------------------------------------------------------

def table(data=None):
    """The ladder as rows for people and programs: name, label, how it plays, budget, rating, interval, games."""
    data = data or _ladder.ratings()
    rows = []
    for lv in _ladder.LADDER:
        got = data["levels"].get(lv.name) or {}
        rows.append({"name": lv.name, "label": lv.label, "plays": lv.plays, "budget": lv.budget_words(),
                     "settings": lv.settings(), "rating": got.get("rating"), "low": got.get("low"),
                     "high": got.get("high"), "games": got.get("games", 0)})
    return rows


def render(data=None):
    data = data or _ladder.ratings()
    lines = [f"{'level':<9} {'rating':>6} {'95% interval':<13} {'games':>5}  budget; how it plays"]
    for row in table(data):
        r = "-" if row["rating"] is None else f"{row['rating']}"
        iv = "" if row["low"] is None else f"[{row['low']}, {row['high']}]"
        lines.append(f"{row['name']:<9} {r:>6} {iv:<13} {row['games']:>5}  {row['budget']}; {row['plays']}")
    steps = data.get("pairs") or []
    if steps:
        lines.append("")
        lines.append("head to head (the stronger's share, seats alternating):")
        for p in steps:
            if p.get("share") is not None:
                lo, hi = arena.wilson(p["score"], p["games"])
                lines.append(f"  {p['stronger']:<9} over {p['weaker']:<9} {100 * p['share']:5.1f}% of {p['games']} "
                             f"[{100 * lo:.1f}%, {100 * hi:.1f}%]")
    ag = data.get("agent")
    if ag:
        lines.append(f"{ag['name']}: {ag['rating']} [{ag['low']}, {ag['high']}] ({ag['from']})")
    for players, rows in sorted((data.get("tables") or {}).items()):
        lines.append("")
        lines.append(f"{players} players: each level at tables of the level below it (its share; fair "
                     f"{100 / int(players):.0f}%)")
        for t in rows:
            lines.append(f"  {t['level']:<9} among {t['below']:<9} {100 * t['share']:5.1f}% of {t['games']} "
                         f"[{100 * t['low']:.1f}%, {100 * t['high']:.1f}%]")
    if data.get("command"):
        lines.append("")
        lines.append(f"measured by: {data['command']}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m splendor levels", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="the table as JSON (for programs)")
    parser.add_argument("--measure", action="store_true", help="play the round robin (long; resumable) and write "
                        "the ratings into splendor/ai/ladder.json")
    parser.add_argument("--dir", default="ladder-games", help="where the round robin's games are kept (resume)")
    parser.add_argument("--games", type=int, default=400, help="games of each adjacent pair")
    parser.add_argument("--games-apart", type=int, default=200, help="games of each pair two apart (0: none)")
    parser.add_argument("--extra", default="", help="comma-separated arena entries that are not levels, rated too")
    parser.add_argument("--extra-games", type=int, default=200)
    parser.add_argument("--tables", action="store_true", help="also each level at 3- and 4-player tables of the "
                        "level below it")
    parser.add_argument("--table-games", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=_ladder.RATINGS_FILE, help="where the ratings are written")
    args = parser.parse_args(argv)
    if args.measure:
        extra = [x.strip() for x in args.extra.split(",") if x.strip()]
        for x in extra:
            try:
                arena.parse_entry(x)
            except ValueError as e:
                parser.error(str(e))
        record = measure(args.dir, args.games, args.games_apart, extra, args.extra_games, args.tables,
                         args.table_games, args.jobs, log=lambda s: print(s, flush=True))
        command = "python -m splendor levels --measure " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]) if a != "--measure")
        write(record, command.strip(), args.out)
        _ladder._RATINGS.clear()
        with open(args.out, encoding="utf-8") as f:
            print(render(json.load(f)), flush=True)
        return 0
    if args.json:
        data = _ladder.ratings()
        print(json.dumps({"levels": table(data), "pairs": data.get("pairs", []), "agent": data.get("agent"),
                          "tables": data.get("tables", {}), "others": data.get("others", {}),
                          "command": data.get("command")}, indent=1))
        return 0
    print(render())
    return 0
