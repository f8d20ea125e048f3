"""What must never reach a person (or their screen reader) of a card hidden from them: its code and its words.

A blind reservation is hidden from everyone but its owner. A check that looks only for the card's code misses a page
that names the card in words (an aria-label that reads its description, a sentence in a dialog), so every check of a
hidden card in the tests asks for both through :func:`assert_not_shown`.
"""

import html as _html
import re

from splendor.engine import card_from_code


def card_words(card):
    """The card's code, its spoken description ("Level 2 card: blue bonus, 2 points, costs 5 white, 3 blue") and
    that description without its level (the part that tells the card apart from every other)."""
    if isinstance(card, str):
        card = card_from_code(card)
    said = card.describe()
    return [card.code, said, said.split(": ", 1)[-1]]


def assert_not_shown(page, card, where="the page"):
    """Neither the code nor the words of ``card`` (a Card or its code) are in ``page`` (HTML or text; entities are
    read as the browser reads them)."""
    text = _html.unescape(page)
    for word in card_words(card):
        assert not _found(word, text), f"the hidden card is in {where}: {word!r}"


def assert_shown(page, card, where="the page"):
    """The owner's own view: the card's words are there (so the check above can see them when they leak)."""
    text = _html.unescape(page)
    assert all(_found(word, text) for word in card_words(card)[1:]), f"the card is not in {where}"


def _found(word, text):
    # Whole: 2W2:5r is not in 2W2:5r3k, nor "costs 5 red" in "costs 5 red, 3 black" (another card).
    return re.search(r"(?<![\w])" + re.escape(word) + r"(?![\w,])", text) is not None
