"""Learning and sharing on the page: the How to play guide, the guided first game, deal links and the player's own
record, as a part of the page's state machine (``controller.App`` inherits ``LearnShare``).

Like the controller, this runs and is tested under plain CPython: the browser-only steps (the clipboard, a file
download, the address bar) are done by ``main.py`` with what these methods return.
"""

import json
import random

from ..records import deal_link
from .guide import PAGES as HOWTO_PAGES
from ..records.player_record import PlayerRecord
from .tutorial import GuideState


class LearnShare:
    """Mixed into ``controller.App``: state and ``on_*`` handlers for the guide, the guided game, links, the record."""

    def _learn_init(self, storage):
        self.howto = None  # the page of the How to play guide on show, or None when it is closed
        self.guide_state = GuideState(storage)
        self.guide_state.load()
        self.coach = None  # the guided game's advice for the position (a dict), or None
        self.coach_away = False  # "Got it" put the guide's words away for this position (its marks stay)
        self.player_record = PlayerRecord(storage, clock=self.clock)
        damaged = self.player_record.load()
        if damaged:
            self._notice("record", damaged)
        self.game_id = None
        self.link = None  # a deal link waiting for the person's choice (a game is in progress)
        self.link_note = ""  # what the link filled in, in words
        self.link_ignored = ""  # what the link had that was ignored, in words
        self.link_copy = None  # the end screen's "copy a link": {"url": ..., "state": "copying"|"copied"|"manual"}
        self.guide_fault = ""  # why the guide went quiet, if it ever failed (main.py logs it to the console)

    # -- the How to play guide ---------------------------------------------------------------------------------
    def on_howto(self, data):
        """Open the guide (on ``page`` when given)."""
        try:
            page = int(data.get("page", 0))
        except (TypeError, ValueError):
            page = 0
        self.howto = max(0, min(len(HOWTO_PAGES) - 1, page))

    def on_howto_page(self, data):
        self.on_howto(data)

    def on_howto_close(self, data):
        self.howto = None

    # -- the guided first game ---------------------------------------------------------------------------------
    @property
    def offer_guide(self):
        """True on a first visit: the guided game was never offered, and no game or record is kept here."""
        return (not self.guide_state.offered and self.game is None
                and not self.player_record.totals()["played"] and self.slot_empty())

    def slot_empty(self):
        try:
            return self.slot.read() is None
        except Exception:
            return False

    def on_guided_start(self, data):
        """Start a guided game with the new-game form's values (``data``)."""
        data = {k: v for k, v in (data or {}).items() if k != "act"}
        data["guided"] = True
        self.on_start(data)

    def on_guide_decline(self, data):
        self.guide_state.decline()

    def on_guide_stop(self, data):
        """Stop guiding this game (Hint stays; a later game can be guided from More options)."""
        self.guide_state.stop()
        self.coach = None
        self.message = "The guide is off for this game. Hint still suggests a move whenever you want one."

    def on_guide_away(self, data):
        """"Got it": the guide's words leave the table until the next position (the cards and gems it marks stay
        marked); the next turn's words come back on their own."""
        self.coach_away = bool(self.coach)

    def coach_words_shown(self):
        """True while the guide's words are on the table (not put away for this position)."""
        return bool(self.coach) and not self.coach_away

    def guided(self):
        return self.game_id is not None and self.guide_state.game == self.game_id

    # -- deal links ------------------------------------------------------------------------------------------------
    def open_link(self, pairs):
        """Read the page address's query ``pairs``. A link with a deal fills in the new-game screen, unless a game
        is in progress: then the person chooses first (continue it, or set up the linked deal). What the link has
        that cannot be used is said quietly (beside the form, or in the game's status line). Returns the parameter
        names main.py may drop from the address (the link has been taken in), or [] when none."""
        link = deal_link.parse(pairs)
        if link is None:
            return []
        names = [k for k, _ in pairs if k not in deal_link.QUIET_PARAMS]
        in_progress = self.game is not None and not self.game.is_over
        if not link.settings:  # nothing to set up: whatever is on show stays, quietly told
            if self.game is not None and self.screen == "game":
                self.message = link.ignored_words()
            else:
                self.link_ignored = link.ignored_words()
        elif in_progress:
            self.link = link
            self.screen = "setup"
        else:
            self._use_link(link)
        return names

    def _use_link(self, link):
        self.link = None
        s = link.settings
        if "opponents" in s:
            self.on_setting({"name": "opponents", "value": s["opponents"]})
        for i, level in enumerate(s.get("levels", [])):
            self.on_setting({"name": f"level{i}", "value": level})
        for i, name in enumerate(s.get("people", [])):  # pass and play: the people sit first
            self.on_setting({"name": "name" if i == 0 else f"pname{i - 1}", "value": name})
        if "starts" in s:
            self.on_setting({"name": "starts", "value": s["starts"]})
        if "variants" in s:
            for name in deal_link.VARIANTS:
                self.on_setting({"name": name, "value": name in s["variants"]})
        if "seed" in s:
            self.on_setting({"name": "seed", "value": s["seed"]})
        said = link.describe()
        self.link_note = (f"The link set up this deal: {said}. Press Start game to play it." if said else
                          "The link named no deal this page could use.")
        self.link_ignored = link.ignored_words()
        self.screen = "setup"

    def on_link_continue(self, data):
        """Keep playing the saved game; the link is dropped."""
        self.link = None
        if self.game is not None:
            self.screen = "game"

    def on_link_setup(self, data):
        """Fill the new-game screen from the link (the game in progress stays until a new one starts)."""
        if self.link is not None:
            self._use_link(self.link)

    def on_dismiss_link(self, data):
        self.link_note = ""
        self.link_ignored = ""

    def deal_url(self, base):
        """The link to this game's deal, on the page at ``base``."""
        return deal_link.link(base, self.game, self.seats)

    def on_copy_link(self, data):
        """The end screen's "Copy a link": main.py then tries the clipboard and calls ``link_copied``."""
        if self.game is None:
            return
        base = str(data.get("base") or "./")
        share = self.daily_share_text(base) if self.daily else ""
        self.link_copy = {"url": share or self.deal_url(base), "state": "copying", "share": bool(share)}

    def link_copied(self, ok):
        """The clipboard took the link (``ok``), or it must be copied by hand from a text field."""
        if self.link_copy is not None:
            self.link_copy["state"] = "copied" if ok else "manual"

    # -- the player's own record -----------------------------------------------------------------------------------
    def record_export(self):
        """(file name, JSON text) of the record, for main.py to download."""
        return "splendor-record.json", self.player_record.export_text()

    def on_export_record(self, data):
        """main.py makes the download; nothing changes here."""

    # -- hooks the controller calls ------------------------------------------------------------------------------
    def _game_started(self):
        """A new game has just been dealt (before its first save)."""
        self.game_id = f"{int(self.clock() * 1000):x}-{random.getrandbits(40):010x}"
        if self.settings.get("guided"):
            self.guide_state.begin(self.game_id)
            self.assisted.add(self.person)  # the guide points at moves: the game is assisted, as with hints
        elif not self.guide_state.offered:
            self.guide_state.decline()  # offered once: starting another game answers it
        self.settings["guided"] = False  # one guided game: "Play again" is not guided
        self.coach = None
        self.link = None
        self.link_note = ""
        self.link_ignored = ""
        self.link_copy = None
        self.howto = None

    def _game_restored(self, data):
        """A saved game has just been read back (``data``: the parsed save)."""
        gid = data.get("id")
        if isinstance(gid, str) and 0 < len(gid) <= 64 and all(c.isalnum() or c in "-_.:" for c in gid):
            self.game_id = gid
        else:  # a save from before games had ids: the same save always gets the same id
            import hashlib  # here, not at the top: rarely needed, and every import slows the page's start

            text = json.dumps(data.get("record"), sort_keys=True) + json.dumps(data.get("seats"), sort_keys=True)
            self.game_id = "s-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
        self.link_copy = None
        self._after_change()

    def _after_change(self):
        """After every change of the position (a move, undo, a new or restored game): the guide's advice, and a
        finished game counted in the record (once)."""
        g = self.game
        if g is None:
            self.coach = None
            return
        try:
            advice = self.guide_state.follow(g, self.person, self.game_id) if self.guided() else None
        except Exception as exc:  # the guide must never cost a move or a save: it goes quiet instead
            advice = None
            self.guide_fault = f"{type(exc).__name__}: {exc}"
        self.coach = advice.to_dict() if advice is not None else None
        self.coach_away = False  # (a new position: its words are shown)
        if g.is_over:  # once for each person who played (pass and play: one game each)
            several = len(self.pass_play.people) > 1
            owner = self.pass_play.people[0] if several else self.person
            for seat in self.pass_play.people if several else [self.person]:
                # The rating is one player's: the first person's (the one who plays alone, or Player 1 in pass and
                # play), against the bot seats only; the other people's games are counted, not rated.
                self.player_record.count(g, self.seats, self.game_id if seat == owner else f"{self.game_id}.p{seat}",
                                         seat, rated=seat == owner and not self.unrated,
                                         assisted=seat in self.assisted)
            self._keep_finished()  # for the record's list of finished games, and their reviews
            self._daily_over()  # a scored daily deal's result, in the record
