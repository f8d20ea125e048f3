"""What the expert's network reads and writes: a position as a vector of numbers, a move as an index.

The input is built from what the seat to move may see (its observation): the supply, the market, the nobles, the
decks' sizes, each seat's tokens, bonuses, points and reserved cards, where an opponent's blind reservation shows
only its level. Seats are ordered from the mover's point of view (the mover first, then the others in turn order),
so one network plays every seat; a table of 3 or 4 seats has a longer input (:class:`Layout`) and a network of its
own. The moves of an action phase have a fixed index (``ACTION_COUNT`` of them): buying a market slot or a reserved
slot, reserving a market slot or a deck, each take, the pass. Buys of one card with another payment share an index.
Returns over 10, noble choices and vetoes are not the network's (the search plays them with the heuristic).

``ENCODING_VERSION`` changes whenever what an index or an input means changes: a network file names the version it
was trained with, and a file for another version is refused (:mod:`splendor.ai.netfile`).

>>> import splendor
>>> game = splendor.new_game(players=2, seed=7)
>>> x = encode(game)
>>> len(x) == INPUTS, ACTION_COUNT, inputs_for(4)
(True, 61, 624)
>>> moves, index = legal_indexed(game)
>>> str(moves[index.index(TAKE_INDEX[("white", "blue", "green")])])
'take white blue green'
"""

from ..engine.cards import CARDS, COLORS
from ..engine.game import shortfall
from ..engine.rules import RESERVE_LIMIT, WINNING_POINTS

#: The version of the input's meaning and of the move index (see the module's docstring).
ENCODING_VERSION = 1
#: The table size of the first network (encoding version 1); :class:`Layout` gives every table's sizes.
PLAYERS = 2

# The move index: buy market slot (level, slot) 0-11, buy reserved slot 12-14, reserve market slot 15-26, reserve
# a deck 27-29, takes 30-59 (three colors, two colors, one color in the engine's order, then two of one color), 60 pass.
BUY_MARKET, BUY_RESERVED, RESERVE_MARKET, RESERVE_DECK, TAKES, PASS = 0, 12, 15, 27, 30, 60
ACTION_COUNT = 61


def _take_table():
    """Every take's colors (as the engine writes them, in its color order) -> index, three colors first."""
    combos = []

    def rec(start, chosen, k):
        if len(chosen) == k:
            combos.append(tuple(COLORS[i] for i in chosen))
            return
        for j in range(start, 5):
            rec(j + 1, chosen + [j], k)

    for k in (3, 2, 1):
        rec(0, [], k)
    table = {colors: TAKES + i for i, colors in enumerate(combos)}  # 10 + 10 + 5 = 25
    for i, c in enumerate(COLORS):
        table[("two", c)] = TAKES + 25 + i
    return table


#: A take's index: ``TAKE_INDEX[colors]`` for a take of different colors, ``TAKE_INDEX["two", color]`` for two of one.
TAKE_INDEX = _take_table()


def _names():
    names = [""] * ACTION_COUNT
    for lv in range(3):
        for s in range(4):
            names[BUY_MARKET + 4 * lv + s] = f"buy level {lv + 1} slot {s + 1}"
            names[RESERVE_MARKET + 4 * lv + s] = f"reserve level {lv + 1} slot {s + 1}"
        names[RESERVE_DECK + lv] = f"reserve from level {lv + 1} deck"
    for r in range(RESERVE_LIMIT):
        names[BUY_RESERVED + r] = f"buy reserved {r + 1}"
    for key, i in TAKE_INDEX.items():
        names[i] = "take two " + key[1] if key[0] == "two" else "take " + " ".join(key)
    names[PASS] = "pass"
    return tuple(names)


#: A name for each index (for descriptions and tests).
ACTION_NAMES = _names()


def action_index(game, action):
    """The index of ``action`` (an action-phase move legal in ``game``)."""
    kind = action.kind
    if kind == "take":
        return TAKE_INDEX[tuple(action.colors)]
    if kind == "take_two":
        return TAKE_INDEX["two", action.colors[0]]
    if kind == "pass":
        return PASS
    card = action.card
    if kind == "reserve" and card is None:
        return RESERVE_DECK + action.level - 1
    lv = card.level - 1
    row = game.market_rows[lv]
    if card in row:
        return (BUY_MARKET if kind == "buy" else RESERVE_MARKET) + 4 * lv + row.index(card)
    return BUY_RESERVED + game.player_list[game.current].reserved_list.index(card)


def legal_indexed(game):
    """(the legal moves of ``game``'s action phase, in the engine's order, their indices): one entry per index (a
    card's first payment in the engine's order stands for its others)."""
    moves = []
    index = []
    seen = set()
    slot = {}
    for lv, row in enumerate(game.market_rows):
        for s, c in enumerate(row):
            if c is not None:
                slot[c.id] = 4 * lv + s
    reserved = game.player_list[game.current].reserved_list
    for a in game.legal_actions():
        kind = a.kind
        if kind == "take":
            i = TAKE_INDEX[a.colors]
        elif kind == "take_two":
            i = TAKE_INDEX["two", a.colors[0]]
        elif kind == "buy":
            j = slot.get(a.card.id)
            i = BUY_MARKET + j if j is not None else BUY_RESERVED + reserved.index(a.card)
        elif kind == "reserve":
            i = RESERVE_DECK + a.level - 1 if a.card is None else RESERVE_MARKET + slot[a.card.id]
        else:
            i = PASS
        if i in seen:
            continue
        seen.add(i)
        moves.append(a)
        index.append(i)
    return moves, index


# --- the input --------------------------------------------------------------------------------------------------

def _static(card):
    """A card's own features: cost (5, / 7), bonus (5, one-hot), points (/ 5), level (3, one-hot)."""
    f = [n / 7 for n in card.cost_t]
    f += [1.0 if i == card.bonus_i else 0.0 for i in range(5)]
    f.append(card.points / 5)
    f += [1.0 if card.level == lv else 0.0 for lv in (1, 2, 3)]
    return f


_STATIC = [_static(c) for c in CARDS]  # by card id
_CARD = 14  # len(_static(card))
_LEVEL_ONLY = [[0.0] * 11 + [1.0 if lv == k else 0.0 for k in (1, 2, 3)] for lv in (1, 2, 3)]

PLAYER = 15
RESERVED = 2 + _CARD + 2  # present, known, the card's features, (missing for its holder, its holder affords it)


class Layout:
    """Where each part of the input lies at a table of ``players`` seats (2, 3 or 4), and the network's outputs.

    The parts, in order: the table's numbers (``globals``: the supply, the decks, the final round, whether the mover
    is the round's last seat, the game's length; at 3-4 seats also the mover's place in the round, one-hot); each
    seat's own numbers (``PLAYER`` each, the mover first, then the seats after it in turn order); the 12 market slots
    (``slot`` numbers each: the card's features, what the mover lacks to buy it and whether its gold covers that,
    the same for each opponent in turn order, what it costs the mover after bonuses); each seat's 3 reserved slots
    (``RESERVED`` each); the ``nobles`` noble slots (``noble`` numbers each: present, requirement, what each seat
    still lacks). At two seats this is the layout of encoding version 1 exactly. The outputs are ``ACTION_COUNT``
    move logits, then the value: one number at two seats (tanh of it is the mover's result in [-1, 1]), one per
    seat at 3-4 (softmax of them is each seat's chance to win, the mover's first)."""

    __slots__ = ("players", "globals", "slot", "noble", "nobles", "market", "reserved", "noble_at", "raw", "inputs",
                 "values", "outputs")

    def __init__(self, players):
        if players not in (2, 3, 4):
            raise ValueError(f"a table has 2, 3 or 4 seats, not {players!r}")
        n = players
        self.players = n
        self.globals = 12 + (n if n > 2 else 0)
        self.slot = _CARD + 3 + 2 * (n - 1)
        self.noble = 6 + n
        self.nobles = n + 1
        self.market = self.globals + n * PLAYER
        self.reserved = self.market + 12 * self.slot
        self.noble_at = self.reserved + n * RESERVE_LIMIT * RESERVED
        self.raw = self.noble_at + self.nobles * self.noble
        self.inputs = (self.raw + 7) // 8 * 8  # padded to the kernel's vector width
        self.values = 1 if n == 2 else n
        self.outputs = ACTION_COUNT + self.values


LAYOUTS = {n: Layout(n) for n in (2, 3, 4)}
_L2 = LAYOUTS[2]
# The two-seat layout's sizes by their old names (encoding version 1).
GLOBALS = _L2.globals
SLOT = _L2.slot  # a market card: its features, then (missing for the mover, the mover affords it, missing for the
# opponent, the opponent affords it, what it costs the mover after bonuses)
NOBLE = _L2.noble  # present, requirement (5), bonuses the mover and the opponent still lack
RAW_INPUTS = _L2.raw
#: Inputs at two seats, padded to a multiple of 8 (the kernel's vector width).
INPUTS = _L2.inputs


def inputs_for(players):
    """The input's length at a table of ``players`` seats."""
    return LAYOUTS[players].inputs


def encode(game):
    """The network's input for the seat to move in ``game`` (a list of ``inputs_for(game.n)`` floats), from what
    that seat sees (:class:`Layout` says where each number lies).

    ``game`` may be a determinized game (``splendor.determinize``): the cards its seat cannot see are not read (an
    opponent's blind reservation gives only its level; the decks only their sizes)."""
    me = game.current
    n = game.n
    players = game.player_list
    seats = players[me:] + players[:me]  # the mover, then the seats after it in turn order
    p = seats[0]
    opps = seats[1:]
    s = game.supply_list
    ds = game.deck_sizes
    place = (me - game.start) % n
    x = [s[0] / 4, s[1] / 4, s[2] / 4, s[3] / 4, s[4] / 4, s[5] / 5, ds[0] / 40, ds[1] / 30, ds[2] / 20,
         1.0 if game.final else 0.0, 1.0 if place == n - 1 else 0.0, game.turns / (30.0 * n)]
    if n > 2:
        x += _PLACES[n][place]
    for q in seats:
        t, b = q.tok, q.bon
        x += (t[0] / 4, t[1] / 4, t[2] / 4, t[3] / 4, t[4] / 4, t[5] / 5, b[0] / 5, b[1] / 5, b[2] / 5, b[3] / 5,
              b[4] / 5, q.points / WINNING_POINTS, sum(t) / 10, len(q.reserved_list) / 3, len(q.nobles) / 3)
    pt, pb = p.tok, p.bon
    pg = pt[5]
    others = [(q.bon, q.tok, q.tok[5]) for q in opps]
    empty = _EMPTY_SLOTS[n]
    for row in game.market_rows:
        for c in row:
            if c is None:
                x += empty
                continue
            x += _STATIC[c.id]
            mine = after = 0
            for i, k in c.needs:
                d = k - pb[i]
                if d > 0:
                    after += d
                    d -= pt[i]
                    if d > 0:
                        mine += d
            x.append(mine / 10)
            x.append(1.0 if mine <= pg else 0.0)
            for ob, ot, og in others:
                theirs = 0
                for i, k in c.needs:
                    d = k - ob[i] - ot[i]
                    if d > 0:
                        theirs += d
                x.append(theirs / 10)
                x.append(1.0 if theirs <= og else 0.0)
            x.append(after / 10)
    show = game.open_reservations
    for k, q in enumerate(seats):
        res = q.reserved_list
        hid = q.hidden
        t, b, g = q.tok, q.bon, q.tok[5]
        for j in range(RESERVE_LIMIT):
            if j >= len(res):
                x += _EMPTY_RESERVED
                continue
            c = res[j]
            if k and hid[j] and not show:
                x += (1.0, 0.0)
                x += _LEVEL_ONLY[c.level - 1]
                x += (0.0, 0.0)
                continue
            m = shortfall(c, t, b)
            x += (1.0, 1.0)
            x += _STATIC[c.id]
            x += (m / 10, 1.0 if m <= g else 0.0)
    nobles = game.noble_list
    bonuses = [q.bon for q in seats]
    empty = _EMPTY_NOBLES[n]
    for j in range(n + 1):
        if j >= len(nobles):
            x += empty
            continue
        nb = nobles[j]
        r = nb.req_t
        x += (1.0, r[0] / 4, r[1] / 4, r[2] / 4, r[3] / 4, r[4] / 4)
        needs = nb.needs
        for qb in bonuses:
            lack = 0
            for i, k in needs:
                if k > qb[i]:
                    lack += k - qb[i]
            x.append(lack / 8)
    x += _PADS[n]
    return x


_EMPTY_RESERVED = [0.0] * RESERVED
_PADS = {n: [0.0] * (lay.inputs - lay.raw) for n, lay in LAYOUTS.items()}
_EMPTY_SLOTS = {n: [0.0] * lay.slot for n, lay in LAYOUTS.items()}
_EMPTY_NOBLES = {n: [0.0] * lay.noble for n, lay in LAYOUTS.items()}
_PLACES = {n: [[1.0 if k == place else 0.0 for k in range(n)] for place in range(n)] for n in LAYOUTS}
