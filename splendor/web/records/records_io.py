"""Reading saved and shared games defensively, and the game file a person can download and open again.

Pure Python (no browser imports), tested under CPython. Everything read here comes from outside (localStorage,
a file the person picked), so every check says in plain words what is wrong, and nothing is trusted until the
engine has replayed the game's moves by the rules.

A game file (``export_game``) is JSON::

    {"format": "splendor-game", "version": 1, "exported": "2025-01-02T03:04:05Z",
     "players": [{"name": "You", "bot": null}, {"name": "Bot 1", "bot": "medium"}],
     "record": {... splendor.Game.record(): setup, seed and every action ...}}

The file of a game still being played carries no seed, since the decks' order follows from it (a person could read
the cards to come, or a friend's in pass and play): its record names the cards dealt so far instead
(``Game.record(hide_decks=True)``), and opening it shuffles the cards nobody has seen afresh. A finished game's file
keeps its seed.

>>> from splendor.web.controller import App
>>> from splendor.web.records.storage import MemoryStorage
>>> app = App(MemoryStorage())
>>> app.act("start", {"seed": "7", "starts": "person"})
>>> name, text = export_game(app, clock=lambda: 0)
>>> name
'splendor-game-move0.json'
>>> json.loads(text)["record"]["seed"] is None
True
>>> other = App(MemoryStorage())
>>> import_game(other, text, "game.json")
>>> other.game.record(hide_decks=True) == app.game.record(hide_decks=True)  # the cards to come shuffled afresh
True
>>> import_game(other, '{"format": "splendor-game", "version": 1, "record": {}}')
Traceback (most recent call last):
...
splendor.web.records.records_io.RecordProblem: its moves cannot be replayed by the rules
(not a game record: format is None, expected 'splendor-record')
"""

import json
import time
from html import escape

from ...engine import Game, parse_action, replay
from ..table.pass_play import PassPlay
from ..table.seats import LEVELS, SeatProblem, check_seats, clean_name

GAME_FORMAT = "splendor-game"
GAME_VERSION = 1
MAX_FILE_BYTES = 2_000_000  # a long 4-player game is about 10 KB; anything this big is not a game file
MAX_ACTIONS = 5_000


class RecordProblem(ValueError):
    """A save or a game file that cannot be used; the message says why in words (after "it ...")."""


def parse_object(text, kind):
    """The JSON object in ``text``; RecordProblem in words when it is cut short, not JSON, or not an object."""
    if not isinstance(text, str):
        raise RecordProblem("it is not text")
    if not text.strip():
        raise RecordProblem("it is empty")
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordProblem("it is nested too deeply to be a " + kind) from None
    except ValueError as exc:
        where = f" (at character {exc.pos})" if getattr(exc, "pos", None) is not None else ""
        raise RecordProblem(f"its text is cut short or damaged: it is not readable JSON{where}") from None
    if not isinstance(data, dict):
        raise RecordProblem(f"it is JSON, but not a {kind} (a {type(data).__name__} instead of an object)")
    return data


def check_format(data, fmt, version, kind):
    """The format name and version: an older or newer version is told as such."""
    if data.get("format") != fmt:
        raise RecordProblem(f"it is JSON, but not a {kind} (its format is {short(data.get('format'))})")
    found = data.get("version")
    if found == version:
        return
    if isinstance(found, int) and not isinstance(found, bool):
        age = "newer" if found > version else "older"
        raise RecordProblem(f"it was written by a {age} version of this page (format {found}; this page reads "
                            f"format {version})")
    raise RecordProblem(f"its format version is {short(found)}, not a number this page knows")


def short(value, limit=40):
    """A value from outside, shortened for a message (the page shows it as text)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def replay_record(record):
    """The game the record describes, every action checked by the rules; RecordProblem naming the first bad one."""
    if isinstance(record, dict) and isinstance(record.get("actions"), list) and len(record["actions"]) > MAX_ACTIONS:
        raise RecordProblem(f"it has {len(record['actions'])} moves, more than any real game")
    try:
        return replay(record)
    except ValueError as exc:
        raise RecordProblem(f"its moves cannot be replayed by the rules ({exc})") from None


# -- the game file -------------------------------------------------------------------------------------------------
def export_game(app, clock=time.time):
    """(file name, JSON text) of the game on the table: its record and its players."""
    g = app.game
    if g is None:
        raise RecordProblem("there is no game to save")
    data = {
        "format": GAME_FORMAT,
        "version": GAME_VERSION,
        "exported": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(clock())),
        "players": [{"name": s["name"], "bot": s["bot"]} for s in app.seats],
        "record": g.record(hide_decks=not g.is_over),
    }
    # The bots' reasons, as the log shows them: one sentence (or "") per action of the record.
    why = {e["n"]: e["why"] for e in app.log if e.get("kind") == "move" and e.get("why")}
    if why:
        data["why"] = [why.get(n, "") for n in range(1, len(g.history) + 1)]
    game_id = getattr(app, "game_id", None)  # the learning features' id: a game opened back is the same game
    if isinstance(game_id, str):
        data["id"] = game_id
    seed = f"-seed{g.seed}" if g.is_over else ""
    name = f"splendor-game{seed}-move{len(g.history)}.json"
    return name, json.dumps(data, indent=1)


def read_game_file(text):
    """(game, players) from a game file's text, fully checked; RecordProblem in words otherwise."""
    return _read_game_file(text)[:2]


def _read_game_file(text):
    """(game, players, the file's JSON object) from a game file's text: see :func:`read_game_file`."""
    if isinstance(text, str) and len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise RecordProblem("it is far too large to be a game file")
    data = parse_object(text, "Splendor game file")
    if data.get("format") == "splendor-save":
        raise RecordProblem("it is a page's save, not a game file: use the Download button of a game")
    if data.get("format") == "splendor-record" and "actions" in data:
        data = {"format": GAME_FORMAT, "version": GAME_VERSION, "record": data}  # a bare engine record
    check_format(data, GAME_FORMAT, GAME_VERSION, "Splendor game file")
    game = replay_record(data.get("record"))
    players = data.get("players")
    if players is None:
        players = [{"name": "You", "bot": None}] + [{"bot": "medium"}] * (game.players_count - 1)
    if not isinstance(players, list) or len(players) != game.players_count:
        raise RecordProblem(f"it names {short(len(players) if isinstance(players, list) else players)} players for a "
                            f"{game.players_count}-player game")
    seats = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise RecordProblem(f"player {i + 1} is not described as an object")
        bot = p.get("bot")
        if bot is not None and bot not in LEVELS:
            raise RecordProblem(f"player {i + 1} is not a bot of a known level ({', '.join(LEVELS)})")
        fallback = ("You" if i == 0 else f"Player {i + 1}") if bot is None else (
            f"Bot {sum(1 for s in seats if s['bot']) + 1}")
        seats.append({"name": clean_name(p.get("name"), fallback), "bot": bot})
    try:  # people at any seats (pass and play), at least one, each with their own name
        check_seats(seats)
    except SeatProblem as exc:
        raise RecordProblem(str(exc)[:1].lower() + str(exc)[1:].rstrip(".")) from None
    return game, seats, data


def import_game(app, text, file_name=""):
    """Put the game of a game file on the table (replacing the one in progress, which the file's game then
    saves over). RecordProblem in words, and nothing changed, when the file cannot be used."""
    game, seats, data = _read_game_file(text)
    record = game.record()
    # Replay it once more through the page's own path, so the log, undo and the bots' turns are as in live play.
    app.game = Game(record["players"], record["seed"], record["first_player"], tuple(record["variants"]),
                    record.get("deals"))
    app.seats = seats
    app.pass_play = PassPlay(seats)  # pass and play: the first person to move is handed the device
    app.assisted = set()
    app.unrated = True  # who played the file's moves, and with what help, is not known: no rating moves by it
    app.log, app.actors = [], []
    app.screen = "game"
    app._reset_turn_ui()
    named = f" “{file_name}”" if file_name else ""
    app._note(f"Game opened from the file{named}: {len(record['actions'])} moves replayed by the rules.")
    why = data.get("why")
    if why is not None and not (isinstance(why, list) and len(why) <= len(record["actions"])
                                and all(isinstance(x, str) for x in why)):
        app._note("The file's reasons for the bots' moves could not be read, so the log leaves them out; "
                  "the moves themselves are all there.")
        why = None
    app._note(app._turn_start_words())
    for i, text_action in enumerate(record["actions"]):
        g = app.game
        app._apply(parse_action(g, text_action), g.current_player, why=why[i][:300] if why and i < len(why) else "")
    app.show_end = True
    restored = getattr(app, "_game_restored", None)  # the learning features' hook, where present
    if restored is not None:
        # The file's game id (checked there) keeps a finished game from counting twice in the player's record.
        restored({"record": record, "seats": seats, "id": data.get("id")})
    app.save()


# -- the controls (HTML; no outside text in them) --------------------------------------------------------------------
def export_button(id_="export-game"):
    """The button that downloads the game on the table as a game file."""
    return (f'<button type="button" class="secondary export" data-act="export-game" id="{id_}">'
            'Download this game (JSON)</button>')


def import_control(app=None):
    """The new-game screen's file picker that opens a game file, and why the last file picked could not be
    opened (beside the picker, where the person is looking; the file name and reason shown as text)."""
    problem = getattr(app, "import_problem", "") if app is not None else ""
    said = (f'<p class="file-problem" role="alert" id="import-problem">{escape(problem)}</p>' if problem else "")
    described = ' aria-describedby="import-problem"' if problem else ""
    return ('<section class="game-file" aria-labelledby="file-title"><h2 id="file-title">Open a game file</h2>'
            '<p class="small">A game downloaded from this page, on this device or another: it is checked move by '
            'move against the rules, then you play on from where it stopped.</p>'
            '<label class="file-pick" for="import-file"><span>Choose a game file (.json)</span>'
            '<input type="file" id="import-file" accept=".json,application/json"'
            f'{described}></label>{said}</section>')


def open_file(app, text, file_name):
    """The person picked a file: open its game (True), or say why not beside the picker (False)."""
    app.import_problem = ""
    try:
        import_game(app, text, file_name)
    except RecordProblem as exc:
        app.import_problem = f"The file “{file_name}” cannot be opened: {exc}. Nothing was changed."
        return False
    return True
