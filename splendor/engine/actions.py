"""Actions: small frozen values with a text notation that round-trips.

Notation (one action per line; ``str(action)`` prints it and ``parse_action`` reads it back):

=================================  ==========================================================
``take white blue green``          take one token of each of one to three different colors
``take2 red``                      take two tokens of one color
``reserve 2G2:4w2u1k``             reserve a face-up card (its code: level, bonus letter, points, cost)
``reserve deck 3``                 reserve the top card of the level 3 deck, unseen
``buy 1K0:1w1u1g1r``               buy a card from the market or from your reserve
``buy 2G2:4w2u1k pay white gold``  buy, naming every token paid (gold included)
``return red``                     return one token while holding more than ten
``noble 3w3u3g``                   choose a noble when several are met
``veto 4w4u``                      remove a noble before the game (noble veto variant)
``pass``                           no other action is possible
=================================  ==========================================================

Letters in codes: ``w`` white, ``u`` blue, ``g`` green, ``r`` red, ``k`` black.
"""

from .cards import COLOR_INDEX, COLORS, TOKEN_COLORS, Card, Noble

KINDS = ("take", "take_two", "reserve", "buy", "return", "noble", "veto", "pass")


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message says why. The game is unchanged."""


class NotationError(ValueError):
    """Text that is not an action in the notation; the message says what was expected."""


class Action:
    """One action. Frozen and hashable; equal when every field is equal.

    Fields: ``kind``; ``colors`` (tuple, for take / take_two / return); ``card`` (reserve and buy; None for a blind
    reserve); ``level`` (blind reserve); ``noble`` (noble and veto); ``payment`` (buy: dict of the six token colors
    actually paid, gold included).

    >>> a = Action.take("white", "blue", "green")
    >>> str(a), a.kind, a.colors
    ('take white blue green', 'take', ('white', 'blue', 'green'))
    >>> a == Action.take("white", "blue", "green")
    True
    """

    __slots__ = ("kind", "colors", "card", "level", "noble", "pay_t", "_hash", "_text")

    def __init__(self, kind, colors=(), card=None, level=None, noble=None, pay_t=None):
        set_ = object.__setattr__
        set_(self, "kind", kind)
        colors = tuple(colors)
        if kind == "take" and len(colors) > 1:
            # The order a player names the colors in does not matter: one canonical order (white..black), so
            # "take red green black" is the same action as the generated "take green red black".
            colors = tuple(sorted(colors, key=lambda c: COLOR_INDEX.get(c, 9) if isinstance(c, str) else 9))
        set_(self, "colors", colors)
        set_(self, "card", card)
        set_(self, "level", level)
        set_(self, "noble", noble)
        set_(self, "pay_t", pay_t)
        set_(self, "_hash", hash((kind, self.colors, card, level, noble, pay_t)))
        set_(self, "_text", None)

    # Constructors -------------------------------------------------------------------------------------------
    @classmethod
    def take(cls, *colors):
        return cls("take", colors)

    @classmethod
    def take_two(cls, color):
        return cls("take_two", (color,))

    @classmethod
    def reserve(cls, card=None, level=None):
        """Reserve a face-up ``card``, or the top of the deck of ``level`` (a blind reserve) when card is None."""
        return cls("reserve", card=card, level=None if card is not None else level)

    @classmethod
    def buy(cls, card, payment):
        """Buy ``card`` paying ``payment``: a dict of token colors (gold included) or a tuple of six counts."""
        if isinstance(payment, dict):
            payment = tuple(int(payment.get(c, 0)) for c in TOKEN_COLORS)
        return cls("buy", card=card, pay_t=tuple(payment))

    @classmethod
    def return_token(cls, color):
        return cls("return", (color,))

    @classmethod
    def choose_noble(cls, noble):
        return cls("noble", noble=noble)

    @classmethod
    def veto(cls, noble):
        return cls("veto", noble=noble)

    @classmethod
    def pass_turn(cls):
        return cls("pass")

    # Value behaviour ----------------------------------------------------------------------------------------
    @property
    def payment(self):
        """For a buy: the tokens paid, a dict over the six token colors (gold included). None otherwise."""
        if self.pay_t is None:
            return None
        return dict(zip(TOKEN_COLORS, self.pay_t))

    def __setattr__(self, name, value):
        raise AttributeError("Action is frozen")

    def __eq__(self, other):
        return (
            isinstance(other, Action)
            and self._hash == other._hash
            and self.kind == other.kind
            and self.colors == other.colors
            and self.card == other.card
            and self.level == other.level
            and self.noble == other.noble
            and self.pay_t == other.pay_t
        )

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        return (Action, (self.kind, self.colors, self.card, self.level, self.noble, self.pay_t))

    def __str__(self):
        text = self._text
        if text is None:
            text = _format(self)
            object.__setattr__(self, "_text", text)
        return text

    def __repr__(self):
        return f"Action({str(self)!r})"


def _format(a):
    k = a.kind
    if k == "take":
        return "take " + " ".join(a.colors)
    if k == "take_two":
        return f"take2 {a.colors[0]}"
    if k == "return":
        return f"return {a.colors[0]}"
    if k == "reserve":
        return f"reserve {a.card.code}" if a.card is not None else f"reserve deck {a.level}"
    if k == "buy":
        paid = [c for c, n in zip(TOKEN_COLORS, a.pay_t) for _ in range(n)]
        return f"buy {a.card.code}" + (" pay " + " ".join(paid) if paid else "")
    if k in ("noble", "veto"):
        return f"{k} {a.noble.code}"
    return "pass"


def _color(word, text, allow_gold=False):
    if word in COLOR_INDEX and (allow_gold or word != "gold"):
        return word
    allowed = ", ".join(TOKEN_COLORS if allow_gold else COLORS)
    raise NotationError(f"{word!r} is not a color in {text!r}: use {allowed}")


def parse_notation(text):
    """Parse text into an Action without looking at a game (card and noble codes only).

    ``parse_action(game, text)`` adds what needs the position: market positions such as ``buy 1.3``, reserve
    positions such as ``buy r1``, and the default payment of a ``buy`` without ``pay``.
    """
    from .cards import noble_from_code

    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}")
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty action: expected e.g. 'take white blue green', 'buy 1W0:1u1g1r1k' or 'pass'")
    head, rest = words[0], words[1:]
    if head == "take":
        if rest[:1] == ["two"] and len(rest) == 2:
            return Action.take_two(_color(rest[1], text))
        if len(rest) == 2 and rest[0] == rest[1]:
            return Action.take_two(_color(rest[0], text))
        if not 1 <= len(rest) <= 3:
            raise NotationError(f"{text!r}: take one to three different colors, e.g. 'take white blue green'")
        colors = tuple(_color(w, text) for w in rest)
        if len(set(colors)) != len(colors):
            raise NotationError(f"{text!r}: the colors of a take must differ (two of one color is 'take2 red')")
        return Action.take(*colors)
    if head in ("take2", "take_two"):
        if len(rest) != 1:
            raise NotationError(f"{text!r}: take2 names one color, e.g. 'take2 red'")
        return Action.take_two(_color(rest[0], text))
    if head == "return":
        if len(rest) != 1:
            raise NotationError(f"{text!r}: return names one token color, e.g. 'return red'")
        return Action.return_token(_color(rest[0], text, allow_gold=True))
    if head == "pass":
        if rest:
            raise NotationError(f"{text!r}: pass takes nothing after it")
        return Action.pass_turn()
    if head in ("noble", "veto"):
        if len(rest) != 1:
            raise NotationError(f"{text!r}: {head} names one noble code, e.g. '{head} 4w4u'")
        try:
            noble = noble_from_code(rest[0])
        except ValueError as exc:
            raise NotationError(str(exc)) from None
        return Action.choose_noble(noble) if head == "noble" else Action.veto(noble)
    if head == "reserve":
        if len(rest) == 2 and rest[0] == "deck":
            if rest[1] not in ("1", "2", "3"):
                raise NotationError(f"{text!r}: the deck level is 1, 2 or 3")
            return Action.reserve(level=int(rest[1]))
        if len(rest) != 1:
            raise NotationError(f"{text!r}: reserve names a card code or 'deck 1', 'deck 2', 'deck 3'")
        return Action.reserve(_card(rest[0], text))
    if head == "buy":
        if not rest:
            raise NotationError(f"{text!r}: buy names a card, e.g. 'buy 1W0:1u1g1r1k'")
        card = _card(rest[0], text)
        if len(rest) == 1:
            return Action("buy", card=card)  # payment to be filled in from the position
        if rest[1] != "pay" or len(rest) == 2:
            raise NotationError(f"{text!r}: after the card comes 'pay' and the tokens paid, e.g. 'pay white gold'")
        counts = [0] * 6
        for w in rest[2:]:
            counts[COLOR_INDEX[_color(w, text, allow_gold=True)]] += 1
        return Action.buy(card, tuple(counts))
    raise NotationError(
        f"{text!r} is not an action: it starts with take, take2, reserve, buy, return, noble, veto or pass"
    )


def _card(word, text):
    from .cards import card_from_code

    if ":" not in word:
        return word  # a position such as "1.3" or "r2": resolved by parse_action against a game
    try:
        head, _, tail = word.partition(":")  # a second ':' stays in the tail, so the code is unknown
        return card_from_code(head.upper() + ":" + tail.lower())
    except (ValueError, IndexError) as exc:
        raise NotationError(f"{text!r}: {exc}") from None


__all__ = ["Action", "IllegalActionError", "NotationError", "KINDS", "parse_notation", "Card", "Noble"]
