"""Puzzles and the daily deal: the shipped pool, the puzzle screen's state, its view."""
