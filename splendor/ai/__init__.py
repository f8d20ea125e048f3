"""Bots for Splendor: the ladder's levels (:mod:`splendor.ai.ladder`, beginner to expert) and the random baseline,
behind one small interface.

>>> import random, splendor
>>> from splendor import ai
>>> game = splendor.new_game(players=2, seed=7)
>>> bot = ai.get_bot("medium")
>>> action = bot.choose(game.observation(0), random.Random(1), None)
>>> game.why_illegal(action) is None
True

A bot sees only ``game.observation(seat)`` (a JSON-able dict) and rebuilds the game with
``splendor.determinize(observation, rng)``; all its randomness comes from the ``rng`` argument. The budget is a
number of seconds, ``{"seconds": s}``, ``{"iterations": n}`` or a :class:`Budget` (only the hard bot uses it).
The web worker calls :mod:`splendor.ai.protocol` (JSON in, JSON out).
"""

from .budget import Budget
from .bots import Bot, BotError, EasyBot, MediumBot, RandomBot
from .explain import explain
from .expert import ExpertBot
from .ladder import LADDER
from .search import HardBot

#: The levels, weakest first: the random baseline, then the ladder's (splendor.ai.ladder.NAMES).
LEVELS = ("random",) + tuple(level.name for level in LADDER)


def get_bot(level):
    """A new bot of ``level`` (one of LEVELS). ValueError for an unknown level."""
    if level == "random":
        return RandomBot()
    from .ladder import find

    try:
        return find(level).make()
    except ValueError:
        raise ValueError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}") from None


def choose(observation, rng, budget=None, level="medium"):
    """The action ``level`` plays from ``observation`` (shortcut for ``get_bot(level).choose(...)``)."""
    return get_bot(level).choose(observation, rng, budget)


__all__ = ["LEVELS", "get_bot", "choose", "explain", "Budget", "Bot", "BotError", "RandomBot", "EasyBot",
           "MediumBot", "HardBot", "ExpertBot"]
