"""Development cards and noble tiles: the game's fixed components.

The facts live in ``cards.csv`` and ``nobles.csv`` beside this module (the project's own copy of the base game's
90 cards and 10 nobles); this module turns them into frozen values.

>>> len(CARDS), len(NOBLES)
(90, 10)
>>> card = card_from_code("2G2:4w2u1k")
>>> card.level, card.bonus, card.points, card.cost["white"]
(2, 'green', 2, 4)
>>> str(card)
'2G2:4w2u1k'
>>> NOBLES[0].points, NOBLES[0].requirement["white"]
(3, 4)
"""

import csv
import os
from types import MappingProxyType

#: The five gem colors, in the order used everywhere (index 0..4); gold is index 5.
COLORS = ("white", "blue", "green", "red", "black")
GOLD = "gold"
TOKEN_COLORS = COLORS + (GOLD,)
COLOR_INDEX = {c: i for i, c in enumerate(TOKEN_COLORS)}
#: One letter per token color for the compact notation (blue is "u" and black "k", so no letter is shared).
LETTERS = ("w", "u", "g", "r", "k", "*")
LETTER_INDEX = {c: i for i, c in enumerate(LETTERS)}

_HERE = os.path.dirname(os.path.abspath(__file__))


def _cost_text(counts):
    return "".join(f"{n}{LETTERS[i]}" for i, n in enumerate(counts) if n)


def _parse_counts(text, what):
    """Parse ``4w2u1g`` into a 5-tuple of counts; raise ValueError naming ``what`` when malformed."""
    counts = [0] * 5
    number = ""
    seen = set()
    for ch in text:
        if ch.isdigit():
            number += ch
            continue
        i = LETTER_INDEX.get(ch)
        if i is None or i == 5 or not number or i in seen:
            raise ValueError(f"cannot read {what} {text!r}: expected counts such as '4w2u1g'")
        seen.add(i)
        counts[i] = int(number)
        number = ""
    if number or not text:
        raise ValueError(f"cannot read {what} {text!r}: expected counts such as '4w2u1g'")
    return tuple(counts)


class Card:
    """A development card: ``level`` 1-3, ``bonus`` color, prestige ``points`` and ``cost`` (five colors).

    Cards are frozen and compare by value. The 90 cards of the game are singletons made once, so ``is`` and ``==``
    agree for cards taken from the game. ``str(card)`` is its code: level, bonus letter, points, colon, cost.
    """

    __slots__ = ("id", "level", "bonus", "points", "cost", "cost_t", "bonus_i", "code", "needs", "total_cost")

    def __init__(self, id, level, bonus, points, cost_t):
        set_ = object.__setattr__
        set_(self, "id", id)
        set_(self, "level", level)
        set_(self, "bonus", bonus)
        set_(self, "points", points)
        set_(self, "cost_t", tuple(cost_t))
        set_(self, "cost", MappingProxyType(dict(zip(COLORS, cost_t))))
        set_(self, "bonus_i", COLOR_INDEX[bonus])
        set_(self, "code", f"{level}{LETTERS[COLOR_INDEX[bonus]].upper()}{points}:{_cost_text(cost_t)}")
        # (color index, amount) for the colors this card costs: the hot loop of affordability skips the zeros.
        set_(self, "needs", tuple((i, n) for i, n in enumerate(cost_t) if n))
        set_(self, "total_cost", sum(cost_t))

    def __setattr__(self, name, value):
        raise AttributeError("Card is frozen")

    def __eq__(self, other):
        return isinstance(other, Card) and self.code == other.code

    def __hash__(self):
        return hash(self.code)

    def __reduce__(self):
        return (card_from_code, (self.code,))

    def __repr__(self):
        return f"Card({self.code!r})"

    def __str__(self):
        return self.code

    def describe(self):
        """Plain words, as a screen reader would speak them.

        >>> card_from_code("2G2:4w2u1k").describe()
        'Level 2 card: green bonus, 2 points, costs 4 white, 2 blue, 1 black'
        """
        cost = ", ".join(f"{n} {COLORS[i]}" for i, n in self.needs)
        pts = f"{self.points} point{'s' if self.points != 1 else ''}"
        return f"Level {self.level} card: {self.bonus} bonus, {pts}, costs {cost}"


class Noble:
    """A noble tile: ``points`` (3) and the ``requirement`` in bonuses of each color. ``str`` gives its code."""

    __slots__ = ("id", "points", "requirement", "req_t", "needs", "code")

    def __init__(self, id, points, req_t):
        set_ = object.__setattr__
        set_(self, "id", id)
        set_(self, "points", points)
        set_(self, "req_t", tuple(req_t))
        set_(self, "requirement", MappingProxyType(dict(zip(COLORS, req_t))))
        set_(self, "needs", tuple((i, n) for i, n in enumerate(req_t) if n))
        set_(self, "code", _cost_text(req_t))

    def __setattr__(self, name, value):
        raise AttributeError("Noble is frozen")

    def __eq__(self, other):
        return isinstance(other, Noble) and self.code == other.code

    def __hash__(self):
        return hash(("noble", self.code))

    def __reduce__(self):
        return (noble_from_code, (self.code,))

    def __repr__(self):
        return f"Noble({self.code!r})"

    def __str__(self):
        return self.code

    def describe(self):
        """Plain words, as a screen reader would speak them.

        >>> noble_from_code("3w3u3g").describe()
        'Noble: 3 points, needs 3 white, 3 blue, 3 green bonuses'
        """
        need = ", ".join(f"{n} {COLORS[i]}" for i, n in self.needs)
        return f"Noble: {self.points} points, needs {need} bonuses"


def _read_csv(name):
    with open(os.path.join(_HERE, name), newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _load():
    cards = []
    for row in _read_csv("cards.csv"):
        cost = tuple(int(row[c]) for c in COLORS)
        cards.append(Card(len(cards), int(row["level"]), row["bonus"], int(row["points"]), cost))
    nobles = []
    for row in _read_csv("nobles.csv"):
        nobles.append(Noble(len(nobles), int(row["points"]), tuple(int(row[c]) for c in COLORS)))
    return tuple(cards), tuple(nobles)


CARDS, NOBLES = _load()
CARDS_BY_LEVEL = tuple(tuple(c for c in CARDS if c.level == lv) for lv in (1, 2, 3))
_CARD_BY_CODE = {c.code: c for c in CARDS}
_NOBLE_BY_CODE = {n.code: n for n in NOBLES}


def card_from_code(code):
    """The card with that code (``"1W0:1u1g1r1k"``); ValueError when no card of the game has it."""
    card = _CARD_BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        raise ValueError(f"no card has the code {code!r} (a code looks like '2G2:4w2u1k')")
    return card


def noble_from_code(code):
    """The noble with that code (``"4w4u"`` or ``"3w3u3g"``); ValueError when no noble has it."""
    noble = _NOBLE_BY_CODE.get(code) if isinstance(code, str) else None
    if noble is None:
        raise ValueError(f"no noble has the code {code!r} (a code looks like '4w4u' or '3w3u3g')")
    return noble


def counts_text(counts):
    """``(2, 0, 1, 0, 0, 1)`` -> ``'2w1g1*'`` (six colors, gold last)."""
    return "".join(f"{n}{LETTERS[i]}" for i, n in enumerate(counts) if n)
