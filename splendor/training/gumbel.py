"""Gumbel AlphaZero's root search for self-play ("Policy improvement by planning with Gumbel", Danihelka et al.,
ICLR 2022): a search that improves the policy with a few simulations, where PUCT's visit counts need hundreds.

At the root of a decision, with the network's logits (the log of its priors over the legal moves), a Gumbel draw g
per move picks the ``considered`` moves of the highest g + logit (Gumbel-top-k: a sample without replacement from
the prior). Sequential halving spends the simulations on them: over ceil(log2 m) phases, each phase gives every move
still in floor(n / (phases x moves still in)) walks (at least 1) and keeps the half (at least 2) of the highest
g + logit + sigma(q), q the move's mean value so far; the budget left after the last phase goes on to the last two,
the walks stopping at exactly n (as ``mctx``'s ``get_sequence_of_considered_visits``). The move played is the
survivor: of the moves still in that were walked the most, the one of the highest g + logit + sigma(q). Below the
root the walks are the PUCT of :mod:`splendor.ai.puct` (:func:`splendor.ai.puct.select_forced`), so that the trees
are the expert's.

sigma(q) = (c_visit + the most walks of a root move) x c_scale x q, q taken from [-1, 1] to [0, 1], c_visit 50 and
c_scale 1 (the paper's; ``mctx``'s default scale is 0.1, on values stretched min-max to [0, 1] at each root;
``netplay --c-scale`` sets it). The policy target is softmax(logits + sigma(completed q)) over every legal move: a move
walked has its mean value, one not walked the mixed value of ``mctx``'s ``qtransform_completed_by_mix_value`` (the
network's value of the root and the prior-weighted mean of the walked moves' values, weighted 1 and the walks).

Nothing here imports numpy or a network: :mod:`.netplay` drives the walks in its batched lockstep.
"""

import math

from ..ai.puct import mover_value

#: The paper's constants for sigma: (C_VISIT + the most walks of a root move) x C_SCALE x q, q in [0, 1].
C_VISIT = 50.0
C_SCALE = 1.0
#: Moves sampled at the root (the paper's m; ``mctx``'s default 16).
CONSIDERED = 16
#: The least prior a logit is taken of (a prior of 0 would have no logarithm).
_TINY = 1e-30


def gumbel_draws(rng, n):
    """``n`` draws of the standard Gumbel distribution, -log(-log(U)), from ``rng`` (a :class:`random.Random`)."""
    return [-math.log(-math.log(rng.random() or _TINY)) for _ in range(n)]


def logits_of(priors):
    """The logits of a distribution: log of each prior (a prior of 0 as a very small one)."""
    return [math.log(max(p, _TINY)) for p in priors]


def softmax(xs):
    top = max(xs)
    ex = [math.exp(x - top) for x in xs]
    s = sum(ex)
    return [e / s for e in ex]


def top_k(scores, k):
    """The indices of the ``k`` highest ``scores``, highest first (of equal scores, the lower index first): of
    [0.5, 2.0, -1.0, 1.0], the 2 highest are [1, 3]."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]


def sigma(q, most_visits, c_visit=C_VISIT, c_scale=C_SCALE):
    """The paper's monotone transform of a value ``q`` in [0, 1]: (c_visit + most_visits) x c_scale x q."""
    return (c_visit + most_visits) * c_scale * q


def normalized(v):
    """A value in [-1, 1] (the mover's result) as one in [0, 1]."""
    return (v + 1.0) / 2.0


def mixed_value(root_value, priors, visits, q):
    """``mctx``'s mixed value (the paper's Appendix D): (the network's value of the root + the walks x the prior-
    weighted mean value of the moves walked) / (the walks + 1); the root's value alone before any walk. A root of
    value 0.2, priors 0.5, 0.3, 0.2, walks 3, 1, 0 of mean values 0.4, -0.4: (0.2 + 4 x 0.1) / 5 = 0.12
    (tests/test_training_gumbel.py has worked examples of every piece)."""
    total = sum(visits)
    if not total:
        return root_value
    weight = sum(max(p, _TINY) for p, n in zip(priors, visits) if n)
    mean = sum(max(p, _TINY) * v for p, n, v in zip(priors, visits, q) if n) / weight
    return (root_value + total * mean) / (total + 1)


def completed_q(root_value, priors, visits, sums):
    """Each move's value in [-1, 1]: its mean (``sums`` / ``visits``) where walked, else the :func:`mixed_value`."""
    q = [w / n if n else 0.0 for n, w in zip(visits, sums)]
    mix = mixed_value(root_value, priors, visits, q)
    return [v if n else mix for n, v in zip(visits, q)]


def improved_policy(logits, visits, sums, root_value, c_visit=C_VISIT, c_scale=C_SCALE):
    """The policy target: softmax(logits + sigma(completed q)) over the root's moves, the values normalized to [0, 1].
    ``visits`` and ``sums`` the walks of each move and their summed values (the mover's, in [-1, 1]); ``root_value``
    the network's value of the root for the mover."""
    cq = completed_q(root_value, softmax(logits), visits, sums)
    most = max(visits) if visits else 0
    return softmax([lg + sigma(normalized(v), most, c_visit, c_scale) for lg, v in zip(logits, cq)])


class Halving:
    """Sequential halving over the ``considered`` moves (indices, best first) with ``sims`` walks: :meth:`next`
    gives the move each next walk starts with, :meth:`survivor` the move to play. The walks go round the moves
    still in, a phase at a time; at each phase's end ``scores()`` (every root move's g + logit + sigma(q) at that
    moment) ranks them and the better half (at least 2) stays. Exactly ``sims`` walks are asked of it. Four moves
    and 16 walks: 2 phases, first 16 // (2 x 4) = 2 walks of each, then 16 // (2 x 2) = 4 more of the better two
    (6, 6, 2, 2)."""

    __slots__ = ("remaining", "sims", "phases", "queue", "count", "started")

    def __init__(self, considered, sims):
        self.remaining = list(considered)
        self.sims = sims
        m = len(self.remaining)
        self.phases = math.ceil(math.log2(m)) if m > 1 else 0
        self.queue = []
        self.count = {i: 0 for i in self.remaining}
        self.started = False

    def next(self, scores):
        if not self.queue:
            if self.started and len(self.remaining) > 2:
                s = scores()
                ranked = sorted(self.remaining, key=lambda i: -s[i])  # stable: equal scores keep their order
                self.remaining = ranked[:max(2, len(ranked) // 2)]
            elif self.started and len(self.remaining) == 2:
                s = scores()
                self.remaining.sort(key=lambda i: -s[i])
            self.started = True
            m = len(self.remaining)
            per = self.sims if m == 1 else max(1, self.sims // (self.phases * m))
            self.queue = self.remaining * per
            self.queue.reverse()
        i = self.queue.pop()
        self.count[i] += 1
        return i

    def survivor(self, scores):
        """The move to play: of the moves still in that were walked the most, the highest of ``scores`` (a list);
        of equal scores the first still in."""
        most = max(self.count[i] for i in self.remaining)
        return max((i for i in self.remaining if self.count[i] == most), key=lambda i: scores[i])


class RootSearch:
    """The Gumbel root of one decision over the ``roots`` (one per universe, the same moves: :mod:`splendor.ai.puct`
    nodes opened with their priors). The prior is the universes' mean, the root's value the mean of the network's
    values (for the mover); a move's q is the mean of every walk through it, whichever universe it went through.
    :meth:`next_walk` gives (the universe, the root move) of the next walk: the move by the halving, the universe
    by the walks the move has had so far (offset by its index), so that each move's walks go round the deals."""

    def __init__(self, roots, rng, sims, considered=CONSIDERED, c_visit=C_VISIT, c_scale=C_SCALE):
        self.roots = roots
        u = len(roots)
        first = roots[0]
        n = len(first.moves)
        self.prior = [sum(r.P[i] for r in roots) / u for i in range(n)]
        self.logits = logits_of(self.prior)
        self.root_value = sum(mover_value(r) for r in roots) / u
        self.g = gumbel_draws(rng, n)
        self.c_visit, self.c_scale = c_visit, c_scale
        self.halving = Halving(top_k([g + lg for g, lg in zip(self.g, self.logits)], min(considered, n)), sims)

    def visits(self):
        return [sum(r.N[i] for r in self.roots) for i in range(len(self.prior))]

    def sums(self):
        return [sum(r.W[i] for r in self.roots) for i in range(len(self.prior))]

    def scores(self):
        """Every move's g + logit + sigma(completed q), as things stand."""
        visits = self.visits()
        cq = completed_q(self.root_value, self.prior, visits, self.sums())
        most = max(visits)
        return [g + lg + sigma(normalized(v), most, self.c_visit, self.c_scale)
                for g, lg, v in zip(self.g, self.logits, cq)]

    def next_walk(self):
        i = self.halving.next(self.scores)
        return self.roots[(self.halving.count[i] - 1 + i) % len(self.roots)], i

    def survivor(self):
        return self.halving.survivor(self.scores())

    def policy(self):
        return improved_policy(self.logits, self.visits(), self.sums(), self.root_value, self.c_visit, self.c_scale)

    def value(self, policy=None):
        """The search's value of the root for the mover: the improved policy's mean of the completed values. (The
        mean of every walk, as PUCT records, would weigh the first phase's walks of every considered move alike,
        weak moves too; this weighs each move by the policy the search trains toward.)"""
        policy = policy if policy is not None else self.policy()
        cq = completed_q(self.root_value, self.prior, self.visits(), self.sums())
        return sum(p * v for p, v in zip(policy, cq))
