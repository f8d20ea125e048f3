"""The player's own rating on the ladder's scale: Glicko-2 (Glickman, 2013), one rating period per finished game.

The bots' ratings are the ladder's measured ones (:func:`splendor.ai.ladder.rating_of`, medium = 1000), each with
its uncertainty (a quarter of its 95% interval, at least :data:`BOT_RD`). A finished game against bots is one rating
period in which the person met each bot seat once: a game of 3 or 4 players counts pairwise, 1 against every bot the
person finished above (the winner above the others; among the others, more points above fewer), a half against a bot
level with them, 0 against a bot above them. People's seats (pass and play) are not counted. A new player starts at
:data:`START` with a deviation of :data:`START_RD`; the deviation shrinks as games come in. A game in which the
person asked for a hint or took back a move is *assisted*: it is counted as such and moves nothing.

Pure Python, tested under CPython; the page and ``tests/test_web_rating.py``'s simulated player use the same code.

>>> p = Rating()
>>> p = p.after([(1000.0, 40.0, 1.0)])  # a win against a bot rated 1000
>>> round(p.rating), round(p.rd), p.games
(1175, 248, 1)
"""

import math

#: A new player's rating (medium's, the scale's zero) and deviation (Glicko's usual 350 for one not yet seen).
START = 1000.0
START_RD = 350.0
START_VOL = 0.06
#: The system constant: how much the volatility may change in one period (Glickman suggests 0.3 to 1.2).
TAU = 0.5
#: The least deviation a bot's rating is given, whatever its measured interval (a level's strength varies a little
#: with the table and the person's style).
BOT_RD = 30.0
#: The deviation never grows past this (a long absence), nor shrinks under MIN_RD (one game still moves it).
MAX_RD = 350.0
MIN_RD = 40.0
_Q = 173.7178  # Glicko-2's scale: rating points per unit


def _g(phi):
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu, mu_j, phi_j):
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


class Rating:
    """A rating ``rating`` with deviation ``rd`` (one standard deviation, rating points) and volatility ``vol``,
    after ``games`` rated games. Immutable: :meth:`after` gives the next one."""

    __slots__ = ("rating", "rd", "vol", "games")

    def __init__(self, rating=START, rd=START_RD, vol=START_VOL, games=0):
        self.rating, self.rd, self.vol, self.games = float(rating), float(rd), float(vol), int(games)

    def after(self, results):
        """The rating after one period: ``results`` a list of (the opponent's rating, its deviation, the score: 1,
        0.5 or 0). An empty list only widens the deviation (a period without games)."""
        mu = (self.rating - START) / _Q
        phi = self.rd / _Q
        if not results:
            phi_star = math.sqrt(phi * phi + self.vol * self.vol)
            return Rating(self.rating, min(MAX_RD, phi_star * _Q), self.vol, self.games)
        v_inv = 0.0
        delta_sum = 0.0
        for r_j, rd_j, s in results:
            mu_j, phi_j = (r_j - START) / _Q, rd_j / _Q
            e = _e(mu, mu_j, phi_j)
            g = _g(phi_j)
            v_inv += g * g * e * (1.0 - e)
            delta_sum += g * (s - e)
        v = 1.0 / v_inv
        delta = v * delta_sum
        vol = _volatility(delta, phi, v, self.vol)
        phi_star = math.sqrt(phi * phi + vol * vol)
        phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
        mu_new = mu + phi_new * phi_new * delta_sum
        rd = min(MAX_RD, max(MIN_RD, phi_new * _Q))
        return Rating(START + _Q * mu_new, rd, vol, self.games + 1)

    def to_dict(self):
        return {"rating": round(self.rating, 1), "rd": round(self.rd, 1), "vol": round(self.vol, 6),
                "games": self.games}

    @classmethod
    def from_dict(cls, d):
        """The rating stored as :meth:`to_dict` wrote it; ValueError in words for anything else."""
        if not isinstance(d, dict):
            raise ValueError("the rating is not a table")
        vals = []
        for key, low, high in (("rating", -1000, 5000), ("rd", 1, MAX_RD), ("vol", 0.0, 1.0)):
            x = d.get(key)
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not low <= x <= high:
                raise ValueError(f"the rating's {key} is not a number from {low:g} to {high:g}")
            vals.append(x)
        games = d.get("games")
        if isinstance(games, bool) or not isinstance(games, int) or not 0 <= games <= 10**6:
            raise ValueError("the rating's games is not a whole number")
        return cls(*vals, games)

    def __repr__(self):
        return f"Rating({self.rating:.0f} ± {self.rd:.0f}, {self.games} games)"


def _volatility(delta, phi, v, sigma):
    """Glicko-2's step 5: the new volatility (Illinois algorithm on f(x) = 0)."""
    a = math.log(sigma * sigma)
    eps = 1e-6

    def f(x):
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    fa, fb = f(big_a), f(big_b)
    for _ in range(100):
        if abs(big_b - big_a) <= eps:
            break
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = c, fc
    return math.exp(big_a / 2)


def bot_strength(level):
    """(rating, deviation) of a bot ``level`` from the measured ladder, or None for a level without a rating."""
    from ...ai.ladder import rated

    got = rated(level)
    if got is None:
        return None
    r, low, high = got
    return r, max(BOT_RD, (high - low) / 4.0)


def pairwise(winners, scores, person, bot_seats):
    """[(bot seat, the person's score against it)] of a finished game: 1 above it, a half level with it, 0 below.
    The winners (``winners``) are above everyone else; among the rest more points is above fewer.

    >>> pairwise([1], [12, 15, 9], 0, [1, 2])
    [(1, 0.0), (2, 1.0)]
    >>> pairwise([0, 1], [15, 15], 0, [1])
    [(1, 0.5)]
    """
    out = []
    for b in bot_seats:
        mine, theirs = person in winners, b in winners
        if mine != theirs:
            out.append((b, 1.0 if mine else 0.0))
        elif mine or scores[person] == scores[b]:
            out.append((b, 0.5))
        else:
            out.append((b, 1.0 if scores[person] > scores[b] else 0.0))
    return out


def game_results(winners, scores, person, bots):
    """The rating period of a finished game: [(the bot's rating, deviation, the person's score)] for each bot seat
    (``bots``: each seat's level, None for a person) whose level has a rating."""
    seats = [s for s, level in enumerate(bots) if level and s != person]
    out = []
    for seat, s in pairwise(winners, scores, person, seats):
        strength = bot_strength(bots[seat])
        if strength is not None:
            out.append((strength[0], strength[1], s))
    return out


def suggest(rating, levels=None):
    """(the level nearest ``rating``: an even game, the next level up or None): the ladder's names with ratings.
    (None, None) when no level has one.

    >>> from splendor.ai import ladder
    >>> saved = list(ladder._RATINGS)
    >>> ladder._RATINGS[:] = [{"levels": {"easy": {"rating": 750}, "medium": {"rating": 1000},
    ...                                   "hard": {"rating": 1090}}}]
    >>> suggest(1060), suggest(800), suggest(1500)
    (('hard', None), ('easy', 'medium'), ('hard', None))
    >>> ladder._RATINGS[:] = saved
    """
    from ...ai.ladder import NAMES, rating_of

    rated = [(n, rating_of(n)) for n in (levels or NAMES)]
    rated = [(n, r) for n, r in rated if r is not None]
    if not rated:
        return None, None
    rated.sort(key=lambda t: t[1])
    i = min(range(len(rated)), key=lambda k: abs(rated[k][1] - rating))
    return rated[i][0], rated[i + 1][0] if i + 1 < len(rated) else None
