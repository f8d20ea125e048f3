"""The game state and the rules: setup, legal actions, apply and undo, end of turn, scoring.

>>> import splendor
>>> game = splendor.new_game(players=2, seed=7)
>>> game.phase, game.current_player, game.deck_sizes
('action', 0, (36, 26, 16))
>>> game.supply["white"], game.supply["gold"]
(4, 5)
>>> game.apply(splendor.parse_action(game, "take white blue green"))
>>> game.players[0].tokens["blue"], game.current_player
(1, 1)
>>> game.undo()
>>> game.players[0].tokens["blue"], game.current_player
(0, 0)
"""

import random
from operator import attrgetter

from .actions import KINDS, Action, IllegalActionError, NotationError, parse_notation
from .cards import (
    CARDS,
    CARDS_BY_LEVEL,
    COLOR_INDEX,
    COLORS,
    NOBLES,
    TOKEN_COLORS,
    card_from_code,
    noble_from_code,
)

from .rules import (FORMAT_VERSION, GOLD_TOKENS, PHASES, RECORD_FORMAT, RESERVE_LIMIT, STATE_FORMAT, TOKEN_LIMIT,
                    TOKENS_PER_COLOR, VARIANTS, WINNING_POINTS)
from .state import InvalidStateError, game_from_dict

# Opcodes of the undo journal: each apply pushes one frame of (scalars, steps...).
_TOK, _PAY, _RES_MARKET, _RES_DECK, _BUY_MARKET, _BUY_RESERVED, _NOBLE, _VETO, _DEAL, _SERIES_END = range(10)


def _combos(mask):
    """Every take of min(3, available) different colors from the colors in ``mask`` (bit i = color i)."""
    avail = [i for i in range(5) if mask >> i & 1]
    k = min(3, len(avail))
    out = []

    def rec(start, chosen):
        if len(chosen) == k:
            out.append(Action.take(*(COLORS[i] for i in chosen)))
            return
        for j in range(start, len(avail)):
            rec(j + 1, chosen + [avail[j]])

    if k:
        rec(0, [])
    return tuple(out)


# Every action that does not depend on a price is made once and shared: generation only picks from these tables.
_TAKES_BY_MASK = tuple(_combos(m) for m in range(32))
_TAKE_TWO = tuple(Action.take_two(c) for c in COLORS)
_RETURN = tuple(Action.return_token(c) for c in TOKEN_COLORS)
_RESERVE = tuple(Action.reserve(c) for c in CARDS)
_BLIND = tuple(Action.reserve(level=lv) for lv in (1, 2, 3))
_NOBLE_ACT = tuple(Action.choose_noble(n) for n in NOBLES)
_VETO_ACT = tuple(Action.veto(n) for n in NOBLES)
_PASS = Action.pass_turn()
# Buys differ by payment, so they cannot all be made in advance; each (card, payment) met is made once and kept.
# The table stays small: a card's default payments are bounded by its cost and the 5 gold.
_BUYS = {}
# Fewest bonuses any noble needs (8 for a 4+4 tile): below that, the end of a turn skips the noble check.
_MIN_NOBLE_NEED = min(sum(nb.req_t) for nb in NOBLES)


def _buy_action(card, pay):
    action = _BUYS.get((card.id, pay))
    if action is None:
        action = _BUYS[card.id, pay] = Action("buy", card=card, pay_t=pay)
    return action


class Player:
    """One seat's holdings. ``tokens`` and ``bonuses`` are dicts by color; ``cards``, ``reserved`` and ``nobles``
    are tuples; ``points`` is prestige (bought cards plus nobles)."""

    __slots__ = ("tok", "bon", "_cards", "_reserved", "hidden", "_nobles", "points")

    def __init__(self):
        self.tok = [0, 0, 0, 0, 0, 0]
        self.bon = [0, 0, 0, 0, 0]
        self._cards = []
        self._reserved = []
        self.hidden = []  # parallel to _reserved: True for a card reserved unseen from a deck
        self._nobles = []
        self.points = 0

    def copy(self):
        p = Player.__new__(Player)
        p.tok = self.tok[:]
        p.bon = self.bon[:]
        p._cards = self._cards[:]
        p._reserved = self._reserved[:]
        p.hidden = self.hidden[:]
        p._nobles = self._nobles[:]
        p.points = self.points
        return p

    @property
    def tokens(self):
        return dict(zip(TOKEN_COLORS, self.tok))

    @property
    def bonuses(self):
        return dict(zip(COLORS, self.bon))

    @property
    def cards(self):
        return tuple(self._cards)

    @property
    def reserved(self):
        return tuple(self._reserved)

    @property
    def reserved_hidden(self):
        """Parallel to ``reserved``: True where the card was reserved unseen from a deck."""
        return tuple(self.hidden)

    @property
    def nobles(self):
        return tuple(self._nobles)

    @property
    def token_count(self):
        return sum(self.tok)

    reserved_list = property(attrgetter("_reserved"), doc="""The reserved cards, live: the player's own list
        (``reserved`` is a copy), parallel to ``hidden``. For the bots' inner loops (:class:`Game`'s live read);
        read it, never change it.""")

    def __repr__(self):
        return f"Player(points={self.points}, tokens={self.tokens}, cards={len(self._cards)})"


def shortfall(card, tok, bon):
    """How many gold the holder of ``tok`` and ``bon`` (six and five counts, in color order) needs to buy ``card``
    (0 when colored tokens suffice): the engine's test of what a seat can afford, public for the bots' readings."""
    short = 0
    for i, n in card.needs:
        d = n - bon[i] - tok[i]
        if d > 0:
            short += d
    return short


def _default_payment(card, tok, bon):
    """Pay each color with its own tokens as far as they go, and the rest with gold."""
    pay = [0, 0, 0, 0, 0, 0]
    gold = 0
    for i, n in card.needs:
        need = n - bon[i]
        if need > 0:
            own = tok[i]
            if own >= need:
                pay[i] = need
            else:
                pay[i] = own
                gold += need - own
    pay[5] = gold
    return tuple(pay)


def _field_fault(action):
    """What is malformed in an Action built by hand, or None. Values equal to a legal action's but of another type
    (a level 3.0, a payment of True or 2.0) would otherwise pass as that action and then corrupt the state."""
    if action.kind not in KINDS:
        return f"there is no kind of action called {action.kind!r}"
    level = action.level
    if level is not None and type(level) is not int:
        return f"a deck level is 1, 2 or 3, not {level!r}"
    pay = action.pay_t
    if pay is not None and (type(pay) is not tuple or len(pay) != 6
                            or any(type(x) is not int or x < 0 for x in pay)):
        return "a payment counts the tokens of the six colors paid, as whole numbers"
    return None


class Game:
    """A game of Splendor (base game, 2-4 players). Make one with :func:`new_game`.

    The state is read through properties (``phase``, ``current_player``, ``supply``, ``market``, ``players``...)
    and changed only through :meth:`apply` (checked) and :meth:`undo`.

    The bots read it in their inner loops through the *live read*: ``player_list``, ``market_rows``,
    ``supply_list``, ``noble_list`` (and each player's ``tok``, ``bon``, ``points``, ``hidden`` and
    ``reserved_list``) are the game's own lists, not copies, at the cost of an attribute; they are read, never
    changed. A search changes its copies of a game only through :meth:`apply_unchecked`, :meth:`undo` and
    :meth:`redeal`.

    >>> game = Game(players=2, seed=7)
    >>> game.player_list[0] is game.players[0], game.supply_list[5], game.market_rows[0] == list(game.market[0])
    (True, 5, True)
    """

    # Construction ---------------------------------------------------------------------------------------------
    def __init__(self, players=2, seed=None, first_player=0, variants=(), deals=None):
        if isinstance(players, bool) or not isinstance(players, int) or players not in TOKENS_PER_COLOR:
            raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a whole number of at least 0, not {seed!r}")
        if first_player is None or first_player == "random":
            first_player = random.Random(f"splendor/{seed}/first").randrange(players)
        if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < players:
            raise ValueError(f"first_player must be a seat from 0 to {players - 1}, not {first_player!r}")
        if isinstance(variants, str):
            variants = (variants,)
        unknown = [v for v in variants if v not in VARIANTS]
        if unknown:
            raise ValueError(f"unknown variant {unknown[0]!r}: the variants are {', '.join(VARIANTS)}")
        self.n = players
        self.seed = seed
        self.first_player = first_player
        self.variants = tuple(v for v in VARIANTS if v in variants)
        self._open = "open_reservations" in self.variants
        self._veto = "noble_veto" in self.variants
        self._series = "rotating_series" in self.variants
        self.game_index = 0
        self.series_results = []  # scores of each finished game of a series
        self._history = []  # (action, undo frame)
        self._texts = []  # the notation of the history's first actions, as far as it was asked for (_action_texts)
        self._prior = ()  # action texts before the history (a game read by from_dict keeps its record)
        self._deals = _check_deals(deals, players, self._veto, self._series)  # the cards a record says were dealt
        self._dealt = ()  # per game of a series: (the decks' order, the face-up nobles) as that game was dealt
        self._deal()

    def _deal(self):
        """Set up the board for game ``game_index`` (a series deals afresh each game)."""
        n = self.n
        rng = random.Random(f"splendor/{self.seed}/{self.game_index}")
        decks = []
        for level_cards in CARDS_BY_LEVEL:
            deck = list(level_cards)
            rng.shuffle(deck)
            decks.append(deck)
        nobles = list(NOBLES)
        rng.shuffle(nobles)
        stacked = self._deals[self.game_index] if self.game_index < len(self._deals) else None
        if stacked is not None:  # the recorded cards come out first, in their order; the seed orders the rest
            cards, faces = stacked
            for lv, drawn in enumerate(cards):
                known = set(drawn)
                decks[lv] = [c for c in decks[lv] if c not in known] + drawn[::-1]
            nobles = list(faces) + [nb for nb in nobles if nb not in faces]
        self._nobles = nobles[: (2 * n + 1 if self._veto else n + 1)]
        self._dealt = self._dealt[:self.game_index] + ((tuple(tuple(d) for d in decks), tuple(self._nobles)),)
        self._decks = decks
        self._market = [[deck.pop() for _ in range(4)] for deck in decks]
        per = TOKENS_PER_COLOR[n]
        self._supply = [per] * 5 + [GOLD_TOKENS]
        self._players = [Player() for _ in range(n)]
        self.start = (self.first_player + self.game_index) % n
        self.current = self.start
        self.phase_ = "veto" if self._veto else "action"
        self.final = False
        self.passes = 0
        self.turns = 0

    # Reading the state ----------------------------------------------------------------------------------------
    @property
    def current_player(self):
        """The seat to act (also during return, noble and veto decisions); None once the game is over."""
        return None if self.phase_ == "over" else self.current

    phase = property(attrgetter("phase_"), doc="'action', 'return', 'noble', 'veto' or 'over'.")

    @property
    def players_count(self):
        return self.n

    @property
    def supply(self):
        return dict(zip(TOKEN_COLORS, self._supply))

    @property
    def market(self):
        """Three tuples (levels 1, 2, 3) of four slots, each a Card or None for a slot its empty deck cannot fill."""
        return tuple(tuple(row) for row in self._market)

    @property
    def deck_sizes(self):
        return tuple(len(d) for d in self._decks)

    @property
    def nobles(self):
        return tuple(self._nobles)

    @property
    def players(self):
        return tuple(self._players)

    @property
    def is_over(self):
        return self.phase_ == "over"

    # The live read (the class's text): the game's own lists, for the bots' inner loops; never changed through them.
    # An attrgetter is the whole getter: no Python frame per read.
    player_list = property(attrgetter("_players"), doc="The seats' Player objects, live (``players``: a copy).")
    market_rows = property(attrgetter("_market"), doc="""Three lists (levels 1, 2, 3) of four slots, each a Card or
        None, live (``market``: a copy).""")
    supply_list = property(attrgetter("_supply"), doc="""The supply's counts in ``TOKEN_COLORS`` order, gold last,
        live (``supply``: a dict by color).""")
    noble_list = property(attrgetter("_nobles"), doc="The nobles on the table, live (``nobles``: a copy).")
    open_reservations = property(attrgetter("_open"), doc="""True with the open reservations variant: every
        reserved card is seen by every seat.""")

    @property
    def final_round(self):
        """True once someone has reached 15: the round is being played out."""
        return self.final

    @property
    def round(self):
        """The round being played, from 1 (a round is one turn of every player)."""
        return self.turns // self.n + 1

    @property
    def scores(self):
        """Prestige of each seat in the current (or last) game."""
        return tuple(p.points for p in self._players)

    @property
    def series_scores(self):
        """Summed prestige of each seat over the games of a rotating-start series so far, this one included."""
        totals = list(self.scores) if not (self.phase_ == "over" and self._series) else [0] * self.n
        for scores in self.series_results:
            for i, s in enumerate(scores):
                totals[i] += s
        return tuple(totals)

    @property
    def winners(self):
        """Seats that won, once the game is over (several when the victory is shared); () while it goes on."""
        if self.phase_ != "over":
            return ()
        if self._series:
            totals = self.series_scores
            best = max(totals)
            return tuple(i for i, t in enumerate(totals) if t == best)
        return self._deal_winners()[0]

    def _deal_winners(self):
        """(winners, decided_by) for the current deal: decided_by is 'score', 'fewer cards' or 'shared'."""
        pts = self.scores
        best = max(pts)
        top = [i for i in range(self.n) if pts[i] == best]
        if len(top) == 1:
            return tuple(top), "score"
        fewest = min(len(self._players[i]._cards) for i in top)
        top = [i for i in top if len(self._players[i]._cards) == fewest]
        return tuple(top), ("fewer cards" if len(top) == 1 else "shared")

    @property
    def tie_break(self):
        """How the last finished game was decided: 'score', 'fewer cards' or 'shared' (None while it goes on)."""
        if self.phase_ != "over":
            return None
        if self._series:
            totals = self.series_scores
            return "score" if totals.count(max(totals)) == 1 else "shared"
        return self._deal_winners()[1]

    @property
    def history(self):
        """The actions applied so far, oldest first."""
        return tuple(a for a, _ in self._history)

    def price(self, card, seat=None):
        """What ``card`` costs ``seat`` (default: the player to act) after bonuses: a dict of the five colors."""
        p = self._players[self.current if seat is None else seat]
        return {COLORS[i]: max(0, card.cost_t[i] - p.bon[i]) for i in range(5)}

    def default_payment(self, card, seat=None):
        """The tokens the default buy of ``card`` pays: own colors first, gold for the rest (dict incl. gold)."""
        p = self._players[self.current if seat is None else seat]
        return dict(zip(TOKEN_COLORS, _default_payment(card, p.tok, p.bon)))

    def can_afford(self, card, seat=None):
        p = self._players[self.current if seat is None else seat]
        return shortfall(card, p.tok, p.bon) <= p.tok[5]

    def qualifying_nobles(self, seat=None):
        """Nobles on the table whose requirement ``seat``'s bonuses meet."""
        bon = self._players[self.current if seat is None else seat].bon
        return [nb for nb in self._nobles if all(bon[i] >= n for i, n in nb.needs)]

    # Legal actions --------------------------------------------------------------------------------------------
    def legal_actions(self):
        """Every legal action now, in a fixed order: buys (market by level and slot, then reserve), takes of three
        (or fewer) colors, takes of two, reserves (market, then blind by level); a lone pass when nothing else is
        possible. In the return, noble and veto phases, the returns, nobles or vetoes allowed.
        """
        phase = self.phase_
        if phase == "action":
            return self._action_moves()
        if phase == "return":
            tok = self._players[self.current].tok
            return [_RETURN[i] for i in range(6) if tok[i]]
        if phase == "noble":
            return [_NOBLE_ACT[nb.id] for nb in self.qualifying_nobles()]
        if phase == "veto":
            return [_VETO_ACT[nb.id] for nb in self._nobles]
        return []

    def _action_moves(self):
        p = self._players[self.current]
        tok = p.tok
        bon = p.bon
        gold = tok[5]
        moves = []
        add = moves.append
        for row in self._market:
            for card in row:
                if card is None:
                    continue
                short = 0
                for i, n in card.needs:
                    d = n - bon[i] - tok[i]
                    if d > 0:
                        short += d
                if short <= gold:
                    add(_buy_action(card, _default_payment(card, tok, bon)))
        for card in p._reserved:
            if shortfall(card, tok, bon) <= gold:
                add(_buy_action(card, _default_payment(card, tok, bon)))
        s = self._supply
        mask = (s[0] > 0) | (s[1] > 0) << 1 | (s[2] > 0) << 2 | (s[3] > 0) << 3 | (s[4] > 0) << 4
        moves.extend(_TAKES_BY_MASK[mask])
        for i in range(5):
            if s[i] >= 4:
                add(_TAKE_TWO[i])
        if len(p._reserved) < RESERVE_LIMIT:
            for row in self._market:
                for card in row:
                    if card is not None:
                        add(_RESERVE[card.id])
            for lv in range(3):
                if self._decks[lv]:
                    add(_BLIND[lv])
        if not moves:
            add(_PASS)
        return moves

    # Applying -------------------------------------------------------------------------------------------------
    def apply(self, action):
        """Apply a legal action (an Action, or its text). Raises IllegalActionError with the reason otherwise, and
        then the game is unchanged."""
        if isinstance(action, str):
            action = parse_action(self, action)
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        if action.kind == "buy" and action.pay_t is None:
            action = self._with_default_payment(action)
        reason = self.why_illegal(action)
        if reason:
            raise IllegalActionError(reason)
        self.apply_unchecked(action)

    def is_legal(self, action):
        return self.why_illegal(action) is None

    def _with_default_payment(self, action):
        card = action.card
        if not isinstance(card, type(CARDS[0])):
            raise IllegalActionError(f"buy needs a card, not {card!r}")
        p = self._players[self.current]
        return Action("buy", card=card, pay_t=_default_payment(card, p.tok, p.bon))

    def apply_unchecked(self, action):
        """Apply an action known to be legal (from legal_actions): the fast path for search. No validation."""
        cur = self.current
        frame = [(cur, self.phase_, self.final, self.passes, self.turns)]
        self._history.append((action, frame))
        kind = action.kind
        p = self._players[cur]
        s = self._supply
        if kind == "take" or kind == "take_two":
            n = 1 if kind == "take" else 2
            for c in action.colors:
                i = COLOR_INDEX[c]
                s[i] -= n
                p.tok[i] += n
                frame.append((_TOK, cur, i, n))
            self.passes = 0
            self._end_turn(frame)
        elif kind == "buy":
            card = action.card
            pay = action.pay_t
            tok = p.tok
            for i in range(6):
                if pay[i]:
                    tok[i] -= pay[i]
                    s[i] += pay[i]
            frame.append((_PAY, cur, pay))
            lv = card.level - 1
            row = self._market[lv]
            if card in p._reserved:
                idx = p._reserved.index(card)
                hidden = p.hidden[idx]
                del p._reserved[idx]
                del p.hidden[idx]
                frame.append((_BUY_RESERVED, cur, idx, card, hidden))
            else:
                slot = row.index(card)
                deck = self._decks[lv]
                row[slot] = deck.pop() if deck else None
                frame.append((_BUY_MARKET, cur, lv, slot, card))
            p._cards.append(card)
            p.bon[card.bonus_i] += 1
            p.points += card.points
            self.passes = 0
            self._end_turn(frame)
        elif kind == "reserve":
            card = action.card
            if card is None:
                lv = action.level - 1
                p._reserved.append(self._decks[lv].pop())
                p.hidden.append(True)
                frame.append((_RES_DECK, cur, lv))
            else:
                lv = card.level - 1
                row = self._market[lv]
                slot = row.index(card)
                deck = self._decks[lv]
                row[slot] = deck.pop() if deck else None
                p._reserved.append(card)
                p.hidden.append(False)
                frame.append((_RES_MARKET, cur, lv, slot, card))
            if s[5]:
                s[5] -= 1
                p.tok[5] += 1
                frame.append((_TOK, cur, 5, 1))
            self.passes = 0
            self._end_turn(frame)
        elif kind == "return":
            i = COLOR_INDEX[action.colors[0]]
            s[i] += 1
            p.tok[i] -= 1
            frame.append((_TOK, cur, i, -1))
            self._end_turn(frame)
        elif kind == "noble":
            self._claim(action.noble, frame)
            self._finish_turn(frame)
        elif kind == "veto":
            idx = self._nobles.index(action.noble)
            del self._nobles[idx]
            frame.append((_VETO, idx, action.noble))
            if len(self._nobles) > self.n + 1:
                self.current = (cur + 1) % self.n
            else:
                self.current = self.start
                self.phase_ = "action"
        else:  # pass
            self.passes += 1
            self._end_turn(frame)

    def _claim(self, noble, frame):
        cur = self.current
        idx = self._nobles.index(noble)
        del self._nobles[idx]
        p = self._players[cur]
        p._nobles.append(noble)
        p.points += noble.points
        frame.append((_NOBLE, cur, idx, noble))

    def _end_turn(self, frame):
        """The end of a turn, in the rules' order: token limit, then nobles, then the score check."""
        p = self._players[self.current]
        if sum(p.tok) > TOKEN_LIMIT:
            self.phase_ = "return"
            return
        bon = p.bon
        if not self._nobles or sum(bon) < _MIN_NOBLE_NEED:
            met = ()
        else:
            met = [nb for nb in self._nobles if all(bon[i] >= n for i, n in nb.needs)]
        if len(met) > 1:
            self.phase_ = "noble"
            return
        if met:
            self._claim(met[0], frame)
        self._finish_turn(frame)

    def _finish_turn(self, frame):
        n = self.n
        cur = self.current
        if not self.final and self._players[cur].points >= WINNING_POINTS:
            self.final = True
        self.turns += 1
        if (self.final and cur == (self.start - 1) % n) or self.passes >= n:
            if self._series and self.game_index < n - 1:
                frame.append((_DEAL, self._board_snapshot()))
                self.series_results.append(self.scores)
                self.game_index += 1
                self._deal()
            else:
                if self._series:  # the last game of the series: its scores join the per-game results
                    self.series_results.append(self.scores)
                    frame.append((_SERIES_END,))
                self.phase_ = "over"
            return
        self.current = (cur + 1) % n
        self.phase_ = "action"

    def _board_snapshot(self):
        return (
            self._supply[:],
            [row[:] for row in self._market],
            [d[:] for d in self._decks],
            self._nobles[:],
            [p.copy() for p in self._players],
            self.start,
        )

    def undo(self):
        """Take back the last applied action exactly. IllegalActionError when there is nothing to undo."""
        if not self._history:
            raise IllegalActionError("there is nothing to undo")
        _, frame = self._history.pop()
        if len(self._texts) > len(self._history):
            self._texts.pop()
        s = self._supply
        players = self._players
        for step in reversed(frame[1:]):
            op = step[0]
            if op == _TOK:
                _, seat, i, k = step
                s[i] += k
                players[seat].tok[i] -= k
            elif op == _PAY:
                _, seat, pay = step
                tok = players[seat].tok
                for i in range(6):
                    tok[i] += pay[i]
                    s[i] -= pay[i]
            elif op == _BUY_MARKET or op == _BUY_RESERVED:
                seat, card = step[1], step[-2 if op == _BUY_RESERVED else -1]
                p = players[seat]
                p._cards.pop()
                p.bon[card.bonus_i] -= 1
                p.points -= card.points
                if op == _BUY_MARKET:
                    _, _, lv, slot, _ = step
                    self._put_back(lv, slot, card)
                else:
                    _, _, idx, _, hidden = step
                    p._reserved.insert(idx, card)
                    p.hidden.insert(idx, hidden)
            elif op == _RES_MARKET:
                _, seat, lv, slot, card = step
                p = players[seat]
                p._reserved.pop()
                p.hidden.pop()
                self._put_back(lv, slot, card)
            elif op == _RES_DECK:
                _, seat, lv = step
                p = players[seat]
                p.hidden.pop()
                self._decks[lv].append(p._reserved.pop())
            elif op == _NOBLE:
                _, seat, idx, noble = step
                p = players[seat]
                p._nobles.pop()
                p.points -= noble.points
                self._nobles.insert(idx, noble)
            elif op == _VETO:
                _, idx, noble = step
                self._nobles.insert(idx, noble)
            elif op == _SERIES_END:
                self.series_results.pop()
            elif op == _DEAL:
                supply, market, decks, nobles, plist, start = step[1]
                self._supply, self._market, self._decks, self._nobles = supply, market, decks, nobles
                self._players, self.start = plist, start
                s, players = self._supply, self._players
                self.series_results.pop()
                self.game_index -= 1
        self.current, self.phase_, self.final, self.passes, self.turns = frame[0]

    def _put_back(self, lv, slot, card):
        row = self._market[lv]
        if row[slot] is not None:
            self._decks[lv].append(row[slot])
        row[slot] = card

    def can_undo(self):
        return bool(self._history)

    # Explaining an illegal action -------------------------------------------------------------------------------
    def why_illegal(self, action):
        """None when ``action`` is legal now; otherwise the reason, in words a player can read."""
        if not isinstance(action, Action):
            return f"not an action: {action!r}"
        fault = _field_fault(action)
        if fault:
            return fault
        phase = self.phase_
        kind = action.kind
        if phase == "over":
            return "the game is over"
        legal = self.legal_actions()
        if action in legal:
            return None
        p = self._players[self.current]
        if phase == "return" and kind != "return":
            extra = sum(p.tok) - TOKEN_LIMIT
            return f"you hold {sum(p.tok)} tokens: return {extra} token{'s' if extra > 1 else ''} first"
        if phase == "noble" and kind != "noble":
            return "choose which noble visits you first"
        if phase == "veto" and kind != "veto":
            return "each player removes one noble before the game starts"
        if phase == "action" and kind in ("return", "noble", "veto"):
            what = {"return": "return tokens only when holding more than 10",
                    "noble": "nobles come by themselves at the end of a turn",
                    "veto": "nobles are removed only before the game, in the noble veto variant"}[kind]
            return f"not now: {what}"
        if kind == "buy":
            return self._reason(action, p)  # None: a legal buy with a payment other than the default
        return self._reason(action, p) or f"{action} is not allowed now"

    def _reason(self, a, p):
        kind = a.kind
        s = self._supply
        if kind in ("take", "take_two"):
            if any(c not in COLORS for c in a.colors):
                return "gold cannot be taken: it comes only with a reservation"
            if kind == "take_two":
                c = a.colors[0]
                have = s[COLOR_INDEX[c]]
                return f"two {c} need at least 4 in the pile before taking, and it holds {have}"
            empty = [c for c in a.colors if s[COLOR_INDEX[c]] == 0]
            if empty:
                return f"the {empty[0]} pile is empty"
            avail = sum(1 for i in range(5) if s[i])
            need = min(3, avail)
            if len(a.colors) != need:
                return (f"take {need} different colors: {avail} color{'s' if avail != 1 else ''} "
                        f"{'have' if avail != 1 else 'has'} tokens")
            return "the colors of a take must differ"
        if kind == "reserve":
            if len(p._reserved) >= RESERVE_LIMIT:
                return "you already hold 3 reserved cards"
            if a.card is None:
                if a.level not in (1, 2, 3):
                    return f"there is no deck of level {a.level!r}"
                return f"the level {a.level} deck is empty"
            return f"the card {a.card} is not in the market"
        if kind == "buy":
            card = a.card
            if not isinstance(card, type(CARDS[0])):
                return f"buy needs a card, not {card!r}"
            in_market = any(card in row for row in self._market)
            if not in_market and card not in p._reserved:
                return f"the card {card} is neither in the market nor among your reserved cards"
            short = shortfall(card, p.tok, p.bon)
            if short > p.tok[5]:
                missing = short - p.tok[5]
                return f"you cannot afford {card}: {missing} token{'s' if missing > 1 else ''} short"
            pay = a.pay_t
            if pay is None or len(pay) != 6 or any(not isinstance(x, int) or x < 0 for x in pay):
                return "a payment counts the tokens of the six colors paid"
            for i in range(6):
                if pay[i] > p.tok[i]:
                    return f"you cannot pay {pay[i]} {TOKEN_COLORS[i]}: you hold {p.tok[i]}"
            gold_needed = 0
            for i in range(5):
                need = max(0, card.cost_t[i] - p.bon[i])
                if pay[i] > need:
                    return f"{card} costs you {need} {COLORS[i]} after bonuses, not {pay[i]}"
                gold_needed += need - pay[i]
            if pay[5] != gold_needed:
                return f"the payment must cover the price exactly: {gold_needed} gold, not {pay[5]}"
            return None
        if kind == "return":
            c = a.colors[0]
            if self.phase_ != "return":
                return "return tokens only when holding more than 10"
            return f"you hold no {c} token"
        if kind == "noble":
            if a.noble not in self._nobles:
                return f"the noble {a.noble} is not on the table"
            return f"your bonuses do not meet the noble {a.noble} yet"
        if kind == "veto":
            return f"the noble {a.noble} is not on the table"
        if kind == "pass":
            return "you can only pass when no other action is possible"
        return None

    # Views ----------------------------------------------------------------------------------------------------
    def observation(self, seat):
        """What ``seat`` may see, as JSON-able data: everything but deck order and other seats' blind reservations
        (with the open reservations variant every reserved card is shown). A hidden card reads {"level": L}."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise ValueError(f"seat must be from 0 to {self.n - 1}, not {seat!r}")
        data = self._public()
        data["seat"] = seat
        for i, p in enumerate(self._players):
            data["tableaus"][i]["reserved"] = [
                card.code if (not hid or i == seat or self._open) else {"level": card.level}
                for card, hid in zip(p._reserved, p.hidden)
            ]
        return data

    def _public(self):
        return {
            "format": "splendor-observation",
            "version": FORMAT_VERSION,
            "players": self.n,
            "variants": list(self.variants),
            "first_player": self.first_player,
            "game_index": self.game_index,
            "series_results": [list(r) for r in self.series_results],
            "start": self.start,
            "current": self.current,
            "phase": self.phase_,
            "final_round": self.final,
            "passes": self.passes,
            "turns": self.turns,
            "supply": self.supply,
            "market": [[c.code if c else None for c in row] for row in self._market],
            "deck_sizes": list(self.deck_sizes),
            "nobles": [nb.code for nb in self._nobles],
            "tableaus": [
                {
                    "tokens": p.tokens,
                    "cards": [c.code for c in p._cards],
                    "nobles": [nb.code for nb in p._nobles],
                    "points": p.points,
                }
                for p in self._players
            ],
        }

    def to_dict(self):
        """The full state as JSON-able data (deck order included). ``Game.from_dict`` reads it back."""
        data = self._public()
        data["format"] = STATE_FORMAT
        data["seed"] = self.seed
        data["decks"] = [[c.code for c in d] for d in self._decks]
        if self._deals:  # the record's deals, so that the game read back keeps a record that replays
            data["deals"] = self._deals_data()
        for p, t in zip(self._players, data["tableaus"]):
            t["reserved"] = [{"card": c.code, "hidden": h} for c, h in zip(p._reserved, p.hidden)]
        data["actions"] = self._action_texts()
        return data

    def _action_texts(self):
        texts, history = self._texts, self._history
        texts.extend(str(a) for a, _ in history[len(texts):])  # (undo keeps texts no longer than the history)
        return list(self._prior) + texts

    def record(self, hide_decks=False):
        """The game as setup + seed + actions (JSON-able). ``replay(record)`` rebuilds an equal game.

        A game set up with ``deals`` keeps them in its record (``"deals"``, beside the seed that orders the other
        cards). ``hide_decks``: a record that does not give away the decks' order, for a game in progress shown to
        people: no seed, and the cards dealt so far instead (``dealt()``); it replays to a game equal in all a
        player sees (``observation``), the undealt cards shuffled afresh.
        """
        data = {
            "format": RECORD_FORMAT,
            "version": FORMAT_VERSION,
            "players": self.n,
            "seed": self.seed,
            "first_player": self.first_player,
            "variants": list(self.variants),
            "actions": self._action_texts(),
        }
        if hide_decks:
            data["seed"] = None
            data["deals"] = self.dealt()
        elif self._deals:
            data["deals"] = self._deals_data()
        return data

    def _deals_data(self):
        return [{"cards": [[c.code for c in d] for d in cards], "nobles": [nb.code for nb in faces]}
                for cards, faces in self._deals]

    def dealt(self):
        """The cards dealt so far, as JSON-able data: for each game of a series up to this one, ``{"cards": the
        cards drawn from each level's deck (market and blind reservations) in the order drawn, "nobles": the
        nobles laid out}``. A finished game of a series lists its whole decks (nothing in them is to be won)."""
        game = self if not self._prior else replay(self.record())  # (a game read by from_dict: its deal rebuilt)
        out = []
        for index, (decks, faces) in enumerate(game._dealt[:game.game_index + 1]):
            left = game._decks if index == game.game_index else [()] * 3
            out.append({"cards": [[c.code for c in d[len(rest):][::-1]] for d, rest in zip(decks, left)],
                        "nobles": [nb.code for nb in faces]})
        return out

    def copy(self):
        """An independent copy of the state, without the undo history (cheap: for search)."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._supply = self._supply[:]
        g._market = [row[:] for row in self._market]
        g._decks = [d[:] for d in self._decks]
        g._nobles = self._nobles[:]
        g._players = [p.copy() for p in self._players]
        g.series_results = self.series_results[:]
        g._history = []
        g._texts = []
        return g

    def redeal(self, seat, rng):
        """Deal again, in place, the cards ``seat`` cannot see: the decks' order, and the other seats' cards reserved
        unseen from a deck (shuffled back into their decks first). For a search's samples of a determinized game
        (a :meth:`copy`: a game with moves to undo is refused, since its undo would put the old cards back)."""
        if self._history:
            raise ValueError("redeal() takes a game without moves to undo (a copy)")
        pools = [list(d) for d in self._decks]
        slots = []
        for i, p in enumerate(self._players):
            if i == seat or not any(p.hidden):
                continue
            for j, (c, h) in enumerate(zip(p._reserved, p.hidden)):
                if h:
                    pools[c.level - 1].append(c)
                    slots.append((p, j, c.level - 1))
        for pool in pools:
            if len(pool) > 1:
                rng.shuffle(pool)
        for p, j, lv in slots:
            p._reserved[j] = pools[lv].pop()
        self._decks = pools

    def __eq__(self, other):
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None

    def __repr__(self):
        return (f"<Game players={self.n} seed={self.seed} phase={self.phase_} current={self.current} "
                f"round={self.round} scores={self.scores}>")

    @classmethod
    def from_dict(cls, data):
        """Rebuild a game from ``to_dict()`` data, checking that it is a consistent position (ValueError with the
        reason otherwise). The undo history is not restored; the action list is kept for ``record()``."""
        return game_from_dict(cls, data)


def _check_deals(deals, players, veto, series):
    """A record's ``deals`` (see :meth:`Game.dealt`) as ((three lists of Cards in draw order), (Nobles)) per game;
    ValueError saying what is wrong."""
    if deals is None:
        return ()
    games = players if series else 1
    if not isinstance(deals, list) or not 1 <= len(deals) <= games:
        raise ValueError(f"the record's deals must be a list of 1 to {games} deals")
    out = []
    for k, deal in enumerate(deals, 1):
        if not isinstance(deal, dict) or not isinstance(deal.get("cards"), list) or len(deal["cards"]) != 3:
            raise ValueError(f"deal {k} of the record must name the cards drawn from each of the three decks")
        cards = []
        for lv, codes in enumerate(deal["cards"], 1):
            if not isinstance(codes, list) or len(codes) > len(CARDS_BY_LEVEL[lv - 1]):
                raise ValueError(f"deal {k} of the record: the level {lv} cards must be a list of card codes")
            drawn = [card_from_code(c) for c in codes]
            if any(c.level != lv for c in drawn) or len(set(drawn)) != len(drawn):
                raise ValueError(f"deal {k} of the record: the level {lv} cards must be level {lv} cards, each once")
            cards.append(drawn)
        codes = deal.get("nobles")
        count = 2 * players + 1 if veto else players + 1
        if not isinstance(codes, list) or len(codes) != count:
            raise ValueError(f"deal {k} of the record must name the {count} nobles laid out")
        faces = tuple(noble_from_code(c) for c in codes)
        if len(set(faces)) != count:
            raise ValueError(f"deal {k} of the record names a noble twice")
        out.append((tuple(cards), faces))
    return tuple(out)


def new_game(players=2, seed=None, first_player=0, variants=()):
    """Set up a new game: ``players`` 2-4, an integer ``seed`` (random when None), the starting seat
    (``"random"`` draws it from the seed) and any of the variants ``open_reservations``, ``noble_veto``,
    ``rotating_series``.

    >>> g = new_game(players=3, seed=12345, variants=("noble_veto",))
    >>> g.phase, len(g.nobles), g.supply["red"]
    ('veto', 7, 5)
    """
    return Game(players=players, seed=seed, first_player=first_player, variants=variants)


def parse_action(game, text):
    """Read ``text`` in the action notation against ``game``: besides card codes, a market card may be named by its
    position (``buy 1.3``: level 1, third slot) and a reserved card as ``r1``..``r3``; a ``buy`` without ``pay``
    pays the default way. Raises NotationError (a ValueError) for text that is not an action.

    >>> g = new_game(players=2, seed=1)
    >>> a = parse_action(g, "take white blue green")
    >>> parse_action(g, str(a)) == a
    True
    """
    action = parse_notation(text)
    card = action.card
    if isinstance(card, str):
        card = _resolve_position(game, card, text)
        if action.kind == "reserve":
            action = Action.reserve(card)
        else:
            action = Action("buy", card=card, pay_t=action.pay_t)
    if action.kind == "buy" and action.pay_t is None:
        if game.phase_ == "over":
            raise IllegalActionError("the game is over")
        p = game._players[game.current]
        action = Action("buy", card=action.card, pay_t=_default_payment(action.card, p.tok, p.bon))
    return action


def _resolve_position(game, word, text):
    if len(word) == 3 and word[0] in "123" and word[1] == "." and word[2] in "1234":
        card = game._market[int(word[0]) - 1][int(word[2]) - 1]
        if card is None:
            raise IllegalActionError(f"{text!r}: market slot {word} is empty")
        return card
    if len(word) == 2 and word[0] == "r" and word[1] in "123":
        if game.phase_ == "over":
            raise IllegalActionError("the game is over")
        reserved = game._players[game.current]._reserved
        k = int(word[1])
        if k > len(reserved):
            raise IllegalActionError(f"{text!r}: you hold {len(reserved)} reserved card(s)")
        return reserved[k - 1]
    raise NotationError(
        f"{text!r}: name a card by its code ('2G2:4w2u1k'), market position ('1.3') or reserve position ('r1')"
    )


def replay(record):
    """Rebuild a game from ``record()`` data by applying every action through the rules. ValueError (naming the
    first bad action) when the record is malformed or any action is illegal."""
    if not isinstance(record, dict):
        raise ValueError("a game record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a game record: format is {record.get('format')!r}, expected {RECORD_FORMAT!r}")
    if record.get("version") != FORMAT_VERSION:
        raise ValueError(f"unsupported record version {record.get('version')!r} (this game reads {FORMAT_VERSION})")
    variants = record.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ValueError("the record's variants must be a list of names")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise ValueError("the record's actions must be a list of texts")
    seed = record.get("seed")
    deals = record.get("deals")
    if (isinstance(seed, bool) or not isinstance(seed, int)) and not (seed is None and deals is not None):
        # Without its seed a record would replay as a new random deal, not the recorded game (unless its deals
        # name the cards dealt: then a random seed orders only cards nobody has seen).
        raise ValueError(f"the record's seed must be a whole number, not {seed!r}")
    game = Game(record.get("players"), seed, record.get("first_player"), tuple(variants), deals)
    for k, text in enumerate(actions, 1):
        try:
            game.apply(parse_action(game, text))
        except ValueError as exc:
            raise type(exc)(f"action {k} ({text!r}) of the record: {exc}") from None
    return game



def determinize(observation, rng, order=None):
    """A full Game consistent with ``observation`` (from ``Game.observation``): the unseen cards (deck order and
    other seats' blind reservations) are dealt at random with ``rng``. Bots search such samples, so what they do
    cannot depend on what their seat may not see.

    ``order`` (a dict: card code to a number) deals them by that order instead: every position of one game dealt
    with one order gets the same deal of the cards still unseen (the game review's one view), so two neighbouring
    positions differ only by what the moves between them showed.
    """
    obs = observation
    seen = set()
    for row in obs["market"]:
        seen.update(c for c in row if c)
    for t in obs["tableaus"]:
        seen.update(t["cards"])
        seen.update(r for r in t["reserved"] if isinstance(r, str))
    unseen = [[c.code for c in level if c.code not in seen] for level in CARDS_BY_LEVEL]
    for pool in unseen:
        if order is None:
            rng.shuffle(pool)
        else:
            pool.sort(key=order.__getitem__)
    tableaus = []
    for t in obs["tableaus"]:
        reserved = []
        for r in t["reserved"]:
            if isinstance(r, str):
                reserved.append({"card": r, "hidden": False})
            else:
                reserved.append({"card": unseen[r["level"] - 1].pop(), "hidden": True})
        tableaus.append({"tokens": t["tokens"], "cards": t["cards"], "nobles": t["nobles"], "reserved": reserved})
    decks = []
    for lv in range(3):
        pool = unseen[lv]
        if len(pool) != obs["deck_sizes"][lv]:
            raise InvalidStateError("the observation's deck sizes do not match the unseen cards")
        decks.append(pool)
    data = {k: obs[k] for k in ("players", "variants", "first_player", "game_index", "series_results", "start",
                                "current", "phase", "final_round", "passes", "turns", "supply", "market",
                                "nobles")}
    data.update(format=STATE_FORMAT, version=FORMAT_VERSION, seed=0, decks=decks, tableaus=tableaus)
    return game_from_dict(Game, data)


__all__ = ["Game", "Player", "new_game", "parse_action", "replay", "determinize", "shortfall", "VARIANTS", "PHASES",
           "IllegalActionError", "NotationError", "card_from_code", "noble_from_code"]
