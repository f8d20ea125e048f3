"""Puzzles mined from strong games, judged by the expert: positions where the mover's best move is clearly best
(issue 73).

    python -m splendor puzzles --make [--players 2] [--games 400] [--dir puzzle-games] [--jobs 2] [--from FILE ...]
    python -m splendor puzzles --export [--dir puzzle-games]

``--make`` plays the expert's games, against itself and against the ladder's levels in turn (:data:`OPPONENTS`, the
expert in seat ``k`` mod players, each level on its own counts, as the arena plays it), and reads every position
of each from round :data:`EARLIEST_ROUND` on with the coach's judge (:func:`splendor.ai.coach.judge`, the expert's own
search, from the mover's view). ``--from`` mines recorded games instead (:func:`recorded`: one game record a line,
such as the outside agent's games against itself that trained the network), the expert judging their positions the
same way. A position is a puzzle when (lichess-puzzler's rules, read for Splendor):

- the game is still open: the mover's chance before it between 15% and 85% (:data:`OPEN`);
- it is not the only sensible move: more than one buy or take on offer, and at two players the network's prior for
  the answer at most 0.6 (:data:`PRIOR_MAX`: not what anyone plays at a glance);
- the best move's chance beats the runner-up's (the move the first look rates best after it) by at least 25 points
  (:data:`MARGIN`), and every other move's the search judged on a quarter of :data:`FORCE` walks or more, in a
  second look where the runner-up has a subtree of its own (it is forced, :data:`FORCE`);
- and still by at least 15 (:data:`HOLD`) in each of :data:`DEALS` fresh deals of the cards the mover cannot see: an
  answer must not hang on a hidden card.

Each puzzle gets a theme in words (:func:`theme`) and a rating: the rating of the weakest ladder level that plays the
answer there (:func:`rating`; beyond the expert, the expert's rating and 100). Each game's puzzles are appended to
``DIR/<players>p.jsonl`` (``<players>p-recorded.jsonl`` with ``--from``) as the game ends, so a stopped run resumes
where it was. ``--export`` prints the pool, one JSON object a line: ``id``, ``players``, ``seed`` (the deal:
``splendor.new_game(players, seed)``, the first seat 0), ``actions`` (the moves from the deal to the position),
``seat``, ``answer``, ``margin``, ``theme``, ``rating``.
"""

import argparse
import itertools
import json
import os
import random
import sys

from ..engine import parse_action
from ..engine.game import new_game

#: The mover's chance before the puzzle: the game is still open.
OPEN = (0.15, 0.85)
#: The best move beats the runner-up by this much ...
MARGIN = 0.25
#: ... and still by this much in each of DEALS fresh deals of the unseen cards.
HOLD = 0.15
DEALS = 8
#: The network's prior for the answer at most this (two players): not the move anyone plays at a glance.
PRIOR_MAX = 0.6
#: The judge's walks for the first look and for each fresh deal, per table size; the runner-up's forced visits.
WALKS = {2: 800, 3: 160, 4: 160}
DEAL_WALKS = {2: 400, 3: 96, 4: 96}
FORCE = {2: 64, 3: 24, 4: 24}
#: Positions before this round are not judged: no move decides a game that early (of the first 99 puzzles mined from
#: all positions, one came before round 15, at round 9).
EARLIEST_ROUND = 15
#: The expert's opponents, game after game (the expert against itself first).
OPPONENTS = ("expert", "medium", "skilled", "hard", "advanced", "elite")


def lineup(k, players):
    """Game ``k``'s levels by seat: the expert in seat ``k`` mod ``players``, the other seats the game's opponent."""
    other = OPPONENTS[(k // players) % len(OPPONENTS)]
    return ["expert" if s == k % players else other for s in range(players)]


def game_seed(k, players):
    return random.Random(f"splendor-puzzles/{players}/{k}").randrange(1, 2**31)


def play(k, players):
    """Game ``k``'s record (the levels of :func:`lineup`, each on its own counts)."""
    from .arena import entry_budget, make_bot
    levels = lineup(k, players)
    g = new_game(players=players, seed=game_seed(k, players))
    bots = [make_bot(x) for x in levels]
    budgets = [entry_budget(x, players) for x in levels]
    rngs = [random.Random(f"splendor-puzzles/{k}/{s}") for s in range(players)]
    while not g.is_over:
        s = g.current_player
        g.apply(bots[s].choose(g.observation(s), rngs[s], budgets[s]))
    return g.record()


def runner_up(j):
    """The index of the judgement's runner-up: the move other than the best with the highest chance for the mover
    among those the search looked at twice or more (else the most visited other), or None with one move."""
    others = [i for i in range(len(j.moves)) if i != j.best and j.chances[i] is not None]
    if not others:
        return None
    looked = [i for i in others if j.visits[i] >= 2] or others
    return max(looked, key=lambda i: (j.chances[i][j.seat], j.visits[i]))


def margin_of(j, i):
    """What the judgement's best move gives its mover over move ``i``."""
    return j.chances[j.best][j.seat] - j.chances[i][j.seat]


def sensible(game):
    """More than one buy or take on offer (a position where the answer is the only sensible move is no puzzle)."""
    return sum(1 for a in game.legal_actions() if a.kind in ("buy", "take", "take_two")) >= 2


def judge_puzzle(game, key, walks=None, deal_walks=None, deals=DEALS):
    """The position's answer when it is a puzzle (see the module text): (answer, margin, the mover's chance before),
    else None with the first rule it fails as a second item: (None, reason)."""
    from ..ai import coach
    n = game.n
    seat = game.current_player
    if game.phase != "action" or not sensible(game):
        return None, "no choice"
    walks = walks or WALKS[n]
    j = coach.judge(game, seat, random.Random(f"puzzle:{key}"), walks)
    before = j.position[seat]
    if not OPEN[0] <= before <= OPEN[1]:
        return None, "decided"
    r = runner_up(j)
    if r is None:
        return None, "no clear best"
    best, second = j.moves[j.best], j.moves[r]
    if j.prior is not None and j.prior[j.best] > PRIOR_MAX:
        return None, "obvious"
    # The runner-up with a subtree of its own (a move the first look tried twice can read far worse, or better, than
    # it is: the first look's margin decides nothing), and the margin over every move that look judged well.
    j2 = coach.judge(game, seat, random.Random(f"puzzle:{key}:again"), walks, second, FORCE[n])
    if j2.moves[j2.best] != best:
        return None, "no clear best"
    margin = min(margin_of(j2, i) for i in range(len(j2.moves))
                 if i != j2.best and j2.chances[i] is not None and (j2.visits[i] >= FORCE[n] // 4
                                                                    or j2.moves[i] == second))
    if margin < MARGIN:
        return None, "no clear best"
    for d in range(deals):
        jd = coach.judge(game, seat, random.Random(f"puzzle:{key}:deal:{d}"), deal_walks or DEAL_WALKS[n], second,
                         FORCE[n])
        i, i2 = jd.index(best), jd.index(second)
        if i is None or i2 is None or jd.chances[i] is None or jd.chances[i2] is None or jd.best != i:
            return None, "hangs on a hidden card"
        hold = jd.chances[i][seat] - jd.chances[i2][seat]
        if hold < HOLD:
            return None, "hangs on a hidden card"
        margin = min(margin, hold)
    return (best, margin, before), None


def theme(game, answer):
    """The puzzle's theme in words, from what the answer does."""
    seat = game.current_player
    nxt = (seat + 1) % game.n
    after = game.copy()
    after.apply(answer)
    me = after.players[seat]
    if answer.kind == "buy":
        if me.points >= 15:
            return "the buy that reaches 15"
        if after.phase == "noble" or len(me.nobles) > len(game.players[seat].nobles) or _noble_next(after, seat):
            return "the noble race"
        return "points now" if answer.card.points else "a bonus that pays later"
    if answer.kind == "reserve":
        if answer.card is not None and game.can_afford(answer.card, nxt):
            return "keeping a card from the opponent"
        return "a reserve for gold and a card"
    if answer.kind in ("take", "take_two"):
        if len(_affordable(after, seat) - _affordable(game, seat)) >= 2:
            return "the take that sets up two buys"
        return "the take toward the next card"
    return "the move that matters"


def _affordable(game, seat):
    return {c.code for row in game.market for c in row if c and game.can_afford(c, seat)} | \
        {c.code for c in game.players[seat].reserved if game.can_afford(c, seat)}


def _noble_next(game, seat):
    """A noble one bonus away for ``seat`` after the move (the noble race is on)."""
    bon = game.players[seat].bonuses
    from ..engine.cards import COLORS
    return any(sum(max(0, n - bon[COLORS[i]]) for i, n in nb.needs) == 1 for nb in game.nobles)


def rating(game, answer, levels=None):
    """(the weakest ladder level that plays ``answer`` in ``game``, its rating): each level asked once, on its own
    counts; beyond the expert: ("beyond the expert", the expert's rating and 100)."""
    from ..ai import ladder
    from ..ai.coach import index_of
    from .arena import entry_budget, make_bot
    seat = game.current_player
    names = levels or ladder.NAMES
    for name in names:
        move = make_bot(name).choose(game.observation(seat), random.Random(f"puzzle-rating:{name}"),
                                     entry_budget(name, game.n))
        if index_of([answer], move) is not None:
            return name, round(ladder.rating_of(name) or 0)
    return "beyond the expert", round((ladder.rating_of("expert") or 1500) + 100)


def mine(k, players, walks=None, deal_walks=None, deals=DEALS, levels=None):
    """Game ``k``'s puzzles: {"k", "positions" (judged), "puzzles": [...]}."""
    record = play(k, players)
    return {"k": k, **puzzles_of(record, f"{players}p-{k}", f"{players}:{k}", walks, deal_walks, deals, levels)}


def puzzles_of(record, name, key, walks=None, deal_walks=None, deals=DEALS, levels=None):
    """The puzzles of one game's ``record`` (:meth:`Game.record`, dealt by ``new_game(players, seed)``): {"positions"
    (judged), "puzzles": [...]}, each puzzle's id ``name-t`` (``t`` the actions before it), each position judged by
    :func:`judge_puzzle` under the key ``key:t``."""
    players = record["players"]
    game = new_game(players=players, seed=record["seed"])
    out = []
    judged = 0
    for t, text in enumerate(record["actions"]):
        if game.round >= EARLIEST_ROUND and game.phase == "action" and len(game.legal_actions()) > 1:
            judged += 1
            found, _why = judge_puzzle(game, f"{key}:{t}", walks, deal_walks, deals)
            if found:
                answer, margin, before = found
                name_of, rated = rating(game, answer, levels)
                out.append({"id": f"{name}-{t}", "players": players, "seed": record["seed"],
                            "actions": record["actions"][:t], "seat": game.current_player, "answer": str(answer),
                            "margin": round(margin, 3), "chance": round(before, 3), "theme": theme(game, answer),
                            "rating": rated, "found_by": name_of})
        game.apply(parse_action(game, text))
    return {"positions": judged, "puzzles": out}


def recorded(paths, players):
    """The games of ``players`` in record files (``.jsonl``, or ``.jsonl.gz``: one :meth:`Game.record` a line), as
    (source, line, record) for each one dealt as the pool deals (``new_game(players, seed)``, seat 0 first, no
    variants, no stacked deal that the seed does not make); ValueError naming a line that is not a record."""
    import gzip

    for path in paths:
        source = os.path.basename(path).split(".")[0]
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            for line_no, line in enumerate(f):
                try:
                    rec = json.loads(line)
                    ok = rec["players"] == players and isinstance(rec["seed"], int)
                except (ValueError, KeyError, TypeError) as e:
                    raise ValueError(f"{path} line {line_no + 1}: not a game record ({e})") from None
                if ok and rec.get("first_player", 0) == 0 and not rec.get("variants") and _dealt_by_seed(rec):
                    yield source, line_no, rec


def _dealt_by_seed(rec):
    """Whether the record replays from ``new_game(players, seed)`` to the cards it says were dealt."""
    game = new_game(players=rec["players"], seed=rec["seed"])
    try:
        for text in rec["actions"]:
            game.apply(parse_action(game, text))
    except ValueError:
        return False
    return rec.get("deals") is None or game.dealt() == rec["deals"]


def _from_job(args):
    source, line_no, rec, settings = args
    found = puzzles_of(rec, f"{rec['players']}p-{source}-{line_no}", f"{rec['players']}:{source}:{line_no}",
                       settings.get("walks"), settings.get("deal_walks"), settings.get("deals", DEALS),
                       settings.get("levels"))
    return {"source": source, "line": line_no, **found}


def _mine_job(args):
    return mine(*args)


def make(folder, players, games, jobs=1, log=print, records=None, **settings):
    """Mine games 0..games-1 into ``folder`` (resumable: games already there are kept); with ``records`` (the
    (source, line, record) of :func:`recorded`), the first ``games`` of them instead, into
    ``<players>p-recorded.jsonl``."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{players}p-recorded.jsonl" if records is not None else f"{players}p.jsonl")
    if records is not None:
        done = {(row["source"], row["line"]) for row in read(path)}
        todo = [(src, line, rec, settings) for src, line, rec in records[:games] if (src, line) not in done]
        job = _from_job
    else:
        done = {row["k"] for row in read(path)}
        todo = [(k, players, settings.get("walks"), settings.get("deal_walks"), settings.get("deals", DEALS),
                 settings.get("levels")) for k in range(games) if k not in done]
        job = _mine_job
    log(f"{len(done)} games already mined in {path}; {len(todo)} to go")
    results = map(job, todo) if jobs <= 1 else _pool(jobs).imap_unordered(job, todo)
    found = sum(len(row["puzzles"]) for row in read(path))
    if os.path.exists(path) and os.path.getsize(path):
        with open(path, "rb+") as f:  # (a stopped run's last line, cut short: the next game starts a line of its own)
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                f.write(b"\n")
    for row in results:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        found += len(row["puzzles"])
        name = f"{row['source']} line {row['line'] + 1}" if records is not None else row["k"]
        log(f"game {name}: {row['positions']} positions, {len(row['puzzles'])} puzzles ({found} in all)")
    return path


def _pool(jobs):
    """Worker processes forked from this one, as the arena's are: they keep what it set up (the network on numpy)."""
    import multiprocessing
    return multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(jobs)


def read(path):
    """The mined games of a ``.jsonl`` file (a damaged last line, a stopped run's, is left out)."""
    rows = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    continue
    return rows


#: The export's fields (``chance``, ``found_by``, ``why`` and ``chances`` follow them: see :func:`shipped`).
FIELDS = ("id", "players", "seed", "actions", "seat", "answer", "margin", "theme", "rating")


def pool(folder):
    """Every puzzle mined into ``folder``, in the export's fields and what the page shows of it, by id."""
    out = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.endswith(".jsonl") and name[:1].isdigit():  # (2p.jsonl, 4p-recorded.jsonl: not shipped.jsonl)
            for row in read(os.path.join(folder, name)):
                out.extend(row["puzzles"])
    keys = FIELDS + ("chance", "found_by", "chances")
    return [{k: p[k] for k in keys if k in p} for p in sorted(out, key=lambda p: p["id"])]


def page_facts(puzzle):
    """What the puzzle screen says beside the position, so the page needs no search to say it: ``why`` (the
    expert's reason for the answer, in the hint's words) and ``chances`` (the mover's chance in whole percent after
    each move the second look judged well, :func:`judge_puzzle`'s, best first: a move the person plays that is not
    among them is one the expert hardly looked at)."""
    from ..ai import coach
    from ..ai.explain import explain
    game = position(puzzle)
    seat = game.current_player
    answer = parse_action(game, puzzle["answer"])
    j = coach.judge(game, seat, random.Random(f"puzzle:{puzzle['id']}:again"), WALKS[game.n], None, FORCE[game.n])
    rows = {}
    for i, move in enumerate(j.moves):
        if j.chances[i] is not None and (j.visits[i] >= FORCE[game.n] // 4 or i == j.best):
            rows[str(move)] = round(100 * j.chances[i][seat])
    if j.index(answer) is not None and j.chances[j.index(answer)] is not None:
        rows.pop(str(j.moves[j.index(answer)]), None)
        rows[puzzle["answer"]] = round(100 * j.chances[j.index(answer)][seat])
    best_first = sorted(rows.items(), key=lambda kv: -kv[1])
    return {"why": explain(game.observation(seat), answer), "chances": [list(kv) for kv in best_first]}


#: The shipped pool's last check (:func:`holds_longer`): fresh deals judged at twice the first look's walks.
SHIP_DEALS = 16
SHIP_HOLD = HOLD  # (the miner's own hold, at the longer look: the test asks 10 points, this 15)


def holds_longer(puzzle, deals=SHIP_DEALS, tag="ship"):
    """Whether the answer stays the expert's move, ahead of every other move it judged well (a quarter of
    :data:`FORCE` walks or more) by :data:`SHIP_HOLD`, in ``deals`` deals of the unseen cards the miner never drew,
    each judged at twice :data:`WALKS`. The miner's deals are judged at half its first look's walks; a longer look
    from other deals still overturns some of its puzzles (a card the other player buys reads far better there)."""
    from ..ai import coach
    game = position(puzzle)
    seat = game.current_player
    answer = parse_action(game, puzzle["answer"])
    for d in range(deals):
        j = coach.judge(game, seat, random.Random(f"{tag}:{puzzle['id']}:{d}"), 2 * WALKS[game.n])
        if coach.index_of([j.moves[j.best]], answer) is None:
            return False
        if any(margin_of(j, i) < SHIP_HOLD for i in range(len(j.moves))
               if i != j.best and j.chances[i] is not None and j.visits[i] >= FORCE[game.n] // 4):
            return False
    return True


def shipped(folder, log=None, jobs=1):
    """The pool as the page loads it: the puzzles of :func:`pool` that :func:`holds_longer`, each with
    :func:`page_facts`. Each puzzle's verdict is kept in ``folder/shipped.jsonl`` as it is reached (with the check's
    settings: a change to them judges every puzzle again), so the next export judges only the puzzles mined since."""
    path = os.path.join(folder, "shipped.jsonl")
    check = ship_check()
    kept = {row["id"]: row for row in read(path) if row.get("check") == check}
    mined = pool(folder)  # (once: a miner may be adding to the folder meanwhile)
    todo = [p for p in mined if p["id"] not in kept]
    results = map(_ship_job, todo) if jobs <= 1 or not todo else _pool(jobs).imap_unordered(_ship_job, todo)
    for row in results:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({**row, "check": check}) + "\n")
        kept[row["id"]] = row
    out = []
    for p in mined:
        row = kept[p["id"]]
        if row["ships"]:
            out.append({**p, **row["facts"]})
        elif log:
            log(f"{p['id']}: left out (a longer look from other deals overturns it)")
    return out


def ship_check():
    """The settings a shipped puzzle's verdict depends on (a verdict kept under others is judged again)."""
    return json.loads(json.dumps({"deals": SHIP_DEALS, "hold": SHIP_HOLD, "walks": WALKS, "force": FORCE}))


def _ship_job(p):
    ships = holds_longer(p)
    return {"id": p["id"], "ships": ships, "facts": page_facts(p) if ships else None}


def position(puzzle):
    """The puzzle's position, replayed by the engine from its deal (ValueError when it does not replay or its answer
    is not legal there)."""
    game = new_game(players=puzzle["players"], seed=puzzle["seed"])
    for text in puzzle["actions"]:
        game.apply(parse_action(game, text))
    if game.current_player != puzzle["seat"] or game.phase != "action":
        raise ValueError(f"puzzle {puzzle['id']}: not seat {puzzle['seat']}'s move")
    from ..ai.coach import index_of
    if index_of(game.legal_actions(), parse_action(game, puzzle["answer"])) is None:
        raise ValueError(f"puzzle {puzzle['id']}: its answer {puzzle['answer']} is not legal there")
    return game


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m splendor puzzles", description=__doc__.split("\n\n")[0])
    ap.add_argument("--make", action="store_true", help="mine the expert's games (long; resumable)")
    ap.add_argument("--export", action="store_true", help="print the pool, one JSON object a line")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--dir", default="puzzle-games")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--from", dest="sources", nargs="+", metavar="FILE",
                    help="with --make: mine the games recorded in these files (.jsonl or .jsonl.gz, a game record a "
                    "line) instead of playing the expert's")
    ap.add_argument("--ship", metavar="FILE", help="with --export: write the page's pool (each puzzle's reason and "
                    "chances judged again) to FILE, such as assets/puzzles.jsonl")
    args = ap.parse_args(argv)
    from .netplay import BLAS_THREADS
    for k, v in BLAS_THREADS.items():  # (one thread a process: a second spins on a core another job is using)
        os.environ.setdefault(k, v)
    if args.make:
        records = None
        if args.sources:
            try:  # (read before any mining starts: a record file missing or not records is said, nothing mined)
                records = list(itertools.islice(recorded(args.sources, args.players), args.games))
            except (OSError, ValueError) as e:
                ap.error(str(e))
        make(args.dir, args.players, args.games, args.jobs, log=lambda s: print(s, flush=True), records=records)
    if args.export:
        rows = shipped(args.dir, lambda s: print(s, file=sys.stderr), args.jobs) if args.ship else pool(args.dir)
        text = "".join(json.dumps(p, separators=(",", ":")) + "\n" for p in rows)
        if args.ship:
            with open(args.ship, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"{len(rows)} puzzles written to {args.ship}")
        else:
            sys.stdout.write(text)
    if not (args.make or args.export):
        found = pool(args.dir)
        print(f"{len(found)} puzzles in {args.dir}: " + ", ".join(
            f"{sum(1 for p in found if p['players'] == n)} at {n} players" for n in (2, 3, 4)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
