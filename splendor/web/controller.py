"""The page's state machine, free of the browser: settings, selections, staged moves, bots' turns, undo, log, saving.

The page is a projection of this object (``view.render(app)``); a click on an element with ``data-act`` becomes
``app.act(name, data)``; bots' turns go out as JSON requests (``app.bot_request()``) and come back through
``app.bot_reply(reply)``. Everything here runs and is tested under plain CPython.

>>> from splendor.web.storage import MemoryStorage
>>> app = App(MemoryStorage())
>>> app.screen
'setup'
>>> app.act("start", {})
>>> app.screen, len(app.seats)
('game', 2)
"""

import json
import random
import time

from ..engine import COLORS, Action, IllegalActionError, Game, card_from_code, new_game, noble_from_code
from ..engine import parse_action
from . import records_io, words
from .learn import LearnShare
from .pass_play import PassPlay
from .seats import BOT_NAMES, LEVELS, MAX_NAME, STARTS, VARIANT_NAMES, clean_name  # noqa: F401 (re-exported)
from .seats import PERSON, SeatProblem, check_seats, seats_from_settings
from .storage import SaveSlot, StorageError

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
    "confirm": True,
    "guided": False,
}


def parse_seed(text):
    """'' -> None (a fresh random deal); '4711' -> 4711; anything else raises ValueError with words."""
    text = (text or "").strip() if isinstance(text, str) else str(text)
    if not text:
        return None
    if not text.isdigit() or len(text) > 12:
        raise ValueError("The seed is a whole number (up to 12 digits), or empty for a random deal.")
    return int(text)


class App(LearnShare):
    """Everything the page shows and does, as plain data and methods (the guide, the guided game, deal links and
    the player's record: ``learn.LearnShare``)."""

    def __init__(self, storage, clock=time.time, bot_budget=None, person_seat=0):
        self.slot = SaveSlot(storage, clock=clock)
        self.clock = clock
        self.bot_budget = bot_budget  # an override for every level (tests, benchmarks)
        self.settings = json.loads(json.dumps(DEFAULT_SETTINGS))
        self.game = None
        self.seats = []
        self.log = []
        self.actors = []  # (seat, phase) before each action of the history, parallel to it
        self.notices = []  # lasting messages: {"kind": ..., "text": ...}
        self.screen = "setup"
        self.storage_warned = False
        self.save_blocked = False
        self.fallback_note = ""  # set by the page when bots play on its own thread
        self.serial = 0
        self.pass_play = PassPlay([{"name": "You", "bot": None}])
        self._reset_turn_ui()
        self._learn_init(storage)

    # -- small state -----------------------------------------------------------------------------------------
    def _reset_turn_ui(self):
        self.picked = []  # gem colors staged for a take
        self.returning = []  # token colors staged for return
        self.staged = None  # a noble or veto action staged for confirmation
        self.selected = None  # the card dialog: {"where": "market"|"reserved"|"deck", ...}
        self.gold_for = {}  # color -> gold spent instead of that color in the open buy dialog
        self.confirming = None  # actions staged from the dialog, awaiting Confirm
        self.message = ""  # the latest reason or tip, in words
        self.flash = None  # what the last bot move touched, for a brief highlight
        self.awaiting = None  # the bot request in flight: {"turn_id", "seat", "moves"}
        self.hint = None  # {"action": text, "explanation": sentence}
        self.hint_waiting = None
        self.show_end = True
        self.inspecting = None  # the seat whose full view is open (bought cards, reserves, nobles)
        self.info = ""  # a neutral word after a step (not a refusal): "Your last turn was undone."
        self.moment = None  # {"kind": "noble"|"final"|"end", "text": ..., "n": serial} said at the top of the table
        self.moment_serial = 0
        self.changes = []  # what the last applied moves moved, for the page's animations (see motion_changes)

    @property
    def person(self):
        """The seat whose point of view the table shows: the only person, or (pass and play) the person holding
        the device."""
        return self.pass_play.person(self.game.current_player if self.game is not None else 0)

    @property
    def solo(self):
        """One person against bots: the log and status say "You"."""
        return not self.pass_play.several

    @property
    def handover(self):
        """The seat of the person the device must be passed to (the table is hidden), or None."""
        return self.pass_play.pending if self.game is not None and self.screen == "game" else None

    def _you(self, seat):
        return self.solo and seat == self.person

    @property
    def my_turn(self):
        g = self.game
        return (bool(g) and not g.is_over and g.current_player == self.person and self.pass_play.pending is None
                and not self.seats[g.current_player]["bot"])

    @property
    def thinking(self):
        """The seat of the bot whose answer is awaited, or None."""
        return self.awaiting["seat"] if self.awaiting else None

    def name(self, seat):
        return self.seats[seat]["name"]

    def log_name(self, seat):
        return "You" if self._you(seat) else self.seats[seat]["name"]

    # -- the one entry point for clicks ------------------------------------------------------------------------
    def act(self, name, data=None):
        """Do what the element with ``data-act=name`` (and its other data-* values in ``data``) asks."""
        data = data or {}
        handler = getattr(self, "on_" + str(name).replace("-", "_"), None)
        if handler is None:
            self.message = f"Unknown control {name!r}."
            return
        self.info = ""
        handler(data)

    # -- setup -----------------------------------------------------------------------------------------------
    def on_setting(self, data):
        """A control of the new-game form changed: ``{"name": field, "value": text}``."""
        field, value = data.get("name"), data.get("value")
        s = self.settings
        if field == "name":
            s["name"] = clean_name(value, "You")
        elif field == "opponents":
            try:
                n = int(value)
            except (TypeError, ValueError):
                return
            if 1 <= n <= 3:
                s["opponents"] = n
        elif field and field.startswith("level"):
            try:
                i = int(field[5:])
            except ValueError:
                return
            if 0 <= i < 3 and (value in LEVELS or value == PERSON):
                s["levels"][i] = value
        elif field and field.startswith("pname"):
            try:
                i = int(field[5:])
            except ValueError:
                return
            if 0 <= i < 3:
                s["names"][i] = clean_name(value, "")
        elif field == "skip_pass":
            s["skip_pass"] = value in (True, "true", "on", "1", 1)
        elif field == "starts":
            if value in STARTS:
                s["starts"] = value
        elif field in VARIANT_NAMES:
            on = value in (True, "true", "on", "1", 1)
            variants = [v for v in s["variants"] if v != field] + ([field] if on else [])
            s["variants"] = [v for v in VARIANT_NAMES if v in variants]
        elif field == "seed":
            s["seed"] = str(value or "").strip()[:12]
        elif field == "confirm":
            s["confirm"] = value in (True, "true", "on", "1", 1)
        elif field == "guided":
            s["guided"] = value in (True, "true", "on", "1", 1)

    def on_settings(self, data):
        """Several form values at once (the page sends the whole form with Start)."""
        for field, value in data.items():
            self.on_setting({"name": field, "value": value})

    def on_new_game(self, data):
        """Open the new-game screen (the game in progress stays until a new one starts)."""
        self.screen = "setup"
        self.selected = None
        self.message = ""

    def on_back(self, data):
        if self.game is not None:
            self.screen = "game"

    def on_start(self, data):
        """Start a game with the settings (``data`` may carry the form's latest values)."""
        if data:
            self.on_settings({k: v for k, v in data.items() if k != "act"})
        s = self.settings
        try:
            seed = parse_seed(s["seed"])
        except ValueError as exc:
            self.message = str(exc)
            return
        try:
            seats = seats_from_settings(s)
        except SeatProblem as exc:
            self.message = str(exc)
            return
        n = len(seats)
        bots = [i for i, seat in enumerate(seats) if seat["bot"]]
        if s["starts"] == "bot" and not bots:
            self.message = "No bot plays in this game: choose who starts again (You, or At random)."
            return
        first = {"person": 0, "bot": bots[0] if bots else 0, "random": "random"}[s["starts"]]
        self.game = new_game(players=n, seed=seed, first_player=first, variants=tuple(s["variants"]))
        self.seats = seats
        self.pass_play = PassPlay(seats, skip=s.get("skip_pass") and "open_reservations" in s["variants"])
        self.log = []
        self.actors = []
        self.screen = "game"
        self._reset_turn_ui()
        g = self.game
        opening = f"New game: {words.plural(n, 'player')}."
        if g.variants:
            opening += " Variants: " + words.join_words([VARIANT_NAMES[v].lower() for v in g.variants]) + "."
        self._note(opening)
        self._note(self._turn_start_words())
        self._game_started()
        self.save()

    # -- saving and loading ------------------------------------------------------------------------------------
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
        }

    def save(self):
        """Write the game to storage (after every action). A storage failure is told once, and play goes on."""
        if self.game is None:
            return
        g = self.game
        self.pass_play.after_move(g.current_player, len(g.history), g.is_over)
        self._after_change()  # the guide's advice, and a finished game counted in the player's record
        if self.save_blocked:
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
        g = Game(record["players"], record["seed"], record["first_player"], tuple(record.get("variants", [])))
        out = []
        for text in record["actions"]:
            out.append((g.current_player, g.phase))
            g.apply(parse_action(g, text))
        return out

    # -- log and notices ------------------------------------------------------------------------------------------
    def _note(self, text, kind="note"):
        n = len(self.game.history) if self.game else 0
        self.log.append({"n": n, "seat": None, "text": text, "why": "", "kind": kind})

    def _notice(self, kind, text):
        self.notices = [x for x in self.notices if x["kind"] != kind]
        self.notices.append({"kind": kind, "text": text})

    def on_dismiss(self, data):
        kind = data.get("kind")
        self.notices = [x for x in self.notices if x["kind"] != kind]

    def _turn_start_words(self):
        g = self.game
        if g.is_over:
            return ""
        seat = g.current_player
        if g.phase == "veto":
            return f"{self.log_name(seat)} {'remove' if self._you(seat) else 'removes'} a noble first."
        return "You start." if self._you(seat) else f"{self.name(seat)} starts."

    # -- applying actions -------------------------------------------------------------------------------------------
    def _apply(self, action, seat, why=""):
        """Apply ``action`` for ``seat`` through the rules and log it in words (with a bot's reason)."""
        g = self.game
        text = words.describe_move(g, action, self.log_name(seat), seat, person=self._you(seat))
        nobles_before = len(g.players[seat].nobles)
        final_before = g.final_round
        index_before = g.game_index
        phase_before = g.phase
        moves, dealt = self._motion_of(action, seat)
        g.apply(action)  # raises IllegalActionError, leaving the game unchanged
        self.actors.append((seat, phase_before))
        if dealt and g.market[dealt[0] - 1][dealt[1]] is not None:
            moves.append({"kind": "deal", "level": dealt[0], "slot": dealt[1]})
        if len(g.players[seat].nobles) > nobles_before:
            moves.append({"kind": "noble", "code": g.players[seat].nobles[-1].code, "to": seat})
        self.changes.extend(moves)
        n = len(g.history)
        self.log.append({"n": n, "seat": seat, "text": text, "why": why or "", "kind": "move"})
        if g.game_index != index_before:
            scores = g.series_results[-1]
            self._note(f"Game {index_before + 1} of {g.players_count} is over: "
                       + ", ".join(f"{self.log_name(i)} {s}" for i, s in enumerate(scores))
                       + f". Game {g.game_index + 1} begins: {self._turn_start_words()}")
            return
        p = g.players[seat]
        if len(p.nobles) > nobles_before:
            if action.kind != "noble":
                who = "You welcome" if self._you(seat) else f"{self.name(seat)} welcomes"
                self._note(f"{who} {words.noble_name(p.nobles[-1])} (3 points).")
            who = "A noble visits you" if self._you(seat) else f"A noble visits {self.name(seat)}"
            self._moment("noble", f"{who}: 3 points.")
        if g.final_round and not final_before:
            who = "You have" if self._you(seat) else f"{self.name(seat)} has"
            self._note(f"{who} {p.points} points: this is the final round, so everyone gets the same number of turns.")
            last = self._person_moves_again(seat)
            self._moment("final", f"{who} {p.points} points. Final round"
                         + (": your next turn is your last." if last else ": everyone has had the same turns."
                            if g.is_over else "."))
        if g.is_over:
            self._note(self.result_words())
            self._moment("end", self.result_words().replace("The game is over: ", "Game over: "))

    def _motion_of(self, action, seat):
        """What ``action`` (about to be applied) moves on the table, for the page's animations: tokens between the
        supply and a seat, a card from the market, a deck or a reserve to a seat; and the market place a new card
        will be dealt to, as (level, slot). Codes of hidden cards are never given (the page could show them)."""
        g = self.game
        k = action.kind
        moves, dealt = [], None
        if k in ("take", "take_two"):
            colors = list(action.colors) * (2 if k == "take_two" else 1)
            moves.append({"kind": "tokens", "colors": colors, "from": "supply", "to": seat})
        elif k == "return":
            moves.append({"kind": "tokens", "colors": [action.colors[0]], "from": seat, "to": "supply"})
        elif k in ("reserve", "buy"):
            card = action.card
            row = g.market[card.level - 1] if card is not None else ()
            if card is None:
                moves.append({"kind": "card", "from": "deck", "level": action.level, "to": seat})
            elif card in row:
                moves.append({"kind": "card", "code": card.code, "from": "market", "to": seat})
                dealt = (card.level, row.index(card))
            else:
                mine = seat == self.person or "open_reservations" in g.variants
                hidden = dict(zip(g.players[seat].reserved, g.players[seat].reserved_hidden)).get(card, False)
                moves.append({"kind": "card", "code": card.code if mine or not hidden else None, "from": "reserve",
                              "to": seat})
            if k == "reserve" and g.supply["gold"]:
                moves.append({"kind": "tokens", "colors": ["gold"], "from": "supply", "to": seat})
            if k == "buy":
                paid = [c for c, n in action.payment.items() for _ in range(n)]
                if paid:
                    moves.append({"kind": "tokens", "colors": paid, "from": seat, "to": "supply"})
        return moves, dealt

    def take_changes(self):
        """The moves applied since the last call, for the page to animate (then forgotten)."""
        out, self.changes = self.changes, []
        return out

    def _person_moves_again(self, seat):
        """Whether the person still has a turn in the round that ``seat`` has just played in."""
        g = self.game
        n = g.players_count
        return (self.solo and not g.is_over and seat != self.person
                and (self.person - g.start) % n > (seat - g.start) % n)

    def result_words(self):
        g = self.game
        winners = g.winners
        names = [self.log_name(i) for i in winners]
        if len(winners) > 1:
            text = f"The game is over: {words.join_words(names)} share the victory."
        elif self._you(winners[0]):
            text = "The game is over: you win!"
        else:
            text = f"The game is over: {names[0]} wins."
        if g.tie_break == "fewer cards":
            text += " The tie on points was broken by fewer bought cards."
        elif g.tie_break == "shared" and len(winners) > 1:
            text += " They tied on points and on the number of bought cards."
        return text

    # -- the person's input: gems ---------------------------------------------------------------------------------------
    def _refuse_unless_my_turn(self, phases=("action",)):
        g = self.game
        if g is None:
            return "Start a game first."
        if g.is_over:
            return "The game is over."
        if self.handover is not None:
            return f"Pass the device to {self.name(self.handover)} first."
        if g.current_player != self.person:
            return f"Wait: it is {self.name(g.current_player)}'s turn."
        if g.phase not in phases:
            return {
                "return": "First return tokens: you hold more than 10.",
                "noble": "First choose which noble visits you.",
                "veto": "First remove a noble: each player removes one before the game starts.",
                "action": "That is not possible now.",
            }[g.phase]
        return None

    def on_gem(self, data):
        color = data.get("color")
        g = self.game
        if g is not None and g.phase == "return" and g.current_player == self.person:
            self.on_return({"color": color})
            return
        reason = self._refuse_unless_my_turn()
        if reason:
            self.message = reason
            return
        self.flash = None
        self.selected = None
        self.confirming = None
        if color == "gold":
            self.message = "Gold cannot be taken: you get one when you reserve a card."
            return
        if color not in COLORS:
            self.message = "That is not a gem color."
            return
        supply = g.supply
        picked = self.picked
        if picked == [color, color]:
            self.picked = []
            self.message = ""
            return
        if color in picked:
            if picked == [color]:
                if supply[color] >= 4:
                    self.picked = [color, color]
                    self.message = ""
                else:
                    self.message = (f"Two {color} need at least 4 in the pile before taking, and it holds "
                                    f"{supply[color]}. Your {color} pick stays: tap it below to put it back.")
                return
            picked.remove(color)
            self.message = ""
            return
        if supply[color] == 0:
            self.message = f"The {color} pile is empty."
            return
        if len(picked) == 2 and picked[0] == picked[1]:
            self.message = (f"Taking two {picked[0]} is the whole action. Tap {picked[0]} again to clear it "
                            "first.")
            return
        if len(picked) >= 3:
            self.message = "Take at most three gems of different colors."
            return
        picked.append(color)
        self.message = ""

    def pick_action(self):
        """The take the staged gems make, or None when they do not make one yet."""
        p = self.picked
        if not p:
            return None
        if len(p) == 2 and p[0] == p[1]:
            return Action.take_two(p[0])
        return Action.take(*[c for c in COLORS if c in p])

    def pick_problem(self):
        """Why the staged gems are not a legal take yet (None when they are)."""
        a = self.pick_action()
        if a is None:
            return "Tap gems to take: three different colors, or the same color twice."
        reason = self.game.why_illegal(a)
        if reason is None:
            return None
        if a.kind == "take":
            avail = sum(1 for c in COLORS if self.game.supply[c])
            need = min(3, avail)
            if len(a.colors) < need:
                more = need - len(a.colors)
                return f"Pick {words.plural(more, 'more color')}: a take is {need} different colors" + (
                    " (or the same color twice where the pile holds 4 or more)." if need == 3 else
                    f", as only {avail} have tokens.")
        return reason[0].upper() + reason[1:] + "."

    def on_unpick(self, data):
        """Put back one staged gem (its chip in the action bar)."""
        color = data.get("color")
        if color in self.picked:
            self.picked.remove(color)
        self.message = ""

    def on_clear(self, data):
        self.picked = []
        self.returning = []
        self.staged = None
        self.message = ""

    def on_take(self, data):
        reason = self._refuse_unless_my_turn()
        if reason:
            self.message = reason
            return
        problem = self.pick_problem()
        if problem:
            self.message = problem
            return
        self._commit([self.pick_action()])

    # -- cards ---------------------------------------------------------------------------------------------------------
    def on_card(self, data):
        """Open the dialog of a market card, a reserved card or a deck."""
        g = self.game
        if g is None:
            return
        where = data.get("where")
        try:
            level = int(data.get("level", 0))
            slot = int(data.get("slot", data.get("index", 0)))
        except (TypeError, ValueError):
            return
        if where == "market":
            if not (1 <= level <= 3 and 0 <= slot < 4) or g.market[level - 1][slot] is None:
                return
            self.selected = {"where": "market", "level": level, "slot": slot,
                             "code": g.market[level - 1][slot].code}
        elif where == "reserved":
            mine = g.players[self.person].reserved
            if not 0 <= slot < len(mine):
                return
            self.selected = {"where": "reserved", "index": slot, "code": mine[slot].code}
        elif where == "deck":
            if not 1 <= level <= 3:
                return
            self.selected = {"where": "deck", "level": level}
        else:
            return
        self.gold_for = {}
        self.confirming = None
        self.flash = None
        self.message = ""

    def selected_card(self):
        s = self.selected
        if not s or s["where"] == "deck":
            return None
        return card_from_code(s["code"])

    def on_close(self, data):
        self.selected = None
        self.confirming = None
        self.gold_for = {}
        self.inspecting = None

    def on_inspect(self, data):
        """Open the full view of a player: every bought card by bonus, reserves, nobles, tokens."""
        try:
            seat = int(data.get("seat", -1))
        except (TypeError, ValueError):
            return
        if self.game is not None and 0 <= seat < self.game.players_count:
            self.selected = None
            self.confirming = None
            self.inspecting = seat

    def on_moment_ok(self, data):
        self.moment = None

    def _moment(self, kind, text):
        self.moment_serial += 1
        self.moment = {"kind": kind, "text": text, "n": self.moment_serial}

    def last_moves(self):
        """Each seat's latest turn in words (its log lines since its turn began, without the name), kept until
        that seat moves again: ``{seat: "Took white, blue and green."}``. Read from the log, so undo and reload
        keep it right."""
        out = {}
        prev = None
        for e in self.log:
            if e.get("kind") != "move" or e.get("seat") is None:
                continue
            seat = e["seat"]
            text = e["text"]
            name = self.log_name(seat) + " " if 0 <= seat < len(self.seats) else ""
            if name and text.startswith(name):
                text = text[len(name):]
            text = text[:1].upper() + text[1:]
            out[seat] = (out[seat] + " " + text) if prev == seat and seat in out else text
            prev = seat
        return out

    def buy_payment(self, card):
        """The tokens the person will pay for ``card``: own colors first, gold for the rest, then any gold the
        person chose to spend instead of a color. A dict over the six token colors."""
        g = self.game
        pay = g.default_payment(card, self.person)
        mine = g.players[self.person].tokens
        for color, n in self.gold_for.items():
            n = max(0, min(n, pay[color], mine["gold"] - pay["gold"]))
            pay[color] -= n
            pay["gold"] += n
        return pay

    def gold_swap_limits(self, card):
        """For each color: (gold now spent instead of it, whether one more gold can replace it)."""
        pay = self.buy_payment(card)
        spare = self.game.players[self.person].tokens["gold"] - pay["gold"]
        return {c: (self.gold_for.get(c, 0), pay[c] > 0 and spare > 0) for c in COLORS}

    def on_gold(self, data):
        """Spend one more (``step`` +1) or one fewer (-1) gold instead of ``color`` in the buy dialog."""
        card = self.selected_card()
        color = data.get("color")
        if card is None or color not in COLORS:
            return
        step = 1 if str(data.get("step", "1")) == "1" else -1
        now, more = self.gold_swap_limits(card)[color]
        if step > 0 and not more:
            self.message = f"No spare gold to pay instead of {color}."
            return
        self.gold_for[color] = max(0, now + step)
        self.confirming = None
        self.message = ""

    def buy_problem(self, card):
        reason = self._refuse_unless_my_turn()
        if reason:
            return reason
        g = self.game
        if not g.can_afford(card, self.person):
            price = g.price(card, self.person)
            mine = g.players[self.person].tokens
            short = sum(max(0, price[c] - mine[c]) for c in COLORS) - mine["gold"]
            return f"You are {words.plural(short, 'token')} short."
        why = g.why_illegal(Action.buy(card, self.buy_payment(card)))
        return (why[0].upper() + why[1:] + ".") if why else None

    def reserve_problem(self):
        reason = self._refuse_unless_my_turn()
        if reason:
            return reason
        s = self.selected
        g = self.game
        if s is None:
            return "Choose a card first."
        if s["where"] == "reserved":
            return "This card is already yours."
        if len(g.players[self.person].reserved) >= 3:
            return "You already hold 3 reserved cards: buy one to free a place."
        if s["where"] == "deck" and g.deck_sizes[s["level"] - 1] == 0:
            return f"The level {s['level']} deck is empty."
        return None

    def on_buy(self, data):
        card = self.selected_card()
        if card is None:
            return
        problem = self.buy_problem(card)
        if problem:
            self.message = problem
            return
        self._stage_or_commit([Action.buy(card, self.buy_payment(card))])

    def on_reserve(self, data):
        s = self.selected
        problem = self.reserve_problem()
        if problem:
            self.message = problem
            return
        action = Action.reserve(level=s["level"]) if s["where"] == "deck" else Action.reserve(self.selected_card())
        self._stage_or_commit([action])

    def _stage_or_commit(self, actions):
        if self.settings.get("confirm", True):
            self.confirming = actions
            self.message = ""
        else:
            self._commit(actions)

    def on_confirm(self, data):
        if self.confirming:
            self._commit(self.confirming)
        elif self.staged is not None:
            self._commit([self.staged])
        elif self.returning:
            self.on_give_back(data)
        elif self.picked:
            self.on_take(data)

    def on_cancel(self, data):
        """Step back: from the confirm step to the dialog, or clear what is staged."""
        if self.confirming:
            self.confirming = None
        else:
            self.on_close(data)
            self.on_clear(data)

    # -- end-of-turn choices -----------------------------------------------------------------------------------------
    def return_needed(self):
        g = self.game
        if g is None or g.phase != "return" or g.current_player != self.person:
            return 0
        return g.players[self.person].token_count - 10

    def on_return(self, data):
        """Stage one of the person's tokens to return (tap again on a staged one: see on_unreturn)."""
        color = data.get("color")
        reason = self._refuse_unless_my_turn(("return",))
        if reason:
            self.message = reason
            return
        mine = self.game.players[self.person].tokens
        need = self.return_needed()
        if color not in mine:
            return
        if self.returning.count(color) >= mine[color]:
            self.message = f"You hold no more {color} to return."
            return
        if len(self.returning) >= need:
            self.message = (f"Return exactly {words.plural(need, 'token')}. Tap a token in the list to take it "
                            "back.")
            return
        self.returning.append(color)
        self.message = ""

    def on_unreturn(self, data):
        color = data.get("color")
        if color in self.returning:
            self.returning.remove(color)
        self.message = ""

    def on_give_back(self, data):
        need = self.return_needed()
        if not need:
            return
        if len(self.returning) != need:
            self.message = f"Choose {words.plural(need - len(self.returning), 'more token')} to return."
            return
        self._commit([Action.return_token(c) for c in self.returning])

    def on_noble(self, data):
        """Tap a noble: welcome it (noble phase) or remove it (veto phase)."""
        g = self.game
        try:
            noble = noble_from_code(str(data.get("code", "")))
        except ValueError:
            return
        if g is None or g.is_over or g.current_player != self.person or g.phase not in ("noble", "veto"):
            if g is not None and not g.is_over:
                self.message = ("Nobles come by themselves at the end of a turn when your bonuses meet their "
                                "needs.") if g.phase == "action" else self._refuse_unless_my_turn(("noble", "veto"))
            return
        action = Action.choose_noble(noble) if g.phase == "noble" else Action.veto(noble)
        why = g.why_illegal(action)
        if why:
            self.message = why[0].upper() + why[1:] + "."
            return
        self.staged = action
        self.message = ""

    def on_pass(self, data):
        reason = self._refuse_unless_my_turn()
        if reason:
            self.message = reason
            return
        if self.game.why_illegal(Action.pass_turn()) is not None:
            self.message = "You can only pass when no other move is possible."
            return
        self._commit([Action.pass_turn()])

    def _commit(self, actions):
        """Apply the person's staged actions (all or none: the game is restored if one is refused)."""
        g = self.game
        done = 0
        self.moment = None
        try:
            for a in actions:
                self._apply(a, self.person)
                done += 1
        except IllegalActionError as exc:
            for _ in range(done):
                self._undo_one()
            self.changes = []
            self.message = str(exc)[:1].upper() + str(exc)[1:] + "."
            return
        self.picked = []
        self.returning = []
        self.staged = None
        self.selected = None
        self.confirming = None
        self.gold_for = {}
        self.message = ""
        self.hint = None
        self.hint_waiting = None
        self.save()

    def _undo_one(self):
        g = self.game
        g.undo()
        self.actors.pop()
        n = len(g.history)
        # An entry's "n" is the number of actions applied when it was written: keep what was said before.
        self.log = [e for e in self.log if e["n"] <= n or e["kind"] == "undo"]

    # -- undo --------------------------------------------------------------------------------------------------------
    def undo_target(self):
        """The number of actions to keep so that the person's last turn (and every bot move since) is undone."""
        if self.game is None or self.game.is_over:
            return None
        floor = self.pass_play.undo_floor()
        for k in range(len(self.actors) - 1, floor - 1, -1):
            seat, phase = self.actors[k]
            if seat == self.person and phase in ("action", "veto"):
                return k
        return None

    def can_undo(self):
        return self.undo_target() is not None

    def undo_off_words(self):
        """Why Undo is off, in words (None when it is on)."""
        if self.can_undo():
            return None
        g = self.game
        if g is None:
            return "Start a game first."
        if g.is_over:
            return "Undo is off: the game is over."
        if not self.solo and any(seat == self.person and phase in ("action", "veto")
                                 for seat, phase in self.actors):
            return self.pass_play.undo_off_words(self.name(self.person))
        return "There is no turn of yours to undo." if self.solo else (
            f"{self.name(self.person)} has no turn to undo yet.")

    def on_undo(self, data):
        k = self.undo_target()
        if k is None:
            self.message = self.undo_off_words()
            return
        g = self.game
        undone = g.history[k:]
        mine = [a for a, (seat, _) in zip(undone, self.actors[k:]) if seat == self.person]
        blind = any(a.kind == "reserve" and a.card is None for a in mine)
        while len(g.history) > k:
            self._undo_one()
        self._reset_turn_ui()
        who = "You" if self.solo else self.name(self.person)
        if blind:
            self._note(f"{who} took back a blind reserve after seeing the card: undo was used.", kind="undo")
        else:
            self._note(f"{who} took back {'your' if self.solo else 'their'} last turn.", kind="undo")
        self.info = "Your last turn was undone." if self.solo else f"{who}'s last turn was undone."
        self.save()

    def on_pass_ok(self, data):
        """The person the device was passed to taps: the table is theirs (undo cannot reach before now)."""
        if self.handover is None:
            return
        self.pass_play.take(len(self.game.history))
        self._reset_turn_ui()
        self.save()

    # -- bots ----------------------------------------------------------------------------------------------------------
    def bot_to_move(self):
        """The bot seat that must act now (None when it is the person's turn, or the game is over)."""
        g = self.game
        if g is None or g.is_over or self.screen != "game":
            return None
        seat = g.current_player
        return seat if self.seats[seat]["bot"] else None

    def bot_request(self, seat=None, level=None):
        """A JSON-able request for the bot to move (or, with ``seat`` = the person's, for a hint).

        Sets the turn id an answer must carry; any other answer is stale and dropped.
        """
        g = self.game
        hint = seat is not None
        seat = self.bot_to_move() if seat is None else seat
        if seat is None or g.current_player != seat:
            return None
        self.serial += 1
        level = level or ("hard" if hint else self.seats[seat]["bot"])
        turn_id = f"{self.serial}:{len(g.history)}:{seat}"
        request = {
            "turn_id": turn_id,
            "observation": g.observation(seat),
            "level": level,
            "seed": (g.seed * 1009 + len(g.history) * 31 + seat) % (2**31),
        }
        if self.bot_budget:  # else each level's own budget (splendor.ai.protocol.DEFAULT_BUDGETS)
            request["budget"] = self.bot_budget
        if hint:
            request["mode"] = "hint"
            self.hint_waiting = {"turn_id": turn_id, "moves": len(g.history)}
        else:
            self.awaiting = {"turn_id": turn_id, "seat": seat, "moves": len(g.history)}
        return request

    def bot_reply(self, reply):
        """Apply a bot's answer (dict or JSON text). Returns 'applied', 'stale' (dropped) or 'error: reason'."""
        if isinstance(reply, str):
            try:
                reply = json.loads(reply)
            except ValueError:
                return "error: the answer is not JSON"
        if not isinstance(reply, dict):
            return "error: the answer is not an object"
        wait = self.awaiting
        if wait is None or reply.get("turn_id") != wait["turn_id"]:
            return "stale"
        g = self.game
        seat = wait["seat"]
        if len(g.history) != wait["moves"] or g.current_player != seat:
            self.awaiting = None
            return "stale"
        if reply.get("error"):
            return f"error: {reply['error']}"
        try:
            action = parse_action(g, str(reply.get("action", "")))
            before = self._flash_of(action, seat)
            self._apply(action, seat, why=str(reply.get("explanation") or "")[:300])
        except (ValueError, KeyError, TypeError) as exc:
            return f"error: {exc}"
        self.awaiting = None
        self.flash = before
        self._check_selection()
        self.save()
        return "applied"

    def _check_selection(self):
        """Close the card dialog if a bot's move took that card from under the person's finger."""
        s = self.selected
        if not s or s["where"] == "deck":
            return
        g = self.game
        if s["where"] == "market":
            here = g.market[s["level"] - 1][s["slot"]]
            still = here is not None and here.code == s["code"]
        else:
            mine = g.players[self.person].reserved
            still = s["index"] < len(mine) and mine[s["index"]].code == s["code"]
        if not still:
            self.selected = None
            self.confirming = None
            self.gold_for = {}
            self.message = "The card you were looking at has left the market."

    def bot_failed(self):
        """Forget the request in flight (the page then asks the fallback bot)."""
        self.awaiting = None

    def _flash_of(self, action, seat):
        """What a bot's action touches, to highlight it briefly: piles, a market slot or a deck, the seat."""
        g = self.game
        flash = {"seat": seat, "kind": action.kind, "colors": list(action.colors), "slot": None, "deck": None,
                 "text": ""}
        if action.kind in ("buy", "reserve"):
            if action.card is None:
                flash["deck"] = action.level
            else:
                row = g.market[action.card.level - 1]
                if action.card in row:
                    flash["slot"] = [action.card.level, row.index(action.card)]
            if action.kind == "buy":
                flash["colors"] = [c for c, n in action.payment.items() if n]
            elif g.supply["gold"]:
                flash["colors"] = ["gold"]
        flash["text"] = words.describe_move(g, action, self.name(seat), seat)
        return flash

    # -- end of the game -------------------------------------------------------------------------------------------------
    def on_results(self, data):
        self.show_end = True

    def on_hide_end(self, data):
        self.show_end = False

    def on_again(self, data):
        """A new game with the same settings (a fresh deal unless the settings name a seed)."""
        self.on_start({})

    # -- hints -------------------------------------------------------------------------------------------------------
    def on_hint(self, data):
        """Ask for a hint: the page sends ``hint_request()`` to the bot worker."""
        reason = self._refuse_unless_my_turn(("action", "return", "noble", "veto"))
        if reason:
            self.message = reason
            return
        self.message = "Looking for a good move…"
        self.hint = None

    def hint_request(self):
        return self.bot_request(seat=self.person, level="hard")

    def hint_reply(self, reply):
        if isinstance(reply, str):
            try:
                reply = json.loads(reply)
            except ValueError:
                return "error"
        wait = self.hint_waiting
        if not isinstance(reply, dict) or wait is None or reply.get("turn_id") != wait["turn_id"]:
            return "stale"
        self.hint_waiting = None
        if len(self.game.history) != wait["moves"] or reply.get("error"):
            return "stale"
        try:
            action = parse_action(self.game, str(reply.get("action", "")))
        except ValueError:
            return "error"
        why = str(reply.get("explanation") or "")[:300]
        said = words.describe_pending(self.game, [action]) if action.kind != "return" else f"Return a {action.colors[0]}"
        self.hint = {"action": str(action), "text": f"Hint: {words.advice(why) or said}.", "why": why,
                     "colors": list(action.colors), "card": action.card.code if action.card else None}
        self.message = ""
        return "applied"
