"""The table and its controls: the person's move being built, the seats, pass and play, the faces of cards and gems, the
keyboard and the words the table speaks (plain Python, tested under CPython)."""
