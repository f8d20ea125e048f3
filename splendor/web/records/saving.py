"""Saving the game after every move and loading it back (a part of ``controller.App``): the save's format, the
check of a save read from storage (a damaged one is kept aside and explained), the settings kept with it. Pure
Python."""

import json

from ...engine import Game, parse_action
from ..puzzles import daily
from . import records_io
from ..table.pass_play import PassPlay
from ..table.seats import LEVELS, SeatProblem, check_seats, clean_name
from .storage import StorageError


SAVE_FORMAT = "splendor-save"
SAVE_VERSION = 1

DEFAULT_SETTINGS = {
    "name": "You",
    "opponents": 1,
    "levels": ["medium", "medium", "medium"],  # each other seat: a bot level, or "person" (seats.PERSON)
    "names": ["", "", ""],  # the names of the other seats that are people
    "skip_pass": False,  # with open reservations: play without the hand-over screen between people
    "starts": "random",
    "variants": [],
    "seed": "",
    "confirm": False,  # a buy is two taps (the card, Buy); on: a last check before a buy or a reserve
    "guided": False,
    "pace": "normal",  # how long each bot's move is shown: "normal" or "fast" (main.py PACES)
    "daily_level": "expert",  # the level the daily deal is played against
}


class Saving:
    """Part of ``controller.App`` (which holds the state these methods read and change)."""

    def to_save(self):
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "record": self.game.record(),
            "seats": self.seats,
            "settings": self.settings,
            "log": self.log,
            "id": self.game_id,
            "pass": self.pass_play.to_save(),
            "assisted": sorted(self.assisted),  # the people helped (hint, undo, guide): not rated
            **({"unrated": True} if self.unrated else {}),
            **({"daily": self.daily} if self.daily else {}),
        }

    def save(self):
        """Write the game to storage (after every action). A storage failure is told once, and play goes on."""
        if self.game is None or self.puzzle is not None:  # (a puzzle is never saved over the game kept aside)
            return
        g = self.game
        self.pass_play.after_move(g.current_player, len(g.history), g.is_over)
        self._after_change()  # the guide's advice, and a finished game counted in the player's record
        self.write_save()

    def write_save(self):
        """Write the game as it is to storage (``save`` after a move; alone when only what is kept beside the moves
        changed, such as a hint asked). A storage failure is told once, and play goes on."""
        if self.game is None or self.save_blocked or self.puzzle is not None:
            return
        try:
            self.slot.write(json.dumps(self.to_save(), separators=(",", ":")))
        except StorageError as exc:
            if not self.storage_warned:
                self.storage_warned = True
                self._notice("storage", f"This game cannot be saved on this device ({exc}). You can keep playing, "
                                        "but a reload or a closed tab will lose it.")

    def load(self):
        """Resume the saved game if there is one. A save that cannot be read is moved aside, and the person is
        told in words and offered a new game. Returns True when a game was resumed."""
        try:
            raw = self.slot.read()
        except StorageError as exc:
            self._notice("storage", f"Saved games cannot be read on this device ({exc}). You can still play.")
            self.storage_warned = True
            return False
        if raw is None:
            return False
        try:
            self._restore(raw)
        except Exception as exc:  # a crafted or damaged save must never stop the page
            reason = str(exc) or type(exc).__name__
            try:
                key = self.slot.quarantine(raw)
                kept = f"The damaged save was kept under the key “{key}”, not deleted."
            except StorageError:
                # Keep it where it is, and do not save over it during this visit.
                self.save_blocked = True
                kept = ("It could not be moved aside (storage refused), so it was left where it was and this "
                        "visit will not save over it.")
            self._notice("corrupt", f"Your saved game could not be read: {reason}. {kept} "
                                    "Start a new game below.")
            self.game = None
            self.seats, self.log, self.actors = [], [], []
            self.assisted, self.unrated = set(), False
            self.screen = "setup"
            self._reset_turn_ui()
            return False
        self._game_restored(json.loads(raw))
        return True

    def _restore(self, raw):
        # Each check says in words what is wrong: cut short, not a save, an older or newer format, moves that
        # break the rules (records_io).
        data = records_io.parse_object(raw, "Splendor save")
        records_io.check_format(data, SAVE_FORMAT, SAVE_VERSION, "Splendor save")
        record = data.get("record")
        game = records_io.replay_record(record)
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != game.players_count:
            raise ValueError("its players do not match the game")
        clean = []
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict):
                raise ValueError("a player entry is not an object")
            bot = seat.get("bot")
            if bot is not None and bot not in LEVELS:
                raise ValueError("its players are not people and bots of a known level")
            clean.append({"name": clean_name(seat.get("name"), "You" if i == 0 else f"Player {i + 1}"), "bot": bot})
        try:
            check_seats(clean)
        except SeatProblem as exc:
            raise ValueError(str(exc)[:1].lower() + str(exc)[1:].rstrip(".")) from None
        passing = PassPlay(clean)
        passing.restore(data.get("pass"), game.players_count, len(game.history))
        passing.after_move(game.current_player, len(game.history), game.is_over)  # no pass state: hand over now
        log = data.get("log", [])
        if not isinstance(log, list) or not all(isinstance(e, dict) and isinstance(e.get("text"), str)
                                                for e in log):
            raise ValueError("its log is not a list of entries")
        settings = json.loads(json.dumps(DEFAULT_SETTINGS))
        if isinstance(data.get("settings"), dict):
            keep = self.settings
            self.settings = settings
            try:
                self.on_settings({k: v for k, v in data["settings"].items() if k != "levels"})
                levels = data["settings"].get("levels")
                if isinstance(levels, list):
                    for i, lv in enumerate(levels[:3]):
                        self.on_setting({"name": f"level{i}", "value": lv})
            except Exception:
                self.settings = keep
                raise
        self.game = game
        self.seats = clean
        self.pass_play = passing
        self.assisted = _assisted_of(data.get("assisted"), clean)
        self.unrated = data.get("unrated") is True
        self.daily = daily_of(data.get("daily"), record)
        self.log = [{"n": e.get("n") if isinstance(e.get("n"), int) else 0,
                     "seat": e.get("seat") if isinstance(e.get("seat"), int) else None,
                     "text": e["text"], "why": e.get("why") if isinstance(e.get("why"), str) else "",
                     "kind": e.get("kind") if e.get("kind") in ("move", "note", "undo") else "note"}
                    for e in log]
        self.actors = self._actors_of(record)
        self.screen = "game"
        self._reset_turn_ui()
        self.show_end = True

    @staticmethod
    def _actors_of(record):
        """(seat, phase) before each action of a (valid) record: which turns were the person's, for undo."""
        g = Game(record["players"], record["seed"], record["first_player"], tuple(record.get("variants", [])),
                 record.get("deals"))
        out = []
        for text in record["actions"]:
            out.append((g.current_player, g.phase))
            g.apply(parse_action(g, text))
        return out


def daily_of(value, record):
    """The save's daily deal ({"day", "level", "scored"}), or None: a save that names a day whose deal is not its own
    (or names it wrongly) is a plain game, and is not scored."""
    if not isinstance(value, dict) or not daily.valid_day(value.get("day")) or value.get("level") not in LEVELS:
        return None
    if record.get("seed") != daily.daily_seed(value["day"]) or record.get("players") != daily.PLAYERS:
        return None
    return {"day": value["day"], "level": value["level"], "scored": value.get("scored") is True}


def _assisted_of(value, seats):
    """The people's seats a save says were helped in its game. A save from before this was kept says nothing (no
    one); a value that is not a list of people's seats cannot say who was helped, so it counts every person as
    helped (the game then moves no rating), rather than refusing the whole game."""
    if value is None:
        return set()
    people = {i for i, seat in enumerate(seats) if not seat.get("bot")}
    if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool) and i in people
                                              for i in value):
        return set(people)
    return set(value)
