"""The coach: the expert's own judgement of a position, the one judge behind the hint and the game review.

The hint is the expert's move (:mod:`splendor.ai.protocol`); the review (:mod:`splendor.ai.review`) asks
:func:`judge` for every position of a finished game. Both therefore weigh moves with the same search over the same
evaluator: at two players the network's PUCT search (:mod:`splendor.ai.puct`), at three and four the tree search
over the learned value model (:mod:`splendor.ai.tree`), whichever :class:`~splendor.ai.expert.ExpertBot` plays at
that table. A move the hint gave is the move the review's judge favours, or one it rates within its noise.

A :class:`Judgement` is one search from one seat's view (its observation: the unseen cards dealt in universes, as
the expert's own search deals them), read as every seat's chance to win after each root move it tried. The move
played can be *forced*: once the budget is spent, walks that start with it are added until it has
:data:`FORCE_VISITS` of its own, so that its chance comes from a subtree of its own and not from the one or two
walks a search gives a move it does not like.
"""

import random

from ..engine.cards import CARDS
from ..engine.game import determinize
from .budget import Budget

#: Iterations of the judge per position of a review, per table size: what keeps a 2-player review within 20 s in
#: Chromium with the processor slowed 4 times, and a 4-player game of 100 moves within 20 s unslowed (docs/BOTS.md,
#: "Its cost").
REVIEW_ITERATIONS = {2: 160, 3: 40, 4: 40}
#: Walks a hint's judgement makes at least, whatever its time (issue 72: the first hint of a game, its time spent
#: while the worker read the expert's files, came without a chance).
HINT_MIN_WALKS = 48
#: Visits the move played gets at least in a review's judgement (:func:`judge` ``played``).
FORCE_VISITS = {2: 24, 3: 8, 4: 8}


class Judgement:
    """The judge's reading of one position: ``moves`` (the root's moves it tried), ``visits`` (each one's walks),
    ``chances`` (each one's chance to win for every seat, summing to 1; None for a move never tried), ``best`` (the
    index of the move the expert would play: the most visited), ``position`` (every seat's chance where the game
    stands: the walks' mean), ``seat`` (the seat to move), ``iterations``, ``net`` (whether the network's search
    judged: two players with the network; else the tree search over the value model) and ``prior`` (the network's
    prior of each move; None for the tree search)."""

    __slots__ = ("seat", "moves", "visits", "chances", "best", "position", "iterations", "net", "prior")

    def index(self, action):
        """The index of ``action`` among the judged moves (the same move up to the payment of a buy), or None."""
        return index_of(self.moves, action)

    def chance_of(self, action):
        """Every seat's chance after ``action`` (None when the judge did not try it)."""
        i = self.index(action)
        return None if i is None else self.chances[i]

    def ranked(self, k=3):
        """The ``k`` moves tried most, best first: [(action, the mover's chance, visits)]."""
        order = sorted((i for i in range(len(self.moves)) if self.chances[i] is not None),
                       key=lambda i: (-self.visits[i], -self.chances[i][self.seat]))
        return [(self.moves[i], self.chances[i][self.seat], self.visits[i]) for i in order[:k]]


def index_of(moves, action):
    """The index of ``action`` in ``moves`` (the same move up to the payment of a buy), or None."""
    from .expert import _same_move
    for i, a in enumerate(moves):
        if a == action:
            return i
    return next((i for i, a in enumerate(moves) if _same_move(a, action)), None)


def normal(xs):
    """``xs`` scaled to a sum of 1 (even shares when they sum to nothing).

    >>> normal([2, 6])
    [0.25, 0.75]
    """
    total = sum(xs)
    if total <= 0:
        return [1.0 / len(xs)] * len(xs)
    return [x / total for x in xs]


_BOT = {}


def expert():
    """The expert bot the coach judges with (made once: its files are read once)."""
    if "bot" not in _BOT:
        from .expert import ExpertBot
        _BOT["bot"] = ExpertBot()
    return _BOT["bot"]


def advise(observation, rng, budget):
    """The hint: (the move the expert would play for the seat of ``observation``, info) within ``budget`` (a
    :class:`~splendor.ai.budget.Budget`, started). In an action phase the move is the judgement's best (a move that
    wins the game at once first), and ``info["candidates"]`` the moves it tried most with the chance each gives the
    seat (summing to 1 over the seats, as the review's); elsewhere (tokens to give back, a noble to choose) the
    expert's own decision."""
    from . import expert as ex
    from .bots import prepare
    bot = expert()
    game, seat = prepare(observation, rng)
    legal = game.legal_actions()
    if game.phase != "action" or len(legal) == 1:
        return bot.decide_game(game, seat, rng, budget)
    j = judge(game, seat, rng, budget, determinized=True)
    if j.iterations < HINT_MIN_WALKS:  # (a slow device, or time spent before the search: never a hint without a chance)
        j = judge(game, seat, rng, HINT_MIN_WALKS, determinized=True)
    win = ex._win_now(game, seat, bot.scorer.scores(game, seat, legal), bot.scorer)
    best = j.moves[j.best]
    if win is not None:
        best = win
    picked = j.chance_of(best)
    info = {"level": "expert", "iterations": j.iterations, "net": j.net,
            "candidates": [{"action": str(a), "value": round(c, 3), "visits": v} for a, c, v in j.ranked(4)]}
    if picked is not None:
        info["win_chance"] = round(picked[seat], 3)
    return best, info


def judge(game, seat, rng, budget, played=None, force_visits=None, determinized=False, deal=None):
    """The expert's judgement (:class:`Judgement`) of ``game``, an action phase of ``seat``, from ``seat``'s view (the
    search starts from a game built from its observation, :func:`splendor.determinize`, so a finished game's
    review judges a move by what its mover could see), after ``iterations`` walks of its search; ``played``: a
    legal move that gets ``force_visits`` walks at least (default :data:`FORCE_VISITS`). ``budget``: a number of
    walks, or a started :class:`~splendor.ai.budget.Budget`; ``determinized``: ``game`` is already the seat's view.
    ``deal`` (the review's one view, :class:`OneView`): ``deal(k)`` is the search's ``k``-th deal of the unseen cards
    (a game of its own, ``seat`` to act), in place of deals drawn from ``seat``'s observation with ``rng``."""
    from . import expert as ex
    bot = expert()
    if deal is not None:
        game = deal(0)
    elif not determinized:
        game = determinize(game.observation(seat), rng)
    n = game.n
    if force_visits is None:
        force_visits = FORCE_VISITS.get(n, 8)
    if not isinstance(budget, Budget):
        budget = Budget(iterations=budget).started()
    clock = budget.clock()
    j = Judgement()
    j.seat = seat
    j.net = bot.evaluator is not None and n == ex.NET_PLAYERS
    if j.net:
        from . import puct
        from .encoding import legal_indexed
        i = None if played is None else index_of(legal_indexed(game)[0], played)
        force = None if i is None else (i, force_visits)
        worlds = None if deal is None else [game] + [deal(k) for k in range(1, bot.search_params.universes)]
        moves, prior, stats, _value, _depth = puct.search(game, seat, bot.evaluator, bot.search_params, rng, clock,
                                                          force, worlds)
        j.prior = list(prior)
        j.moves = list(moves)
        j.visits = [st[0] for st in stats]
        j.chances = []
        for visits, w in stats:
            if not visits:
                j.chances.append(None)
                continue
            mine = min(1.0, max(0.0, (w / visits + 1) / 2))
            j.chances.append([mine if s == seat else 1.0 - mine for s in range(n)])
        total = sum(j.visits)
        mine = (sum(st[1] for st in stats) / total + 1) / 2 if total else 0.5
        j.position = [mine if s == seat else 1.0 - mine for s in range(n)]
    else:
        from . import tree
        scored = bot.scorer.scores(game, seat, game.legal_actions())
        win = ex._win_now(game, seat, scored, bot.scorer)
        cands, priors, inner, horizon = bot.tree_setup(game, seat, scored, (win, played))
        if priors is not None and len(priors) < len(cands):  # (a played move the prior's favourites left out)
            priors = normal(priors + [min(priors)] * (len(cands) - len(priors)))
        every = {}
        force = None if played is None or played not in cands else (played, force_visits)
        _best, stats, _depth = tree.search(bot, game, seat, cands, rng, clock, horizon, priors, inner, every, force,
                                           deal)
        j.prior = None
        j.moves = list(cands)
        j.visits = [st[0] for st in stats]
        j.chances = [normal([x / st[0] for x in every[a]]) if st[0] else None for a, st in zip(cands, stats)]
        j.position = normal([sum(sums[s] for sums in every.values()) for s in range(n)])
    j.iterations = clock.n
    tried = [i for i in range(len(j.moves)) if j.visits[i]]
    j.best = max(tried, key=lambda i: (j.visits[i], j.chances[i][seat])) if tried else 0
    return j


#: The deals a review's judgement cycles through (the tree search at 3-4 players walks one deal a walk): making a
#: deal costs more than copying one.
ONE_VIEW_DEALS = 16


class OneView:
    """The deals of a review's one view (:func:`judge` ``deal``): every position of a game judged with the same
    information (``view``: the seats whose own blind reservations are known; the rest of the unseen cards, the decks
    and the other seats' blind reservations, dealt) and the same deals of what stays unseen: deal ``k`` orders the
    unseen cards by one random order of the 90 cards drawn from ``key`` and ``k``, so two neighbouring positions
    differ only by what the moves between them changed and showed. ``deals(game)`` is the ``deal`` function of
    one position (each deal made once, then copied)."""

    def __init__(self, key, view=()):
        self.key = key
        self.view = frozenset(view)
        self._orders = {}

    def order(self, k):
        """Deal ``k``'s order of the cards."""
        if k not in self._orders:
            codes = sorted(c.code for c in CARDS)
            random.Random(f"one-view:{self.key}:{k}").shuffle(codes)
            self._orders[k] = {c: i for i, c in enumerate(codes)}
        return self._orders[k]

    def observation(self, game):
        """What the view sees of ``game``, as an observation for the seat to act."""
        obs = game.observation(game.current)
        for i, t in enumerate(obs["tableaus"]):  # (a seat's blind reservations: shown to itself, hidden from the next)
            t["reserved"] = game.observation(i if i in self.view else (i + 1) % game.n)["tableaus"][i]["reserved"]
        return obs

    def deals(self, game, played=None):
        """The ``deal`` function of ``game``'s position (:func:`judge`). A mover outside the view searches its own
        blind reservations as deal 0 deals them, in every deal (its moves must be the same in all), but for the one
        its move ``played`` buys (shown by that move)."""
        obs = self.observation(game)
        mover = game.current
        mine = obs["tableaus"][mover]["reserved"]
        held = game.players[mover].reserved
        if played is not None and played.kind == "buy" and played.card in held:
            mine[held.index(played.card)] = played.card.code
        if any(isinstance(c, dict) for c in mine):
            first = determinize(obs, None, self.order(0))
            mine[:] = [c.code for c in first.players[mover].reserved]
        made = {}

        def deal(k):
            k %= ONE_VIEW_DEALS
            if k not in made:
                made[k] = determinize(obs, None, self.order(k))
            return made[k].copy()
        return deal
