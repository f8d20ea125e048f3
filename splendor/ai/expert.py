"""The expert bot. At a table with a network file (:data:`NET_FILES`: ``expert_net.json`` at two players; the
search and the file format serve 3 and 4 as well): a PUCT search guided by the policy/value network at every leaf
(:mod:`splendor.ai.puct`, the network run by :mod:`splendor.ai.netrun`). At a table without a usable network file:
a determinized tree search (:mod:`splendor.ai.tree`) over the hard bot's candidate moves, judging the positions its
walks and short playouts reach with the learned value model (:mod:`splendor.ai.learned`).

The files are read when the first expert bot plays at their table (not when the package is imported), so the page
and the other levels never pay for them. A network file that does not fit is refused with its reason
(``net_problem_at``), and the tree search plays instead.
"""

import os

from . import puct as _puct
from . import tree as _tree
from .bots import _top
from .budget import Budget
from .policy import DEFAULT_SEARCH
from .search import HardBot, finish_turn


class ExpertBot(HardBot):
    """A :class:`HardBot` that searches a tree instead of its flat search, judging with a
    :class:`~splendor.ai.learned.ValueModel` (``model``, default the shipped one; the training command passes the one
    it plays with). Below the root the movers choose among the scorer's ``tree_width`` best moves by UCB with the
    constant ``tree_c``; a new leaf is played on ``tree_horizon`` turns (the endgame's horizon once someone is near
    the end). ``tree_horizon`` and ``tree_prior`` (whether the policy's priors also steer the choices below the root,
    among its ``tree_width`` favourites) left None follow the policy's ``search`` settings at the table size the
    policy is for, and are 3 and False elsewhere. The root's candidates, the playouts and the non-action phases
    (returns, nobles) are the hard bot's; other arguments as HardBot's."""

    level = "expert"
    default_budget = Budget(seconds=0.8)

    def __init__(self, model=None, tree_width=4, tree_c=0.15, tree_horizon=None, tree_prior=None, policy=None,
                 policy_width=4, prior_c=1.0, record=None, net="default", search=None, **kwargs):
        if net == "default":  # a caller that hands in the tree's model or prior means the tree search
            net = "shipped" if model is None and policy is None else None
        if model is None:
            from .learned import load_expert
            model, shipped = load_expert()
            if policy is None:
                policy = shipped
        super().__init__(**kwargs)
        # policy (the shipped model's, when its file has one): a PolicyModel whose ``policy_width`` best moves join
        # the root's candidates, and whose priors steer the root's choice of move to search (PUCT, constant
        # ``prior_c``); ``record``: a list the training command hands in, to which each decision's root moves'
        # features, visit counts and moves are appended
        self.policy = policy
        self.policy_width = policy_width
        self.prior_c = prior_c
        self.record = record
        self.model = model
        self.tree_width = tree_width
        self.tree_c = tree_c
        self.tree_horizon = tree_horizon
        self.tree_prior = tree_prior
        # net: "shipped" (the network files beside this module, each table's read when the bot first plays there;
        # the default unless a model or policy is handed in), None (the tree search only), a Net (for the table it
        # names), or an evaluator (an object with ``evaluate(game)``, see splendor.ai.netrun; for the table its
        # ``players`` names, else two); search: the PUCT search's SearchParams
        self._shipped = net == "shipped"
        self._evaluators = {}
        self._problems = {}
        if net is not None and not self._shipped:
            self._evaluators[getattr(net, "players", NET_PLAYERS)] = (
                net if hasattr(net, "evaluate") else evaluator_for(net))
        self.search_params = search or _puct.SearchParams()

    def evaluator_at(self, players):
        """The network's evaluator at a table of ``players``, or None (the tree search plays there)."""
        if self._shipped and players not in self._evaluators:
            net, problem = load_net(NET_FILES.get(players)) if players in NET_FILES else (None, "no network file")
            self._evaluators[players] = None if net is None else evaluator_for(net)
            self._problems[players] = problem
        return self._evaluators.get(players)

    def net_problem_at(self, players):
        """Why the shipped network file of a table of ``players`` cannot play (None when it can)."""
        self.evaluator_at(players)
        return self._problems.get(players)

    @property
    def evaluator(self):
        """The 2-player network's evaluator, or None."""
        return self.evaluator_at(NET_PLAYERS)

    @property
    def net_problem(self):
        """Why the 2-player network file cannot play (None when it can)."""
        return self.net_problem_at(NET_PLAYERS)

    def _decide(self, game, seat, rng, budget, legal):
        if game.phase == "action":
            evaluator = self.evaluator_at(game.n)
            if evaluator is not None:
                return self._net_decide(game, seat, rng, budget, legal, evaluator)
            return self._tree_decide(game, seat, rng, budget, legal)
        return super()._decide(game, seat, rng, budget, legal)

    def _net_decide(self, game, seat, rng, budget, legal, evaluator):
        scored = self.scorer.scores(game, seat, legal)
        win = _win_now(game, seat, scored, self.scorer)
        clock = budget.clock()
        moves, prior, stats, value, depth = _puct.search(game, seat, evaluator, self.search_params, rng, clock)
        if win is not None:
            best = next((i for i, a in enumerate(moves) if _same_move(a, win)), None)
            action = win
        else:
            best = _puct.best_index(stats) if clock.n else max(range(len(prior)), key=prior.__getitem__)
            action = moves[best]
        order = sorted(range(len(moves)), key=lambda i: (-stats[i][0], -prior[i]))
        info = {
            "iterations": clock.n,
            "searched": len(moves),
            "depth": depth,
            "seconds": round(clock.elapsed(), 3),
            "net": True,
            "backend": getattr(getattr(evaluator, "runner", None), "name", "other"),  # what ran the network
            "position_chance": round((value + 1) / 2, 3),
            "candidates": [
                {"action": str(moves[i]), "visits": stats[i][0], "prior": round(prior[i], 3),
                 "value": round((stats[i][1] / stats[i][0] + 1) / 2, 3) if stats[i][0] else None}
                for i in order[:4]
            ],
        }
        if best is not None and stats[best][0]:
            info["win_chance"] = round((stats[best][1] / stats[best][0] + 1) / 2, 3)
        if best is not None:
            info["prior"] = round(prior[best], 3)
        return action, info

    def tree_setup(self, game, seat, scored, extra=()):
        """What the tree search needs at ``game``'s root: (its candidate moves, their priors or None, the policy that
        steers the choices below the root or None, the playouts' horizon). ``extra``: moves that must be among the
        candidates (a move that wins at once; for the coach, the move played)."""
        cands = self._candidates(game, seat, scored)
        for a in extra:
            if a is not None and a not in cands:
                cands.append(a)
        priors = inner = None
        settings = DEFAULT_SEARCH
        if self.policy is not None and len(game.player_list) == self.policy.players:
            settings = self.policy.search or DEFAULT_SEARCH
            rated = self.policy.priors(game, seat, scored)
            chosen = set(cands)
            for _, a in sorted(rated, key=lambda t: -t[0])[: self.policy_width]:
                if a not in chosen:
                    cands.append(a)
                    chosen.add(a)
            of = {a: p for p, a in rated}
            total = sum(of[a] for a in cands)
            priors = [of[a] / total for a in cands]
        below = self.tree_prior if self.tree_prior is not None else settings["below_root"]
        if below and priors is not None:
            inner = self.policy
        turns = self.tree_horizon if self.tree_horizon is not None else settings["horizon"]
        return cands, priors, inner, self._horizon(game, turns)

    def _tree_decide(self, game, seat, rng, budget, legal):
        scored = self.scorer.scores(game, seat, legal)
        # A move with which the game ends and the seat alone wins is played whatever the search says (a move that wins
        # later can look as good to it); the search still runs, its figures say what it saw.
        win = _win_now(game, seat, scored, self.scorer)
        cands, priors, inner, horizon = self.tree_setup(game, seat, scored, (win,))
        clock = budget.clock()
        best, stats, depth = _tree.search(self, game, seat, cands, rng, clock, horizon, priors, inner)
        if self.record is not None and clock.n:
            from .policy import action_features
            sc = {a: s for s, a in scored}
            feats = action_features(game, seat, [(sc[a], a) for a in cands])
            self.record.append(([f for f, _ in feats], [st[0] for st in stats], list(cands)))
        if not clock.n:
            return win or cands[0], {"iterations": 0, "candidates": _top(scored)}
        if win is not None:
            best = cands.index(win)
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


#: The table size of the first network (splendor.ai.encoding.PLAYERS): a network or evaluator that names none.
NET_PLAYERS = 2
_FOLDER = os.path.dirname(os.path.abspath(__file__))
#: The shipped 2-player network file; tools/build_site.py serves it beside the package, the worker fetches it.
NET_FILE = os.path.join(_FOLDER, "expert_net.json")
#: Each table's shipped network file (a table without one is the tree search's; docs/HISTORY.md has the 4-player
#: network that was fitted and not shipped).
NET_FILES = {2: NET_FILE}
_NETS = {}


def load_net(path=None):
    """(the network in ``path`` (default NET_FILE), None) or (None, why it cannot be used): read once per path."""
    path = path or NET_FILE
    if path not in _NETS:
        from .netfile import NetFileError, read_net

        try:
            with open(path, encoding="utf-8") as f:
                _NETS[path] = (read_net(f.read()), None)
        except FileNotFoundError:
            _NETS[path] = (None, "no network file")
        except (OSError, UnicodeDecodeError) as e:
            _NETS[path] = (None, f"the network file cannot be read: {e}")
        except NetFileError as e:
            _NETS[path] = (None, str(e))
    return _NETS[path]


def evaluator_for(net):
    """The evaluator running ``net`` with the fastest backend here, made once per network (the kernel's set-up copies
    every weight; each move's bot is new)."""
    got = _EVALUATORS.get(id(net))
    if got is None or got[0] is not net:
        from .encoding import LAYOUTS
        from .netrun import NetEvaluator, runner_for

        got = _EVALUATORS[id(net)] = (net, NetEvaluator(runner_for(net), LAYOUTS[net.players].values))
    return got[1]


_EVALUATORS = {}


def _same_move(a, b):
    """The same move up to the payment of a buy."""
    return a.kind == b.kind and a.card is b.card and a.colors == b.colors and a.level == b.level


def _win_now(game, seat, scored, scorer):
    """A move after which the game is over at once with ``seat`` its only winner (it reaches 15 as the last seat of
    the round and no one ties it), else None. The end and the winners depend only on what every seat sees (points and
    cards bought), so what the deal made of the unseen cards does not matter. Among several, the scorer's favourite."""
    best = None
    for s, a in scored:
        if a.kind != "buy" or game.player_list[seat].points + a.card.points < 10:
            continue  # only a purchase can bring a seat to 15 (a noble comes with a purchase)
        g = game.copy()
        g.apply_unchecked(a)
        finish_turn(g, scorer)
        if g.phase == "over" and list(g.winners) == [seat] and (best is None or s > best[0]):
            best = (s, a)
    return None if best is None else best[1]
