"""Puzzles as a part of the page's state machine (``controller.App`` inherits ``PuzzleState``).

A puzzle is shown as the table shows a game: the position replayed by the engine from the puzzle's deal, the person
in the puzzle's seat ("You"), the other seats bots that never move (their last moves on their panels, the log
telling the game so far). The person makes one move by the same taps as in a game; its first action is the answer
(a take's returns and a noble's choice that may follow it are not asked for): right when it is the puzzle's answer
(the same move up to the payment of a buy), and the result says so with the expert's reason and both moves' chances.

The game in progress, its save and its log are kept aside while puzzles are on show and come back when the person
leaves them (``save`` writes nothing meanwhile: a puzzle is never saved over a game).

Modes: ``"rated"`` (the next puzzle near the person's puzzle rating, each first try rated), ``"streak"`` (puzzles in
rising rating, ending at the first miss; the best streak kept) and ``"daily"`` (the puzzle of the day, one a day,
the same for everyone). The pool is loaded by the page the first time puzzles are opened (``main.py`` fetches
``assets/puzzles.jsonl`` and calls :meth:`PuzzleState.pool_loaded`).
"""

import random

from ...engine import new_game, parse_action
from ..table import words
from ..table.seats import LEVEL_LABEL, clean_name
from . import daily
from .pool import Pool, day_of

MODES = ("rated", "streak", "daily")
#: What the page fetches the first time puzzles are opened (and the service worker keeps afterwards).
POOL_URL = "assets/puzzles.jsonl"


def same_move(a, b):
    """The same move up to the payment of a buy (and the order a take names its colours in)."""
    if a.kind != b.kind:
        return False
    if a.kind in ("take", "take_two", "return"):
        return sorted(a.colors) == sorted(b.colors)
    if a.card is not None or b.card is not None:
        return a.card is not None and b.card is not None and a.card.code == b.card.code
    return a.level == b.level


class PuzzleState:
    """Mixed into ``controller.App``: the ``on_puzzle*`` handlers and the puzzle on show (``self.puzzle``)."""

    def _puzzle_init(self):
        self.puzzle = None  # the puzzle on show: see _open_puzzle
        self.pool = None  # the Pool, once the page has loaded it
        self.pool_wanted = None  # the mode asked for while the pool loads
        self.pool_problem = ""  # why the pool could not be loaded, in words
        self._kept_game = None  # the game in progress while puzzles are on show
        # The person's calendar day ("2026-12-07"): the page sets the browser's (its clock and time zone); here UTC.
        self.today = lambda: day_of(self.clock())

    # -- opening -----------------------------------------------------------------------------------------------
    def on_puzzles(self, data):
        """Open puzzles in ``data["mode"]`` (``rated`` by default). Before the pool is loaded this only asks the
        page for it (``pool_wanted``); :meth:`pool_loaded` opens the puzzle."""
        mode = data.get("mode") if data.get("mode") in MODES else "rated"
        if self.pool is None or not len(self.pool):
            self.pool_wanted = mode
            self.pool_problem = ""
            return
        self._next_puzzle(mode)

    def pool_loaded(self, text, problem=""):
        """The page fetched the pool (``text``), or could not (``problem``, in words)."""
        mode, self.pool_wanted = self.pool_wanted or "rated", None
        if text is None:
            self.pool_problem = problem or "The puzzles could not be loaded."
            self.message = self.pool_problem
            return
        pool = Pool.parse(text)
        if not len(pool):
            self.pool_problem = "The puzzle file holds no puzzle this page can read."
            self.message = self.pool_problem
            return
        self.pool = pool
        self.pool_problem = ""
        self._next_puzzle(mode)

    def _next_puzzle(self, mode, streak=None):
        pool = self.pool
        part = self.player_record.data["puzzles"]
        if mode == "daily":
            p = pool.of_the_day(self.today())
        elif mode == "streak":
            streak = streak or {"count": 0, "done": [], "last": None}
            p = pool.rising(streak["last"], streak["done"])
            if p is None:  # every puzzle of the pool solved in one streak: it ends as a perfect one
                self.message = f"Streak complete: all {len(pool)} puzzles solved in a row."
                self.on_puzzle_leave({})
                return
        else:
            p = pool.near(self.player_record.puzzle_rating().rating, part["seen"],
                          random.Random(f"{self.clock()}:{part['tried']}"))
        self._open_puzzle(p, mode, streak)

    def _open_puzzle(self, p, mode, streak=None):
        """Show puzzle ``p``: the position replayed from its deal, the person in its seat."""
        if self.puzzle is None:
            self._kept_game = (self.game, self.seats, self.log, self.actors, self.pass_play, self.assisted,
                               self.unrated, self.game_id, self.screen, self.coach, self.daily)
        from ..table.pass_play import PassPlay
        game = new_game(players=p["players"], seed=p["seed"])
        bots = iter(range(1, p["players"]))
        self.seats = [{"name": "You", "bot": None} if s == p["seat"] else {"name": f"Bot {next(bots)}", "bot": "expert"}
                      for s in range(p["players"])]
        self.pass_play = PassPlay(self.seats)
        self.game = game
        self.log = []
        self.actors = []
        self.assisted = set()
        self.unrated = True
        self.coach = None
        self.daily = None
        self._reset_turn_ui()
        self._note(f"Puzzle {p['id']}: the game so far.")
        for text in p["actions"]:
            self._apply(parse_action(game, text), game.current_player)
        self._reset_turn_ui()  # (what the replay moved is not news: nothing flies, no moment is said)
        self.changes = []
        # The answer and the judged moves read once, in the position itself (the result compares with them)
        answer = parse_action(game, p["answer"])
        judged = []
        for text, pct in p["chances"]:
            try:
                judged.append((parse_action(game, text), pct))
            except ValueError:
                continue
        points = ", ".join(f"{self.seats[i]['name']} {game.players[i].points}" for i in range(game.n))
        final = " The final round is on." if game.final_round else ""
        self._note(f"Your move: find the best one. Points: {points}.{final}")
        self.puzzle = {"p": p, "mode": mode, "start": len(game.history), "result": None, "shown": True,
                       "streak": streak if mode == "streak" else None, "answer": answer, "judged": judged}
        self.screen = "game"

    # -- the answer --------------------------------------------------------------------------------------------
    def puzzle_open(self):
        """The puzzle waits for the person's move."""
        return self.puzzle is not None and self.puzzle["result"] is None

    def _puzzle_after_commit(self):
        """After the person's move was applied: the first action of the puzzle's turn is the answer."""
        pz = self.puzzle
        if pz is None or pz["result"] is not None or len(self.game.history) <= pz["start"]:
            return
        p, answer = pz["p"], pz["answer"]
        played = self.game.history[pz["start"]]
        solved = same_move(played, answer)
        yours = next((pct for a, pct in pz["judged"] if same_move(a, played)), None)
        best = next((pct for a, pct in pz["judged"] if same_move(a, answer)), None)
        streak = pz["streak"]
        if streak is not None:
            streak = {"count": streak["count"] + 1 if solved else streak["count"],
                      "done": streak["done"] + [p["id"]], "last": p["rating"]}
            pz["streak"] = streak
        change = self.player_record.count_puzzle(p["id"], p["rating"], solved,
                                                 streak["count"] if streak is not None else 0)
        pz["result"] = {"solved": solved, "played": words.move_label(played, priced=True),
                        "answer": words.move_label(answer, priced=True), "yours": yours, "best": best,
                        "change": change}

    # -- after the answer --------------------------------------------------------------------------------------
    def on_puzzle_next(self, data):
        """The next puzzle of the same mode (a streak missed starts again at the easiest)."""
        pz = self.puzzle
        if pz is None or self.pool is None:
            return
        streak = pz["streak"] if pz["mode"] == "streak" and pz["result"] and pz["result"]["solved"] else None
        self._next_puzzle("rated" if pz["mode"] == "daily" else pz["mode"], streak)

    def on_puzzle_table(self, data):
        """Put the result away to look at the table (``data["show"]`` brings it back)."""
        if self.puzzle is not None:
            self.puzzle["shown"] = bool(data.get("show"))

    def on_puzzle_leave(self, data):
        """Back to the first screen, the game in progress (if any) restored as it was."""
        if self.puzzle is None and self._kept_game is None:
            return
        kept = self._kept_game
        self.puzzle = None
        self._kept_game = None
        self._reset_turn_ui()
        self.changes = []
        if kept is not None:
            (self.game, self.seats, self.log, self.actors, self.pass_play, self.assisted, self.unrated,
             self.game_id, _screen, self.coach, self.daily) = kept
        self.screen = "setup"

    # -- the daily deal ----------------------------------------------------------------------------------------
    def on_daily(self, data):
        """Play the day's deal (:mod:`.daily`) against the level chosen beside it: the first game of the day is
        scored (in the record from its start); any later one is practice, unscored and unrated."""
        if data and "daily_level" in data:
            self.on_setting({"name": "daily_level", "value": data["daily_level"]})
        if self.puzzle is not None:
            self.on_puzzle_leave({})
        day = self.today()
        level = self.settings.get("daily_level", "expert")
        scored = self.player_record.daily_entry(day) is None
        seats = [{"name": clean_name(self.settings.get("name"), "You"), "bot": None}, {"name": "Bot 1", "bot": level}]
        self.daily = {"day": day, "level": level, "scored": scored}
        opening = (f"Daily deal of {day} against {LEVEL_LABEL.get(level, level)}: "
                   + ("scored, your one game of the day." if scored else "practice, not scored."))
        if scored:
            self.player_record.daily_started(day, level)
        self._deal(seats, daily.daily_seed(day), daily.daily_first(day), opening=opening, unrated=not scored)

    def _daily_over(self):
        """The game is over: a scored daily deal's result goes in the record (once)."""
        d = self.daily
        if d is not None and d["scored"] and self.game is not None and self.game.is_over:
            self.player_record.daily_finished(d["day"], self.game, self.person)

    def daily_share_text(self, base):
        """What "Share the result" copies: the day and the result, never the moves."""
        d = self.daily
        row = self.player_record.daily_entry(d["day"]) if d else None
        if row is None or row["state"] == "started":
            return ""
        said = {"won": "won", "lost": "lost", "shared": "shared the win"}[row["state"]]
        run = self.player_record.daily_streak(d["day"])
        streak = f" Streak: {words.plural(run, 'day')} won in a row." if run > 1 else ""
        return (f"Splendor, daily deal of {d['day']}: I {said} {row['you']}-{row['bot']} against the "
                f"{LEVEL_LABEL.get(row['level'], row['level'])} bot.{streak} {base}")
