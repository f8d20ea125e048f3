"""Learning the game: How to play (guide), the guided first game (tutorial) and their part of the page's state and HTML
(plain Python, tested under CPython)."""
