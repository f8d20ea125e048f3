"""The page's state machine, free of the browser: settings, selections, staged moves, bots' turns, undo, log, saving.

The page is a projection of this object (``view.render(app)``); a click on an element with ``data-act`` becomes
``app.act(name, data)``; bots' turns go out as JSON requests (``app.bot_request()``) and come back through
``app.bot_reply(reply)``. Everything here runs and is tested under plain CPython.

>>> from splendor.web.records.storage import MemoryStorage
>>> app = App(MemoryStorage())
>>> app.screen
'setup'
>>> app.act("start", {})
>>> app.screen, len(app.seats)
('game', 2)
"""

import json
import time

from ..engine import Action, IllegalActionError, new_game, parse_action
from .table import words
from .learn.learn import LearnShare
from .table.pass_play import PassPlay
from .records.saving import DEFAULT_SETTINGS, SAVE_FORMAT, SAVE_VERSION, Saving  # noqa: F401 (re-exported)
from .table.seats import BOT_NAMES, LEVELS, MAX_NAME, STARTS, VARIANT_NAMES, clean_name  # noqa: F401 (re-exported)
from .table.seats import PERSON, SeatProblem, seats_from_settings
from .table.staging import Staging
from .records.storage import SaveSlot
from .puzzles.state import PuzzleState
from .review.state import ReviewState
from .table.table_news import TableNews


def parse_seed(text):
    """'' -> None (a fresh random deal); '4711' -> 4711; anything else raises ValueError with words."""
    text = (text or "").strip() if isinstance(text, str) else str(text)
    if not text:
        return None
    if not text.isdigit() or len(text) > 12:
        raise ValueError("The seed is a whole number (up to 12 digits), or empty for a random deal.")
    return int(text)


class App(Staging, TableNews, Saving, LearnShare, ReviewState, PuzzleState):
    """Everything the page shows and does, as plain data and methods. This class is the game's flow (setup, applying
    moves, undo, bots' turns, hints, the end); the other concerns are its parts: building the person's move
    (``staging.Staging``), what the table shows of the moves (``table_news.TableNews``: last moves, moments, the
    full view of a player, what to animate), saving and loading (``saving.Saving``), and the guide, the guided game,
    deal links and the player's record (``learn.LearnShare``).

    A game in which a person asked for a hint, took back a move or was guided is *assisted* for that person
    (``assisted``, saved with the game): it is counted in their record as such and does not move their rating."""

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
        # The page shows each move before what follows it (main.py sets this): the status names the bot whose
        # pieces fly (``showing``), the hand-over screen and the results wait until it has been seen (``end_held``).
        # Off, as under CPython and in most tests of the controller, what follows a move comes with it.
        self.paced = False
        self.serial = 0
        self.pass_play = PassPlay([{"name": "You", "bot": None}])
        # The people's seats that were helped in this game (a hint, an undo, the guided game): their result is
        # counted as assisted and does not move their rating. Kept in the save, so a reload does not forget it.
        self.assisted = set()
        self.unrated = False  # a game opened from a file: who played it, and with what help, is not known
        self.daily = None  # a game of the daily deal: {"day", "level", "scored"} (puzzles/state.py on_daily)
        self._reset_turn_ui()
        self._learn_init(storage)
        self._review_init(storage)
        self._puzzle_init()

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
        self.moment = None  # {"kind": "noble"|"final", "text", "n": serial, "seat": whom it is about}, said briefly
        self.moment_serial = 0
        self.changes = []  # what the last applied moves moved, for the page's animations (see motion_changes)
        # The move whose pieces are on their way, named by the status until the page has shown it (main.py clears
        # it): {"seat", "text"}. A bot's move, and the move that ends the game.
        self.showing = None
        self.end_held = False  # the game is over, and the results wait until its last move has been seen

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
                and not self.seats[g.current_player]["bot"] and (self.puzzle is None or self.puzzle_open()))

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
        self.showing = None  # the person acts: the status is theirs again
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
        elif field == "pace":
            if value in ("normal", "fast"):
                s["pace"] = value
        elif field == "guided":
            s["guided"] = value in (True, "true", "on", "1", 1)
        elif field == "daily_level":
            if value in LEVELS:
                s["daily_level"] = value

    def on_use_level(self, data):
        """The rating's suggestion, in one tap: every bot seat of the form plays ``data["level"]`` (people's seats
        stay people)."""
        level = data.get("level")
        if level not in LEVELS:
            return
        s = self.settings
        for i in range(s["opponents"]):
            if s["levels"][i] != PERSON:
                s["levels"][i] = level

    def on_pace(self, data):
        """The table's Bot speed switch: how long each bot's move is shown, from the next move on (saved with the
        game, and the new-game form's choice for the next one)."""
        if data.get("value") in ("normal", "fast"):
            self.settings["pace"] = data["value"]
            self.save()

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
        bots = [i for i, seat in enumerate(seats) if seat["bot"]]
        if s["starts"] == "bot" and not bots:
            self.message = "No bot plays in this game: choose who starts again (Player 1, or At random)."
            return
        first = {"person": 0, "bot": bots[0] if bots else 0, "random": "random"}[s["starts"]]
        self.daily = None
        self._deal(seats, seed, first, tuple(s["variants"]),
                   skip=s.get("skip_pass") and "open_reservations" in s["variants"])

    def _deal(self, seats, seed, first, variants=(), skip=False, opening="", unrated=False):
        """Deal a new game for ``seats`` and show it (the new game's log, id, save)."""
        n = len(seats)
        self.game = new_game(players=n, seed=seed, first_player=first, variants=variants)
        self.seats = seats
        self.assisted = set()
        self.unrated = unrated
        self.pass_play = PassPlay(seats, skip=skip)
        self.log = []
        self.actors = []
        self.screen = "game"
        self._reset_turn_ui()
        g = self.game
        opening = opening or f"New game: {words.plural(n, 'player')}."
        if g.variants:
            opening += " Variants: " + words.join_words([VARIANT_NAMES[v].lower() for v in g.variants]) + "."
        self._note(opening)
        self._note(self._turn_start_words())
        self._game_started()
        self.save()

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

    def on_dismiss_fallback(self, data):
        """The note that the bots play on the page's own thread was read: it gives the table its room back."""
        self.fallback_note = ""

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
        if why and "which starts the final round" in why and (final_before or g.is_over):
            # (the bot's sentence is written before its move: a round's last move that reaches 15 ends the game,
            # and a player who reaches 15 after another did starts nothing)
            why = why.replace("which starts the final round", "which ends the game" if g.is_over
                              else "in the final round")
        self.log.append({"n": n, "seat": seat, "text": text, "why": why or "", "kind": "move"})
        if action.kind == "return":  # a run of returns is told in one line (view.log_list)
            self.log[-1]["returned"] = action.colors[0]
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
            self._moment("noble", f"{who}: 3 points.", seat)
        if g.final_round and not final_before:
            who = "You have" if self._you(seat) else f"{self.name(seat)} has"
            if not g.is_over:  # (a round's last move that reaches 15 ends the game: the result says the rest)
                self._note(f"{who} {p.points} points: this is the final round, so everyone gets the same number of "
                           "turns.")
            last = self._person_moves_again(seat)
            # The same words as the status: the person who plays right now is told "this is your last turn".
            now = last and g.current_player == self.person
            self._moment("final", f"{who} {p.points} points. Final round"
                         + (": this is your last turn." if now else ": your next turn is your last." if last
                            else ": everyone has had the same turns." if g.is_over else "."), seat)
        if g.is_over:
            self._note(self.result_words())
            if self.moment and self.moment["kind"] == "final":
                self.moment = None  # the results say it all (a noble won by the last move is still said)
            if self.paced:
                self.end_held = True
                self.showing = {"seat": seat, "text": words.short_move(action, self.log_name(seat))}

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

    # -- making the person's staged move final ----------------------------------------------------------------------
    def _commit(self, actions):
        """Apply the person's staged actions (all or none: the game is restored if one is refused)."""
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
        self._puzzle_after_commit()
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
        return self.puzzle is None and self.undo_target() is not None

    def undo_off_words(self):
        """Why Undo is off, in words (None when it is on)."""
        if self.puzzle is not None:
            return "A puzzle's move is final: the next puzzle is another chance."
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
        self.assisted.add(self.person)  # a move taken back: the game no longer rates the person's own play
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
        if g is None or g.is_over or self.screen != "game" or self.pass_play.pending is not None:
            return None  # (pass and play: the bots play once the next person has taken the device)
        if self.puzzle is not None:
            return None  # (a puzzle's bots never move: the puzzle is one move of the person's)
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
            "observation": (self._returns_staged() if hint else g).observation(seat),
            "level": level,
            "seed": (g.seed * 1009 + len(g.history) * 31 + seat) % (2**31),
        }
        if self.bot_budget and not hint:  # else each level's own budget (splendor.ai.protocol.default_budget); the
            request["budget"] = self.bot_budget  # hint keeps its own (HINT_BUDGET): the review judges it as deeply
        if hint:
            request["mode"] = "hint"
            self.hint_waiting = {"turn_id": turn_id, "moves": len(g.history), "returning": list(self.returning)}
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
        if self.paced and not g.is_over:
            self.showing = {"seat": seat, "text": before["short"]}
        self._check_selection()
        self.save()
        return "applied"

    def bot_failed(self):
        """Forget the request in flight (the page then asks the fallback bot)."""
        self.awaiting = None

    # -- end of the game ---------------------------------------------------------------------------------------------
    def on_results(self, data):
        self.show_end = True

    def on_hide_end(self, data):
        self.show_end = False

    def on_again(self, data):
        """A new game with the same settings (a fresh deal unless the settings name a seed); after the daily deal,
        the day's deal again (practice)."""
        if self.daily:
            self.on_daily({})
            return
        self.on_start({})

    # -- hints -------------------------------------------------------------------------------------------------------
    def _weighed(self, weighed, action):
        """The moves the expert weighed, from the hint's answer: ``{"chance": the hinted move's chance, "others":
        [(a few words of another move, its chance)] by their chance}``, or None without them (or when the list does
        not start with the hinted move, or names a move that is not legal)."""
        said = []
        for k, item in enumerate(weighed if isinstance(weighed, list) else []):
            try:
                move = parse_action(self.game, str(item["action"]))
                chance = float(item["chance"])
            except (ValueError, KeyError, TypeError):
                return None
            if not 0 <= chance <= 1 or (k == 0 and str(move) != str(action)):
                return None
            said.append((move, chance))
        if not said:
            return None
        labels = [words.move_label(m) for m, _ in said]  # two moves that read the same are told apart by price
        said = [(words.move_label(m, priced=labels.count(label) > 1), c) for (m, c), label in zip(said, labels)]
        return {"chance": said[0][1], "others": sorted(said[1:], key=lambda t: -t[1])}

    def on_hint(self, data):
        """Ask for a hint: the page sends ``hint_request()`` to the bot worker. While tokens are given back, the hint
        is for the tokens still to choose (those staged already count as returned)."""
        reason = self._refuse_unless_my_turn(("action", "return", "noble", "veto"))
        if self.puzzle is not None:
            reason = "A puzzle has no hint: the result tells the best move and why, once you have played yours."
        if reason:
            self.message = reason
            return
        if self.game.phase == "return" and len(self.returning) >= self.return_needed():
            self.message = "Your tokens to give back are chosen: press Give back, or tap one to take it back."
            return
        self.message = "Looking for a good move…"
        self.hint = None
        if self.person not in self.assisted:  # asked, whatever comes of it: the game is assisted from now on
            self.assisted.add(self.person)
            self.write_save()

    def hint_request(self):
        return self.bot_request(seat=self.person, level="expert")

    def _returns_staged(self):
        """The game as the person's hint sees it: while giving tokens back, with the returns already staged made
        (a copy; the game itself waits for Give back), so that the hint is about the tokens still to choose."""
        g = self.game
        if g.phase != "return" or not self.returning:
            return g
        view = g.copy()
        for color in self.returning:
            view.apply(Action.return_token(color))
        return view

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
        if (len(self.game.history) != wait["moves"] or reply.get("error")
                or wait.get("returning", []) != self.returning):  # (the staged returns changed since it was asked)
            return "stale"
        try:
            action = parse_action(self.game, str(reply.get("action", "")))
        except ValueError:
            return "error"
        why = str(reply.get("explanation") or "")[:300]
        said = (words.describe_pending(self.game, [action]) if action.kind != "return"
                else f"Return a {action.colors[0]}")
        advice = words.advice(why) or said
        short = f"Hint: {words.on_phone(advice, action.card)}."
        if action.kind in ("noble", "veto"):  # (phones: one line, so the Welcome button keeps its place; the noble
            short = f"Hint: {'welcome' if action.kind == 'noble' else 'remove'} the marked noble."  # is marked)
        self.hint = {"action": str(action), "text": f"Hint: {advice}.", "why": why, "short": short,
                     "colors": list(action.colors), "card": action.card.code if action.card else None,
                     "weighed": self._weighed(reply.get("weighed"), action)}
        self.message = ""
        return "applied"
