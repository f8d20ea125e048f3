"""The expert bot: the hard bot's determinized search, judging the positions its playouts reach with the learned
value model (:mod:`splendor.ai.learned`) instead of the hand-written value.

The model's weights are read from ``expert_weights.json`` when the first expert bot is made (not when the package
is imported), so the page and the other levels never pay for them.
"""

from .budget import Budget
from .search import HardBot


class ExpertBot(HardBot):
    """A :class:`HardBot` whose leaf is a :class:`~splendor.ai.learned.ValueModel` (default: the shipped one).
    ``leaf_opponent``: how much the best opponent's change since the root counts at a leaf (1.0: the model's win
    chance as it is). Other arguments as HardBot's."""

    level = "expert"
    default_budget = Budget(seconds=0.8)

    def __init__(self, model=None, leaf_opponent=1.0, **kwargs):
        if model is None:
            from .learned import load_model
            model = load_model()
        super().__init__(leaf_model=model, leaf_opponent=leaf_opponent, **kwargs)
        self.model = model
