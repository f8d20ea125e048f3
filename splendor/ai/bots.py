"""The bot levels without search: random (the baseline), easy and medium.

Every bot answers ``choose(observation, rng, budget) -> Action`` and ``decide(...) -> (action, info)``, where the
observation is ``game.observation(seat)`` of the seat to act. The bot rebuilds a game from it with
``splendor.determinize`` (unseen cards dealt at random from ``rng``), so it can only use what that seat may see.
"""

import math

from ..engine.game import determinize
from .budget import Budget
from .heuristic import Scorer, Weights


#: Past this round a game is stalled (normal games end by round 35): bots then start mixing in random moves.
RESTLESS_ROUND = 45


class BotError(ValueError):
    """A request a bot cannot answer (the game is over, the observation is not of the seat to act...)."""


def prepare(observation, rng):
    """(game, seat) for an observation of the seat to act; BotError when no decision is due."""
    if not isinstance(observation, dict):
        raise BotError("the observation must be an object")
    seat = observation.get("seat")
    if observation.get("phase") == "over":
        raise BotError("the game is over: there is nothing to choose")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise BotError("the observation has no seat")
    if observation.get("current") != seat:
        raise BotError(f"the observation is from seat {seat} but seat {observation.get('current')} is to act")
    game = determinize(observation, rng)
    return game, seat


class Bot:
    """Base class: subclasses implement ``_decide(game, seat, rng, budget) -> (action, info)``."""

    level = "?"
    default_budget = Budget(iterations=1)

    def choose(self, observation, rng, budget=None):
        return self.decide(observation, rng, budget)[0]

    def decide(self, observation, rng, budget=None):
        budget = Budget.parse(budget, self.default_budget).started()
        game, seat = prepare(observation, rng)
        return self.decide_game(game, seat, rng, budget)

    def decide_game(self, game, seat, rng, budget):
        """``decide`` for a game already built from the observation (``budget`` started): ``seat`` is to act."""
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0], {"level": self.level, "forced": True, "iterations": 0}
        if game.round > RESTLESS_ROUND and self.level != "random":
            # A game this long is stalled (typically every token held and nothing affordable): the only way out is to
            # act differently from the same position, so a growing share of moves are picked at random.
            if rng.random() < min(0.5, 0.05 * (game.round - RESTLESS_ROUND)):
                return rng.choice(legal), {"level": self.level, "restless": True, "iterations": 0}
        action, info = self._decide(game, seat, rng, budget, legal)
        info.setdefault("level", self.level)
        return action, info

    def _decide(self, game, seat, rng, budget, legal):  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} level={self.level}>"


class RandomBot(Bot):
    """Picks uniformly among the legal actions: the baseline every other level must crush."""

    level = "random"

    def _decide(self, game, seat, rng, budget, legal):
        return rng.choice(legal), {}


def _top(scored, k=3):
    ranked = sorted(scored, key=lambda t: -t[0])[:k]
    return [{"action": str(a), "score": round(s, 3)} for s, a in ranked]


class MediumBot(Bot):
    """A solid heuristic: every legal action is rated by the position right after it (own value minus most of the
    best opponent's, nobles and denial included) and the best is played. Deterministic."""

    level = "medium"

    def __init__(self, weights=None):
        self.scorer = Scorer(weights or Weights())

    def _decide(self, game, seat, rng, budget, legal):
        scored = self.scorer.scores(game, seat, legal)
        best = max(range(len(scored)), key=lambda i: scored[i][0])
        return scored[best][1], {"candidates": _top(scored)}


class EasyBot(Bot):
    """Plays with purpose but like a beginner: it looks only at its own game (no denial, no noble race), overlooks
    some market cards and nobles, and picks among its good-looking moves with some randomness."""

    level = "easy"

    def __init__(self, weights=None, noise=0.2, attention=0.85, noble_blind=0.5, reserve_care=0.8):
        base = weights or Weights()
        self.w_see = base.copy(opponent=0.0)
        self.w_blind = base.copy(opponent=0.0, noble_blind=True)
        self.noise = noise                # temperature of the choice among rated moves
        self.attention = attention        # chance that each market card is noticed
        self.noble_blind = noble_blind    # chance of forgetting about the nobles this turn
        self.reserve_care = reserve_care  # chance of not even thinking of reserving

    def _decide(self, game, seat, rng, budget, legal):
        weights = self.w_blind if rng.random() < self.noble_blind else self.w_see
        scorer = Scorer(weights)
        if game.phase == "action":
            seen = {c for row in game.market_rows for c in row if c is not None and rng.random() < self.attention}
            actions = [a for a in legal
                       if (a.card is None or a.card in seen
                           or a.kind == "buy" and a.card in game.player_list[seat].reserved_list)
                       and not (a.kind == "reserve" and rng.random() < self.reserve_care)]
            if not actions:
                actions = legal
            scored = scorer.scores(game, seat, actions, market_filter=lambda c: c in seen)
        else:
            # Giving back tokens or picking a noble: no slip here, just the easy bot's narrower view.
            scored = scorer.scores(game, seat, legal)
            return max(scored, key=lambda t: t[0])[1], {"candidates": _top(scored)}
        t = self.noise
        best = None
        for s, a in scored:
            u = rng.random()
            g = s - t * math.log(-math.log(u)) if 0.0 < u < 1.0 else s  # Gumbel noise: a softmax choice
            if best is None or g > best[0]:
                best = (g, a)
        return best[1], {"candidates": _top(scored)}
