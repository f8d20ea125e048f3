"""Splendor: the rules engine, bots and browser front end of a gem-trading board game.

>>> import splendor
>>> game = splendor.new_game(players=3, seed=12345)
>>> len(game.legal_actions()) > 0
True

The public API is the engine's: see ``splendor.engine``.
"""

from .engine import *  # noqa: F401,F403
from .engine import __all__  # noqa: F401 (the package exports the engine's names)

__version__ = "0.1.0"
