"""A player's own record, kept in this browser: games finished and won per bot level and player count, the best
score and the shortest win in rounds, and the player's rating.

It lives under its own versioned key, apart from the saved game; a finished game is counted once (its id is
remembered), so a reload of the end screen does not count it again. A record that cannot be read is moved aside
under another key, like a damaged save, and the person is told. Pure Python (storage through the ``Storage``
interface), tested under CPython.

>>> from splendor.web.records.storage import MemoryStorage
>>> import splendor
>>> rec = PlayerRecord(MemoryStorage())
>>> rec.load() is None
True
>>> game = splendor.new_game(players=2, seed=1)
>>> game.phase_ = "over"  # as if it had ended: the scores are 0-0, a shared victory
>>> rec.count(game, [{"bot": None}, {"bot": "hard"}], "g1"), rec.count(game, [{"bot": None}, {"bot": "hard"}], "g1")
(True, False)
>>> rec.totals()
{'played': 1, 'won': 1, 'best': 0, 'fastest': 1}

The rating (:mod:`.rating`: Glicko-2 on the scale of the levels' measured ratings, medium = 1000) moves once per
finished game against bots whose level has a rating: the person's result against each bot seat (a 3-4 player game
pairwise, people's seats left out). A game the person was helped in (a hint, an undo, the guided game: the controller
says so with ``assisted``) is counted as assisted instead, and moves nothing; ``rated=False`` (another person's seat
in pass and play, a game opened from a file) leaves the rating out altogether. It is kept under ``"rating"``:
``{"rating", "rd", "vol", "games"}`` (the rated games), ``"assisted"`` (games not rated for help) and ``"change"``
(what the last rated game moved, or null). A record written before ratings has none and starts at
``rating.START``; a rating that cannot be read is handled as a damaged record is: the record as it was is kept
under another key, the person told, and the games kept with a fresh rating.

>>> rec.data["rating"]["games"] + rec.data["rating"]["assisted"] <= 1  # (1 with a measured ladder, else 0)
True
"""

import json
import re
import time

from ..table.seats import LEVELS
from ..puzzles import daily
from . import rating as glicko
from .storage import StorageError, keep_aside

RECORD_KEY = "splendor.record.v1"
CORRUPT_PREFIX = "splendor.record.corrupt."
FORMAT = "splendor-player-record"
VERSION = 1
LEVEL_ORDER = LEVELS + ("mixed",)
MAX_COUNTED = 200  # ids of the latest finished games remembered, so each is counted once
_BUCKET = re.compile(rf"^[234]:({'|'.join(LEVEL_ORDER)})$")
_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


class RecordError(ValueError):
    """The stored record cannot be read; the message says why, in words."""


class RatingError(RecordError):
    """The record reads, but not its rating: ``rest`` is the record checked without it (a fresh rating)."""

    def __init__(self, message, rest, part="rating"):
        super().__init__(message)
        self.rest = rest
        self.part = part  # "rating" (the games' rating), "puzzles" (puzzle results and rating) or "daily"


def fresh_rating():
    """The rating part of a record before any game: a new player's rating, nothing assisted, no change yet."""
    return {**glicko.Rating().to_dict(), "assisted": 0, "change": None}


def empty():
    return {"format": FORMAT, "version": VERSION, "games": {}, "counted": [], "rating": fresh_rating(),
            "puzzles": fresh_puzzles(), "daily": fresh_daily()}


DAILY_STATES = ("started", "won", "lost", "shared")


def fresh_daily():
    """The daily deal's part of a record: each day's scored game (``days``: "YYYY-MM-DD" -> {"level", "state"
    (started, won, lost, shared), "you", "bot" (the points; None until it ends)}) and the best run of days won."""
    return {"days": {}, "best_streak": 0}


def validate_daily(value):
    """The record's ``"daily"`` part, checked (RecordError in words); None gives a fresh one."""
    if value is None:
        return fresh_daily()
    if not isinstance(value, dict) or not isinstance(value.get("days"), dict):
        raise RecordError("its daily deals are not a table")
    days = {}
    for day, row in value["days"].items():
        if not daily.valid_day(day) or not isinstance(row, dict) or row.get("level") not in LEVELS \
                or row.get("state") not in DAILY_STATES:
            raise RecordError(f"its daily deal {str(day)[:12]!r} is damaged")
        points = [row.get("you"), row.get("bot")]
        if row["state"] == "started":
            points = [None, None]
        else:
            points = [_count(x, f"the points of the daily deal {day}", 0, 99) for x in points]
        days[day] = {"level": row["level"], "state": row["state"], "you": points[0], "bot": points[1]}
    best = _count(value.get("best_streak", 0), "the best run of daily deals won", 0, 100000)
    keep = sorted(days)[-daily.MAX_DAYS:]
    return {"days": {d: days[d] for d in keep}, "best_streak": best}


#: Puzzle ids remembered as tried (a puzzle is rated at its first try only, and the next one is one not yet seen).
MAX_SEEN = 400
#: A puzzle's rating is its finder's (the weakest level that finds it): its deviation in the puzzle rating's Glicko.
PUZZLE_RD = 100.0


def fresh_puzzles():
    """The puzzle part of a record before any puzzle: the puzzle rating (Glicko-2, apart from the games' rating:
    ``games`` counts the rated tries), tries, solved, the best streak, the ids seen."""
    return {**glicko.Rating().to_dict(), "tried": 0, "solved": 0, "best_streak": 0, "seen": []}


def validate_puzzles(value):
    """The record's ``"puzzles"`` part, checked (RecordError in words); None (a record from before puzzles) gives a
    fresh one."""
    if value is None:
        return fresh_puzzles()
    if not isinstance(value, dict):
        raise RecordError("its puzzle results are not a table")
    try:
        clean = glicko.Rating.from_dict(value).to_dict()
    except ValueError as exc:
        raise RecordError(f"its puzzle rating: {exc}") from None
    tried = _count(value.get("tried", 0), "the puzzles tried")
    solved = _count(value.get("solved", 0), "the puzzles solved", 0, tried)
    best = _count(value.get("best_streak", 0), "the best puzzle streak", 0, tried)
    seen = value.get("seen", [])
    if not isinstance(seen, list) or not all(isinstance(x, str) and _ID.match(x) for x in seen):
        raise RecordError("its list of puzzles seen is damaged")
    return {**clean, "tried": tried, "solved": solved, "best_streak": best, "seen": seen[-MAX_SEEN:]}


def validate_rating(value):
    """The record's ``"rating"`` part, checked (RecordError in words); None (a record from before ratings) gives a
    fresh one."""
    if value is None:
        return fresh_rating()
    if not isinstance(value, dict):
        raise RecordError("its rating is not a table")
    try:
        clean = glicko.Rating.from_dict(value).to_dict()
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    assisted = _count(value.get("assisted", 0), "the rating's count of assisted games")
    change = value.get("change")
    if change is not None and (isinstance(change, bool) or not isinstance(change, (int, float))
                               or not -1000 <= change <= 1000):
        raise RecordError("the rating's last change is not a number from -1000 to 1000")
    return {**clean, "assisted": assisted, "change": change}


def bucket_of(seats):
    """'3:medium' for three players against medium bots; 'mixed' when the bots' levels differ."""
    levels = {s.get("bot") for s in seats if s.get("bot")}  # the bots' levels (people at any seat aside)
    level = levels.pop() if len(levels) == 1 else "mixed"
    if level not in LEVEL_ORDER:
        level = "mixed"
    return f"{len(seats)}:{level}"


def _count(value, what, low=0, high=10**6):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(f"{what} is not a whole number from {low} to {high}")
    return value


def validate(data):
    """The record in ``data`` (parsed JSON), checked field by field; RecordError when anything is off."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("it is not a Splendor player record")
    if data.get("version") != VERSION:
        raise RecordError(f"it has format version {data.get('version')!r}, and this page reads {VERSION}")
    games = data.get("games")
    if not isinstance(games, dict):
        raise RecordError("its games are not a table")
    clean = {}
    for key, row in games.items():
        if not isinstance(key, str) or not _BUCKET.match(key):
            raise RecordError(f"{str(key)[:20]!r} is not a player count and bot level")
        if not isinstance(row, dict):
            raise RecordError(f"the row {key} is not a table")
        played = _count(row.get("played"), f"games played ({key})")
        won = _count(row.get("won"), f"games won ({key})", 0, played)
        best = row.get("best")
        fastest = row.get("fastest")
        clean[key] = {"played": played, "won": won,
                      "best": None if best is None else _count(best, f"the best score ({key})", 0, 999),
                      "fastest": None if fastest is None else _count(fastest, f"the shortest win ({key})", 1, 999)}
    counted = data.get("counted", [])
    if not isinstance(counted, list) or not all(isinstance(x, str) and _ID.match(x) for x in counted):
        raise RecordError("its list of counted games is damaged")
    out = {"format": FORMAT, "version": VERSION, "games": clean, "counted": counted[-MAX_COUNTED:],
           "rating": fresh_rating(), "puzzles": fresh_puzzles(), "daily": fresh_daily()}
    try:
        out["rating"] = validate_rating(data.get("rating"))
    except RecordError as exc:
        raise RatingError(str(exc), out) from None
    try:
        out["puzzles"] = validate_puzzles(data.get("puzzles"))
    except RecordError as exc:
        raise RatingError(str(exc), out, part="puzzles") from None
    try:
        out["daily"] = validate_daily(data.get("daily"))
    except RecordError as exc:
        raise RatingError(str(exc), out, part="daily") from None
    return out


def rounds_played(game):
    """Rounds the game took (the last one may be short when every player passed)."""
    return max(1, -(-game.turns // game.players_count))


class PlayerRecord:
    """The record in ``storage`` (under RECORD_KEY): ``load``, ``count`` a finished game, read it for the page."""

    def __init__(self, storage, clock=time.time, key=RECORD_KEY):
        self.storage = storage
        self.clock = clock
        self.key = key
        self.data = empty()
        self.available = True  # False when storage refused: the record is then kept for this visit only
        self.blocked = False  # True when a damaged record could not be moved aside: never write over it

    def load(self):
        """Read the stored record. Returns None, or a sentence for the person when it was damaged (it is then
        kept under another key and a new record begins). Unusable storage leaves ``available`` False."""
        try:
            raw = self.storage.get(self.key)
        except StorageError:
            self.available = False  # the record panel says so; the save's own notice tells about storage
            return None
        if raw is None:
            self.data = empty()
            return None
        try:
            self.data = validate(json.loads(raw))
            return None
        except RatingError as exc:
            return self._rating_damaged(raw, exc)
        except (ValueError, RecordError) as exc:
            reason = str(exc) if isinstance(exc, RecordError) else "it is not readable JSON"
        self.data = empty()
        try:
            kept = self._quarantine(raw)
            where = f"It was kept under the key “{kept}”, not deleted, and a new record begins."
        except StorageError:
            self.blocked = True
            where = ("It could not be moved aside (storage refused), so it was left where it was and this visit "
                     "will not write over it.")
        return f"Your record of past games could not be read: {reason}. {where}"

    def _rating_damaged(self, raw, exc):
        """The record reads but its rating does not: the games stay, the rating starts afresh, and the record as it
        was is kept under another key (as a damaged record is), so nothing is lost. Returns the sentence to show."""
        self.data = exc.rest
        what, fresh = {"puzzles": ("Your puzzle results", "your puzzle results start afresh"),
                       "daily": ("Your daily deal results", "your daily deal results start afresh")}.get(
            exc.part, ("Your rating", "your rating starts afresh"))
        try:
            kept = self._quarantine(raw)
        except StorageError:
            self.blocked = True
            return (f"{what} could not be read: {exc}. The record could not be moved aside (storage refused), "
                    "so it was left where it was and this visit will not write over it; your games are counted "
                    "for this visit only.")
        self._write()
        return (f"{what} could not be read: {exc}. The record as it was is kept under the key “{kept}”, not "
                f"deleted; your games are kept, and {fresh}.")

    def _quarantine(self, raw):
        return keep_aside(self.storage, self.key, raw, CORRUPT_PREFIX, self.clock)

    def _write(self):
        if self.blocked or not self.available:
            return False
        try:
            self.storage.set(self.key, json.dumps(self.data, separators=(",", ":")))
        except StorageError:
            return False
        return True

    def count(self, game, seats, game_id, person=0, rated=True, assisted=False):
        """Add the finished ``game`` (seats as the controller keeps them) once; True when it was counted now. With
        ``rated``, the person's result against the bot seats moves the rating, or, when the game was ``assisted``,
        counts as an assisted game (see the module's words).

        A rotating-start series counts as one game won or lost on its summed scores; its best score and length
        are not single-game figures, so they are left out of those columns.
        """
        if game is None or not game.is_over or not game_id or not _ID.match(str(game_id)):
            return False
        if game_id in self.data["counted"]:
            return False
        series = "rotating_series" in game.variants
        row = self.data["games"].setdefault(bucket_of(seats), {"played": 0, "won": 0, "best": None,
                                                               "fastest": None})
        row["played"] += 1
        won = person in game.winners
        if won:
            row["won"] += 1
        if not series:
            score = game.scores[person]
            row["best"] = score if row["best"] is None else max(row["best"], score)
            if won:
                rounds = rounds_played(game)
                row["fastest"] = rounds if row["fastest"] is None else min(row["fastest"], rounds)
        if rated:
            self._rate(game, seats, person, assisted)
        self.data["counted"] = (self.data["counted"] + [game_id])[-MAX_COUNTED:]
        self._write()
        return True

    def _rate(self, game, seats, person, assisted):
        """The rating after the finished ``game``: one Glicko-2 period of the person's results against the bot
        seats whose level has a rating (none: nothing changes; an assisted game: counted as such, nothing moves)."""
        results = glicko.game_results(game.winners, game.scores, person, [s.get("bot") for s in seats])
        if not results:
            return
        part = self.data["rating"]
        if assisted:
            part["assisted"] += 1
            return
        before = self.rating()
        after = before.after(results)
        self.data["rating"] = {**after.to_dict(), "assisted": part["assisted"],
                               "change": round(after.rating - before.rating, 1)}

    def count_puzzle(self, puzzle_id, puzzle_rating, solved, streak=0):
        """A puzzle tried: counted in the tries (and solved), and, at its first try in this browser, one Glicko-2
        period of the puzzle rating against the puzzle's (its finder's, :data:`PUZZLE_RD`); ``streak``: the streak's
        length after it, kept when it is the best. Returns the rating's change (0.0 when not rated)."""
        part = self.data["puzzles"]
        part["tried"] += 1
        part["solved"] += bool(solved)
        part["best_streak"] = max(part["best_streak"], streak)
        change = 0.0
        if puzzle_id not in part["seen"]:
            before = glicko.Rating.from_dict(part)
            after = before.after([(float(puzzle_rating), PUZZLE_RD, 1.0 if solved else 0.0)])
            part.update(after.to_dict())
            change = round(after.rating - before.rating, 1)
            part["seen"] = (part["seen"] + [puzzle_id])[-MAX_SEEN:]
        self._write()
        return change

    def daily_entry(self, day):
        """The day's scored daily deal (its entry), or None before it was started."""
        return self.data["daily"]["days"].get(day)

    def daily_started(self, day, level):
        """The day's scored game has begun (kept from its start: a game left unfinished is the day's game)."""
        days = self.data["daily"]["days"]
        if day not in days:
            days[day] = {"level": level, "state": "started", "you": None, "bot": None}
            for old in sorted(days)[:-daily.MAX_DAYS]:
                del days[old]
            self._write()

    def daily_finished(self, day, game, person=0):
        """The day's scored game is over: its result (once) and the best run of days won."""
        row = self.data["daily"]["days"].get(day)
        if row is None or row["state"] != "started" or not game.is_over:
            return
        won = person in game.winners
        row["state"] = ("shared" if len(game.winners) > 1 else "won") if won else "lost"
        row["you"], row["bot"] = game.scores[person], max(s for i, s in enumerate(game.scores) if i != person)
        part = self.data["daily"]
        part["best_streak"] = max(part["best_streak"], daily.streak(part["days"], day))
        self._write()

    def daily_streak(self, today):
        return daily.streak(self.data["daily"]["days"], today)

    def puzzle_rating(self):
        """The player's puzzle rating (a :class:`.rating.Rating`; ``games``: the puzzles rated)."""
        return glicko.Rating.from_dict(self.data["puzzles"])

    # -- reading, for the page -------------------------------------------------------------------------------------
    def rating(self):
        """The player's rating (a :class:`.rating.Rating`; ``games`` 0 before any rated game)."""
        return glicko.Rating.from_dict(self.data["rating"])

    def assisted(self):
        """How many finished games against rated bots were assisted (hint, undo, guide), so not rated."""
        return self.data["rating"]["assisted"]

    def last_change(self):
        """What the last rated game moved the rating by (a float), or None before any."""
        return self.data["rating"]["change"]

    def totals(self):
        rows = self.data["games"].values()
        best = [r["best"] for r in rows if r["best"] is not None]
        fastest = [r["fastest"] for r in rows if r["fastest"] is not None]
        return {"played": sum(r["played"] for r in rows), "won": sum(r["won"] for r in rows),
                "best": max(best) if best else None, "fastest": min(fastest) if fastest else None}

    def table(self):
        """[(level, {players: row or None})] for the levels played, in LEVEL_ORDER."""
        games = self.data["games"]
        out = []
        for level in LEVEL_ORDER:
            cells = {n: games.get(f"{n}:{level}") for n in (2, 3, 4)}
            if any(cells.values()):
                out.append((level, cells))
        return out

    def export_text(self):
        """The record as indented JSON text, to download as a backup (the counted ids included)."""
        data = dict(self.data)
        data["exported"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.clock()))
        return json.dumps(data, indent=2) + "\n"
