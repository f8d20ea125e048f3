"""The players' seats and the new-game settings' words: levels, who starts, variants' names, bots' names, a player's
name as typed. Shared by the state machine (controller.py) and the game files (records_io.py), which must not import
each other. Pure Python.

>>> clean_name("  Ann   Lee ", "You")
'Ann Lee'
"""

LEVELS = ("easy", "medium", "hard")
STARTS = ("random", "person", "bot")
VARIANT_NAMES = {
    "open_reservations": "Open reservations",
    "noble_veto": "Noble veto",
    "rotating_series": "Rotating-start series",
}
BOT_NAMES = ("Bot 1", "Bot 2", "Bot 3")
MAX_NAME = 40


def clean_name(text, fallback):
    """A player name as typed, trimmed to one line of at most 40 characters (shown as text, never as markup)."""
    if not isinstance(text, str):
        return fallback
    text = " ".join(text.split())[:MAX_NAME]
    return text or fallback
