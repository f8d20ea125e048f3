"""The expert's learned move prior: which of the legal moves its search should look at, and how much.

A move is described by :data:`ACTION_FEATURES` numbers read from the position it is played in (what the hand-written
scorer thinks of it, its kind, the card's points and level, the tokens it would force the mover to give back, the
nobles the card's bonus brings closer, whether the other seat could buy the card next...). The prior of a move is the
softmax over the legal moves of ``weights . features``: a linear policy, trained on the visit counts of the expert's
own searches in self-play (``python -m splendor selfplay``, :mod:`splendor.training.selfplay`).

Inference is pure Python over short lists (it runs in the bot worker on Pyodide, where numpy is not available): one
pass over the legal moves with the scorer's scores already computed by the search.
"""

import math

from .heuristic import TOKEN_LIMIT, WINNING_POINTS

#: The numbers that describe a move (see :func:`action_features`).
ACTION_FEATURES = (
    "score_gap", "buy", "reserve", "blind", "take3", "take2", "take_few",
    "points", "level", "reserve_points", "reserve_level", "returned", "gold_spent", "noble_now", "noble_near",
    "held_after", "wins", "from_reserve", "deny", "late_buy", "late_take", "gold_taken",
)
FORMAT = "splendor-policy"
#: The expert's search where a policy says nothing of it: 3 turns of playout, the prior at the root only.
DEFAULT_SEARCH = {"horizon": 3, "below_root": False}


def _noble_terms(nobles, bon, color):
    """(nobles met at once, nobles whose need the bonus ``color`` lowers) when one more bonus of ``color`` is held."""
    now = near = 0
    for nb in nobles:
        need = 0
        helps = False
        for i, n in nb.needs:
            d = n - bon[i]
            if d > 0:
                need += d
                if i == color:
                    helps = True
        if helps:
            near += 1
            if need == 1:
                now += 1
    return now, near


def _can_buy(p, card):
    """Whether player ``p`` could buy ``card`` with its tokens and bonuses now."""
    short = 0
    tok, bon = p.tok, p.bon
    for i, n in card.needs:
        d = n - bon[i] - tok[i]
        if d > 0:
            short += d
    return short <= tok[5]


def action_features(game, seat, scored):
    """[(features, action)] of the moves in ``scored`` ([(scorer score, action)], an action phase of ``seat``)."""
    p = game.player_list[seat]
    held = sum(p.tok)
    stage = min(1.0, max(q.points for q in game.player_list) / WINNING_POINTS)
    nobles = game.noble_list
    others = [q for i, q in enumerate(game.player_list) if i != seat]
    top = max(s for s, _ in scored)
    gold_left = game.supply_list[5]
    out = []
    for s, a in scored:
        f = [0.0] * len(ACTION_FEATURES)
        f[0] = s - top
        k = a.kind
        if k == "buy":
            c = a.card
            f[1] = 1.0
            f[7] = c.points
            f[8] = c.level
            pay = a.pay_t
            f[12] = pay[5] if pay else 0
            now, near = _noble_terms(nobles, p.bon, c.bonus_i)
            f[13] = now
            f[14] = near
            f[16] = 1.0 if p.points + c.points + 3 * now >= WINNING_POINTS else 0.0
            f[17] = 1.0 if c in p.reserved_list else 0.0
            f[19] = stage
        elif k == "reserve":
            f[2] = 1.0
            gold = 1 if gold_left else 0
            f[21] = gold
            f[15] = len(p.reserved_list) + 1
            over = held + gold - TOKEN_LIMIT
            f[11] = over if over > 0 else 0
            if a.card is None:
                f[3] = 1.0
                f[10] = a.level
            else:
                c = a.card
                f[9] = c.points
                f[10] = c.level
                f[18] = 1.0 if any(_can_buy(q, c) for q in others) else 0.0
        elif k == "take" or k == "take_two":
            n = len(a.colors) * (2 if k == "take_two" else 1)
            if k == "take_two":
                f[5] = 1.0
            elif n == 3:
                f[4] = 1.0
            else:
                f[6] = 1.0
            over = held + n - TOKEN_LIMIT
            f[11] = over if over > 0 else 0
            f[20] = stage
        out.append((f, a))
    return out


def _check_search(search):
    """``search`` (the search settings a policy was trained with) as a dict, or a ValueError that says what is wrong."""
    if search is None:
        return None
    if not isinstance(search, dict) or set(search) - {"horizon", "below_root"}:
        raise ValueError("a policy's search settings are a dict of 'horizon' and 'below_root'")
    h = search.get("horizon", DEFAULT_SEARCH["horizon"])
    if not isinstance(h, int) or isinstance(h, bool) or h < 0:
        raise ValueError(f"a policy's search horizon is a whole number of turns, 0 or more (not {h!r})")
    below = search.get("below_root", DEFAULT_SEARCH["below_root"])
    if not isinstance(below, bool):
        raise ValueError(f"a policy's search below_root is true or false (not {below!r})")
    return {"horizon": h, "below_root": below}


class PolicyModel:
    """A linear move prior (see the module text): ``weights``, one per :data:`ACTION_FEATURES`; ``meta``: what the
    training command recorded; ``search``: the settings of the search it was trained in and is meant for
    (``horizon``: turns a new leaf is played on before it is judged; ``below_root``: whether the prior also steers
    the choices below the root), which the expert follows where it uses the policy; None: the expert's defaults."""

    def __init__(self, weights, meta=None, players=2, search=None):
        if len(weights) != len(ACTION_FEATURES):
            raise ValueError(f"a policy needs {len(ACTION_FEATURES)} weights ({', '.join(ACTION_FEATURES)})")
        self.weights = [float(w) for w in weights]
        self.meta = dict(meta or {})
        self.players = players  # the table size whose searches it was fitted to: the expert uses it there only
        self.search = _check_search(search)

    def priors(self, game, seat, scored):
        """[(prior, action)] for the moves in ``scored`` ([(scorer score, action)]), the priors summing to 1."""
        w = self.weights
        logits = [(sum(x * y for x, y in zip(w, f)), a) for f, a in action_features(game, seat, scored)]
        top = max(z for z, _ in logits)
        e = [(math.exp(z - top), a) for z, a in logits]
        total = sum(x for x, _ in e)
        return [(x / total, a) for x, a in e]

    def to_dict(self):
        d = {"format": FORMAT, "version": 1, "features": list(ACTION_FEATURES),
             "weights": [round(x, 6) for x in self.weights], "players": self.players, "meta": self.meta}
        if self.search is not None:
            d["search"] = dict(self.search)
        return d

    @classmethod
    def from_dict(cls, data):
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a policy (format {FORMAT!r} expected)")
        if data.get("version") != 1:
            raise ValueError(f"policy version {data.get('version')!r} is not supported (1 expected)")
        if list(data.get("features", ())) != list(ACTION_FEATURES):
            raise ValueError("the policy's features are not this code's: retrain it with python -m splendor selfplay")
        return cls(data["weights"], data.get("meta"), data.get("players", 2), data.get("search"))
