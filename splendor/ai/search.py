"""The hard bot: determinized Monte Carlo search over the best-looking moves.

Each iteration deals the unseen cards afresh (deck order and opponents' blind reservations, consistent with the
observation), plays one candidate move in that deal, lets every seat play on with the heuristic policy for a few
turns, and scores the position reached (the result when the game ended). All candidates are tried on the same
deals (common random numbers, so their differences are not drowned by the luck of the draw); the weakest are
dropped as evidence accumulates (successive halving), and the best average wins.
"""

from .bots import Bot, _top
from .budget import Budget
from ..engine.cards import COLOR_INDEX
from .heuristic import Scorer, Weights, leaf_value, seat_values


def resample(base, seat, rng):
    """A copy of the determinized game ``base`` with the cards ``seat`` cannot see dealt again at random."""
    g = base.copy()
    g.redeal(seat, rng)
    return g


def prune(game, legal, scorer, keep_takes=3, keep_reserves=2):
    """The actions worth pricing in a playout: every buy, the few takes whose colors look best, and the
    reservations of the few richest cards (no blind ones)."""
    buys = []
    takes = []
    res = []
    for a in legal:
        k = a.kind
        if k == "buy":
            buys.append(a)
        elif k == "take" or k == "take_two":
            takes.append(a)
        elif k == "reserve" and a.card is not None:
            res.append(a)
    if len(takes) > keep_takes:
        gains = scorer.color_gains(game, game.current)

        def gain(a):
            if a.kind == "take_two":
                return gains[5 + COLOR_INDEX[a.colors[0]]]
            return sum(gains[COLOR_INDEX[c]] for c in a.colors)

        takes.sort(key=lambda a: -gain(a))
        takes = takes[:keep_takes]
    if len(res) > keep_reserves:
        res.sort(key=lambda a: -(a.card.points * 2 + a.card.level))
        res = res[:keep_reserves]
    out = buys + takes + res
    return out or legal


def playout(g, plies, scorer):
    """Let the seats play on with the heuristic policy for ``plies`` turns (or until the game ends)."""
    k = 0
    while k < plies and g.phase != "over":
        legal = g.legal_actions()
        if len(legal) == 1:
            a = legal[0]
        else:
            if g.phase == "action":
                legal = prune(g, legal, scorer)
            best = None
            for s, act in scorer.scores(g, g.current, legal):
                if best is None or s > best[0]:
                    best = (s, act)
            a = best[1]
        g.apply_unchecked(a)
        if g.phase == "action":
            k += 1
    return g


def finish_turn(g, scorer):
    """Play the rest of the turn in progress in ``g`` (returns of tokens, a choice of nobles) as ``scorer`` would."""
    while g.phase not in ("action", "over"):
        legal = g.legal_actions()
        g.apply_unchecked(legal[0] if len(legal) == 1 else max(scorer.scores(g, g.current, legal),
                                                               key=lambda t: t[0])[1])


#: The hard bot's own weights, over the medium bot's (tuned for strength): a bonus's engine value starts lower and a
#: reserved card costs less to hold. Chosen for the length of its games against itself (docs/BOTS.md, "Hard:
#: determinized search"); the medium bot keeps the defaults.
HARD_WEIGHTS = {"bonus": 1.0, "reserve_slot": 0.1}

class HardBot(Bot):
    """Searches: see the module text. ``candidates``: the best-looking moves searched; ``horizon``: turns played out
    after each move (``endgame_horizon`` once anyone has ``endgame_points``); ``leaf_opponent``: how much the best
    opponent's value counts against the seat's at a leaf, the hand-set values over a logistic scale of 3 points.
    The worse half of the candidates is dropped after 4, 8, 16 ... deals (successive halving)."""

    level = "hard"
    default_budget = Budget(seconds=0.8)

    def __init__(self, weights=None, candidates=8, horizon=4, endgame_horizon=12, endgame_points=11, leaf_opponent=0.8):
        self.weights = weights or Weights(**HARD_WEIGHTS)
        self.scorer = Scorer(self.weights)
        self.candidates = candidates
        self.horizon = horizon
        # Near the end the result itself decides: play the samples out (up to this many turns) once anyone has
        # ``endgame_points``.
        self.endgame_horizon = endgame_horizon
        self.endgame_points = endgame_points
        self.leaf_opponent = leaf_opponent

    def _candidates(self, game, seat, scored):
        """The moves the search tries: the scorer's best ``candidates``."""
        ranked = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        return [scored[i][1] for i in ranked[: self.candidates]]

    def _horizon(self, game, turns):
        """The playouts' length: ``turns``, or the endgame's longer horizon once anyone has ``endgame_points``."""
        if max(p.points for p in game.player_list) >= self.endgame_points:
            return max(turns, self.endgame_horizon)
        return turns

    def _sample(self, det, action, seat, horizon, leaf):
        """The value for ``seat`` of ``action`` in the deal ``det``: ``leaf(game, seat)`` of the position its playout
        reaches."""
        g = det.copy()
        g.apply_unchecked(action)
        playout(g, horizon, self.scorer)
        return leaf(g, seat)

    def _decide(self, game, seat, rng, budget, legal):
        scored = self.scorer.scores(game, seat, legal)
        if game.phase != "action":
            best = max(range(len(scored)), key=lambda i: scored[i][0])
            return scored[best][1], {"candidates": _top(scored)}
        cands = self._candidates(game, seat, scored)
        k = len(cands)
        totals = [0.0] * k
        counts = [0] * k
        alive = list(range(k))
        horizon = self._horizon(game, self.horizon)
        vals = seat_values(game, self.weights)
        opp_ref = max(v for j, v in enumerate(vals) if j != seat)
        weights, opp_weight = self.weights, self.leaf_opponent

        def leaf(g, s):
            return leaf_value(g, weights, s, opp_weight, opp_ref)

        clock = budget.clock()
        samples = 0
        next_cut = 4
        while not clock.done():
            det = resample(game, seat, rng)  # (each sample plays a copy of it)
            for i in alive:
                totals[i] += self._sample(det, cands[i], seat, horizon, leaf)
                counts[i] += 1
                clock.tick()
            samples += 1
            if len(alive) > 2 and samples >= next_cut:
                alive.sort(key=lambda i: -totals[i] / counts[i])
                alive = alive[: max(2, (len(alive) + 1) // 2)]
                next_cut *= 2
        if not any(counts):
            return cands[0], {"iterations": 0, "candidates": _top(scored)}
        pool = [i for i in range(k) if counts[i] == max(counts)]
        best = max(pool, key=lambda i: totals[i] / counts[i])
        info = {
            "iterations": clock.n,
            "samples": samples,
            "searched": k,
            "seconds": round(clock.elapsed(), 3),
            "win_chance": round(totals[best] / counts[best], 3),
            "candidates": [
                {"action": str(cands[i]), "value": round(totals[i] / counts[i], 3), "visits": counts[i]}
                for i in sorted(range(k), key=lambda i: (-counts[i], -(totals[i] / counts[i]) if counts[i] else 0))[:4]
                if counts[i]
            ],
        }
        return cands[best], info
