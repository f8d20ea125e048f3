"""The finished games kept in this browser, newest first, each with its review once computed, so the record's list
can open any of them in review and a second look needs no computing (and works offline).

It lives under its own versioned key (``splendor.finished.v1``). Each game is checked when read: a damaged entry is
left out and the rest kept; a store that is not a list of games at all is moved aside under another key, as a
damaged save is. A stored review is checked against its game only when it is opened (``splendor.ai.review
.check_review``): one that does not match is computed again. Pure Python (storage through the ``Storage``
interface), tested under CPython.

>>> from splendor.web.records.storage import MemoryStorage
>>> import splendor
>>> kept = FinishedGames(MemoryStorage())
>>> kept.load() is None
True
>>> g = splendor.new_game(players=2, seed=1)
>>> kept.add({"id": "g1", "record": g.record(), "names": ["You", "Ada"], "bots": [None, "hard"], "people": [0]})
True
>>> [e["id"] for e in kept.games()], kept.get("g1")["review"]
(['g1'], None)
"""

import json
import re
import time

from .storage import StorageError, keep_aside

FINISHED_KEY = "splendor.finished.v1"
CORRUPT_PREFIX = "splendor.finished.corrupt."
FORMAT = "splendor-finished-games"
VERSION = 1
MAX_GAMES = 12  # the newest games kept (a game and its review: about 10 KB)
_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


def check_entry(e):
    """``e`` if it is a finished game's entry in the store's shape, else ValueError (its record is replayed only
    when it is opened)."""
    if not isinstance(e, dict) or not isinstance(e.get("id"), str) or not _ID.match(e["id"]):
        raise ValueError("an entry has no id")
    rec = e.get("record")
    if not isinstance(rec, dict) or not isinstance(rec.get("actions"), list) or \
            not isinstance(rec.get("players"), int) or not 2 <= rec["players"] <= 4:
        raise ValueError("an entry has no game record")
    n = rec["players"]
    names, bots, people = e.get("names"), e.get("bots"), e.get("people")
    if not (isinstance(names, list) and len(names) == n and all(isinstance(x, str) and len(x) <= 40 for x in names)):
        raise ValueError("an entry's names are damaged")
    if not (isinstance(bots, list) and len(bots) == n and all(x is None or isinstance(x, str) for x in bots)):
        raise ValueError("an entry's bots are damaged")
    if not (isinstance(people, list) and all(isinstance(s, int) and 0 <= s < n for s in people)):
        raise ValueError("an entry's people are damaged")
    why = e.get("why") or {}
    if not isinstance(why, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in why.items()):
        raise ValueError("an entry's reasons are damaged")
    ended = e.get("ended", 0)
    if isinstance(ended, bool) or not isinstance(ended, (int, float)):
        raise ValueError("an entry's time is damaged")
    return {"id": e["id"], "ended": ended, "record": rec, "names": names, "bots": bots, "people": people,
            "why": why, "scores": e.get("scores") if isinstance(e.get("scores"), list) else [],
            "review": e.get("review")}


class FinishedGames:
    """The store in ``storage`` under FINISHED_KEY: ``load``, ``add`` a finished game, ``get``, ``set_review``."""

    def __init__(self, storage, clock=time.time, key=FINISHED_KEY):
        self.storage = storage
        self.clock = clock
        self.key = key
        self.data = []
        self.blocked = False  # a damaged store that could not be moved aside: never written over

    def load(self):
        """Read the store; None, or a sentence for the person when it was damaged (kept under another key)."""
        try:
            raw = self.storage.get(self.key)
        except StorageError:
            return None
        if raw is None:
            self.data = []
            return None
        try:
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION or \
                    not isinstance(data.get("games"), list):
                raise ValueError("not a list of finished games")
        except ValueError:
            self.data = []
            try:
                kept = keep_aside(self.storage, self.key, raw, CORRUPT_PREFIX, self.clock)
            except StorageError:
                self.blocked = True
                return "The list of finished games could not be read, and was left where it was."
            return f"The list of finished games could not be read; it was kept under the key “{kept}”."
        out = []
        for e in data["games"]:
            try:
                out.append(check_entry(e))
            except ValueError:
                continue  # one damaged game is left out; the others stay
        self.data = out[:MAX_GAMES]
        return None

    def games(self):
        return list(self.data)

    def get(self, game_id):
        return next((e for e in self.data if e["id"] == game_id), None)

    def add(self, entry):
        """Keep a finished game (once: a game already kept keeps its review). True when it was added now."""
        if self.get(entry.get("id")) is not None:
            return False
        e = check_entry(dict(entry, ended=entry.get("ended", self.clock()), review=entry.get("review")))
        self.data = [e] + self.data[: MAX_GAMES - 1]
        self._write()
        return True

    def set_review(self, game_id, review):
        e = self.get(game_id)
        if e is None:
            return False
        e["review"] = review
        return self._write()

    def _write(self):
        if self.blocked:
            return False
        games = list(self.data)
        while True:
            text = json.dumps({"format": FORMAT, "version": VERSION, "games": games}, separators=(",", ":"))
            try:
                self.storage.set(self.key, text)
                return True
            except StorageError:
                # storage is full: drop the oldest reviews first (they can be computed again), then the oldest games
                reviewed = [i for i, e in enumerate(games) if e.get("review")]
                if len(games) > 1 and (not reviewed or reviewed[-1] == 0):
                    games = games[:-1]
                elif reviewed:
                    games = [dict(e, review=None) if i == reviewed[-1] else e for i, e in enumerate(games)]
                else:
                    return False
