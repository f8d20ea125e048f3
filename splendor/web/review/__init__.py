"""The game review on the page: its part of the state machine (state.py) and its HTML (review_view.py), plain
Python tested under CPython; the computing is splendor.ai.review, run in the bot worker."""
