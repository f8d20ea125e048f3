"""The expert bot's search (:class:`~splendor.ai.expert.ExpertBot`).

Single-observer information-set Monte Carlo tree search: every iteration deals the unseen cards afresh (as the hard
bot's search does), walks down one tree of actions shared by all the deals, choosing at each action phase among the
scorer's best-looking moves that are legal in this deal by UCB (each seat for itself, the chances it reaches; the
count of the deals in which a move was available stands for its parent's visits), adds one new move to the tree,
plays a few turns on with the scorer's policy and judges the position reached with the learned model, for every
seat. Returns and noble choices are played by the scorer and are not nodes. The root's move is the one visited
most. Where the flat search judges each of its moves by what the scorer's policy does next, the tree searches the
replies and the seat's next moves too.
"""

import math

from .search import finish_turn, playout, resample


class _Edge:
    """A move in the tree: its visits ``n``, total value ``w`` (of the seat that made it), the deals in which it was
    available ``avail``, the moves after it (``children``) and, per position reached after it (``_seen_key``), the
    moves the scorer offers there (``offers``: deals often reach the same position, and pricing them is the costly
    part of a step down the tree)."""

    __slots__ = ("action", "n", "w", "avail", "children", "offers")

    def __init__(self, action):
        self.action = action
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.children = {}
        self.offers = {}


def _seen_key(g):
    """Everything the scorer and ``legal_actions`` read of ``g`` for the seat to move (not the unseen cards): two
    positions with one key get the same offered moves."""
    me = g.current
    return (me, tuple(c.id if c is not None else -1 for row in g.market_rows for c in row), tuple(g.supply_list),
            tuple(nb.id for nb in g.noble_list), g.deck_sizes,
            tuple((tuple(p.tok), tuple(p.bon), p.points,
                   tuple(c.id if i == me or not h else -1 for c, h in zip(p.reserved_list, p.hidden)))
                  for i, p in enumerate(g.player_list)))


def _values(model, g, n):
    """Every seat's chance to win where ``g`` stands, by ``model`` (its ``win_chances`` when it has them)."""
    every = getattr(model, "win_chances", None)
    return every(g) if every else [model.win_chance(g, s) for s in range(n)]


def _choose(node, moves, c):
    """The edge to follow from ``node`` among ``moves`` (those legal in this deal): the first of them not yet in the
    tree, added (True), or the best by UCB (False)."""
    new = None
    best, best_u = None, None
    for a in moves:
        e = node.get(a)
        if e is None:
            if new is None:
                new = a
            continue
        e.avail += 1
        if new is None:
            u = e.w / e.n + c * math.sqrt(math.log(e.avail) / e.n)
            if best_u is None or u > best_u:
                best, best_u = e, u
    if new is not None:
        e = node[new] = _Edge(new)
        e.avail = 1
        return e, True
    return best, False


def _offers(g, scorer, width, policy=None):
    """(the scorer's ``width`` best of every legal move in ``g``, None); with a ``policy`` (a
    :class:`~splendor.ai.policy.PolicyModel`), (the policy's ``width`` favourites, their priors summing to 1)."""
    rated = scorer.scores(g, g.current, g.legal_actions())
    if policy is None:
        rated.sort(key=lambda t: -t[0])
        return [a for _, a in rated[:width]], None
    best = sorted(policy.priors(g, g.current, rated), key=lambda t: -t[0])[:width]
    total = sum(p for p, _ in best)
    return [a for _, a in best], [p / total for p, _ in best]


def _choose_root(node, moves, priors, c):
    """The edge to follow at the root among ``moves`` with ``priors``, by PUCT: value + c x prior x sqrt(the root's
    visits) / (1 + the move's visits), a move not yet searched valued at the mean of those searched (0.5 at first);
    (edge, True) when that move is new to the tree."""
    total = 0
    wsum = 0.0
    for a in moves:
        e = node.get(a)
        if e is not None:
            total += e.n
            wsum += e.w
    fpu = wsum / total if total else 0.5
    root = math.sqrt(total) if total else 1.0
    best, best_u = None, None
    for a, p in zip(moves, priors):
        e = node.get(a)
        u = (e.w / e.n + c * p * root / (1 + e.n)) if e is not None else fpu + c * p * root
        if best_u is None or u > best_u:
            best, best_u = a, u
    e = node.get(best)
    if e is None:
        e = node[best] = _Edge(best)
        return e, True
    return e, False


def _walk(g, node, path, scorer, width, c, moves, priors=None, prior_c=1.0, policy=None):
    """Walk down the tree from ``node`` (``g`` the deal's position there) until a move new to the tree is added or
    the game ends, applying the moves and adding (edge, mover) to ``path``. ``moves``: the first step's choices;
    below it the scorer's ``width`` best of every legal move, chosen by UCB, or with a ``policy`` its ``width``
    favourites, chosen by PUCT with their priors (remembered per position on the edge above, :func:`_offers`).
    ``priors``: the first step's, to choose it by :func:`_choose_root` (PUCT with the constant ``prior_c``, which
    serves the policy's steps below too)."""
    e = None  # the edge just followed
    while g.phase != "over":
        if moves is None:
            finish_turn(g, scorer)
            if g.phase == "over":
                break
            key = _seen_key(g)  # e is set: the first step's moves are always given
            got = e.offers.get(key)
            if got is None:
                got = e.offers[key] = _offers(g, scorer, width, policy)
            moves, priors = got
        mover = g.current
        if priors is not None:
            e, new = _choose_root(node, moves, priors, prior_c)
        else:
            e, new = _choose(node, moves, c)
        g.apply_unchecked(e.action)
        path.append((e, mover))
        if new:
            break
        node = e.children
        moves = None


def search(bot, game, seat, cands, rng, clock, horizon, priors=None, inner=None, every=None, force=None, deal=None):
    """The tree search from ``game`` (an action phase of ``seat``) over the root moves ``cands`` (chosen at the root by
    PUCT with ``priors`` when given, else by UCB; below the root by ``inner``'s priors when given, a
    :class:`~splendor.ai.policy.PolicyModel`): (best index into cands, per-candidate [visits, total value], the most
    moves one walk down the tree made).

    For the coach (:mod:`splendor.ai.coach`): ``every``, a dict, gets per root move every seat's summed chances over
    the walks through it (the tree keeps only the mover's); ``force`` = (a move of ``cands``, visits) adds walks that
    start with that move, once the clock is done, until it has that many visits; ``deal`` (the game review's one
    view): walk ``k``'s deal of the unseen cards is ``deal(k)`` (a game of its own), not a fresh one from ``rng``."""
    model, scorer = bot.model, bot.scorer
    n_seats = len(game.player_list)
    root = {}
    deepest = 0

    walks = [0]

    def walk(moves, moves_priors):
        g = resample(game, seat, rng) if deal is None else deal(walks[0])
        walks[0] += 1
        path = []
        _walk(g, root, path, scorer, bot.tree_width, bot.tree_c, moves, moves_priors, bot.prior_c, inner)
        if g.phase != "over":
            finish_turn(g, scorer)
            playout(g, horizon, scorer)
        vals = _values(model, g, n_seats)
        for e, mover in path:
            e.n += 1
            e.w += vals[mover]
        if every is not None and path:
            sums = every.setdefault(path[0][0].action, [0.0] * n_seats)
            for s in range(n_seats):
                sums[s] += vals[s]
        return len(path)

    while not clock.done():
        deepest = max(deepest, walk(cands, priors))
        clock.tick()
    if force is not None:
        move, want = force
        while move not in root or root[move].n < want:
            deepest = max(deepest, walk([move], None))
    stats = [[root[a].n, root[a].w] if a in root else [0, 0.0] for a in cands]
    best = max(range(len(cands)), key=lambda i: (stats[i][0], stats[i][1]))
    return best, stats, deepest
