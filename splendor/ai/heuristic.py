"""Position evaluation and one-move lookahead, shared by every bot level.

A seat's *value* estimates its prestige to come, in points: the points it has, what its bonuses are worth as an
engine (worth less as the game nears its end), its progress toward the nobles on the table, and its *prospects* - the
best cards it can see (market and own reserve), each worth its points and bonus, discounted by the turns still
needed to afford it with the tokens and gold in hand. Everything is read from what the seat may see: opponents'
blind reservations are never looked at.

``Scorer.scores`` rates every legal action by the value of the position right after it (the mover's value minus a
share of the best opponent's), computed on small arrays without touching the game; the bots of every level and the
playouts of the search are built on it.
"""

import math

from ..engine.cards import COLOR_INDEX as _COLOR_INDEX
from ..engine.rules import RESERVE_LIMIT, TOKEN_LIMIT, WINNING_POINTS


class Weights:
    """The knobs of the evaluation. Defaults are the tuned values the medium bot uses; the hard bot overrides a few
    (``search.HARD_WEIGHTS``)."""

    __slots__ = ("bonus", "bonus_cap", "noble", "gamma", "prospect", "token", "gold", "blind", "opponent",
                 "finish", "reserve_slot", "noble_blind", "secured")

    def __init__(self, **overrides):
        self.bonus = 1.52         # engine value of one bonus at the start (fades to 0 at 15 points)
        self.bonus_cap = 5        # bonuses of one color beyond this are worth a third
        self.noble = 0.7          # scale of noble progress (x 3 points x progress squared)
        self.gamma = 0.5          # discount per turn still needed to afford a card
        self.prospect = 0.72      # weight of the n-th best visible card: prospect ** (n - 1), four cards
        self.token = 0.06         # a colored token beyond what it does for the prospects
        self.gold = 0.15          # a gold beyond what it does for the prospects
        self.blind = 0.03         # the unseen card of a blind reservation, times its level
        self.opponent = 0.6       # share of the best opponent's value subtracted from the mover's
        self.finish = 2.0         # reaching 15 points (the end is triggered)
        self.reserve_slot = 0.25  # each reserved card held (a slot used, a card not yet paying)
        self.secured = 1.0        # a reserved card's prospect, relative to a market card's (no one can take it)
        self.noble_blind = False  # True: the seat overlooks nobles (easy bot's habit)
        for k, v in overrides.items():
            if k not in self.__slots__:
                raise ValueError(f"unknown weight {k!r}")
            setattr(self, k, v)

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def copy(self, **overrides):
        w = Weights()
        for k in self.__slots__:
            setattr(w, k, getattr(self, k))
        for k, v in overrides.items():
            setattr(w, k, v)
        return w


def stage_of(game):
    """How far the game is toward its end, 0 to 1: the leader's points over 15."""
    return min(1.0, max(p.points for p in game.player_list) / WINNING_POINTS)


_PRICES = {}


def _prices(card, bon_t):
    """(((color, price after bonuses), ...), total price) of ``card`` for bonuses ``bon_t``; memoized."""
    out = []
    total = 0
    for i, n in card.needs:
        p = n - bon_t[i]
        if p > 0:
            out.append((i, p))
            total += p
    if len(_PRICES) > 20_000:  # a few thousand cover a whole game; keep the worker small
        _PRICES.clear()
    r = _PRICES[(card.id, bon_t)] = (tuple(out), total)
    return r


def without_card(ctx, j):
    """A seat context with the ``j``-th visible card gone (another seat bought or reserved it)."""
    base, cards, slots = ctx
    return base, cards[:j] + cards[j + 1:], slots


def with_reserved(w, ctx, j):
    """The mover's context after reserving its ``j``-th visible (market) card: it moves to the secure reserve."""
    base, cards, slots = ctx
    prices, worth, price = cards[j]
    return base - w.reserve_slot, cards[:j] + cards[j + 1:] + [(prices, worth * w.secured, price)], slots - 1


def bonus_terms(w, bon, nobles):
    """(engine count, noble progress, what one more bonus of each color adds to the noble progress) for bonuses
    ``bon``: the engine counts bonuses of one color past ``bonus_cap`` a third each; noble progress is
    3 x ``noble`` x the fraction met squared, per noble."""
    nob = 0.0
    nm = [0.0, 0.0, 0.0, 0.0, 0.0]
    if nobles and not w.noble_blind:
        scale = 3.0 * w.noble
        for nb in nobles:
            need = 0
            total = 0
            for i, n in nb.needs:
                total += n
                d = n - bon[i]
                if d > 0:
                    need += d
            prog = 1.0 - need / total
            nob += prog * prog
            if need:
                nxt = 1.0 - (need - 1) / total
                gain = scale * (nxt * nxt - prog * prog)
                for i, n in nb.needs:
                    if bon[i] < n:
                        nm[i] += gain
        nob *= scale
    cap = w.bonus_cap
    eng = 0.0
    for i in range(5):
        b = bon[i]
        eng += b if b <= cap else cap + (b - cap) / 3.0
    return eng, nob, nm


def seat_context(w, bon, points, market, nobles, stage, reserved=(), hidden_reserved=0, extra=0.0):
    """The part of a seat's value that does not depend on its tokens or the supply, and each visible card's price
    after bonuses: computed once, then :func:`context_value` prices any holding of tokens quickly."""
    wb = w.bonus * (1.0 - stage)
    cap = w.bonus_cap
    eng, nob, nm = bonus_terms(w, bon, nobles)
    bw = [(wb if bon[i] < cap else wb / 3.0) + nm[i] for i in range(5)]
    cards = []
    secured = w.secured
    bon_t = tuple(bon)
    cache = _PRICES
    for card in market:
        key = (card.id, bon_t)
        pr = cache.get(key)
        if pr is None:
            pr = _prices(card, bon_t)
        cards.append((pr[0], card.points + bw[card.bonus_i], pr[1]))
    for card in reserved:
        key = (card.id, bon_t)
        pr = cache.get(key)
        if pr is None:
            pr = _prices(card, bon_t)
        cards.append((pr[0], (card.points + bw[card.bonus_i]) * secured, pr[1]))
    held = len(reserved) + hidden_reserved
    base = points + wb * eng + nob - w.reserve_slot * held + extra
    if points >= WINNING_POINTS:
        base += w.finish
    return base, cards, RESERVE_LIMIT - held


def context_value(w, ctx, tok, supply):
    """A seat's value (see the module text) from its :func:`seat_context` and its tokens, given the supply.

    Prospects: the best visible cards, discounted by the turns to afford them. Tokens come from the supply (what it
    lacks must be gold, from reservations) and at most 10 can be held: a price beyond that needs more bonuses."""
    base, cards, slots = ctx
    gold = tok[5]
    gamma = w.gamma
    vals = []
    use = [0, 0, 0, 0, 0]  # the most of each color any visible card still asks for: tokens beyond are idle
    reach_gold = supply[5] if supply[5] < slots else slots
    for prices, worth, price in cards:
        short = 0
        worst = 0
        excess = 0
        for i, p in prices:
            if p > use[i]:
                use[i] = p
            d = p - tok[i]
            if d > 0:
                a = supply[i]
                if d > a:
                    excess += d - a
                    d = a
                short += d
                if d > worst:
                    worst = d
        if short + excess <= gold:
            vals.append(worth * gamma)
            continue
        turns = 0.0
        spare = gold - excess
        if spare < 0:
            if -spare > reach_gold:
                continue  # out of reach: neither the supply nor a reservation can provide it
            turns = -spare  # a reservation per missing gold
            spare = 0
        short -= spare
        if short > 0:
            t = short / 3.0
            t2 = (worst - spare) / 2.0
            turns += t if t > t2 else t2
        if price > TOKEN_LIMIT:
            turns += price - TOKEN_LIMIT
        vals.append(worth * gamma ** (1.0 + turns))
    pro = 0.0
    if vals:
        vals.sort(reverse=True)
        r = w.prospect
        f = 1.0
        for v in vals[:4]:
            pro += v * f
            f *= r
    idle = 0
    for i in range(5):
        if tok[i] > use[i]:
            idle += tok[i] - use[i]
    return base + pro + w.token * (tok[0] + tok[1] + tok[2] + tok[3] + tok[4] - idle) + w.gold * gold


def seat_value(w, tok, bon, points, market, nobles, stage, supply, reserved=(), hidden_reserved=0, extra=0.0):
    """The value of one seat's holdings (see the module text). ``market``: the market cards; ``reserved``: the
    seat's reserved cards its evaluator may see; ``hidden_reserved``: how many more it holds unseen."""
    ctx = seat_context(w, bon, points, market, nobles, stage, reserved, hidden_reserved, extra)
    return context_value(w, ctx, tok, supply)


class View:
    """What one seat sees of a game, as plain arrays, for evaluating moves without applying them."""

    __slots__ = ("seat", "n", "market", "nobles", "supply", "tok", "bon", "points", "reserved",
                 "stage", "blind")

    def __init__(self, game, seat):
        self.seat = seat
        self.n = game.n
        self.market = [c for row in game.market_rows for c in row if c is not None]
        self.nobles = list(game.noble_list)
        self.supply = game.supply_list[:]
        self.tok = [p.tok[:] for p in game.player_list]
        self.bon = [p.bon[:] for p in game.player_list]
        self.points = [p.points for p in game.player_list]
        show_all = game.open_reservations
        # Visible reserved cards of each seat; an opponent's blind reservations are not visible.
        self.reserved = []
        self.blind = []
        for i, p in enumerate(game.player_list):
            if i == seat or show_all:
                self.reserved.append(list(p.reserved_list))
                self.blind.append(0)
            else:
                self.reserved.append([c for c, h in zip(p.reserved_list, p.hidden) if not h])
                self.blind.append(sum(1 for h in p.hidden if h))
        self.stage = min(1.0, max(self.points) / WINNING_POINTS)  # as stage_of


class Scorer:
    """Rates actions by the position right after them, from the mover's side: the mover's value minus
    ``weights.opponent`` times the best opponent's (with 3-4 players, mostly the best one's)."""

    def __init__(self, weights=None):
        self.w = weights or Weights()

    # -- values -------------------------------------------------------------------------------------------------
    def _value(self, view, seat, tok, bon, points, market, nobles, supply, reserved, extra=0.0):
        return seat_value(self.w, tok, bon, points, market, nobles, view.stage, supply, reserved,
                          view.blind[seat] if seat != view.seat else 0, extra)

    def _opp_value(self, view, market, nobles, supply, ctxs=None):
        """The best opponent's value (with 3-4 players, a quarter of it is the opponents' mean instead).
        ``ctxs``: the opponents' seat contexts for this market and these nobles, when already made."""
        best = None
        total = 0.0
        me = view.seat
        w = self.w
        k = 0
        for o in range(view.n):
            if o == me:
                continue
            if ctxs is not None:
                ctx = ctxs[k]
            else:
                ctx = seat_context(w, view.bon[o], view.points[o], market, nobles, view.stage, view.reserved[o],
                                   view.blind[o])
            k += 1
            v = context_value(w, ctx, view.tok[o], supply)
            total += v
            if best is None or v > best:
                best = v
        if view.n > 2:
            return 0.75 * best + 0.25 * (total / (view.n - 1))
        return best

    def _opp_contexts(self, view, market, nobles):
        w = self.w
        return [seat_context(w, view.bon[o], view.points[o], market, nobles, view.stage, view.reserved[o],
                             view.blind[o]) for o in range(view.n) if o != view.seat]

    # -- action scores ------------------------------------------------------------------------------------------
    def scores(self, game, seat=None, actions=None, view=None, market_filter=None):
        """[(score, action)] for ``actions`` (default: every legal action), the mover being ``seat``.
        ``market_filter(card)``: the market cards the mover notices (default all)."""
        if seat is None:
            seat = game.current
        if actions is None:
            actions = game.legal_actions()
        if view is None:
            view = View(game, seat)
        w = self.w
        lam = w.opponent
        stage = view.stage
        me_tok = view.tok[seat]
        me_bon = view.bon[seat]
        me_pts = view.points[seat]
        my_res = view.reserved[seat]
        supply = view.supply
        market = view.market if market_filter is None else [c for c in view.market if market_filter(c)]
        where = {c: j for j, c in enumerate(market)}
        nobles = view.nobles
        base = seat_context(w, me_bon, me_pts, market, nobles, stage, my_res)
        now = context_value(w, base, me_tok, supply)
        opp_base = self._opp_contexts(view, market, nobles) if lam else None
        memo = {}

        def opp(ctxs, sup):
            return self._opp_value(view, None, None, sup, ctxs) if lam else 0.0

        def mine(ctx, tag, tok, sup):
            key = (tag, tuple(tok), tuple(sup))
            v = memo.get(key)
            if v is None:
                v = memo[key] = context_value(w, ctx, tok, sup)
            return v

        def settle(ctx, tag, tok, sup):
            """Give back tokens over 10 one at a time, each time the one whose loss hurts least (as the return
            phase will), and return the value reached; ``tok`` and ``sup`` are updated."""
            over = sum(tok) - TOKEN_LIMIT
            while over > 0:
                best = None
                for i in range(6):
                    if tok[i]:
                        tok[i] -= 1
                        sup[i] += 1
                        v = mine(ctx, tag, tok, sup)
                        tok[i] += 1
                        sup[i] -= 1
                        if best is None or v > best[0]:
                            best = (v, i)
                tok[best[1]] -= 1
                sup[best[1]] += 1
                over -= 1
            return mine(ctx, tag, tok, sup)

        out = []
        for a in actions:
            kind = a.kind
            if kind == "take" or kind == "take_two":
                tok = me_tok[:]
                sup = supply[:]
                k = 1 if kind == "take" else 2
                for c in a.colors:
                    i = _COLOR_INDEX[c]
                    tok[i] += k
                    sup[i] -= k
                v = settle(base, None, tok, sup)
                if tok == me_tok:
                    v -= 3.0  # takes and gives back the same tokens: a wasted turn (and a stalled game)
                s = v - lam * opp(opp_base, sup)
            elif kind == "buy":
                card = a.card
                pay = a.pay_t
                tok = [me_tok[i] - pay[i] for i in range(6)]
                sup = [supply[i] + pay[i] for i in range(6)]
                bon = me_bon[:]
                bon[card.bonus_i] += 1
                pts = me_pts + card.points
                j = where.get(card)
                if j is None:  # from the reserve (or a market card this mover overlooks)
                    res = [c for c in my_res if c is not card]
                    mk = market
                else:
                    res = my_res
                    mk = market[:j] + market[j + 1:]
                nb2 = nobles
                met = [nb for nb in nobles if all(bon[i] >= n for i, n in nb.needs)]
                if met:
                    pick = met[0]
                    if len(met) > 1 and lam:
                        pick = min(met, key=lambda nb: self._opp_value(view, mk, [x for x in nobles if x is not nb],
                                                                       sup))
                    pts += pick.points
                    nb2 = [x for x in nobles if x is not pick]
                v = context_value(w, seat_context(w, bon, pts, mk, nb2, stage, res), tok, sup)
                if not lam:
                    s = v
                elif nb2 is not nobles:
                    s = v - lam * self._opp_value(view, mk, nb2, sup)
                elif j is None:
                    s = v - lam * opp(opp_base, sup)
                else:
                    s = v - lam * opp([without_card(c, j) for c in opp_base], sup)
            elif kind == "reserve":
                tok = me_tok[:]
                sup = supply[:]
                if sup[5]:
                    tok[5] += 1
                    sup[5] -= 1
                card = a.card
                if card is None:
                    extra = w.blind * a.level * (1.0 - stage * 0.5)
                    ctx = (base[0] + extra - w.reserve_slot, base[1], base[2] - 1)
                    v = settle(ctx, a.level, tok, sup)
                    s = v - lam * opp(opp_base, sup)
                else:
                    j = where.get(card)
                    if j is None:  # a market card this mover overlooks (easy bot): not worth a thought
                        out.append((-99.0, a))
                        continue
                    v = settle(with_reserved(w, base, j), card, tok, sup)
                    s = v - (lam * opp([without_card(c, j) for c in opp_base], sup) if lam else 0.0)
            elif kind == "return":
                tok = me_tok[:]
                sup = supply[:]
                i = _COLOR_INDEX[a.colors[0]]
                tok[i] -= 1
                sup[i] += 1
                s = mine(base, None, tok, sup)
            elif kind == "noble":
                nb2 = [x for x in nobles if x is not a.noble]
                s = -self._opp_value(view, market, nb2, supply) if view.n > 1 else 0.0
            elif kind == "veto":
                nb2 = [x for x in nobles if x is not a.noble]
                v = self._value(view, seat, me_tok, me_bon, me_pts, market, nb2, supply, my_res)
                s = v - self._opp_value(view, market, nb2, supply)
            else:
                s = 0.0
            out.append((s - now if kind != "noble" else s, a))
        return out

    def color_gains(self, game, seat, view=None):
        """What one more token of each color (two, at index 5 + color) would add to ``seat``'s value: a quick way
        to rank takes without pricing each of them."""
        view = view or View(game, seat)
        w = self.w
        ctx = seat_context(w, view.bon[seat], view.points[seat], view.market, view.nobles, view.stage,
                           view.reserved[seat])
        tok = view.tok[seat][:]
        sup = view.supply[:]
        now = context_value(w, ctx, tok, sup)
        gains = [0.0] * 10
        for i in range(5):
            if sup[i]:
                tok[i] += 1
                sup[i] -= 1
                gains[i] = context_value(w, ctx, tok, sup) - now
                if sup[i] >= 3:
                    tok[i] += 1
                    sup[i] -= 1
                    gains[5 + i] = context_value(w, ctx, tok, sup) - now
                    tok[i] -= 1
                    sup[i] += 1
                tok[i] -= 1
                sup[i] += 1
        return gains

    def best(self, game, seat=None, actions=None):
        sc = self.scores(game, seat, actions)
        return max(sc, key=lambda t: t[0])[1] if sc else None


def seat_values(game, weights):
    """Every seat's value in a (determinized) game."""
    stage = stage_of(game)
    market = [c for row in game.market_rows for c in row if c is not None]
    nobles = game.noble_list
    supply = game.supply_list
    return [seat_value(weights, p.tok, p.bon, p.points, market, nobles, stage, supply, p.reserved_list)
            for p in game.player_list]


#: The parts of a seat's value, in the order :func:`seat_parts` gives them.
PARTS = ("points", "engine", "nobles", "held", "prospects", "usable", "gold")


def seat_parts(w, p, market, nobles, stage, supply):
    """The terms of one player's value (see :data:`PARTS`): points (with ``finish`` at 15), the engine value of its
    bonuses, noble progress, reserved cards held, prospects, usable tokens and gold. The value is
    points + engine + nobles - reserve_slot x held + prospects + token x usable + gold x gold."""
    bon = p.bon
    tok = p.tok
    eng, nob, _ = bonus_terms(w, bon, nobles)
    ctx = seat_context(w, bon, 0, market, nobles, stage, p.reserved_list)
    use = [0, 0, 0, 0, 0]  # as context_value: tokens beyond the most any visible card asks for are idle
    for prices, _, _ in ctx[1]:
        for i, n in prices:
            if n > use[i]:
                use[i] = n
    usable = sum(min(tok[i], use[i]) for i in range(5))
    pro = context_value(w, (0.0, ctx[1], ctx[2]), tok, supply) - w.token * usable - w.gold * tok[5]
    pts = p.points + (w.finish if p.points >= WINNING_POINTS else 0.0)
    return (pts, w.bonus * (1.0 - stage) * eng, nob, len(p.reserved_list), pro, usable, tok[5])


def result_share(game, seat):
    """A finished game's result for ``seat``: 1 for a win, a share of a shared victory, 0 for a loss."""
    win = game.winners
    return 1.0 / len(win) if seat in win else 0.0


def leaf_value(game, weights, seat, opp_weight=1.0, opp_ref=0.0, scale=3.0):
    """``seat``'s standing at a search leaf, 0..1: the result when the game is over, otherwise a logistic of its
    value minus the best opponent's over ``scale``, where the opponent's change since the root (``opp_ref``) counts
    ``opp_weight`` times (below 1: the seat's own progress matters more than holding the opponent back)."""
    if game.phase == "over":
        return result_share(game, seat)
    vals = seat_values(game, weights)
    best = max(v for j, v in enumerate(vals) if j != seat)
    d = (vals[seat] - opp_ref - opp_weight * (best - opp_ref)) / scale
    if d < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-d))
