"""Pass and play: several people at one device, with the hand-over between their turns.

The state is small and saved with the game:

* ``viewer`` - the person (seat) who holds the device and whose point of view the table shows (their own hidden
  reserved cards face up, everyone else's as backs); None before the first person took the table.
* ``pending`` - the person the device must be passed to: the table is hidden behind "Pass to Ana" until that
  person taps. Only when more than one person plays.
* ``since`` - the number of moves when the viewer took the table: undo never goes back before it (a turn
  played before a hand-over showed the table to someone else stays played).
* ``skip`` - with the open-reservations variant nothing is hidden, so the people may choose to play without the
  hand-over screen.

>>> seats = [{"name": "Ana", "bot": None}, {"name": "Bot 1", "bot": "easy"}, {"name": "Ben", "bot": None}]
>>> p = PassPlay(seats)
>>> p.after_move(current=0, moves=0, over=False)   # Ana starts: the device goes to Ana first
>>> p.pending, p.viewer
(0, None)
>>> p.take(moves=0); p.viewer, p.pending, p.since
(0, None, 0)
>>> p.after_move(current=1, moves=1, over=False)   # the bot plays next, then Ben: the device goes to Ben now
>>> p.pending
2
>>> p.take(moves=1); p.viewer                      # Ben sees the bot's move played, then plays
2
>>> p.after_move(current=2, moves=2, over=False); p.pending is None
True
"""

from .seats import people


class PassPlay:
    def __init__(self, seats, skip=False):
        self.people = people(seats)
        self.names = [s["name"] for s in seats]
        self.several = len(self.people) > 1
        self.skip = bool(skip) and self.several
        self.viewer = None if self.several else (self.people[0] if self.people else None)
        self.pending = None
        self.since = 0

    # -- the states -------------------------------------------------------------------------------------------
    def person(self, current):
        """The seat whose point of view the table shows."""
        if self.viewer is not None:
            return self.viewer
        return current if current in self.people else (self.people[0] if self.people else 0)

    def next_person(self, current):
        """The first person to play from seat ``current`` on (the bots before them play first)."""
        n = len(self.names)
        return next((s for k in range(n) for s in [(current + k) % n] if s in self.people), None)

    def after_move(self, current, moves, over):
        """After every change of the position: a person other than the viewer plays next, after the bots whose
        turns come first -> hand over now, before those bots play, so that the person who takes the device sees
        their moves played on the table (or, with ``skip``, they simply take the table)."""
        upcoming = None if over or not self.several else self.next_person(current)
        if upcoming is None or upcoming == self.viewer:
            self.pending = None
            return
        if self.skip:
            self.take(moves, upcoming)
        else:
            self.pending = upcoming

    def take(self, moves, seat=None):
        """The person the device was passed to taps: they see the table; undo cannot go back before now."""
        seat = self.pending if seat is None else seat
        if seat is None:
            return
        self.viewer = seat
        self.pending = None
        self.since = moves

    def undo_floor(self):
        return self.since if self.several else 0

    # -- saving ---------------------------------------------------------------------------------------------------
    def to_save(self):
        return {"viewer": self.viewer, "pending": self.pending, "since": self.since, "skip": self.skip}

    def restore(self, data, players, moves):
        """Read the saved state back (checked; a missing one - an older save - means one person at seat 0)."""
        if data is None:
            return
        if not isinstance(data, dict):
            raise ValueError("its hand-over state is not an object")
        viewer, pending, since = data.get("viewer"), data.get("pending"), data.get("since", 0)
        for value, what in ((viewer, "viewer"), (pending, "person to pass to")):
            if value is not None and (isinstance(value, bool) or value not in self.people):
                raise ValueError(f"its hand-over {what} is not a person of the game")
        if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= moves:
            raise ValueError("its hand-over move count does not fit the game")
        if self.several:
            self.viewer, self.pending, self.since = viewer, pending, since
            self.skip = bool(data.get("skip"))

    # -- words ------------------------------------------------------------------------------------------------------
    def undo_off_words(self, viewer_name):
        return (f"Undo is off: the table has been passed on since {viewer_name}'s last turn, and undo never takes "
                "back a turn someone else has seen.")
