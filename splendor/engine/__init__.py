"""The rules of Splendor (base game), standard library only: state, actions, legal actions, apply, scoring.

Nothing here imports the browser, so the whole game runs and is tested under plain CPython.
"""

from .actions import KINDS, Action, IllegalActionError, NotationError, parse_notation
from .cards import (
    CARDS,
    CARDS_BY_LEVEL,
    COLORS,
    GOLD,
    NOBLES,
    TOKEN_COLORS,
    Card,
    Noble,
    card_from_code,
    noble_from_code,
)
from .game import PHASES, VARIANTS, Game, Player, determinize, new_game, parse_action, replay
from .state import InvalidStateError

__all__ = [
    "Action", "IllegalActionError", "NotationError", "InvalidStateError", "KINDS", "PHASES", "VARIANTS",
    "CARDS", "CARDS_BY_LEVEL", "NOBLES", "COLORS", "GOLD", "TOKEN_COLORS", "Card", "Noble", "Game", "Player",
    "new_game", "parse_action", "parse_notation", "replay", "determinize", "card_from_code", "noble_from_code",
]
