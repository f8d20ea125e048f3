"""The expert made weaker: the ladder's levels between the hand-written bots and the expert.

A :class:`WeakenedExpert` is the expert's own network and search with less of both, the way the field builds levels
(Stockfish's skill levels, lichess's and KataGo's weaker bots): fewer simulations of the same PUCT search, and a
choice at the root that is not always the best one. After the search (or, with no simulations, straight from the
network's prior), each root move has a weight: its visits, or its prior. Moves weighted under ``floor`` times the
best one's are never played (a lesser good move, never a move the expert hardly considered: that is what keeps a
weak level from throwing the game); among the rest one is drawn with chance proportional to weight ** (1 /
``temperature``) (0: the heaviest, as the expert plays). The prior is the network's imitation of the strong agent's
search, so a level that samples it errs the way its teachers erred.

At a table with no network (three and four players), the same choice is made over the visits of the expert's tree
search, run ``tree_iterations`` times (at least one walk per candidate). A move that wins the game at once is always
played, as the expert plays it; with ``guard`` (the levels from medium up), a move after which the next seat can win at
once is never played where a move weighted in the same choice leaves it no such win (the expert's search sees both;
a level with a few simulations or none can miss them, and a level that hands over the game is not a weaker player but
a broken one). Returns over 10, nobles and vetoes are the hard bot's, as the expert's are.

>>> WeakenedExpert(sims=-1)
Traceback (most recent call last):
...
ValueError: sims must be a whole number from 0 to 200000, not -1
"""

import math

from . import puct as _puct
from . import tree as _tree
from .budget import Budget
from .expert import ExpertBot, _win_now
from .search import finish_turn


def _count(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _number(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(f"{name} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


def pick(weights, temperature, floor, rng):
    """The index drawn among ``weights`` (visits or priors, not all zero): only those at least ``floor`` times the
    largest, with chance proportional to weight ** (1 / temperature); temperature 0 takes the largest (the first of
    equals).

    >>> import random
    >>> pick([10, 30, 2], 0, 0.1, random.Random(1))
    1
    >>> sorted({pick([10, 30, 2], 1.0, 0.1, random.Random(s)) for s in range(200)})  # 2 < 0.1 x 30: never drawn
    [0, 1]
    """
    top = max(weights)
    if temperature <= 0 or top <= 0:
        return max(range(len(weights)), key=weights.__getitem__)
    keep = [i for i, w in enumerate(weights) if w > 0 and w >= floor * top]
    power = 1.0 / temperature
    mass = [math.exp(power * math.log(weights[i] / top)) for i in keep]
    r = rng.random() * sum(mass)
    for i, m in zip(keep, mass):
        r -= m
        if r < 0:
            return i
    return keep[-1]


def capped(iterations, budget):
    """A budget of ``iterations`` that also stops at ``budget``'s time, counted from when its move began (a cap for
    slow devices: a level is its counts, and the time only cuts it short where a device is too slow for them)."""
    out = Budget(iterations=iterations, seconds=budget.seconds, cpu=budget.cpu and budget.seconds is not None)
    out.since = budget.since
    return out


def checked_settings(sims=0, temperature=0.0, floor=0.0, tree_iterations=16, tree_temperature=None):
    """The settings of a :class:`WeakenedExpert` checked (ValueError in words), in that order; ``tree_temperature``
    None is ``temperature`` (the tree's root choice at 3-4 players: its visits are spread more evenly than the
    network's prior, so a temperature that errs mildly there plays nearly at random)."""
    return (_count("sims", sims, 0, Budget.MAX_ITERATIONS), _number("temperature", temperature, 0, 10),
            _number("floor", floor, 0, 1), _count("tree_iterations", tree_iterations, 1, Budget.MAX_ITERATIONS),
            _number("tree_temperature", temperature if tree_temperature is None else tree_temperature, 0, 10))


def hands_a_win(game, action, scorer):
    """Whether after ``action`` (and its turn's end, as ``scorer`` plays it) the next seat has a move that ends the
    game at once with it the only winner, in this deal of the unseen cards."""
    g = game.copy()
    g.apply_unchecked(action)
    finish_turn(g, scorer)
    if g.phase != "action" or g.player_list[g.current].points + 8 < 15:  # a card is worth 5 at most, a noble 3
        return False
    nxt = g.current
    return _win_now(g, nxt, scorer.scores(g, nxt, g.legal_actions()), scorer) is not None


def guarded(game, moves, weights, i, scorer):
    """The index to play: ``i``, unless it hands the next seat a win in one and another move with a weight does not
    (then the heaviest such move)."""
    if not hands_a_win(game, moves[i], scorer):
        return i
    for j in sorted(range(len(moves)), key=lambda j: -weights[j]):
        if j != i and weights[j] > 0 and not hands_a_win(game, moves[j], scorer):
            return j
    return i


class WeakenedExpert(ExpertBot):
    """The expert with ``sims`` simulations a move (0: the network's prior alone) and the root's choice of
    :func:`pick` at ``temperature`` among the moves above ``floor``; ``tree_iterations``: the tree search's walks
    at a table without a network; ``guard``: never hand the next seat a win in one that another move avoids.
    ``level``: the ladder's name for it. Other arguments as the expert's."""

    def __init__(self, sims=0, temperature=0.0, floor=0.0, tree_iterations=16, guard=False, level="weakened",
                 tree_temperature=None, **kwargs):
        checked = checked_settings(sims, temperature, floor, tree_iterations, tree_temperature)
        super().__init__(**kwargs)
        self.sims, self.temperature, self.floor, self.tree_iterations, self.tree_temperature = checked
        self.guard = bool(guard)
        self.level = level

    def settings(self):
        """What defines this level (counts, never seconds): for the ladder's table and the arena's log."""
        return {"sims": self.sims, "temperature": self.temperature, "floor": self.floor,
                "tree_iterations": self.tree_iterations, "tree_temperature": self.tree_temperature, "guard": self.guard}

    def _net_decide(self, game, seat, rng, budget, legal, evaluator):
        scored = self.scorer.scores(game, seat, legal)
        win = _win_now(game, seat, scored, self.scorer)
        clock = capped(self.sims, budget).clock() if self.sims else None
        if clock is None:
            moves, prior, value = evaluator.evaluate(game)
            prior = _puct._finishers_first(game, moves, prior)
            weights, stats = prior, None
        else:
            moves, prior, stats, value, _ = _puct.search(game, seat, evaluator, self.search_params, rng, clock)
            weights = [n for n, _ in stats]
        i = pick(weights, self.temperature, self.floor, rng)
        if self.guard and win is None:
            i = guarded(game, moves, weights, i, self.scorer)
        action = moves[i]
        if win is not None:
            action = win
        info = {"iterations": clock.n if clock else 0, "searched": len(moves), "net": True,
                "position_chance": round(((value if game.n == 2 else value[0]) + 1) / 2, 3),
                "prior": round(prior[i], 3),
                "candidates": [{"action": str(moves[j]), "prior": round(prior[j], 3),
                                **({"visits": stats[j][0]} if stats else {}),
                                **({"value": round((stats[j][1] / stats[j][0] + 1) / 2, 3)}
                                   if stats and stats[j][0] else {})}
                               for j in sorted(range(len(moves)), key=lambda j: -weights[j])[:4]]}
        if stats and stats[i][0] and action is moves[i]:
            info["win_chance"] = round((stats[i][1] / stats[i][0] + 1) / 2, 3)
        return action, info

    def _tree_decide(self, game, seat, rng, budget, legal):
        scored = self.scorer.scores(game, seat, legal)
        win = _win_now(game, seat, scored, self.scorer)
        cands, priors, inner, horizon = self.tree_setup(game, seat, scored, (win,))
        its = max(self.tree_iterations, len(cands))
        clock = capped(its, budget).clock()
        _, stats, _ = _tree.search(self, game, seat, cands, rng, clock, horizon, priors, inner)
        weights = [n for n, _ in stats]
        i = pick(weights, self.tree_temperature, self.floor, rng)
        if self.guard and win is None:
            i = guarded(game, cands, weights, i, self.scorer)
        action = win if win is not None else cands[i]
        return action, {"iterations": clock.n, "searched": len(cands),
                        "candidates": [{"action": str(cands[j]), "visits": stats[j][0]}
                                       for j in sorted(range(len(cands)), key=lambda j: -stats[j][0])[:4]]}
