"""The daily deal: each calendar day one deal of two players, the same for everyone who opens the game that day,
offline too (the deal comes from the date and the rules' version alone, so it never changes afterwards).

The first game of the day's deal is scored: its result goes in the record's ``"daily"`` part (kept from its start, so
a game left unfinished counts as played, unfinished) with the level it was played against, and a streak of days won
in a row. Every later game of that deal is practice: unscored, and it moves no rating (its cards are known by then).
Pure Python, tested under CPython.

>>> daily_seed("2026-12-07") == daily_seed("2026-12-07") != daily_seed("2026-12-08")
True
>>> ordinal("1970-01-02"), day_after("2024-02-28"), day_after("2024-02-29"), day_after("2026-12-31")
(1, '2024-02-29', '2024-03-01', '2027-01-01')
"""

import random

#: The rules the daily deals are dealt under: a change of the rules that would deal other cards from a seed changes
#: this, so no day's deal changes under the people who played it.
RULES = "base-1"
PLAYERS = 2
#: Days kept in the record (a year and a little; the streak needs only the last run).
MAX_DAYS = 400


def daily_seed(day):
    """The day's deal: a seed drawn from the date and the rules' version."""
    return random.Random(f"splendor-daily/{RULES}/{day}").randrange(1, 10**12)


def daily_first(day):
    """Who starts the day's deal: seat 0 (the person) or 1 (the bot), drawn with the deal."""
    return random.Random(f"splendor-daily-first/{RULES}/{day}").randrange(PLAYERS)


def ordinal(day):
    """Days since 1970-01-01 of "YYYY-MM-DD" (the proleptic Gregorian calendar)."""
    y, m, d = (int(x) for x in day.split("-"))
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def day_of_ordinal(n):
    """The inverse of :func:`ordinal`."""
    n += 719468
    era = n // 146097
    doe = n - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return f"{yoe + era * 400 + (m <= 2):04d}-{m:02d}-{d:02d}"


def day_after(day):
    return day_of_ordinal(ordinal(day) + 1)


def valid_day(day):
    """Whether ``day`` is a date written "YYYY-MM-DD" that exists."""
    if not isinstance(day, str) or len(day) != 10 or day[4] != "-" or day[7] != "-":
        return False
    try:
        return day_of_ordinal(ordinal(day)) == day
    except ValueError:
        return False


def streak(days, today):
    """Days won in a row, the last of them today or yesterday (``days``: the record's day -> entry)."""
    n = ordinal(today)
    if days.get(today, {}).get("state") != "won":
        n -= 1
    count = 0
    while days.get(day_of_ordinal(n), {}).get("state") == "won":
        count += 1
        n -= 1
    return count
