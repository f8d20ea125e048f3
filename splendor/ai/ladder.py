"""The ladder: the levels a person plays, weakest first, each defined by counts (never seconds), and their ratings.

The bottom rungs are the hand-written easy and medium bots; every other rung is the expert's own network and search
made weaker (:mod:`splendor.ai.weakened`): the network's prior sampled at a temperature, then the same PUCT search
as the expert's with fewer simulations, up to the expert itself. A level is its counts, so its strength does not move
with a machine's load; in the browser a cap on a move's time (:data:`CAP_SECONDS`) only cuts a search short on a
device too slow for its counts.

The ratings are measured, not set: ``python -m splendor levels --measure`` plays a round robin at two players
(adjacent rungs and rungs two apart, seats alternating) and fits one Elo scale to every game by maximum likelihood
(Bradley-Terry), medium fixed at 1000; it writes them into ``ladder.json`` beside this module, which the page reads
for the new-game screen and the player's own rating. ``python -m splendor levels`` prints the table.

>>> [level.name for level in LADDER][:5]
['beginner', 'easy', 'casual', 'medium', 'skilled']
>>> find("expert").budget(2).iterations, find("expert").budget(4).iterations
(1500, 250)
"""

import json
import math
import os

from .budget import Budget

#: The longest a searching level thinks in the browser (seconds), whatever its counts: the expert's 1,500
#: simulations take about 0.5 s in Pyodide on a laptop, so the cap binds only on devices three times slower.
CAP_SECONDS = 1.5
#: Where the measured ratings are kept (written by ``python -m splendor levels --measure``).
RATINGS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ladder.json")
#: The rung whose rating is fixed, and its rating: the scale's zero.
ANCHOR = ("medium", 1000)


class Level:
    """One rung: ``name`` (what saves, links and the worker say), ``label`` (what a person reads), ``plays`` (how it
    plays, in words), and how it is made: ``kind`` "easy" or "medium" (the hand-written bots), "weakened" (the
    expert made weaker: ``sims`` simulations at two players, ``temperature`` and ``floor`` of the root's choice,
    ``tree`` walks of the tree search at three and four) or "expert" (``sims`` at two players, ``tree`` at three and
    four)."""

    __slots__ = ("name", "label", "plays", "kind", "sims", "temperature", "floor", "tree", "tree_temperature", "guard")

    def __init__(self, name, label, plays, kind, sims=0, temperature=0.0, floor=0.0, tree=0, tree_temperature=0.0,
                 guard=False):
        self.name, self.label, self.plays, self.kind = name, label, plays, kind
        self.sims, self.temperature, self.floor, self.tree, self.guard = sims, temperature, floor, tree, guard
        self.tree_temperature = tree_temperature

    def make(self):
        """A new bot playing this level."""
        if self.kind == "easy":
            from .bots import EasyBot
            return EasyBot()
        if self.kind == "medium":
            from .bots import MediumBot
            return MediumBot()
        if self.kind == "expert":
            from .expert import ExpertBot
            return ExpertBot()
        from .weakened import WeakenedExpert
        return WeakenedExpert(sims=self.sims, temperature=self.temperature, floor=self.floor,
                              tree_iterations=self.tree, tree_temperature=self.tree_temperature, guard=self.guard,
                              level=self.name)

    def budget(self, players, cap=True):
        """What a move of this level may spend at a table of ``players``: its counts (the expert's simulations or
        walks; one step for the others, whose counts are their own), with the browser's time cap unless ``cap`` is
        False (the arena: the same moves on any machine)."""
        seconds = CAP_SECONDS if cap and self.kind in ("weakened", "expert") else None
        its = (self.sims if players == 2 else self.tree) if self.kind == "expert" else 1
        return Budget(iterations=its, seconds=seconds)

    def settings(self):
        """The counts that define it, for the table and the ladder's JSON."""
        if self.kind in ("easy", "medium"):
            return {}
        out = {"sims": self.sims, "tree": self.tree}
        if self.kind == "weakened":
            out.update(temperature=self.temperature, floor=self.floor, tree_temperature=self.tree_temperature,
                       guard=self.guard)
        return out

    def budget_words(self):
        """Its budget in words: '1,500 simulations (250 walks at 3-4 players)', 'the prior alone'..."""
        if self.kind in ("easy", "medium"):
            return "one step"
        two = f"{self.sims:,} simulations" if self.sims else "the network once"
        return f"{two} ({self.tree:,} walks at 3-4 players)"

    def __repr__(self):
        return f"<Level {self.name}>"


_PRIOR = "the expert's network alone, no search"
_GUARD = "; never hands the opponent a win in one that another move avoids"
#: The levels, weakest first.
LADDER = (
    Level("beginner", "Beginner", f"{_PRIOR}: each move drawn from the network's liking of the moves, made flatter "
          "(temperature 1.7), so it often plays a lesser move", "weakened", temperature=1.7, tree=8,
          tree_temperature=1.7),
    Level("easy", "Easy", "a hand-written heuristic that looks only at its own game, overlooks some cards and nobles "
          "and picks among its good-looking moves with some randomness", "easy"),
    Level("casual", "Casual", f"{_PRIOR}: each move drawn in proportion to the network's liking of it, a little "
          "sharpened (temperature 0.95)", "weakened", temperature=0.95, tree=12, tree_temperature=0.15),
    Level("medium", "Medium", "a hand-written heuristic: the move that leaves its position best, one move deep, "
          "opponents and nobles included", "medium"),
    Level("skilled", "Skilled", f"{_PRIOR}: the network's favourite move{_GUARD}", "weakened", tree=24, guard=True),
    Level("hard", "Hard", f"the expert's search with 32 simulations a move{_GUARD}", "weakened", sims=32, tree=40,
          guard=True),
    Level("advanced", "Advanced", f"the expert's search with 128 simulations a move{_GUARD}", "weakened", sims=128,
          tree=90, guard=True),
    Level("elite", "Elite", f"the expert's search with 450 simulations a move{_GUARD}", "weakened", sims=450,
          tree=160, guard=True),
    Level("expert", "Expert", "the expert: the network guiding a PUCT search of 1,500 simulations a move (the tree "
          "search over a learned value model at 3-4 players)", "expert", sims=1500, tree=250),
)
NAMES = tuple(level.name for level in LADDER)
_BY_NAME = {level.name: level for level in LADDER}


def find(name):
    """The Level called ``name``; ValueError in words for another name."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown level {name!r}: choose from {', '.join(NAMES)}") from None


_RATINGS = []


def ratings():
    """The measured ladder (``ladder.json``, read once): {"levels": {name: {"rating", "low", "high", "games"}},
    "tables": ..., "agent": ..., ...}; an empty ladder ({"levels": {}}) when the file is missing or unreadable."""
    if not _RATINGS:
        try:
            with open(RATINGS_FILE, encoding="utf-8") as f:
                data = json.load(f)
            if not isinstance(data, dict) or not isinstance(data.get("levels"), dict):
                raise ValueError("not a ladder")
        except (OSError, ValueError):
            data = {"levels": {}}
        _RATINGS.append(data)
    return _RATINGS[0]


def _number(x):
    """``x`` when it is a finite number (not a bool), else None: the file is read, not trusted."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return x


def rated(name):
    """(rating, low, high) of level ``name`` as measured (its interval's ends the rating itself where the file has
    none), or None when it has no rating."""
    row = ratings()["levels"].get(name)
    r = _number(row.get("rating")) if isinstance(row, dict) else None
    if r is None:
        return None
    low, high = _number(row.get("low")), _number(row.get("high"))
    return r, r if low is None else low, r if high is None else high


def rating_of(name):
    """The measured rating of level ``name`` (a number), or None when it has none."""
    got = rated(name)
    return None if got is None else got[0]
