"""A finished game's review: each seat's chance to win after every turn, the turns where a chance fell most, and for
the people's own turns the move the evaluator likes better, in the bots' words, with the chance each gives.

Everything the review knows of the game comes from one evaluator, made by :func:`review_evaluator` (the strongest
the project has; swap that function's body to review with a better one). An evaluator is any object with

- ``chances(game) -> [float]``: each seat's chance to win the position, summing to 1 over the seats (the result
  itself once the game is over);
- ``better_move(game, seat) -> (action, words, chance)``: for the seat to act in ``game``, the move it rates best,
  a sentence saying why (``explain``'s, to the person: "buys ...: it brings you to 9 points") and the chance it
  gives ``seat``;
- ``move_chance(game, seat, action) -> float``: the chance ``action`` gives ``seat``, judged as ``better_move``
  judges its moves (the move played is compared with the better move this way).

A *turn* is a seat's main action with the returns and the noble choice that follow it (a noble veto is a turn of
its own). The review is plain JSON (:func:`review_game`), computed in pieces (:func:`review_chunk`, what the page's
worker answers, so the page shows progress and can stop between pieces) and put together by :func:`assemble`; a
stored review is checked against its game by :func:`check_review` before it is shown again. Standard library and
the engine only: it runs in the page's worker on Pyodide.
"""

import json

from ..engine import parse_action
from ..engine.game import replay
from .explain import explain_details
from .heuristic import result_share

FORMAT = "splendor-review"
VERSION = 1
#: The judge a review was computed with, stored in it: a stored review by another judge is computed again. Change it
#: with the body of :func:`review_evaluator` (or with its judgement: a new model, other settings).
JUDGE = "expert-value-model/lookahead-1"
#: A better move is named only when it gives the seat at least this much more chance than the move played.
BETTER_MARGIN = 0.03
#: Turning points: at most this many turns where a chance fell most (each a fall of at least MIN_FALL) ...
TOP_FALLS = 4
MIN_FALL = 0.05
#: ... and at most this many of the people's own turns that the better move beats most.
TOP_MISSES = 3


# -- the evaluator ------------------------------------------------------------------------------------------------
class LearnedEvaluator:
    """The expert's learned value model (:mod:`splendor.ai.learned`) as a review's evaluator, with the hard bot's
    scorer to pick the moves worth judging (its ``candidates`` best, as the expert's search starts from) and
    :mod:`splendor.ai.explain` for the words.

    A position's chances are the model's own (its standings and the worth of being the seat to move: after a good
    move the mover's standing rises while the worth of the next move passes to the other seat, so the lines move by
    what a turn changed, not by whose turn it is); chances of a 3-4-player table, which the 2-player model reads as
    each seat against the best other, are scaled to sum to 1."""

    name = "the expert's value model"

    def __init__(self, model=None, candidates=8, replies=6):
        if model is None:
            from .learned import load_expert
            model = load_expert()[0]
        from .search import HARD_WEIGHTS
        from .heuristic import Scorer, Weights
        self.model = model
        self.scorer = Scorer(Weights(**HARD_WEIGHTS))
        self.candidates = candidates
        self.replies = replies

    def chances(self, game):
        n = game.n
        if game.phase == "over":
            return _normal([result_share(game, s) for s in range(n)])
        return _normal(list(self.model.win_chances(game)))

    def move_chance(self, game, seat, action):
        """``seat``'s chance after ``action`` (``seat`` to act in ``game``), the rest of its turn played as the scorer
        would, and the next seat's most harmful reply among the scorer's ``replies`` best (one move of lookahead:
        a reserve that blocks, a card left to the next seat, are seen)."""
        from .search import finish_turn
        g = game.copy()
        g.apply_unchecked(action)
        finish_turn(g, self.scorer)
        if g.phase == "over":
            return self.chances(g)[seat]
        legal = g.legal_actions()
        if len(legal) > self.replies:
            legal = [a for _, a in sorted(self.scorer.scores(g, g.current, legal), key=lambda t: -t[0])[: self.replies]]
        worst = 1.0
        for reply in legal:
            h = g.copy()
            h.apply_unchecked(reply)
            finish_turn(h, self.scorer)
            worst = min(worst, self.chances(h)[seat])
        return worst

    def better_move(self, game, seat):
        legal = game.legal_actions()
        if len(legal) == 1:
            cands = legal
        else:
            scored = self.scorer.scores(game, seat, legal)
            cands = [a for _, a in sorted(scored, key=lambda t: -t[0])[: self.candidates]]
        best = max(((self.move_chance(game, seat, a), i, a) for i, a in enumerate(cands)), key=lambda t: (t[0], -t[1]))
        chance, _, action = best
        try:
            words = explain_details(game.observation(seat), action, None, voice="you")["sentence"]
        except Exception:  # words must never cost the review
            words = ""
        return action, words, chance


def review_evaluator():
    """The evaluator reviews use: the strongest the project has (today the expert's learned value model)."""
    return LearnedEvaluator()


def _normal(xs):
    total = sum(xs)
    if total <= 0:
        return [1.0 / len(xs)] * len(xs)
    return [x / total for x in xs]


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
def review_chunk(record, people, start, stop, evaluator=None):
    """The review's entries for positions ``start..stop-1`` (position 0: the deal; position t: after turn t), each
    ``{"chances": [...]}``, and for a turn played by one of ``people`` (seats) also ``"played"`` (the chance the
    move played gives that seat, by the evaluator's ``move_chance``) and ``"better"``
    (``{"action", "words", "chance"}``, or None when the move played was as good as the evaluator's best)."""
    ev = evaluator or review_evaluator()
    turns = turns_of(record)
    start = max(0, start)
    stop = min(stop, len(turns) + 1)
    game = _fresh(record)
    done = 0  # actions applied to ``game``
    out = []
    people = set(people)
    for t in range(start, stop):
        before = None
        if t > 0:
            first, end, seat = turns[t - 1]
            while done < first:
                _apply(game, record["actions"][done], done)
                done += 1
            if seat in people and game.phase == "action":
                before = (game.copy(), seat)
            while done < end:
                _apply(game, record["actions"][done], done)
                done += 1
        chances = [round(x, 4) for x in ev.chances(game)]
        entry = {"chances": chances}
        if before is not None:
            g, seat = before
            text = record["actions"][turns[t - 1][0]]
            played = round(ev.move_chance(g, seat, parse_action(g, text)), 4)
            action, words, chance = ev.better_move(g, seat)
            entry["played"] = played
            same = str(action) == text
            entry["better"] = None if same or chance < played + BETTER_MARGIN else {
                "action": str(action), "words": str(words), "chance": round(chance, 4)}
        out.append(entry)
    return out


def review_game(record, people, evaluator=None, chunk=None, progress=None):
    """The whole review of a finished game (:func:`assemble` of every chunk); ``progress(done, total)`` is called
    after each chunk of ``chunk`` positions (default: all at once)."""
    total = len(turns_of(record)) + 1
    step = chunk or total
    entries = []
    for start in range(0, total, step):
        entries.extend(review_chunk(record, people, start, start + step, evaluator))
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
    """The turns to look at, in the order played: the :data:`TOP_FALLS` turns where a seat's chance fell most, and the
    :data:`TOP_MISSES` turns of ``people`` where the better move gives most over the move played. Each
    ``{"turn": t (1 = the first), "seat": the seat whose chance fell most, "from", "to": its chance before and after,
    "mover": who played the turn, "better": the entry's better move or None, "played": the mover's chance}``."""
    falls = []
    for t in range(1, len(entries)):
        a, b = entries[t - 1]["chances"], entries[t]["chances"]
        seat = max(range(len(a)), key=lambda s: a[s] - b[s])
        falls.append((a[seat] - b[seat], t, seat))
    chosen = {t for fall, t, _ in sorted(falls, reverse=True)[:TOP_FALLS] if fall >= MIN_FALL}
    misses = [(e["better"]["chance"] - e["played"], t) for t, e in enumerate(entries)
              if t and e.get("better") and moves[t - 1]["seat"] in set(people)]
    chosen.update(t for _, t in sorted(misses, reverse=True)[:TOP_MISSES])
    out = []
    for fall, t, seat in falls:
        if t in chosen:
            e = entries[t]
            out.append({"turn": t, "seat": seat, "from": entries[t - 1]["chances"][seat], "to": e["chances"][seat],
                        "mover": moves[t - 1]["seat"], "better": e.get("better"), "played": e.get("played")})
    return out


# -- a stored review ----------------------------------------------------------------------------------------------
def check_review(data, record):
    """``data`` if it is a whole review of ``record`` (parsed JSON: a review stored with the game), else ValueError
    saying what is wrong: the page then computes the review again."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError("it is not a review of this version")
    if data.get("judge") != JUDGE:
        raise ValueError("it was judged by another evaluator")
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
                                       and _is_chance(e.get("played"))):
            raise ValueError("a better move is damaged")
    people = data.get("people")
    if not isinstance(people, list) or not all(isinstance(s, int) and 0 <= s < n for s in people):
        raise ValueError("its people are not seats")
    data = dict(data, turning=turning_points(moves, pos, people))  # recomputed: never trusted from storage
    return data


def _is_chance(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1


def review_json(request_text, evaluator=None):
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
        entries = review_chunk(req["record"], people, start, stop, evaluator)
        return json.dumps({"id": req.get("id"), "start": start, "entries": entries})
    except Exception as exc:  # the page says the review failed; the worker goes on
        return json.dumps({"error": f"{type(exc).__name__}: {exc}"})
