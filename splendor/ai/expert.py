"""The expert bot: a determinized tree search (:mod:`splendor.ai.tree`) over the hard bot's candidate moves, judging
the positions its walks and short playouts reach with the learned value model (:mod:`splendor.ai.learned`); with
``tree=False`` the hard bot's flat search with the model at its leaves (the expert of the first six sessions).

The model's weights are read from ``expert_weights.json`` when the first expert bot is made (not when the package
is imported), so the page and the other levels never pay for them.
"""

import random

from . import tree as _tree
from .bots import _top
from .budget import Budget
from .search import HardBot, finish_turn, playout, prune


class ExpertBot(HardBot):
    """A :class:`HardBot` whose leaf is a :class:`~splendor.ai.learned.ValueModel` (default: the shipped one),
    searching a tree (``tree``, on) or the hard bot's flat way. ``leaf_opponent``: how much the best opponent's change
    since the root counts at a leaf (1.0: the model's win chance as it is). Other arguments as HardBot's."""

    level = "expert"
    default_budget = Budget(seconds=0.8)

    def __init__(self, model=None, leaf_opponent=1.0, prior=0, model_choices=False, replies=0, reply_horizon=1,
                 share=False, greedy_plies=0, endgame_replies=0, playout_tau=0.0, whole_turns=False, tree=True,
                 tree_width=4, tree_c=0.15, tree_horizon=3, tree_others=None, tree_pruned=False,
                 tree_paranoid=False, tree_to_seat=False, tree_others_hard=0, policy=None, policy_width=4,
                 prior_c=1.0, record=None, **kwargs):
        if model is None:
            from .learned import load_model, load_policy
            model = load_model()
            if policy is None:
                policy = load_policy()
        # policy (the shipped model's, when its file has one): a PolicyModel whose ``policy_width`` best moves join
        # the root's candidates, and whose priors steer the root's choice of move to search (PUCT, constant
        # ``prior_c``); ``record``: a list the training command hands in, to which each decision's root moves' features
        # and visit counts are appended
        self.policy = policy
        self.policy_width = policy_width
        self.prior_c = prior_c
        self.record = record
        # (tuning knob) share: a leaf is the seat's share of the table (ValueModel.win_share: every opponent
        # counts) instead of its chance against the best opponent; the same at two seats
        super().__init__(leaf_model=_Share(model) if share else model, leaf_opponent=leaf_opponent, **kwargs)
        self.model = model
        self.prior = prior                  # extra candidates: the model's best moves one ply ahead (tuning knob)
        self.model_choices = model_choices  # returns and noble choices by the model one ply ahead (tuning knob)
        # (tuning knob) replies=K: a sample is the worst, for the seat, of the next seat's K best-looking replies
        # (each followed by ``reply_horizon`` turns of playout) instead of one playout of the policy
        self.replies = replies
        self.reply_horizon = reply_horizon
        # (tuning knob) greedy_plies=m: the first m turns of each playout are played by the model one ply ahead
        # (each mover picks, among the playout's pruned moves, the one after which the model rates it best), the
        # rest by the scorer
        self.greedy_plies = greedy_plies
        # (tuning knob) endgame_replies=K: once the search plays its samples out to the end (someone has
        # ``endgame_points``), a sample is the worst of the next seat's K best-looking replies, each played out
        self.endgame_replies = endgame_replies
        # (tuning knob) playout_tau=T: the playouts draw each action-phase move from the softmax of the scorer's
        # scores over T (a random stream of their own, from the decision's) instead of playing the best-looking one
        # (in the plain samples: not with replies or greedy_plies)
        self.playout_tau = playout_tau
        self._playout_rng = None
        # (tuning knob) whole_turns: a sample finishes the searched move's turn (its returns, its noble) before the
        # playout's turns are counted. Without it a move that must give tokens back gets one turn fewer of playout
        # than the others (its return counts as a turn) and is judged with the other seat to move one more time.
        self.whole_turns = whole_turns
        # tree (on in the shipped level): a determinized tree search (splendor.ai.tree) over the same root
        # candidates instead of the flat one: deeper moves are the scorer's ``tree_width`` best, chosen by UCB with
        # constant ``tree_c``; a new leaf is played on ``tree_horizon`` turns (the endgame's horizon once someone is
        # near the end). The flat search's knobs act with tree=False only (not prior and model_choices: both searches).
        self.tree = tree
        self.tree_width = tree_width
        self.tree_c = tree_c
        self.tree_horizon = tree_horizon
        # tree_others (a tuning knob, off): the other seats' moves in the tree are the scorer's tree_others best
        # (fewer than the seat's own: at 4 players a walk reaches the seat's next move sooner).
        self.tree_others = tree_others
        # tree_pruned (off in the shipped level since the twelfth session): True, the moves below the root are the
        # scorer's best of the playout's pruned moves (search.prune: three takes, two reservations of the richest
        # cards, no blind one), which leave out the scorer's favourite a third of the time; False (shipped), of
        # every legal move, as the root's candidates are
        self.tree_pruned = tree_pruned
        # tree_paranoid (a tuning knob, off): the other seats choose their moves in the tree to lower the seat's
        # chance (paranoid search: every opponent against the seat) instead of each raising its own (max-n)
        self.tree_paranoid = tree_paranoid
        # tree_to_seat (a tuning knob, off): a new leaf is played on until the seat is to move (every leaf judged
        # at the seat's own turn) instead of ``tree_horizon`` turns; the endgame's longer playouts as before
        self.tree_to_seat = tree_to_seat
        # tree_others_hard=N (a tuning knob, off): in the tree each other seat plays one move, the hard bot's choice
        # with N iterations of its search in that deal (remembered per position like the scorer's offers)
        self.tree_others_hard = tree_others_hard

    def _sample(self, det, action, seat, horizon, leaf):
        if self.greedy_plies:
            return self._greedy_sample(det, action, seat, horizon, leaf)
        replies, reply_horizon = self.replies, self.reply_horizon
        if self.endgame_replies and horizon > self.horizon:  # the endgame's longer playouts (HardBot._decide)
            replies, reply_horizon = self.endgame_replies, horizon - 1
        if not replies:
            if not (self.whole_turns or self.playout_tau):
                return super()._sample(det, action, seat, horizon, leaf)
            g = det.copy()
            g.apply_unchecked(action)
            if self.whole_turns:
                finish_turn(g, self.rollout)
            playout(g, horizon, self.rollout, self.playout_tau, self._playout_rng)
            return leaf(g, seat)
        g = det.copy()
        g.apply_unchecked(action)
        scorer = self.rollout
        finish_turn(g, scorer)
        if g.phase_ == "over" or g.current == seat:
            playout(g, horizon, scorer)
            return leaf(g, seat)
        legal = g.legal_actions()
        if len(legal) > 1:
            legal = prune(g, legal, scorer)
        rated = scorer.scores(g, g.current, legal)
        rated.sort(key=lambda t: -t[0])
        worst = None
        for _, reply in rated[:replies]:
            h = g.copy()
            h.apply_unchecked(reply)
            playout(h, reply_horizon, scorer)
            v = leaf(h, seat)
            if worst is None or v < worst:
                worst = v
        return worst

    def _greedy_sample(self, det, action, seat, horizon, leaf):
        g = det.copy()
        g.apply_unchecked(action)
        scorer = self.rollout
        finish_turn(g, scorer)
        k = 0
        while k < self.greedy_plies and k < horizon and g.phase_ != "over":
            legal = g.legal_actions()
            if len(legal) > 1:
                legal = prune(g, legal, scorer)
                best = max(self._one_ply(g, g.current, legal), key=lambda t: t[0])[1]
            else:
                best = legal[0]
            g.apply_unchecked(best)
            finish_turn(g, scorer)
            k += 1
        playout(g, horizon - k, scorer)
        return leaf(g, seat)

    def _one_ply(self, game, seat, actions):
        """[(the model's win chance for ``seat`` where the next turn starts after the action, action)] (in this
        deal)."""
        model = self.model
        out = []
        for a in actions:
            g = game.copy()
            g.apply_unchecked(a)
            finish_turn(g, self.rollout)  # judged where the next turn starts: not in the middle of this one
            out.append((model.win_chance(g, seat), a))
        return out

    def _candidates(self, game, seat, scored):
        cands = super()._candidates(game, seat, scored)
        if self.prior:
            chosen = set(map(str, cands))
            rated = self._one_ply(game, seat, [a for _, a in scored if str(a) not in chosen])
            rated.sort(key=lambda t: -t[0])
            cands += [a for _, a in rated[: self.prior]]
        return cands

    def _decide(self, game, seat, rng, budget, legal):
        if self.playout_tau:
            self._playout_rng = random.Random(rng.random())
        if self.model_choices and game.phase_ != "action":
            rated = self._one_ply(game, seat, legal)
            best = max(range(len(rated)), key=lambda i: rated[i][0])
            return rated[best][1], {"candidates": [{"action": str(a), "score": round(v, 3)}
                                                   for v, a in sorted(rated, key=lambda t: -t[0])[:3]]}
        if self.tree and game.phase_ == "action":
            return self._tree_decide(game, seat, rng, budget, legal)
        return super()._decide(game, seat, rng, budget, legal)

    def _tree_decide(self, game, seat, rng, budget, legal):
        scored = self.scorer.scores(game, seat, legal)
        cands = self._candidates(game, seat, scored)
        priors = None
        if self.policy is not None and len(game._players) == self.policy.players:
            rated = self.policy.priors(game, seat, scored)
            chosen = set(cands)
            for _, a in sorted(rated, key=lambda t: -t[0])[: self.policy_width]:
                if a not in chosen:
                    cands.append(a)
                    chosen.add(a)
            of = {a: p for p, a in rated}
            total = sum(of[a] for a in cands)
            priors = [of[a] / total for a in cands]
        horizon = self._horizon(game, self.tree_horizon)
        clock = budget.clock()
        best, stats, depth = _tree.search(self, game, seat, cands, rng, clock, horizon, priors)
        if self.record is not None and clock.n:
            from .policy import action_features
            sc = {a: s for s, a in scored}
            feats = action_features(game, seat, [(sc[a], a) for a in cands])
            self.record.append(([f for f, _ in feats], [st[0] for st in stats], list(cands)))
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


class _Share:
    """A leaf model for the search whose leaf is ``model.win_share`` (ExpertBot's ``share`` knob)."""

    def __init__(self, model):
        self.leaf = model.win_share
