"""The review of a finished game as a part of the page's state machine (``controller.App`` inherits
``ReviewState``): which game is reviewed, the pieces asked of the worker and received, the step shown, and the
finished games kept for the record's list (:mod:`splendor.web.records.finished`).

The page (``main.py``) asks ``review_request()`` for the next piece, sends it to the bot worker
(``splendor.ai.review.review_json``) and hands the answer to ``review_reply()``, until the review is whole or the
person cancels: a cancelled review asks for nothing more, so the worker is free as soon as the piece in flight is
answered (a piece is a few positions: well under a second). Stepping replays the game's record with the engine; the
live game, its save and its log are never touched.
"""

import json

from ...ai.review import assemble, check_review, position_after, turns_of
from ...engine import parse_action
from ..records.finished import FinishedGames
from ..table import words

#: Positions asked of the worker at a time: small pieces keep the progress moving and a cancel quick.
PIECE = 8


class ReviewState:
    """Mixed into ``controller.App``: the ``on_review*`` handlers, the worker's requests and replies, the step."""

    def _review_init(self, storage):
        self.finished = FinishedGames(storage, clock=self.clock)
        damaged = self.finished.load()
        if damaged:
            self._notice("finished", damaged)
        self.review = None  # the review on show: see on_review
        self.review_serial = 0

    # -- keeping finished games ------------------------------------------------------------------------------------
    def _keep_finished(self):
        """The game in play is over: keep it (once) for the record's list of finished games."""
        g = self.game
        if g is None or not g.is_over or not self.game_id:
            return
        if self.finished.get(self.game_id) is not None:
            return
        try:
            self.finished.add(self._finished_entry())
        except ValueError:
            pass  # (a game the store cannot hold is still reviewed from the end screen)

    def _finished_entry(self):
        g = self.game
        why = {str(e["n"]): e["why"] for e in self.log
               if e.get("kind") == "move" and e.get("why") and e.get("seat") is not None
               and self.seats[e["seat"]]["bot"]}
        return {"id": self.game_id, "record": g.record(), "names": [s["name"] for s in self.seats],
                "bots": [s["bot"] for s in self.seats], "people": [i for i, s in enumerate(self.seats) if not s["bot"]],
                "why": why, "scores": list(g.scores), "ended": self.clock()}

    # -- opening and leaving ---------------------------------------------------------------------------------------
    def can_review(self):
        """Whether the game in play may be reviewed: only a finished one (a game in progress keeps its secrets)."""
        return self.game is not None and self.game.is_over

    def on_review(self, data):
        """Open the review of a finished game: ``data["game"]``, a game of the record's list, else the game just
        finished. A stored review that matches its game is shown at once; any other is computed afresh."""
        gid = data.get("game")
        if gid:
            entry = self.finished.get(gid)
            back = "setup"
        else:
            if not self.can_review():
                self.message = "A game is reviewed once it is over."
                return
            self._keep_finished()
            entry = self.finished.get(self.game_id) or self._finished_entry()
            back = "game"
        if entry is None:
            self.message = "That game is no longer kept in this browser."
            return
        try:
            turns = turns_of(entry["record"])
        except ValueError as exc:
            self.message = f"This game cannot be reviewed: {exc}."
            return
        self.review_serial += 1
        self.review = {"id": entry["id"], "entry": entry, "turns": turns, "back": back, "step": len(turns),
                       "entries": [], "data": None, "state": "computing", "error": "", "asked": None,
                       "serial": self.review_serial, "cache": {}}
        stored = entry.get("review")
        if stored is not None:
            try:
                self.review["data"] = check_review(stored, entry["record"])
                self.review["state"] = "done"
            except (ValueError, KeyError, TypeError):
                entry["review"] = None  # damaged or out of date: computed again, and stored again when done
        self.screen = "review"
        self.message = ""

    def on_review_close(self, data):
        """Leave the review: back to the end screen (or the new-game screen it was opened from)."""
        back = self.review["back"] if self.review else "game"
        self.review = None
        if back == "game" and self.game is not None:
            self.screen = "game"
            self.show_end = True
        else:
            self.screen = "setup"

    def on_review_cancel(self, data):
        """Stop computing: nothing more is asked of the worker."""
        r = self.review
        if r and r["state"] == "computing":
            r["state"] = "cancelled"
            r["asked"] = None

    def on_review_retry(self, data):
        r = self.review
        if r and r["state"] in ("cancelled", "failed"):
            r["state"], r["error"], r["entries"], r["asked"] = "computing", "", [], None

    # -- the worker --------------------------------------------------------------------------------------------------
    def review_request(self):
        """The next piece to ask of the worker (a JSON-able dict), or None when nothing is to be computed."""
        r = self.review
        if not r or r["state"] != "computing":
            return None
        start = len(r["entries"])
        e = r["entry"]
        self.review_serial += 1
        r["asked"] = {"id": self.review_serial, "start": start}
        return {"id": self.review_serial, "record": e["record"], "people": e["people"], "start": start,
                "stop": start + PIECE}

    def review_reply(self, reply):
        """A piece from the worker. Returns 'more' (ask the next piece), 'done', 'stale' (dropped) or 'failed'."""
        r = self.review
        if isinstance(reply, str):
            try:
                reply = json.loads(reply)
            except ValueError:
                reply = {"error": "the answer is not JSON"}
        if not r or not r["asked"] or not isinstance(reply, dict) or reply.get("id") != r["asked"]["id"] \
                and "error" not in reply:
            return "stale"
        r["asked"] = None
        if r["state"] != "computing":
            return "stale"
        total = len(r["turns"]) + 1
        entries = reply.get("entries")
        if reply.get("error") or not isinstance(entries, list) or not entries or \
                reply.get("start") != len(r["entries"]):
            r["state"] = "failed"
            r["error"] = str(reply.get("error") or "the answer was not a piece of the review")[:200]
            return "failed"
        r["entries"].extend(entries[: total - len(r["entries"])])
        if len(r["entries"]) < total:
            return "more"
        try:
            data = check_review(assemble(r["entry"]["record"], r["entry"]["people"], r["entries"]),
                                r["entry"]["record"])
        except ValueError as exc:
            r["state"], r["error"] = "failed", str(exc)[:200]
            return "failed"
        r["data"], r["state"] = data, "done"
        self.finished.set_review(r["id"], data)  # a second look needs no computing
        return "done"

    def review_failed(self, reason):
        """The worker could not answer (it failed or is off)."""
        r = self.review
        if r and r["state"] == "computing":
            r["state"], r["error"], r["asked"] = "failed", reason, None

    def review_progress(self):
        """(positions computed, positions in all) of the review on show."""
        r = self.review
        total = len(r["turns"]) + 1
        return (total if r["data"] else len(r["entries"])), total

    # -- stepping ----------------------------------------------------------------------------------------------------
    def on_review_step(self, data):
        """Show the position after another turn: ``{"to": n}``, ``{"by": +1/-1}``, or ``{"to": "start"|"end"}``."""
        r = self.review
        if not r:
            return
        last = len(r["turns"])
        to = data.get("to")
        if to == "start":
            k = 0
        elif to == "end":
            k = last
        elif to is not None:
            try:
                k = int(to)
            except (TypeError, ValueError):
                return
        else:
            try:
                k = r["step"] + int(data.get("by", 0))
            except (TypeError, ValueError):
                return
        r["step"] = max(0, min(last, k))

    def review_game(self, step=None):
        """The game after ``step`` turns (default: the step shown), replayed by the engine (kept for a few steps)."""
        r = self.review
        k = r["step"] if step is None else step
        cache = r["cache"]
        if k not in cache:
            if len(cache) > 6:
                cache.clear()
            cache[k] = position_after(r["entry"]["record"], k)
        return cache[k]

    def review_turn_words(self, step=None):
        """[(sentence, bot's reason)] for the turn that led to ``step`` (none for the deal)."""
        r = self.review
        k = r["step"] if step is None else step
        if k == 0:
            return []
        first, end, seat = r["turns"][k - 1]
        e = r["entry"]
        g = position_after(e["record"], k - 1)
        out = []
        name = e["names"][seat]
        people = e.get("people") or []
        you = len(people) == 1 and seat in people  # (played alone: the person is "You", their reserve "your")
        for n in range(first, end):
            action = parse_action(g, e["record"]["actions"][n])
            out.append((words.describe_move(g, action, name, seat, person=you), e["why"].get(str(n + 1), "")))
            g.apply(action)
        return out
