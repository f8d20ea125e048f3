"""How the table's things are drawn, as HTML text: gems (shape and letter, never colour alone), cost pips, card
faces. Shared by the page (view.py) and the How to play guide (guide.py), which must not import each other. Pure
Python; every text goes through ``esc``.

>>> lettered("red").count('data-t="R"')
1
"""

from functools import lru_cache
from html import escape

from ...engine import COLORS
from . import words

SPRITE = "assets/gems.svg"
LEVEL_DOTS = {1: "•", 2: "••", 3: "•••"}


def esc(text):
    """Text made safe to put inside HTML, attributes included."""
    text = str(text)
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:  # most texts need nothing
        return escape(text, quote=True)
    return text


@lru_cache(maxsize=256)
def _attr_name(key):
    return key.rstrip("_").replace("_", "-")


def attrs(**values):
    """``attrs(data_act="gem", aria_label="x")`` -> ' data-act="gem" aria-label="x"' (None and False dropped)."""
    out = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        out.append(f" {_attr_name(key)}" if value is True else f' {_attr_name(key)}="{esc(value)}"')
    return "".join(out)


def cap(text):
    return text[:1].upper() + text[1:]


# -- gems ----------------------------------------------------------------------------------------------------------
@lru_cache(maxsize=2048)  # pure and called thousands of times a render: each piece is made once
def gem(color, cls=""):
    """The gem's shape (never colour alone: each color has its own shape), hidden from screen readers."""
    return (f'<svg class="gem gem-{color} {cls}" aria-hidden="true" focusable="false" viewBox="0 0 24 24">'
            f'<use href="{SPRITE}#gem-{color}"></use></svg>')


@lru_cache(maxsize=2048)
def drawn(text, tag="span", cls=""):
    """Text that is part of a picture (a card's numbers, a gem's letter): drawn by the stylesheet from ``data-t``
    (``[data-t]::before``), so it is not text of the control it sits in. A card or pile button is named in words
    (its aria-label); its face's digits and letters, were they text, would read as a label that does not match
    that name (axe: label-content-name-mismatch, WCAG 2.5.3)."""
    return f'<{tag}{attrs(class_=cls or None, data_t=text)} aria-hidden="true"></{tag}>'


@lru_cache(maxsize=2048)
def letter(color):
    return drawn(words.LETTERS[color], cls="letter")


@lru_cache(maxsize=2048)
def lettered(color):
    """The gem's shape with its letter drawn on it: the compact form for tokens."""
    return f'<span class="lg lg-{color}">{gem(color)}{drawn(words.LETTERS[color], "i")}</span>'


@lru_cache(maxsize=2048)
def pip(color, n, lowered=False):
    """A cost pip: the gem shape with the number and the color's letter in its corner (never colour alone);
    ``lowered``: the number is the price after the person's bonuses (drawn plainly, marked by its class only)."""
    return (f'<span class="pip pip-{color}{" lowered" if lowered else ""}">{gem(color)}{drawn(n, "b")}'
            f'{drawn(words.LETTERS[color], "i", "pl")}</span>')


@lru_cache(maxsize=2048)
def bonus_gem(color):
    """A card's bonus: the gem's shape with its letter, drawn large in the card's corner."""
    return f'<span class="lg lg-{color} bonus">{gem(color)}{drawn(words.LETTERS[color], "i")}</span>'


def card_face(card, price=None, dots=False, badge=""):
    """The inside of a card drawn like the printed one: points, bonus gem, cost pips (level dots on request). With
    ``price`` (the person's price after bonuses) the pips show what the person pays, plainly: only the colors still
    to pay, each with its lowered number, and "Free" when the bonuses cover it all. ``badge``: drawn in the top band,
    between the points and the bonus gem (where a phone lays it out; elsewhere it sits in the card's corner)."""
    return _card_face(card, None if price is None else tuple(price[c] for c in COLORS), dots, badge)


@lru_cache(maxsize=1024)
def _card_face(card, price, dots, badge):
    pts = drawn(card.points or "", cls="pts")
    pips = []
    for i, color in enumerate(COLORS):
        n = card.cost[color]
        if not n:
            continue
        if price is None:
            pips.append(pip(color, n))
        elif price[i]:  # what the person pays: a color the bonuses cover is not drawn at all
            pips.append(pip(color, price[i], price[i] < n))
    if price is not None and not pips:
        pips.append(drawn("Free", cls="free"))
    # The face is a picture of what the card's spoken name says: hidden from screen readers and speech input.
    return (f'<span class="card-top" aria-hidden="true">{pts}{badge}{bonus_gem(card.bonus)}</span>'
            f'<span class="cost" aria-hidden="true">{"".join(pips)}</span>'
            + (f'<span class="dots" aria-hidden="true">{LEVEL_DOTS[card.level]}</span>' if dots else ""))
