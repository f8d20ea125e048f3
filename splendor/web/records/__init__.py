"""Records and files: the save slot and its storage, saving and loading the game, game files, deal links and the
player's record (plain Python, tested under CPython)."""
