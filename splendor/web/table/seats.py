"""The players' seats and the new-game settings' words: levels, who starts, variants' names, bots' names, a player's
name as typed. Shared by the state machine (controller.py) and the game files (records_io.py), which must not import
each other. Pure Python.

>>> clean_name("  Ann   Lee ", "You")
'Ann Lee'

Pass and play: each seat a person (with a name) or a bot (with a level), checked in words. The new-game screen
keeps, for each seat after the first, a choice among the bot levels and ``"person"`` (``settings["levels"][i]``)
and the name typed for a person (``settings["names"][i]``); the first seat is always a person
(``settings["name"]``). ``seats_from_settings`` turns that into the controller's seat list
``[{"name": ..., "bot": None | level}, ...]`` or raises :class:`SeatProblem` with a sentence for the person;
``check_seats`` checks a seat list read from a save, a game file or a link the same way.

>>> seats_from_settings({"name": "You", "opponents": 1, "levels": ["medium"] * 3, "names": [""] * 3})
[{'name': 'You', 'bot': None}, {'name': 'Bot 1', 'bot': 'medium'}]
>>> seats_from_settings({"name": "Ana", "opponents": 2, "levels": ["person", "hard", "easy"],
...                      "names": ["Ben", "", ""]})
[{'name': 'Ana', 'bot': None}, {'name': 'Ben', 'bot': None}, {'name': 'Bot 1', 'bot': 'hard'}]
>>> seats_from_settings({"name": "Ana", "opponents": 1, "levels": ["person"] * 3, "names": ["ana", "", ""]})
Traceback (most recent call last):
...
splendor.web.table.seats.SeatProblem: Two players are called “ana”: give each person their own name.

A level is offered with its measured rating (``splendor.ai.ladder.rating_of``: the scale on which medium is 1000)
and a line of how it plays (``Level.plays``, shortened):

>>> all(len(plays_words(n)) <= PLAYS_LIMIT + 1 and "(" not in plays_words(n) for n in LEVELS)
True
"""

import re

from ...ai.ladder import LADDER, NAMES, find, rating_of

#: The bot levels the page offers: the ladder's, weakest first (splendor.ai.ladder). The four levels of earlier
#: versions (easy, medium, hard, expert) are names of it, so saves, game files, deal links and records that name
#: them still read.
LEVELS = NAMES
#: How each level is named to players (the new-game screen, the opponents' panels, the record).
LEVEL_LABEL = {level.name: level.label for level in LADDER}
STARTS = ("random", "person", "bot")
VARIANT_NAMES = {
    "open_reservations": "Open reservations",
    "noble_veto": "Noble veto",
    "rotating_series": "Rotating-start series",
}
BOT_NAMES = ("Bot 1", "Bot 2", "Bot 3")
#: The longest line of how a level plays that the new-game screen shows (three short lines on a phone).
PLAYS_LIMIT = 120
MAX_NAME = 40


def clean_name(text, fallback):
    """A player name as typed, trimmed to one line of at most 40 characters (shown as text, never as markup)."""
    if not isinstance(text, str):
        return fallback
    text = " ".join(text.split())[:MAX_NAME]
    return text or fallback


def level_rating(level):
    """The measured rating of ``level``, rounded (an int), or None when the ladder has none for it (no measured
    file, or not a number in it)."""
    r = rating_of(level) if level in LEVELS else None
    return None if r is None else int(round(r))


def rated_label(level):
    """'Hard · 1090': a level's name with its measured rating (the name alone when it has none)."""
    r = level_rating(level)
    return LEVEL_LABEL[level] if r is None else f"{LEVEL_LABEL[level]} · {r}"


def plays_words(level, limit=PLAYS_LIMIT):
    """How ``level`` plays, in one sentence for the new-game screen: the ladder's words without their asides in
    brackets; when still longer than ``limit`` characters, its first clauses up to a semicolon (a whole thought),
    else cut at a comma or colon with "…"."""
    text = re.sub(r"\s*\([^)]*\)", "", find(level).plays).strip().rstrip(".")
    text = text[:1].upper() + text[1:]
    if len(text) <= limit:
        return text + "."
    cut = text.rfind("; ", 0, limit)
    if cut > 0:
        return text[:cut] + "."
    cut = max(text.rfind(", ", 0, limit), text.rfind(": ", 0, limit), text.rfind(" and ", 0, limit))
    if cut <= 0:
        cut = text.rfind(" ", 0, limit)
    return text[:cut].rstrip(" ,:") + "…"


PERSON = "person"
CHOICES = LEVELS + (PERSON,)
MAX_SEATS = 4


class SeatProblem(ValueError):
    """A seat list that cannot be played, with the reason in words."""


def bot_names(kinds):
    """The bots' names for the seats' ``kinds`` (levels or "person"): 'Bot 1', 'Bot 2'... in seat order."""
    out, k = [], 0
    for kind in kinds:
        if kind == PERSON:
            out.append(None)
        else:
            k += 1
            out.append(f"Bot {k}")
    return out


def people(seats):
    """The seats (indexes) of the people."""
    return [i for i, s in enumerate(seats) if not s.get("bot")]


def check_seats(seats):
    """Raise SeatProblem unless ``seats`` is 2 to 4 seats, each a named person or a bot of a known level, with at
    least one person and no two people of the same name (letter case and spaces aside)."""
    if not isinstance(seats, list):
        raise SeatProblem("The players are not a list.")
    if len(seats) > MAX_SEATS:
        raise SeatProblem(f"{len(seats)} players is too many: a table seats 2 to 4 players.")
    if len(seats) < 2:
        raise SeatProblem("A game needs 2 to 4 players.")
    seen = {}
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise SeatProblem(f"Player {i + 1} is not described as a person or a bot.")
        bot = seat.get("bot")
        if bot is not None and bot not in LEVELS:
            raise SeatProblem(f"Player {i + 1} is a bot of an unknown level (the levels are "
                              f"{', '.join(LEVELS[:-1])} and {LEVELS[-1]}).")
        name = seat.get("name")
        if bot is None:
            if not isinstance(name, str) or not " ".join(name.split()):
                raise SeatProblem(f"Player {i + 1} is a person without a name: type a name for each person.")
            key = " ".join(name.split()).casefold()
            if key in seen:
                raise SeatProblem(f"Two players are called “{' '.join(name.split())}”: give each person their own "
                                  "name.")
            seen[key] = i
    if not seen:
        raise SeatProblem("Nobody plays: at least one seat must be a person.")
    return seats


def seats_from_settings(settings):
    """The seat list the new-game settings describe (first seat: the person named ``name``), checked."""
    n = settings.get("opponents", 1)
    if not isinstance(n, int) or not 1 <= n <= MAX_SEATS - 1:
        raise SeatProblem("Choose 1 to 3 opponents: a table seats 2 to 4 players.")
    kinds = [k if k in CHOICES else "medium" for k in list(settings.get("levels", []))[:n]]
    kinds += ["medium"] * (n - len(kinds))
    names = list(settings.get("names", []))
    seats = [{"name": " ".join(str(settings.get("name") or "").split())[:MAX_NAME], "bot": None}]
    for i, (kind, bot_name) in enumerate(zip(kinds, bot_names(kinds))):
        if kind == PERSON:
            typed = names[i] if i < len(names) and isinstance(names[i], str) else ""
            seats.append({"name": " ".join(typed.split())[:MAX_NAME], "bot": None})
        else:
            seats.append({"name": bot_name, "bot": kind})
    several = sum(1 for s in seats if s["bot"] is None) > 1
    if several and seats[0]["name"].casefold() in ("", "you"):
        raise SeatProblem("Several people play: type the first player's name in “Player 1's name”, above the "
                          "seats (“You” would not say who is meant).")
    if not seats[0]["name"]:
        seats[0]["name"] = "You"
    return check_seats(seats)


def several_people(seats):
    return len(people(seats)) > 1
