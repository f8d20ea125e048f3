"""The shipped puzzle pool (``assets/puzzles.jsonl``, written by ``python -m splendor puzzles --export --ship``):
read and checked, and the choice of the next puzzle.

Each line is one puzzle: ``id``, ``players``, ``seed`` (the deal, the first seat 0), ``actions`` (the moves from the
deal to the position, in the engine's notation), ``seat`` (whose move it is), ``answer`` (the move to find),
``margin`` (how far the answer beats every other move the expert judged, as a chance), ``theme`` (in words),
``rating`` (the rating of the weakest ladder level that finds it), ``chance`` (the mover's chance before it),
``why`` (the expert's reason) and ``chances`` ([move, the mover's chance in whole percent after it], best first).
Pure Python, tested under CPython.

>>> pool = Pool.parse('{"id": "p1", "players": 2, "seed": 7, "actions": [], "seat": 0, "answer": "take white blue '
...                   'green", "margin": 0.3, "theme": "t", "rating": 700}\\n')
>>> len(pool), pool.skipped
(1, 0)
>>> Pool.parse('{"id": 1}\\nnot json\\n').skipped
2
"""

import json
import random
import re
import time

_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,40}$")


class Pool:
    """The puzzles of the shipped file, in their order (``puzzles``, each a dict), by id (``by_id``); ``skipped``:
    the lines that could not be read (a damaged line is left out, never the whole pool)."""

    def __init__(self, puzzles, skipped=0):
        self.puzzles = puzzles
        self.by_id = {p["id"]: p for p in puzzles}
        self.skipped = skipped

    def __len__(self):
        return len(self.puzzles)

    @classmethod
    def parse(cls, text):
        out, skipped = [], 0
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                out.append(check(json.loads(line)))
            except (ValueError, TypeError, KeyError):
                skipped += 1
        return cls(out, skipped)

    # -- the next puzzle -----------------------------------------------------------------------------------------
    def near(self, rating, seen=(), rng=None):
        """A puzzle for a player rated ``rating``: among those not ``seen`` (all, once every one was), one of the
        three rated nearest it."""
        rng = rng or random.Random()
        seen = set(seen)
        fresh = [p for p in self.puzzles if p["id"] not in seen] or list(self.puzzles)
        fresh.sort(key=lambda p: (abs(p["rating"] - rating), p["id"]))
        return rng.choice(fresh[:3]) if fresh else None

    def rising(self, after=None, done=()):
        """The streak's next puzzle: the easiest not yet in this streak (``done``) rated at least as high as the
        last one (``after``, a rating), else the easiest left; None when the streak has had them all."""
        done = set(done)
        left = sorted((p for p in self.puzzles if p["id"] not in done), key=lambda p: (p["rating"], p["id"]))
        if not left:
            return None
        return next((p for p in left if after is None or p["rating"] >= after), left[0])

    def of_the_day(self, day):
        """The daily puzzle of ``day`` ("2026-12-07"): the pool in an order drawn once a year, one a day, so no
        puzzle comes twice in a year while the pool holds a year's worth (and as far apart as it can otherwise)."""
        if not self.puzzles:
            return None
        order = sorted(self.puzzles, key=lambda p: p["id"])
        random.Random(f"splendor-daily-puzzle/{day[:4]}").shuffle(order)
        return order[(day_of_year(day) - 1) % len(order)]


def check(p):
    """One puzzle of the file, checked field by field (ValueError when anything is off); the fields it does not
    know are dropped."""
    if not isinstance(p, dict):
        raise ValueError("not a table")
    if not isinstance(p.get("id"), str) or not _ID.match(p["id"]):
        raise ValueError("no id")
    players = p["players"]
    if players not in (2, 3, 4) or not _whole(p["seed"]) or not _whole(p["seat"]) or not 0 <= p["seat"] < players:
        raise ValueError("players, seed or seat")
    actions = p["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) and len(a) < 80 for a in actions):
        raise ValueError("actions")
    for key in ("answer", "theme"):
        if not isinstance(p[key], str) or not p[key] or len(p[key]) > 120:
            raise ValueError(key)
    rating = p["rating"]
    if not isinstance(rating, (int, float)) or isinstance(rating, bool) or not 0 <= rating <= 4000:
        raise ValueError("rating")
    chances = p.get("chances") or []
    if not isinstance(chances, list) or not all(
            isinstance(c, list) and len(c) == 2 and isinstance(c[0], str) and _whole(c[1]) and c[1] <= 100
            for c in chances):
        raise ValueError("chances")
    chance = p.get("chance")
    if chance is not None and not (isinstance(chance, (int, float)) and 0 <= chance <= 1):
        raise ValueError("chance")
    why = p.get("why") or ""
    if not isinstance(why, str):
        raise ValueError("why")
    return {"id": p["id"], "players": players, "seed": p["seed"], "actions": list(actions), "seat": p["seat"],
            "answer": p["answer"], "margin": float(p.get("margin") or 0), "theme": p["theme"], "rating": rating,
            "chance": chance, "why": why, "chances": [list(c) for c in chances]}


def _whole(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def day_of(clock_seconds, offset_minutes=0):
    """The calendar day ("2026-12-07") of a moment, in the person's own time zone (``offset_minutes`` east of UTC,
    as the page reads it from the browser).

    >>> day_of(0), day_of(0, -60)
    ('1970-01-01', '1969-12-31')
    """
    return time.strftime("%Y-%m-%d", time.gmtime(clock_seconds + 60 * offset_minutes))


def day_of_year(day):
    """1 for the first of January.

    >>> day_of_year("2026-12-07"), day_of_year("2024-12-31")
    (341, 366)
    """
    year, month, date = (int(x) for x in day.split("-"))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return sum((31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[:month - 1]) + date
