"""The compiled twin of self-play (issue 74): the rules over arrays (rules.py), held to the engine move for move
(check.py: ``python -m splendor twin --check``). Training only; never shipped to the page."""
