"""The net-guided expert's search: PUCT over an evaluator's priors, the evaluator's value at every new leaf (no
playout), the unseen cards handled by searching several deals ("universes").

Each universe is one deal of the cards the seat cannot see (:func:`splendor.ai.search.resample`), searched as a
tree of positions: a simulation walks down from the root choosing at each position the move with the highest
Q + c_puct x P x sqrt(visits of the position) / (1 + visits of the move) (Q the mover's mean result after the move,
a move not yet tried valued at the position's own value less ``fpu``; P the evaluator's prior), adds the position
the chosen move leads to, asks the evaluator for its value and priors, and adds the value to every move on the way
back, each from its mover's side. A position's value is a list, every seat's result in [-1, 1] (a win 1, a loss
-1; at two seats one is the other's negation, at three and four each is its chance to win scaled to [-1, 1]), so
the same walks serve every table: each mover maximises its own result. A turn's returns over 10 and noble choices
are played within the move by the quick rule of :func:`finish_turn` (the search's many walks cannot afford the
heuristic scorer there), so the tree's positions are all action phases. The universes share the simulations in
turn; the root's figures add up over them and the most visited move is played. With an iteration budget the
search depends only on the position, the random generator's seed and the budget.

The search sees only the evaluator (``evaluate(game) -> (moves, priors, value)``, and where it has it
``evaluate_later(game) -> (value, a call giving (moves, priors))`` for the positions a walk adds;
:mod:`splendor.ai.netrun`) and a :class:`SearchParams`; it imports no backend.
"""

import math

from ..engine.actions import Action
from ..engine.cards import TOKEN_COLORS
from ..engine.rules import WINNING_POINTS

from .search import resample

_SQRT = math.sqrt
_RETURN = [Action.return_token(c) for c in TOKEN_COLORS]


class SearchParams:
    """The search's settings in one place, each with its default:

    - ``c_puct`` (1.25): how much the prior and the unexplored count against the values found;
    - ``fpu`` (0.2): a move not yet tried is valued at its position's value less this (first-play urgency);
    - ``universes`` (3): deals of the unseen cards searched side by side.

    >>> SearchParams(universes=0)
    Traceback (most recent call last):
    ...
    ValueError: universes must be a whole number from 1 to 16, not 0
    """

    __slots__ = ("c_puct", "fpu", "universes")

    def __init__(self, c_puct=1.25, fpu=0.2, universes=3):
        if isinstance(universes, bool) or not isinstance(universes, int) or not 1 <= universes <= 16:
            raise ValueError(f"universes must be a whole number from 1 to 16, not {universes!r}")
        for name, v in (("c_puct", c_puct), ("fpu", fpu)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 10:
                raise ValueError(f"{name} must be a number from 0 to 10, not {v!r}")
        self.c_puct = float(c_puct)
        self.fpu = float(fpu)
        self.universes = universes

    def to_dict(self):
        return {"c_puct": self.c_puct, "fpu": self.fpu, "universes": self.universes}


def finish_turn(g):
    """Play the rest of the turn in progress in ``g`` by a quick rule: each token given back over 10 is of the color
    held most beyond what the mover's most expensive wanted card (market or reserved) still needs of it, gold last;
    of several nobles, the first."""
    while g.phase == "return":
        p = g.player_list[g.current]
        tok, bon = p.tok, p.bon
        need = [0, 0, 0, 0, 0]
        for row in g.market_rows:
            for c in row:
                if c is not None:
                    for i, n in c.needs:
                        d = n - bon[i]
                        if d > need[i]:
                            need[i] = d
        for c in p.reserved_list:
            for i, n in c.needs:
                d = n - bon[i]
                if d > need[i]:
                    need[i] = d
        best = -1
        worst = None
        for i in range(5):
            if tok[i]:
                spare = tok[i] - need[i]
                if worst is None or spare > worst:
                    worst, best = spare, i
        g.apply_unchecked(_RETURN[best if best >= 0 else 5])
    if g.phase == "noble":
        g.apply_unchecked(g.legal_actions()[0])


class _Node:
    """A position in a universe's tree: its game, its mover, the moves with their priors ``P``, visits ``N`` and
    summed values ``W`` (the mover's), the positions after them (``kids``, None until reached), ``v`` the
    evaluator's values (every seat's, :func:`seat_values`) or the result at the end; ``pending`` (None once open)
    works out the moves and priors of a position made by :func:`make_leaf` when a walk first goes through it."""

    __slots__ = ("game", "mover", "moves", "P", "N", "W", "kids", "n", "v", "terminal", "pending")


def mover_value(node):
    """``node``'s evaluator value (or result) for its mover."""
    return node.v[node.mover]


def seat_values(game, value):
    """Every seat's value (seat order) from an evaluator's ``value`` for ``game``'s mover: at two seats one number,
    the mover's (the other seat's is its negation); at three and four a list, the mover's first, then the seats
    after it in turn order."""
    me = game.current
    if game.n == 2:
        return [value, -value] if me == 0 else [-value, value]
    n = game.n
    out = [0.0] * n
    for k in range(n):
        out[(me + k) % n] = value[k]
    return out


def result_values(game):
    """Every seat's result in [-1, 1] at the end of ``game``: a win alone 1, a loss -1, a win shared by k seats
    2/k - 1 (its share of the win, scaled as the values are; at two seats a shared win is 0 for both)."""
    w = game.winners
    share = 2.0 / len(w) - 1.0 if w else 0.0
    return [share if s in w else -1.0 for s in range(game.n)]


#: The least prior of a buy that brings its mover to the winning points: a network's prior can miss a move that
#: ends the race (a cheap card that completes a noble), and a search that never tries it cannot see the end.
FINISHER_PRIOR = 0.5


def _finishers_first(game, moves, priors):
    """``priors`` with every buy that brings the mover to WINNING_POINTS (a noble it completes counted) raised to at
    least FINISHER_PRIOR, all of them scaled back to a sum of 1; unchanged when there is none."""
    p = game.player_list[game.current]
    if p.points + 5 + 3 < WINNING_POINTS:  # no card is worth more than 5, no noble more than 3
        return priors
    out = None
    for i, a in enumerate(moves):
        if a.kind != "buy":
            continue
        pts = p.points + a.card.points
        if pts < WINNING_POINTS and pts + 3 >= WINNING_POINTS:
            bon = p.bon[:]
            bon[a.card.bonus_i] += 1
            if any(all(bon[c] >= n for c, n in nb.needs) for nb in game.noble_list):
                pts += 3
        if pts >= WINNING_POINTS and priors[i] < FINISHER_PRIOR:
            if out is None:
                out = list(priors)
            out[i] = FINISHER_PRIOR
    if out is None:
        return priors
    total = sum(out)
    return [v / total for v in out]


def make_node(game, moves=None, priors=None, value=0.0):
    """A tree position for ``game`` (after a move and its turn's end): at the end of the game its result; otherwise
    ``moves`` with their ``priors`` and ``value``, the evaluator's for the mover."""
    node = _Node()
    node.game = game
    node.n = 0
    node.pending = None
    if game.phase == "over":
        node.terminal = True
        node.mover = 0
        node.v = result_values(game)
        return node
    node.terminal = False
    node.mover = game.current
    node.moves = moves
    node.P = _finishers_first(game, moves, priors)
    node.N = [0] * len(moves)
    node.W = [0.0] * len(moves)
    node.kids = [None] * len(moves)
    node.v = seat_values(game, value)
    return node


def make_leaf(game, value, pending):
    """A tree position for ``game`` (an action phase) known by its ``value`` (the evaluator's, for the mover) alone:
    its moves and priors are ``pending()``'s, asked when a walk first goes through it (:func:`select`). About two
    positions in five of an 800-simulation search are reached once and never walked through, so a search that
    makes its new positions this way skips their legal moves and priors; it walks as one that made them at once."""
    node = _Node()
    node.game = game
    node.n = 0
    node.terminal = False
    node.mover = game.current
    node.v = seat_values(game, value)
    node.pending = pending
    return node


def _open(node):
    moves, priors = node.pending()
    node.pending = None
    node.moves = moves
    node.P = _finishers_first(node.game, moves, priors)
    node.N = [0] * len(moves)
    node.W = [0.0] * len(moves)
    node.kids = [None] * len(moves)


def _node(game, evaluator):
    if game.phase == "over":
        return make_node(game)
    return make_node(game, *evaluator.evaluate(game))


def _leaf(game, evaluator):
    """A new position of a walk: opened later (:func:`make_leaf`) where the evaluator offers ``evaluate_later``."""
    later = getattr(evaluator, "evaluate_later", None)
    if later is None or game.phase == "over":
        return _node(game, evaluator)
    return make_leaf(game, *later(game))


def select(root, c_puct, fpu):
    """Walk down from ``root`` by PUCT to a move not yet followed (or an end): (the path of (position, move index),
    the game after that move with its turn ended, or None when the walk ended at a known end)."""
    node = root
    path = []
    while True:
        if node.terminal:
            return path, None
        if node.pending is not None:
            _open(node)
        N, W, P = node.N, node.W, node.P
        first = node.v[node.mover] - fpu
        c = c_puct * _SQRT(node.n or 1)
        best = -1e9
        bi = 0
        for i in range(len(P)):
            n = N[i]
            u = (W[i] / n if n else first) + c * P[i] / (1 + n)
            if u > best:
                best = u
                bi = i
        path.append((node, bi))
        kid = node.kids[bi]
        if kid is None:
            return path, _after(node, bi)
        node = kid


def _after(node, i):
    """The game after ``node``'s move ``i``, its turn ended."""
    g = node.game.copy()
    g.apply_unchecked(node.moves[i])
    if g.phase != "action" and g.phase != "over":
        finish_turn(g)
    return g


def select_forced(root, i, c_puct, fpu):
    """:func:`select` with the root's move ``i`` taken first, whatever PUCT says (the walk below it by PUCT)."""
    if root.pending is not None:
        _open(root)
    kid = root.kids[i]
    if kid is None:
        return [(root, i)], _after(root, i)
    path, g = select(kid, c_puct, fpu)
    return [(root, i)] + path, g


def backup(path, v):
    """Add the values ``v`` (every seat's) to every move of ``path``, each its mover's."""
    for nd, i in path:
        nd.N[i] += 1
        nd.W[i] += v[nd.mover]
        nd.n += 1


def _simulate(root, evaluator, c_puct, fpu, forced=None):
    """One walk from ``root`` to a new position (or an end), and the value back up the path; the path's length.
    ``forced``: the root's move index the walk starts with (:func:`select_forced`)."""
    path, g = select(root, c_puct, fpu) if forced is None else select_forced(root, forced, c_puct, fpu)
    if g is None:
        v = (path[-1][0].kids[path[-1][1]] if path else root).v
    else:
        node, i = path[-1]
        kid = node.kids[i] = _leaf(g, evaluator)
        v = kid.v
    backup(path, v)
    return len(path)


def search(game, seat, evaluator, params, rng, clock, force=None, worlds=None):
    """Search ``game`` (an action phase of ``seat``, determinized) until ``clock`` is done. Returns (the root's
    moves, their priors, per move [visits, summed value of ``seat`` in [-1, 1]], the evaluator's value of the root
    for ``seat``, the longest walk).

    ``force`` (the coach's judgement of a move played, :mod:`splendor.ai.coach`): (a root move index, visits): once
    the clock is done, walks that start with that move are added, the universes in turn, until it has at least
    that many visits over them all, so that its value is read from a subtree of its own and not from a move the
    search hardly tried.

    ``worlds`` (the game review's one view): the universes' deals, given (``game`` is then the first)."""
    if worlds:
        roots = [_node(w, evaluator) for w in worlds]
    else:
        roots = [_node(game if k == 0 else resample(game, seat, rng), evaluator) for k in range(params.universes)]
    first = roots[0]
    c_puct, fpu = params.c_puct, params.fpu
    deepest = 0
    k = 0
    u = len(roots)
    while not clock.done():
        depth = _simulate(roots[k % u], evaluator, c_puct, fpu)
        if depth > deepest:
            deepest = depth
        k += 1
        clock.tick()
    if force is not None:
        i, want = force
        while sum(r.N[i] for r in roots) < want:
            depth = _simulate(roots[k % u], evaluator, c_puct, fpu, i)
            deepest = max(deepest, depth)
            k += 1
    # The root's moves depend only on what the seat sees, so they are the same in every universe.
    stats = [[0, 0.0] for _ in first.moves]
    for r in roots:
        for i in range(len(stats)):
            stats[i][0] += r.N[i]
            stats[i][1] += r.W[i]
    prior = [sum(r.P[i] for r in roots) / u for i in range(len(stats))]
    value = sum(r.v[seat] for r in roots) / u
    return first.moves, prior, stats, value, deepest


def best_index(stats):
    """The move to play: the most visited, ties broken by the higher value."""
    return max(range(len(stats)), key=lambda i: (stats[i][0], stats[i][1] / stats[i][0] if stats[i][0] else -2.0))
