"""Self-play over the twin's arrays: :mod:`splendor.training.netplay`'s Gumbel self-play at two players, compiled
(issue 74). Training only.

The same algorithm as ``netplay --search gumbel``: each decision searches ``UNIVERSES`` deals of what the mover
cannot see (its observation's unseen cards dealt again, :func:`redeal`); the root's moves get a Gumbel draw, the
``considered`` best of draw + logit are searched by sequential halving, the walks below the root are the expert's
PUCT (``c_puct``, ``fpu``; a new position valued by the network, its moves' priors worked out when a walk first goes
through it, a buy that reaches 15 raised to a prior of 0.5); a turn's returns over 10 and noble choices are played
by the search's quick rule (:func:`finish_turn`, :func:`splendor.ai.puct.finish_turn`'s). The survivor is played;
the decision records the visits, the prior, the improved policy and the search's value, as netplay's do.

All the games of a batch walk in lockstep: one compiled call walks one simulation down every game's tree and
encodes the new positions into one matrix, numpy runs the network over it once, one compiled call expands and backs
up. The records are netplay's: each game is replayed through the engine (:mod:`splendor.engine`) as it is played,
every move of it checked legal there and the twin's state compared with the engine's after each decision.
"""

import math

import numpy as np

from ...ai import encoding as E
from ...engine.actions import Action
from ...engine.cards import CARDS, COLORS
from ...engine.game import _buy_action, _default_payment  # (the engine's own buys, their texts made once)
from . import encode as TE
from . import rules as R
from .rules import njit

ACTION_COUNT = E.ACTION_COUNT
MAXM = R.MAX_MOVES  # moves of a position (legal_moves writes them in place)
TINY = 1e-30
C_VISIT = 50.0
FINISHER_PRIOR = 0.5

# The network's move index of a take, by the bits of its colours (encoding.TAKE_INDEX), and of a take of two.
_TAKE_BITS = np.full(32, -1, dtype=np.int64)
for _colors, _i in E.TAKE_INDEX.items():
    if _colors[0] != "two":
        _TAKE_BITS[sum(1 << "white blue green red black".split().index(c) for c in _colors)] = _i
_TAKE_TWO = np.array([E.TAKE_INDEX["two", c] for c in "white blue green red black".split()], dtype=np.int64)


@njit(cache=True)
def net_index(s, move):
    """The network's index of the twin's ``move`` in the state ``s`` (an action phase)."""
    kind = move // 1000
    arg = move % 1000
    if kind == R.TAKE:
        return _TAKE_BITS[arg]
    if kind == R.TAKE2:
        return _TAKE_TWO[arg]
    if kind == R.PASS:
        return 60
    if kind == R.BLIND:
        return 27 + arg
    for m in range(12):
        if s[R.MKT + m] == arg:
            return (0 if kind == R.BUY else 15) + m
    b = R.PLY + R.PSIZE * s[R.CUR]
    for r in range(s[b + R.NRES]):
        if s[b + R.RES + r] == arg:
            return 12 + r
    return -1


@njit(cache=True)
def finish_turn(s):
    """The rest of a turn by the search's quick rule: each token given back over 10 the colour held most beyond what
    the mover's dearest wanted card still needs of it (gold last); of several nobles, the first."""
    while s[R.PHASE] == R.RETURN:
        b = R.PLY + R.PSIZE * s[R.CUR]
        need = np.zeros(5, dtype=np.int64)
        for m in range(12):
            c = s[R.MKT + m]
            if c >= 0:
                for i in range(5):
                    d = R.COST[c, i] - s[b + R.BON + i]
                    if d > need[i]:
                        need[i] = d
        for r in range(s[b + R.NRES]):
            c = s[b + R.RES + r]
            for i in range(5):
                d = R.COST[c, i] - s[b + R.BON + i]
                if d > need[i]:
                    need[i] = d
        best = -1
        worst = -1000
        for i in range(5):
            if s[b + R.TOK + i] > 0:
                spare = s[b + R.TOK + i] - need[i]
                if best < 0 or spare > worst:
                    worst = spare
                    best = i
        R.apply_move(s, R.GIVE * 1000 + (best if best >= 0 else 5))
    if s[R.PHASE] == R.NOBLE:
        b = R.PLY + R.PSIZE * s[R.CUR]
        for j in range(s[R.NNOB]):
            nb = s[R.NOB + j]
            if R._meets(s, b, nb):
                R.apply_move(s, R.CHOOSE * 1000 + nb)
                break


@njit(cache=True)
def redeal(s, seat):
    """Deal again, at random, the cards ``seat`` cannot see: each level's deck with the other seats' cards reserved
    unseen of that level (the observation shows their level only)."""
    where = np.empty(60, dtype=np.int64)  # the state's places that hold an unseen card of the level
    for lv in range(3):
        k = 0
        for j in range(s[R.DLEN + lv]):
            where[k] = R.DECK + R.DOFF[lv] + j
            k += 1
        for q in range(s[R.N]):
            b = R.PLY + R.PSIZE * q
            for r in range(s[b + R.NRES] if q != seat else 0):
                if s[b + R.HID + r] and R.LEVEL[s[b + R.RES + r]] == lv:
                    where[k] = b + R.RES + r
                    k += 1
        for j in range(k - 1, 0, -1):  # (a shuffle of the cards in those places)
            t = np.random.randint(0, j + 1)
            s[where[j]], s[where[t]] = s[where[t]], s[where[j]]


class Trees:
    """Every game's search trees of a batch, as arrays (``B`` games, ``nmax`` nodes each, at a table of
    ``players``)."""

    def __init__(self, games, nmax, players=2):
        B = games
        self.st = np.zeros((B, nmax, R.SIZE), dtype=np.int16)
        self.mover = np.zeros((B, nmax), dtype=np.int64)
        self.term = np.zeros((B, nmax), dtype=np.int64)
        self.opened = np.zeros((B, nmax), dtype=np.int64)
        self.nm = np.zeros((B, nmax), dtype=np.int64)
        self.mv = np.zeros((B, nmax, MAXM), dtype=np.int32)
        self.P = np.zeros((B, nmax, MAXM), dtype=np.float64)
        self.N = np.zeros((B, nmax, MAXM), dtype=np.int64)
        self.W = np.zeros((B, nmax, MAXM), dtype=np.float64)
        self.kid = np.full((B, nmax, MAXM), -1, dtype=np.int64)
        self.n = np.zeros((B, nmax), dtype=np.int64)
        self.v = np.zeros((B, nmax, players), dtype=np.float64)  # every seat's value
        self.logits = np.zeros((B, nmax, ACTION_COUNT), dtype=np.float32)
        self.hash = np.zeros((B, nmax), dtype=np.int64)  # each evaluated position's input, hashed (_hash)
        self.hashed = np.zeros((B, nmax), dtype=np.int64)
        self.scratch = np.zeros(E.inputs_for(players), dtype=np.float32)
        self.count = np.zeros(B, dtype=np.int64)  # nodes in use
        self.path = np.zeros((B, 256, 2), dtype=np.int64)
        self.plen = np.zeros(B, dtype=np.int64)
        self.leaf = np.full(B, -1, dtype=np.int64)  # the node waiting for the network, or -1
        # Gumbel's root, per game
        self.g = np.zeros((B, MAXM), dtype=np.float64)
        self.prior = np.zeros((B, MAXM), dtype=np.float64)
        self.rlogit = np.zeros((B, MAXM), dtype=np.float64)
        self.root_value = np.zeros(B, dtype=np.float64)
        self.remaining = np.zeros((B, MAXM), dtype=np.int64)
        self.nrem = np.zeros(B, dtype=np.int64)
        self.walks = np.zeros((B, MAXM), dtype=np.int64)
        self.queue = np.zeros((B, 4096), dtype=np.int64)
        self.qlen = np.zeros(B, dtype=np.int64)
        self.phases = np.zeros(B, dtype=np.int64)
        self.started = np.zeros(B, dtype=np.int64)


@njit(cache=True)
def _net_values(out_v, mover, out, row):
    """Every seat's value (seat order) from the network's outputs ``out[row]`` for a position of ``mover``
    (:func:`splendor.ai.puct.seat_values`): at two seats tanh of the one value output for the mover, its negation
    for the other; at three and four twice the softmax of the seats' outputs less one, the mover's first, then the
    seats after it in turn order (:func:`splendor.ai.netrun.seat_chances`)."""
    n = len(out_v)
    if n == 2:
        value = math.tanh(out[row, ACTION_COUNT])
        out_v[mover] = value
        out_v[1 - mover] = -value
        return
    top = -1e30
    for k in range(n):
        top = max(top, out[row, ACTION_COUNT + k])
    total = 0.0
    for k in range(n):
        total += math.exp(out[row, ACTION_COUNT + k] - top)
    for k in range(n):
        out_v[(mover + k) % n] = 2.0 * math.exp(out[row, ACTION_COUNT + k] - top) / total - 1.0


@njit(cache=True)
def _same_values(out_v, mover, src, src_mover):
    """``src``'s values (a position of ``src_mover``) for a position of one input whose mover is ``mover``: the
    input is the mover's view, so each seat's value goes to the seat as far after the mover."""
    n = len(out_v)
    for k in range(n):
        out_v[(mover + k) % n] = src[(src_mover + k) % n]


@njit(cache=True)
def _result_values(s, out_v):
    """Every seat's result at an end (:func:`splendor.ai.puct.result_values`): a win alone 1, a loss -1, a win
    shared by k seats 2/k - 1."""
    bits = R.winners(s)
    n = len(out_v)
    k = 0
    for i in range(n):
        if bits >> i & 1:
            k += 1
    share = 2.0 / k - 1.0 if k else 0.0
    for i in range(n):
        out_v[i] = share if bits >> i & 1 else -1.0


@njit(cache=True, fastmath=True)  # (the walk's arithmetic: no NaN or infinity can arise there)
def _open(b, node, st, mover, nm, mv, P, N, W, kid, logits, opened):
    """A position's moves and their priors: the softmax of its stored logits over the legal moves' indices, a buy that
    reaches 15 raised to FINISHER_PRIOR."""
    s = st[b, node]
    k = R.legal_moves(s, mv[b, node])
    top = -1e30
    for j in range(k):
        x = logits[b, node, net_index(s, mv[b, node, j])]
        P[b, node, j] = x
        if x > top:
            top = x
    total = 0.0
    for j in range(k):
        e = math.exp(P[b, node, j] - top)
        P[b, node, j] = e
        total += e
    for j in range(k):
        P[b, node, j] /= total
        N[b, node, j] = 0
        W[b, node, j] = 0.0
        kid[b, node, j] = -1
    nm[b, node] = k
    _finishers_first(s, b, node, k, mv, P)
    opened[b, node] = 1


@njit(cache=True)
def _finishers_first(s, b, node, k, mv, P):
    me = R.PLY + R.PSIZE * s[R.CUR]
    pts0 = s[me + R.PTS]
    if pts0 + 5 + 3 < R.WINNING_POINTS:
        return
    changed = False
    for j in range(k):
        move = mv[b, node, j]
        if move // 1000 != R.BUY:
            continue
        card = move % 1000
        pts = pts0 + R.POINTS[card]
        if pts < R.WINNING_POINTS and pts + 3 >= R.WINNING_POINTS:
            for t in range(s[R.NNOB]):
                nb = s[R.NOB + t]
                ok = True
                for i in range(5):
                    have = s[me + R.BON + i] + (1 if R.BONUS[card] == i else 0)
                    if have < R.NEED[nb, i]:
                        ok = False
                if ok:
                    pts += 3
                    break
        if pts >= R.WINNING_POINTS and P[b, node, j] < FINISHER_PRIOR:
            P[b, node, j] = FINISHER_PRIOR
            changed = True
    if changed:
        total = 0.0
        for j in range(k):
            total += P[b, node, j]
        for j in range(k):
            P[b, node, j] /= total


@njit(cache=True)
def _new_node(b, s, st, mover, term, opened, v, count):
    """A node for the state ``s`` (copied in): its index."""
    node = count[b]
    count[b] = node + 1
    st[b, node, :] = s
    _fresh(b, node, st, mover, term, opened, v)
    return node


@njit(cache=True)
def _fresh(b, node, st, mover, term, opened, v):
    """Node ``node``, its state written, made fresh: not yet opened; an ended game's holds its result."""
    s = st[b, node]
    opened[b, node] = 0
    if s[R.PHASE] == R.OVER:
        term[b, node] = 1
        mover[b, node] = 0
        _result_values(s, v[b, node])
    else:
        term[b, node] = 0
        mover[b, node] = s[R.CUR]


@njit(cache=True, fastmath=True)  # (the walk's arithmetic: no NaN or infinity can arise there)
def _select(b, start, forced, c_puct, fpu, st, mover, term, opened, nm, mv, P, N, W, kid, n, v, logits, count,
            path, plen, hashed):
    """One walk from node ``start`` (its move ``forced`` first when >= 0) to a move not yet followed: the path in
    ``path[b]``; returns the new node (made here: an ended game's or one that waits for the network) or
    -1 when the walk ended at a known end."""
    node = start
    k = 0
    first_move = forced
    while True:
        if term[b, node]:
            plen[b] = k
            return -1
        if not opened[b, node]:
            _open(b, node, st, mover, nm, mv, P, N, W, kid, logits, opened)
        if first_move >= 0:
            bi = first_move
            first_move = -1
        else:
            base = v[b, node, mover[b, node]] - fpu
            c = c_puct * math.sqrt(n[b, node] if n[b, node] else 1)
            best = -1e9
            bi = 0
            for i in range(nm[b, node]):
                cnt = N[b, node, i]
                u = (W[b, node, i] / cnt if cnt else base) + c * P[b, node, i] / (1 + cnt)
                if u > best:
                    best = u
                    bi = i
        path[b, k, 0] = node
        path[b, k, 1] = bi
        k += 1
        nxt = kid[b, node, bi]
        if nxt < 0:  # the new position, made in its own row of the tree
            plen[b] = k
            new = count[b]
            count[b] = new + 1
            s = st[b, new]
            s[:] = st[b, node]
            R.apply_move(s, mv[b, node, bi])
            if s[R.PHASE] != R.ACTION and s[R.PHASE] != R.OVER:
                finish_turn(s)
            _fresh(b, new, st, mover, term, opened, v)
            hashed[b, new] = 0
            kid[b, node, bi] = new
            return new
        node = nxt


@njit(cache=True)
def _backup(b, path, plen, mover, N, W, n, val):
    for k in range(plen[b]):
        node = path[b, k, 0]
        i = path[b, k, 1]
        N[b, node, i] += 1
        W[b, node, i] += val[mover[b, node]]
        n[b, node] += 1


@njit(cache=True)
def _scores(b, U, g, rlogit, root_value, prior, N, W, nmoves, c_scale, out):
    """Every root move's g + logit + sigma(completed q) (gumbel.RootSearch.scores), written into ``out``."""
    visits = np.zeros(nmoves, dtype=np.int64)
    sums = np.zeros(nmoves, dtype=np.float64)
    for u in range(U):
        for i in range(nmoves):
            visits[i] += N[b, u, i]
            sums[i] += W[b, u, i]
    cq = _completed_q(root_value[b], prior[b], visits, sums, nmoves)
    most = 0
    for i in range(nmoves):
        most = max(most, visits[i])
    for i in range(nmoves):
        out[i] = g[b, i] + rlogit[b, i] + (C_VISIT + most) * c_scale * (cq[i] + 1.0) / 2.0
    return visits, sums, cq


@njit(cache=True)
def _completed_q(root_value, priors, visits, sums, nmoves):
    q = np.zeros(nmoves, dtype=np.float64)
    total = 0
    weight = 0.0
    mean = 0.0
    for i in range(nmoves):
        if visits[i]:
            q[i] = sums[i] / visits[i]
            total += visits[i]
            p = max(priors[i], TINY)
            weight += p
            mean += p * q[i]
    mix = root_value
    if total:
        mix = (root_value + total * (mean / weight)) / (total + 1)
    out = np.empty(nmoves, dtype=np.float64)
    for i in range(nmoves):
        out[i] = q[i] if visits[i] else mix
    return out


@njit(cache=True)
def _halving_next(b, sims, U, g, rlogit, root_value, prior, N, W, nm, c_scale, remaining, nrem, walks, queue, qlen,
                  phases, started):
    """The root move the next walk starts with (gumbel.Halving.next)."""
    if qlen[b] == 0:
        m = nrem[b]
        if started[b] and m >= 2:
            sc = np.empty(nm[b, 0], dtype=np.float64)
            _scores(b, U, g, rlogit, root_value, prior, N, W, nm[b, 0], c_scale, sc)
            keys = np.empty(m, dtype=np.float64)
            for j in range(m):
                keys[j] = -sc[remaining[b, j]]
            order = np.argsort(keys, kind="mergesort")  # (stable: equal scores keep their order)
            ranked = np.empty(m, dtype=np.int64)
            for j in range(m):
                ranked[j] = remaining[b, order[j]]
            keep = max(2, m // 2) if m > 2 else 2
            for j in range(keep):
                remaining[b, j] = ranked[j]
            nrem[b] = keep
        started[b] = 1
        m = nrem[b]
        per = sims if m == 1 else max(1, sims // (phases[b] * m))
        q = 0
        for t in range(per):  # (popped from the end: the moves in turn, the first first)
            for j in range(m - 1, -1, -1):
                queue[b, q] = remaining[b, j]
                q += 1
        qlen[b] = q
    qlen[b] -= 1
    i = queue[b, qlen[b]]
    walks[b, i] += 1
    return i


_HASH_KEYS = np.random.default_rng(74).integers(1, 2**40, size=E.inputs_for(4), dtype=np.int64)


@njit(cache=True)
def _hash(x):
    """A 48-bit hash of an input's bits (a match is then compared in full): no product overflows, compiled or as
    plain Python."""
    bits = x.view(np.int32)
    h = 0
    for i in range(len(bits)):  # (independent products: the compiled loop runs them side by side)
        h += int(bits[i]) * int(_HASH_KEYS[i])
    return h & 0xFFFFFFFFFFFF  # (compiled, the sum wraps at 64 bits; as Python it does not: the low bits agree)


@njit(cache=True)
def _same_input(b, new, x, st, count, hash_, hashed, scratch):
    """An evaluated position of game ``b``'s trees whose input is ``x`` (the new position's), or -1. The universes
    deal the cards the mover cannot see apart, but the input shows none of them: a take (no card revealed) walked in
    two universes reaches positions of one input, the same network's outputs (a fifth of the positions)."""
    h = _hash(x)
    hash_[b, new] = h
    for j in range(count[b]):
        if j != new and hashed[b, j] and hash_[b, j] == h:
            TE.encode(st[b, j], scratch)
            same = True
            for i in range(len(x)):
                if scratch[i] != x[i]:
                    same = False
                    break
            if same:
                return j
    return -1


@njit(cache=True)
def setup_roots(live, games, U, st, mover, term, opened, v, count, X):
    """Each live game's universes (its mover's unseen cards dealt again, :func:`redeal`, in each) as nodes 0..U-1,
    their input in ``X`` (one row a game: the input shows no unseen card); the rows used."""
    row = 0
    for t in range(len(live)):
        b = live[t]
        count[b] = 0
        s = games[b].copy()
        seat = s[R.CUR]
        redeal(s, seat)
        for u in range(U):
            if u > 0:
                s2 = st[b, 0].copy()
                redeal(s2, seat)
                _new_node(b, s2, st, mover, term, opened, v, count)
            else:
                _new_node(b, s, st, mover, term, opened, v, count)
        TE.encode(st[b, 0], X[row])  # (one input for the universes' roots: they differ in unseen cards only)
        row += 1
    return row


@njit(cache=True)
def open_roots(live, U, out, st, mover, term, opened, nm, mv, P, N, W, kid, n, v, logits, hashed, considered, g,
               rlogit, prior, root_value, remaining, nrem, walks, qlen, phases, started):
    """The network's outputs for the roots: values, priors, and Gumbel's root (the draw, the moves considered)."""
    row = 0
    for t in range(len(live)):
        b = live[t]
        for u in range(U):
            logits[b, u, :] = out[row, :ACTION_COUNT]
            _net_values(v[b, u], mover[b, u], out, row)
            n[b, u] = 0
            _open(b, u, st, mover, nm, mv, P, N, W, kid, logits, opened)
            hashed[b, u] = 0  # (a root's input is the root's: shared with no walk's position)
        row += 1
        k = nm[b, 0]
        rv = 0.0
        for u in range(U):
            rv += v[b, u, mover[b, u]]
        root_value[b] = rv / U
        scores = np.empty(k, dtype=np.float64)
        for i in range(k):
            p = 0.0
            for u in range(U):
                p += P[b, u, i]
            prior[b, i] = p / U
            rlogit[b, i] = math.log(max(prior[b, i], TINY))
            uu = np.random.random()
            g[b, i] = -math.log(-math.log(uu if uu > 0 else TINY))
            scores[i] = -(g[b, i] + rlogit[b, i])
            walks[b, i] = 0
        order = np.argsort(scores, kind="mergesort")
        m = min(considered, k)
        for j in range(m):
            remaining[b, j] = order[j]
        nrem[b] = m
        qlen[b] = 0
        started[b] = 0
        phases[b] = int(math.ceil(math.log2(m))) if m > 1 else 0


@njit(cache=True)
def walk_all(live, sims, U, c_puct, fpu, c_scale, st, mover, term, opened, nm, mv, P, N, W, kid, n, v, logits, count,
             path, plen, leaf, g, rlogit, prior, root_value, remaining, nrem, walks, queue, qlen, phases, started,
             X, hash_, hashed, scratch):
    """One walk down every live game's tree (the root move by the halving, the universe by the move's walks so far);
    the new positions' inputs in ``X``; the rows used. A walk that ends at an end is backed up here."""
    row = 0
    for t in range(len(live)):
        b = live[t]
        i = _halving_next(b, sims, U, g, rlogit, root_value, prior, N, W, nm, c_scale, remaining, nrem, walks,
                          queue, qlen, phases, started)
        u = (walks[b, i] - 1 + i) % U
        new = _select(b, u, i, c_puct, fpu, st, mover, term, opened, nm, mv, P, N, W, kid, n, v, logits, count,
                      path, plen, hashed)
        if new < 0:  # a known end: its values again
            last = path[b, plen[b] - 1]
            _backup(b, path, plen, mover, N, W, n, v[b, kid[b, last[0], last[1]]])
            leaf[b] = -1
        elif term[b, new]:
            _backup(b, path, plen, mover, N, W, n, v[b, new])
            leaf[b] = -1
        else:
            TE.encode(st[b, new], X[row])
            j = _same_input(b, new, X[row], st, count, hash_, hashed, scratch)
            if j >= 0:  # the network's outputs for this input are known: the same search, one evaluation fewer
                logits[b, new, :] = logits[b, j, :]
                _same_values(v[b, new], mover[b, new], v[b, j], mover[b, j])
                n[b, new] = 0
                hashed[b, new] = 1
                _backup(b, path, plen, mover, N, W, n, v[b, new])
                leaf[b] = -1
            else:
                leaf[b] = new
                row += 1
    return row


@njit(cache=True)
def expand_all(live, out, mover, N, W, n, v, logits, hashed, path, plen, leaf):
    """The network's outputs for the new positions (rows in the order walk_all wrote them): their values, their
    logits kept for when a walk first goes through them, the values backed up."""
    row = 0
    for t in range(len(live)):
        b = live[t]
        node = leaf[b]
        if node < 0:
            continue
        logits[b, node, :] = out[row, :ACTION_COUNT]
        _net_values(v[b, node], mover[b, node], out, row)
        n[b, node] = 0
        hashed[b, node] = 1
        _backup(b, path, plen, mover, N, W, n, v[b, node])
        row += 1


@njit(cache=True)
def decide(b, U, c_scale, g, rlogit, root_value, prior, N, W, nm, mv, remaining, nrem, walks, visits_out, policy_out):
    """The decision at game ``b``'s root: (the move played: the survivor, the search's value), with each root move's
    visits and the improved policy written out (gumbel.RootSearch.survivor, policy, value)."""
    k = nm[b, 0]
    sc = np.empty(k, dtype=np.float64)
    visits, sums, cq = _scores(b, U, g, rlogit, root_value, prior, N, W, k, c_scale, sc)
    most = 0
    for j in range(nrem[b]):
        most = max(most, walks[b, remaining[b, j]])
    pick = -1
    for j in range(nrem[b]):
        i = remaining[b, j]
        if walks[b, i] == most and (pick < 0 or sc[i] > sc[pick]):
            pick = i
    # the improved policy: softmax(logits + sigma(completed q)), the priors as softmax(logits)
    top = -1e30
    for i in range(k):
        top = max(top, rlogit[b, i])
    sm = np.empty(k, dtype=np.float64)
    tot = 0.0
    for i in range(k):
        sm[i] = math.exp(rlogit[b, i] - top)
        tot += sm[i]
    for i in range(k):
        sm[i] /= tot
    cq2 = _completed_q(root_value[b], sm, visits, sums, k)
    mostv = 0
    for i in range(k):
        mostv = max(mostv, visits[i])
    z = np.empty(k, dtype=np.float64)
    top = -1e30
    for i in range(k):
        z[i] = rlogit[b, i] + (C_VISIT + mostv) * c_scale * (cq2[i] + 1.0) / 2.0
        top = max(top, z[i])
    tot = 0.0
    for i in range(k):
        z[i] = math.exp(z[i] - top)
        tot += z[i]
    value = 0.0
    cq3 = _completed_q(root_value[b], prior[b], visits, sums, k)
    for i in range(k):
        policy_out[i] = z[i] / tot
        visits_out[i] = visits[i]
        value += policy_out[i] * cq3[i]
    return mv[b, 0, pick], value


@njit(cache=True)
def decide_all(live, U, c_scale, g, rlogit, root_value, prior, N, W, nm, mv, remaining, nrem, walks, moves, values,
               visits, policy):
    """:func:`decide` for every live game (row ``t`` of the outputs for ``live[t]``), in one call."""
    for t in range(len(live)):
        moves[t], values[t] = decide(live[t], U, c_scale, g, rlogit, root_value, prior, N, W, nm, mv, remaining,
                                     nrem, walks, visits[t], policy[t])


@njit(cache=True)
def apply_all(live, twin, moves):
    """Each live game's move played in its twin state."""
    for t in range(len(live)):
        R.apply_move(twin[live[t]], moves[t])


@njit(cache=True)
def seed_rng(seed):
    np.random.seed(seed)


_ACTIONS = {}  # the twin's move -> the engine's action, for every move but a buy (whose payment varies)
_TEXTS = {}  # the same moves' texts


def _action(game, code):
    """The engine's action for the twin's move ``code`` in ``game`` (a buy paid the default way, as the twin pays)."""
    a = _ACTIONS.get(code)
    if a is not None:
        return a
    kind, arg = divmod(code, 1000)
    if kind == R.BUY:  # (the engine's own buy of that card and payment: made once, its text with it)
        p = game.player_list[game.current]
        card = CARDS[arg]
        return _buy_action(card, _default_payment(card, p.tok, p.bon))
    if kind == R.TAKE:
        a = Action.take(*(COLORS[i] for i in range(5) if arg >> i & 1))
    elif kind == R.TAKE2:
        a = Action.take_two(COLORS[arg])
    elif kind == R.RESERVE:
        a = Action.reserve(CARDS[arg])
    elif kind == R.BLIND:
        a = Action.reserve(level=arg + 1)
    else:
        a = Action.pass_turn()
    _ACTIONS[code] = a
    _TEXTS[code] = str(a)
    return a


class Forward:
    """The network's forward pass over a batch with numpy, as ``NumpyRunner.forward_batch`` computes it (float32,
    the same layers and sums), into buffers kept from one call to the next: no array made per layer. (A compiled
    first layer that skips the inputs that are 0, more than half of them, took 4.3 us a position against numpy's
    3.3: the matrix products stay numpy's.)"""

    def __init__(self, runner, rows):
        self.layers = runner.layers
        self.buffers = [np.empty((rows, W.shape[1]), dtype=np.float32) for W, _, _ in self.layers]

    def __call__(self, x):
        h = x
        for (W, b, relu), buf in zip(self.layers, self.buffers):
            out = buf[:len(x)]
            np.matmul(h, W, out=out)
            out += b
            if relu:
                np.maximum(out, 0.0, out=out)
            h = out
        return h


def play(net, seeds, sims=64, params=None, rng_seed=1, round_limit=80, considered=16, c_scale=1.0, check=False):
    """Play one game per seed in lockstep at the network's table size (netplay's ``play`` with ``search="gumbel"``,
    over the twin; at three and four seats, which netplay's own loop does not play, each seat's values are the
    network's seat outputs as the expert's search reads them); returns their records (netplay's, with
    ``decisions``: the value the deciding seat's) and the count of positions evaluated. Every move played is one of
    the engine's legal moves there; ``check``: the twin's whole state is compared with the engine's after every
    decision too (ValueError on a difference)."""
    from ...ai import puct
    from ...engine.game import Game
    from ..netdata import game_record
    from ..netnumpy import NumpyRunner
    from .bridge import code_of, state_of

    params = params or puct.SearchParams()
    runner = net if hasattr(net, "forward_batch") else NumpyRunner(net)
    U = params.universes
    forward = Forward(runner, len(seeds) * U) if isinstance(runner, NumpyRunner) else runner.forward_batch
    players = getattr(net, "players", 2)  # (a runner given in place of the network plays two seats)
    games = [Game(players=players, seed=s, first_player=0) for s in seeds]
    twin = np.stack([state_of(g) for g in games])
    T = Trees(len(seeds), sims + U + 2, players)
    X = np.zeros((len(seeds) * U, E.inputs_for(players)), dtype=np.float32)  # (the network's own precision)
    visits = np.zeros((len(seeds), MAXM), dtype=np.int64)
    policy = np.zeros((len(seeds), MAXM), dtype=np.float64)
    moves = np.zeros(len(seeds), dtype=np.int64)
    values = np.zeros(len(seeds), dtype=np.float64)
    decisions = [[] for _ in games]
    seed_rng(rng_seed)
    evaluations = 0
    c_puct, fpu = params.c_puct, params.fpu
    tree = (T.st, T.mover, T.term, T.opened, T.nm, T.mv, T.P, T.N, T.W, T.kid, T.n, T.v, T.logits)
    root = (T.g, T.rlogit, T.prior, T.root_value, T.remaining, T.nrem, T.walks)
    while True:
        live = [k for k, g in enumerate(games) if not g.is_over and g.round <= round_limit]
        if not live:
            break
        for k in live:  # returns and nobles of the game's own turn: the quick rule, in both
            if games[k].phase != "action":
                puct.finish_turn(games[k])
                finish_turn(twin[k])
        live = [k for k in live if games[k].phase == "action"]
        if not live:
            continue
        la = np.array(live, dtype=np.int64)
        rows = setup_roots(la, twin, U, T.st, T.mover, T.term, T.opened, T.v, T.count, X)
        out = forward(X[:rows])
        evaluations += rows
        open_roots(la, U, out, *tree[:12], T.logits, T.hashed, considered, *root, T.qlen, T.phases, T.started)
        for _ in range(sims):
            rows = walk_all(la, sims, U, c_puct, fpu, c_scale, *tree, T.count, T.path, T.plen, T.leaf, *root,
                            T.queue, T.qlen, T.phases, T.started, X, T.hash, T.hashed, T.scratch)
            if rows:
                out = forward(X[:rows])
                expand_all(la, out, T.mover, T.N, T.W, T.n, T.v, T.logits, T.hashed, T.path, T.plen, T.leaf)
                evaluations += rows
        decide_all(la, U, c_scale, T.g, T.rlogit, T.root_value, T.prior, T.N, T.W, T.nm, T.mv, T.remaining, T.nrem,
                   T.walks, moves, values, visits, policy)
        apply_all(la, twin, moves)
        for t, k in enumerate(live):
            g = games[k]
            m = T.nm[k, 0]
            texts = [_TEXTS.get(c) or str(_action(g, c)) for c in T.mv[k, 0, :m].tolist()]
            prior, vis, pol = T.prior[k, :m], visits[t, :m], policy[t, :m]
            keep_p = prior >= 1e-4
            keep_q = pol >= 1e-4
            decisions[k].append({
                "ply": len(g._history),  # (the moves so far: the history without a tuple made of it)
                "visits": dict(zip([texts[i] for i in np.flatnonzero(vis)], vis[vis > 0].tolist())),
                "value": round(float(values[t]), 4),
                "prior": dict(zip([texts[i] for i in np.flatnonzero(keep_p)], np.round(prior[keep_p], 4).tolist())),
                "policy": dict(zip([texts[i] for i in np.flatnonzero(keep_q)], np.round(pol[keep_q], 4).tolist()))})
            action = _action(g, int(moves[t]))
            if check and code_of(action) not in {code_of(a) for a in g.legal_actions()}:
                raise ValueError(f"game {seeds[k]}: {action} is not legal in the engine")
            g.apply_unchecked(action)
            if check and not np.array_equal(state_of(g), twin[k]):
                raise ValueError(f"game {seeds[k]}: the twin's state differs from the engine's after {action}")
    return [game_record(g, ds, sims=sims, search="gumbel", considered=considered, c_scale=c_scale, twin=True)
            for g, ds in zip(games, decisions)], evaluations
