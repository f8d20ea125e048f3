"""The rules' numbers and the file formats' names, read by the game (game.py) and by the reading of states
(state.py)."""

VARIANTS = ("open_reservations", "noble_veto", "rotating_series")
PHASES = ("action", "return", "noble", "veto", "over")
TOKENS_PER_COLOR = {2: 4, 3: 5, 4: 7}
GOLD_TOKENS = 5
WINNING_POINTS = 15
TOKEN_LIMIT = 10
RESERVE_LIMIT = 3
STATE_FORMAT = "splendor-state"
RECORD_FORMAT = "splendor-record"
FORMAT_VERSION = 1
