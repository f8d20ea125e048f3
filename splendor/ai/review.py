"""A finished game's review: each seat's chance to win after every turn, every judged move's class by what it lost
against its mover's best choice, and that choice, in the bots' words, where it is better by 3 points or more; the
turning points are the turns whose movers lost most.

Everything the review knows of the game comes from one judge, the coach's (:func:`splendor.ai.coach.judge`: the
expert's own search, the judge behind the hint too), reading the whole game from one view
(:class:`splendor.ai.coach.OneView`: the person's information and the same deals of the unseen cards at every
position, so that neighbouring points differ only by what the moves changed). Every position is judged once, from
its mover's seat, with the move then played forced to a subtree of its own; that one judgement gives

- the chart's point at the position: its reading (the walks' mean), one budget for every point;
- the move played's chance, the mover's best choice (the move the expert would play) and its chance;
- so the move's loss: the best choice's chance less the move played's, confirmed by a longer look where it is
  :data:`BETTER_MARGIN` or more, and its class (:data:`CLASSES`).

A position with one move (a forced pass) is read the same way, a noble to veto (no search of its own) by the
judgement before it; a finished game's last point is its result (a shared victory split).

A *turn* is a seat's main action with the returns and the noble choice that follow it (a noble veto is a turn of
its own). The review is plain JSON (:func:`review_game`), computed in pieces (:func:`review_chunk`, what the page's
worker answers, so the page shows progress and can stop between pieces) and put together by :func:`assemble`; a
stored review is checked against its game by :func:`check_review` before it is shown again, and one by another
judge (:data:`JUDGE`) is computed again. Standard library and the engine only: it runs in the page's worker on
Pyodide.
"""

import json
import random

from ..engine import parse_action
from ..engine.game import replay
from . import coach
from .explain import explain_details
from .heuristic import result_share

FORMAT = "splendor-review"
VERSION = 3
#: The judge a review was computed with, stored in it: a stored review by another judge is computed again. Change it
#: with the judge (:class:`ExpertJudge`'s settings, the coach's search or the expert's network).
JUDGE = "expert-search/2"
#: A better move is named only when it gives the mover at least this much more chance than the move played ...
BETTER_MARGIN = 0.03
#: ... in a second, longer judgement of the position (this many times the walks, per table size), asked only where
#: the first one finds such a move: a short search's favourite can be a move it has hardly looked at, and a longer
#: look, which the hint had, often prefers the move played. (At 3-4 players half as long again: a longer look there
#: costs most of a review's time.)
CONFIRM = {2: 3, 3: 1.5, 4: 1.5}
#: Turning points: at most this many turns whose movers lost most against their best choice (each a loss of at least
#: BETTER_MARGIN, by a mover whose chance fell) ...
TOP_TURNING = 4
#: ... and at most this many more of the people's own turns.
TOP_PEOPLE = 2


#: Each judged move's class by what it lost against its mover's best choice (the best choice's chance less the move
#: played's, in points of chance to win), as the engines' reviews name them (chess.com: best, excellent up to 2
#: points of expected score, good up to 5, inaccuracy up to 10, mistake up to 20, blunder beyond).
CLASSES = ((0.005, "best"), (0.02, "excellent"), (0.05, "good"), (0.10, "inaccuracy"), (0.20, "mistake"),
           (1.01, "blunder"))
#: The classes the chart marks.
MARKED = ("mistake", "blunder")


def move_class(entry):
    """(class, loss) of the move an entry judged (its ``best`` less its ``played``), or None for a turn with nothing
    to choose.

    >>> move_class({"chances": [.5, .5], "played": .48, "best": .55})
    ('inaccuracy', 0.07)
    >>> move_class({"chances": [.5, .5], "played": .45, "best": .55})[0]  # (up to 10 points: an inaccuracy)
    'inaccuracy'
    """
    if "played" not in entry:
        return None
    loss = round(max(0.0, entry["best"] - entry["played"]), 4)
    if loss < CLASSES[0][0]:
        return CLASSES[0][1], loss
    return next(name for top, name in CLASSES[1:] if loss <= top + 1e-9), loss


# -- the judge ----------------------------------------------------------------------------------------------------
class ExpertJudge:
    """The review's judge: the coach's :func:`~splendor.ai.coach.judge` at ``iterations`` walks a position (default
    :data:`splendor.ai.coach.REVIEW_ITERATIONS` at the table's size), each position's search seeded from the game's
    seed and the position's number, so a review depends only on its game. ``one_view`` (the default): every position
    judged from the review's one view (:class:`~splendor.ai.coach.OneView`: the person's information, the same deals
    of the unseen cards); else each from its mover's view with deals of its own (the review before the one view,
    kept to measure against: ``tools/review_agreement.py``)."""

    name = "the expert's search"

    def __init__(self, iterations=None, one_view=True, scale=1):
        self.iterations = iterations
        self.one_view = one_view
        self.scale = scale  # (the walks and the move played's, that many times: the longer review it is measured by)
        self.settings = (iterations, one_view, scale, JUDGE)

    def judgement(self, game, seat, played, key, longer=1, view=None):
        """:class:`~splendor.ai.coach.Judgement` of ``game`` (``seat`` to act; ``played`` the move it played, or
        None), ``key`` naming the position for the seed; ``longer``: that many times the walks (and the move
        played's); ``view``: the review's :class:`~splendor.ai.coach.OneView` (None: the mover's own)."""
        its = self.iterations or coach.REVIEW_ITERATIONS.get(game.n, 48)
        longer *= self.scale
        force = round(coach.FORCE_VISITS.get(game.n, 8) * longer)
        deal = view.deals(game, played) if view is not None and self.one_view else None
        return coach.judge(game, seat, random.Random(f"review:{key}:{longer}"), round(its * longer), played, force,
                           deal=deal)


def review_judge():
    """The judge reviews use: the expert's own search (:class:`ExpertJudge`)."""
    return ExpertJudge()


def _result(game):
    return coach.normal([result_share(game, s) for s in range(game.n)])


# -- turns ----------------------------------------------------------------------------------------------------------
def turns_of(record):
    """The turns of the recorded game: ``[(first, end, seat)]``, actions ``first..end-1`` of the record played by
    ``seat``. ValueError when the record does not replay."""
    game = _fresh(record)
    out = []
    for k, text in enumerate(record["actions"]):
        seat, phase = game.current, game.phase
        if phase in ("action", "veto") or not out or out[-1][2] != seat:
            out.append([k, k + 1, seat])
        else:
            out[-1][1] = k + 1
        _apply(game, text, k)
    return [tuple(t) for t in out]


def _fresh(record):
    """The record's game before its first action (its checks: :func:`splendor.engine.game.replay`'s)."""
    return replay(dict(record, actions=[]))


def _apply(game, text, k):
    try:
        game.apply(parse_action(game, text))
    except ValueError as exc:
        raise ValueError(f"action {k + 1} ({text!r}) of the record: {exc}") from None


def position_after(record, turn):
    """The game after the record's first ``turn`` turns (0: the deal), replayed by the engine."""
    turns = turns_of(record)
    if not 0 <= turn <= len(turns):
        raise ValueError(f"the game has {len(turns)} turns, not {turn}")
    end = turns[turn - 1][1] if turn else 0
    return replay(dict(record, actions=list(record["actions"][:end])))


# -- computing ------------------------------------------------------------------------------------------------------
def review_chunk(record, people, start, stop, judge=None):
    """The review's entries for positions ``start..stop-1`` (position 0: the deal; position t: after turn t), each
    ``{"chances": [...]}``; for a judged turn also ``"played"`` (the chance the move played gives its mover),
    ``"best"`` (the chance the mover's best choice gives it, by the same judgement) and ``"better"``
    (``{"action", "words", "chance"}``: the best choice, named when it beats the move played by BETTER_MARGIN or more
    in the confirming look; else None). ``people``: the seats whose better moves are said to "you"; with one person
    every position is judged with that person's information, else with what was public (:class:`OneView`)."""
    jd = judge or review_judge()
    turns = turns_of(record)
    start = max(0, start)
    stop = min(stop, len(turns) + 1)
    key = record.get("seed", 0)
    people = set(people)
    view = coach.OneView(key, people if len(people) == 1 else ())
    game = _fresh(record)
    done = 0  # actions applied to ``game``
    out = []
    kept = _kept(record, people, jd)  # position p's judgement (p: turns played before it), judged once

    def move_of(p):
        """Turn p + 1's first action if position p is a choice of its mover (an action phase with several moves)."""
        if p < len(turns) and game.phase == "action" and len(game.legal_actions()) > 1:
            return parse_action(game, record["actions"][turns[p][0]])
        return None

    def judged(p):
        """Position p's judgement (``game`` standing at it): (judgement or None, the move played or None)."""
        if p not in kept:
            played = move_of(p)
            if game.phase != "action":
                kept[p] = (None, None)
            else:
                kept[p] = (jd.judgement(game, game.current, played, f"{key}:{p}", view=view), played)
        return kept[p]

    def reach(p):
        nonlocal done
        end = turns[p - 1][1] if p else 0
        while done < end:
            _apply(game, record["actions"][done], done)
            done += 1

    for t in range(start, stop):
        if t == 0:
            reach(0)
            out.append({"chances": _rounded(_point(game, judged(0)[0]))})
            continue
        reach(t - 1)
        j, played = judged(t - 1)
        seat = game.current
        before = game.copy() if played is not None else None
        confirmed = None
        if played is not None and _loss(j, seat, played) >= BETTER_MARGIN:
            confirmed = jd.judgement(game, seat, played, f"{key}:{t - 1}", CONFIRM.get(game.n, 2), view=view)
        reach(t)
        here = judged(t)[0]
        if here is None and game.phase != "over" and j is not None:  # (a noble to veto: no search of its own)
            here = j
        entry = {"chances": _rounded(_point(game, here))}
        if played is not None:
            c = confirmed or j
            after = c.chance_of(played) or c.position
            if not getattr(jd, "one_view", True) and game.phase != "over":
                entry["chances"] = _rounded(after)  # (the review before the one view: the move played's chance)
            mine = after[seat]
            best = c.moves[c.best]
            best_chance = c.chances[c.best][seat] if c.chances[c.best] is not None else mine
            entry.update(played=round(mine, 4), best=round(max(mine, best_chance), 4), better=None)
            if c.index(played) != c.best and best_chance >= mine + BETTER_MARGIN:
                try:
                    words = explain_details(before.observation(seat), best, None,
                                            voice="you" if seat in people else "they")["sentence"]
                except Exception:  # words must never cost the review
                    words = ""
                entry["better"] = {"action": str(best), "words": str(words), "chance": round(best_chance, 4)}
        out.append(entry)
    return out


_MEMO = {"game": None, "kept": {}}


def _kept(record, people, jd):
    """The judgements kept for ``record``'s review: a piece's last position is the next piece's first (its reading
    is one's last point, its move the other's first), judged once for both when the judge says how it judges
    (``jd.settings``: the same settings judge alike) and the pieces come in turn, as the page's worker asks them."""
    settings = getattr(jd, "settings", None)
    if settings is None:
        return {}
    game = (settings, record.get("seed"), record.get("players"), tuple(record["actions"]), tuple(sorted(people)))
    if _MEMO["game"] != game:
        _MEMO["game"], _MEMO["kept"] = game, {}
    return _MEMO["kept"]


def _point(game, j):
    """The chart's point where ``game`` stands: the result once it is over, else the judgement's reading of the
    position (``j``; even shares where no one chooses)."""
    if game.phase == "over":
        return _result(game)
    if j is None:
        return [1.0 / game.n] * game.n
    return j.position


def _loss(j, seat, played):
    """What ``played`` loses for ``seat`` against the judgement's best choice (0 when it is the best)."""
    mine, best = j.chance_of(played), j.chances[j.best]
    if mine is None or best is None:
        return 0.0
    return best[seat] - mine[seat]


def _rounded(chances):
    return [round(x, 4) for x in chances]


def review_game(record, people, judge=None, chunk=None, progress=None):
    """The whole review of a finished game (:func:`assemble` of every chunk); ``progress(done, total)`` is called
    after each chunk of ``chunk`` positions (default: all at once)."""
    total = len(turns_of(record)) + 1
    step = chunk or total
    entries = []
    for start in range(0, total, step):
        entries.extend(review_chunk(record, people, start, start + step, judge))
        if progress:
            progress(len(entries), total)
    return assemble(record, people, entries)


def assemble(record, people, entries):
    """The review of ``record`` from its entries (:func:`review_chunk`, every position in order): the entries, the
    turns' seats and moves, and the turning points."""
    turns = turns_of(record)
    if len(entries) != len(turns) + 1:
        raise ValueError(f"a review of {len(turns)} turns needs {len(turns) + 1} positions, not {len(entries)}")
    moves = [{"seat": seat, "actions": list(record["actions"][first:end])} for first, end, seat in turns]
    return {"format": FORMAT, "version": VERSION, "judge": JUDGE, "players": record["players"],
            "people": sorted(set(people)),
            "actions": len(record["actions"]), "moves": moves, "positions": entries,
            "turning": turning_points(moves, entries, people)}


def turning_points(moves, entries, people):
    """The turns to look at, in the order played: the :data:`TOP_TURNING` turns whose movers lost most against their
    best choice (the best choice's chance less the move played's, by the same judgement; at least BETTER_MARGIN, and
    only where the mover's own chance fell over the turn; the game's last turn, whose point is the result, left
    out), and up to :data:`TOP_PEOPLE` more of ``people``'s turns so. Each ``{"turn": t (1 = the first), "mover":
    who played it, "from", "to": the mover's chance before and after,
    "better": the better move, "played", "best": the chances of the move played and of the best choice}``."""
    lost = []
    for t in range(1, len(entries) - 1):  # (the last point is the result, not the judge's chance of the move)
        e = entries[t]
        if not e.get("better"):
            continue
        mover = moves[t - 1]["seat"]
        before, after = entries[t - 1]["chances"][mover], e["chances"][mover]
        if after < before:
            lost.append((e["better"]["chance"] - e["played"], t, mover))
    lost.sort(reverse=True)
    chosen = {t for _, t, _ in lost[:TOP_TURNING]}
    people = set(people)
    chosen.update([t for _, t, mover in lost if mover in people and t not in chosen][:TOP_PEOPLE])
    out = []
    for t in sorted(chosen):
        e = entries[t]
        mover = moves[t - 1]["seat"]
        out.append({"turn": t, "mover": mover, "from": entries[t - 1]["chances"][mover],
                    "to": e["chances"][mover], "better": e["better"], "played": e["played"],
                    "best": e["better"]["chance"]})
    return out


# -- a stored review ----------------------------------------------------------------------------------------------
def check_review(data, record):
    """``data`` if it is a whole review of ``record`` (parsed JSON: a review stored with the game), else ValueError
    saying what is wrong: the page then computes the review again."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError("it is not a review of this version")
    if data.get("judge") != JUDGE:
        raise ValueError("it was judged by another judge")
    turns = turns_of(record)
    n = record["players"]
    if data.get("players") != n or data.get("actions") != len(record["actions"]):
        raise ValueError("it is the review of another game")
    pos = data.get("positions")
    moves = data.get("moves")
    if not isinstance(pos, list) or len(pos) != len(turns) + 1 or not isinstance(moves, list) or \
            len(moves) != len(turns):
        raise ValueError("its positions do not match the game's turns")
    for m, (first, end, seat) in zip(moves, turns):
        if not isinstance(m, dict) or m.get("seat") != seat or m.get("actions") != record["actions"][first:end]:
            raise ValueError("its moves are not the game's")
    for e in pos:
        ch = e.get("chances") if isinstance(e, dict) else None
        if not isinstance(ch, list) or len(ch) != n or not all(_is_chance(x) for x in ch) or \
                abs(sum(ch) - 1) > 0.01:
            raise ValueError("a position's chances are not chances")
        better = e.get("better")
        if better is not None and not (isinstance(better, dict) and isinstance(better.get("action"), str)
                                       and isinstance(better.get("words"), str) and _is_chance(better.get("chance"))
                                       and _is_chance(e.get("played")) and _is_chance(e.get("best"))):
            raise ValueError("a better move is damaged")
        if "played" in e and not (_is_chance(e["played"]) and _is_chance(e.get("best"))):
            raise ValueError("a move's chances are damaged")
    people = data.get("people")
    if not isinstance(people, list) or not all(isinstance(s, int) and 0 <= s < n for s in people):
        raise ValueError("its people are not seats")
    data = dict(data, turning=turning_points(moves, pos, people))  # recomputed: never trusted from storage
    return data


def _is_chance(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1


def review_json(request_text, judge=None):
    """The worker's answer to ``{"record", "people", "start", "stop"}`` (JSON text): ``{"entries": [...]}`` or
    ``{"error": reason}``; never raises."""
    try:
        req = json.loads(request_text)
        if not isinstance(req, dict) or not isinstance(req.get("record"), dict):
            raise ValueError("the request has no game record")
        start, stop = req.get("start", 0), req.get("stop", 10**6)
        people = req.get("people", [])
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in [start, stop, *people]):
            raise ValueError("start, stop and people are whole numbers")
        entries = review_chunk(req["record"], people, start, stop, judge)
        return json.dumps({"id": req.get("id"), "start": start, "entries": entries})
    except Exception as exc:  # the page says the review failed; the worker goes on
        return json.dumps({"error": f"{type(exc).__name__}: {exc}"})
