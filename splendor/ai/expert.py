"""The expert bot: a determinized tree search (:mod:`splendor.ai.tree`) over the hard bot's candidate moves, judging
the positions its walks and short playouts reach with the learned value model (:mod:`splendor.ai.learned`).

The model's weights are read from ``expert_weights.json`` when the first expert bot is made (not when the package
is imported), so the page and the other levels never pay for them.
"""

from . import tree as _tree
from .bots import _top
from .budget import Budget
from .search import HardBot


class ExpertBot(HardBot):
    """A :class:`HardBot` that searches a tree instead of its flat search, judging with a
    :class:`~splendor.ai.learned.ValueModel` (``model``, default the shipped one; the training command passes the one
    it plays with). Below the root the movers choose among the scorer's ``tree_width`` best moves by UCB with the
    constant ``tree_c``; a new leaf is played on ``tree_horizon`` turns (the endgame's horizon once someone is near
    the end). The root's candidates, the playouts and the non-action phases (returns, nobles) are the hard bot's;
    other arguments as HardBot's."""

    level = "expert"
    default_budget = Budget(seconds=0.8)

    def __init__(self, model=None, tree_width=4, tree_c=0.15, tree_horizon=3, **kwargs):
        if model is None:
            from .learned import load_model
            model = load_model()
        super().__init__(**kwargs)
        self.model = model
        self.tree_width = tree_width
        self.tree_c = tree_c
        self.tree_horizon = tree_horizon

    def _decide(self, game, seat, rng, budget, legal):
        if game.phase_ == "action":
            return self._tree_decide(game, seat, rng, budget, legal)
        return super()._decide(game, seat, rng, budget, legal)

    def _tree_decide(self, game, seat, rng, budget, legal):
        scored = self.scorer.scores(game, seat, legal)
        cands = self._candidates(game, seat, scored)
        horizon = self._horizon(game, self.tree_horizon)
        clock = budget.clock()
        best, stats, depth = _tree.search(self, game, seat, cands, rng, clock, horizon)
        if not clock.n:
            return cands[0], {"iterations": 0, "candidates": _top(scored)}
        order = sorted(range(len(cands)), key=lambda i: (-stats[i][0], -stats[i][1]))
        return cands[best], {
            "iterations": clock.n,
            "searched": len(cands),
            "depth": depth,
            "seconds": round(clock.elapsed(), 3),
            "win_chance": round(stats[best][1] / stats[best][0], 3),
            "candidates": [
                {"action": str(cands[i]), "value": round(stats[i][1] / stats[i][0], 3), "visits": stats[i][0]}
                for i in order[:4] if stats[i][0]
            ],
        }
