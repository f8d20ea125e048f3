"""Deal links: a page address that carries a deal, so a person can replay the same cards or send them to a friend.

    ?seed=4711&players=3&bots=medium,hard&first=person&variants=noble_veto
    ?seed=4711&players=3&people=Ana,Ben&bots=hard        (pass and play: the people sit first, then the bots)

``parse`` reads the query's (name, value) pairs into new-game settings (the controller's vocabulary) and lists, in
words, what it ignored; ``query`` writes the link of a game. Pure Python, tested under CPython; ``main.py`` passes
the page's query pairs in and puts the link on the clipboard.

>>> link = parse([("seed", "4711"), ("players", "3"), ("bots", "medium,hard"), ("colour", "red")])
>>> link.settings["seed"], link.settings["opponents"], link.settings["levels"][:2]
('4711', 2, ['medium', 'hard'])
>>> link.ignored
['colour=red (not a setting of this page)']
>>> parse([("pace", "0")]) is None  # nothing for a deal in the address
True
>>> parse([("sead", "4711")]).ignored  # a typo is not silently dropped
['sead=4711 (not a setting of this page)']
"""


from ...engine import VARIANTS
from ..table.seats import LEVELS  # the bot levels the page offers

#: The parameters of a deal, in the order a link writes them.
DEAL_PARAMS = ("seed", "players", "bots", "people", "first", "variants")
#: Settings for tests and benchmarks that main.py reads (its module text says what each does); never mentioned as
#: ignored. Every URL setting main.py reads must be here or in DEAL_PARAMS (tests/test_web_url_settings.py reads
#: main.py's source to check it).
PAGE_PARAMS = ("pace", "bot_budget", "worker", "bot_patience", "worker_boot")
#: Hooks for one browser test only (tests/browser/test_worker_faults.py), read by main.py; not ignored either.
TEST_PARAMS = ("test_worker_fault",)
#: Everything a deal link leaves alone without a word.
QUIET_PARAMS = PAGE_PARAMS + TEST_PARAMS
FIRSTS = ("person", "bot", "random")  # who starts (controller.STARTS)
#: Shorter names a hand-written link may use for the variants.
VARIANT_ALIASES = {"open": "open_reservations", "veto": "noble_veto", "series": "rotating_series"}
MAX_SHOWN = 24  # characters of an ignored value repeated in the note
MAX_NOTES = 6


class DealLink:
    """What a link asks for: ``settings`` (only the fields it sets), ``ignored`` (words, one per parameter)."""

    def __init__(self, settings, ignored):
        self.settings = settings
        self.ignored = ignored

    def describe(self):
        """The deal in words: 'seed 4711, 3 players (bots: medium and hard), you start'."""
        s = self.settings
        parts = []
        if "seed" in s:
            parts.append(f"seed {s['seed']}")
        if "opponents" in s:
            n = s["opponents"]
            levels = [lv for lv in s.get("levels", [])[:n] if lv != "person"]
            bots = f"bots: {_join(levels)}" if levels else ""
            people = f"people: {_join(s['people'])}" if s.get("people") else ""
            said = "; ".join(x for x in (people, bots) if x)
            parts.append(f"{n + 1} players" + (f" ({said})" if said else ""))
        if "starts" in s:
            starts = {"person": "you start", "bot": "a bot starts", "random": "a random player starts"}
            parts.append(starts[s["starts"]])
        if "variants" in s:
            names = [v.replace("_", " ") for v in s["variants"]]
            parts.append("variants: " + _join(names) if names else "no variants")
        return ", ".join(parts)

    def ignored_words(self):
        """'' or the note listing what was ignored."""
        if not self.ignored:
            return ""
        shown = self.ignored[:MAX_NOTES]
        more = len(self.ignored) - len(shown)
        tail = f" and {more} more" if more > 0 else ""
        return "Ignored in the link: " + "; ".join(shown) + tail + "."


def _join(items):
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _shown(name, value):
    name = name[:MAX_SHOWN]
    value = value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN] + "…"
    return f"{name}={value}" if value else name


def parse(pairs):
    """A DealLink for the query's ``pairs`` [(name, value), ...], or None when they hold only the page's own test
    settings (QUIET_PARAMS) or nothing.

    Each parameter is taken whole or ignored whole (with the reason in ``ignored``): a link never half-applies
    a malformed value. A repeated parameter counts once, the first time.
    """
    pairs = [(str(k), str(v)) for k, v in pairs]
    if all(k in QUIET_PARAMS for k, _ in pairs):
        return None
    settings = {}
    ignored = []
    seen = set()
    bots = None
    people = None
    for name, raw in pairs:
        value = raw.strip()
        if name in QUIET_PARAMS:
            continue
        if name not in DEAL_PARAMS:
            ignored.append(f"{_shown(name, value)} (not a setting of this page)")
            continue
        if name in seen:
            ignored.append(f"{_shown(name, value)} (given twice: the first one counts)")
            continue
        seen.add(name)
        if name == "seed":
            if value.isdigit() and len(value) <= 12 and value.isascii():
                settings["seed"] = str(int(value))
            else:
                ignored.append(f"{_shown(name, value)} (a seed is a whole number of up to 12 digits)")
        elif name == "players":
            if value in ("2", "3", "4"):
                settings["opponents"] = int(value) - 1
            else:
                ignored.append(f"{_shown(name, value)} (2, 3 or 4 players)")
        elif name == "bots":
            levels = [x.strip().lower() for x in value.split(",")]
            if value and all(x in LEVELS for x in levels) and len(levels) <= 3:
                bots = (levels, raw)
            else:
                ignored.append(f"{_shown(name, value)} (1 to 3 bot levels among {_join(LEVELS)}, "
                               "separated by commas)")
        elif name == "people":
            names = [" ".join(x.split())[:40] for x in value.split(",")]
            folded = [x.casefold() for x in names]
            if not value or not all(names) or len(names) > 4:
                ignored.append(f"{_shown(name, value)} (1 to 4 names, separated by commas, none empty)")
            elif len(set(folded)) != len(folded):
                ignored.append(f"{_shown(name, value)} (two people have the same name)")
            else:
                people = (names, raw)
        elif name == "first":
            v = value.lower()
            if v in FIRSTS:
                settings["starts"] = v
            else:
                ignored.append(f"{_shown(name, value)} (person, bot or random)")
        elif name == "variants":
            names = [VARIANT_ALIASES.get(x, x) for x in
                     (x.strip().lower().replace("-", "_") for x in value.split(",")) if x]
            if all(x in VARIANTS for x in names):
                settings["variants"] = [v for v in VARIANTS if v in names]
            else:
                ignored.append(f"{_shown(name, value)} (the variants are {_join(VARIANTS)})")
    if people is not None:
        names, raw = people
        levels = bots[0] if bots is not None else None
        bots = None
        players = settings["opponents"] + 1 if "opponents" in settings else len(names) + len(levels or [])
        if players == 1 and not levels:
            players = 2  # one named person and nobody else: against one bot, as a plain link
        if not len(names) <= players <= 4 or (levels is not None and len(names) + len(levels) != players):
            ignored.append(f"{_shown('people', raw)} (the people and bots do not fill {players} seats)")
        else:
            levels = levels or []
            levels = levels + ["medium"] * (players - len(names) - len(levels))
            settings["people"] = names
            settings["opponents"] = players - 1
            settings["levels"] = (["person"] * (len(names) - 1) + levels + ["medium"] * 3)[:3]
    if bots is not None:
        levels, raw = bots
        opponents = settings.get("opponents")
        if opponents is None:
            settings["opponents"] = len(levels)
        elif len(levels) > opponents:
            ignored.append(f"{_shown('bots', raw)} (more bots than the {opponents + 1} players leave seats for)")
            levels = None
        if levels:
            settings["levels"] = levels + ["medium"] * (3 - len(levels))
    return DealLink(settings, ignored)


def query(game, seats):
    """The query string of ``game``'s deal (without '?'): seed, players, the bots' levels, who starts, variants.

    ``first`` is 'person' or 'bot' when the first seat is the person's or the first bot's, else 'random' (which
    the seed turns into the same seat again: the engine draws a random first seat from the seed).
    """
    fp = game.first_player
    first = "person" if fp == 0 else ("bot" if fp == 1 else "random")
    people = [s["name"] for s in seats if not s["bot"]]
    parts = [("seed", str(game.seed)), ("players", str(game.players_count))]
    if len(people) > 1:  # pass and play: the people's names (they sit first when the link is opened)
        parts.append(("people", ",".join(people)))
    parts += [("bots", ",".join(s["bot"] for s in seats if s["bot"])), ("first", first)]
    parts = [(k, v) for k, v in parts if v or k != "bots"]
    if game.variants:
        parts.append(("variants", ",".join(game.variants)))
    from urllib.parse import quote  # here, not at the top: in Pyodide it costs ~40 ms of every start-up

    return "&".join(f"{k}={quote(v, safe=',')}" for k, v in parts)



def link(base, game, seats):
    """The whole link: ``base`` (the page's address without its query) + '?' + :func:`query`."""
    base = base.split("?", 1)[0].split("#", 1)[0]
    return f"{base}?{query(game, seats)}"
