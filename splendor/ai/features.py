"""The features a learned value model reads of a seat's position (:data:`FEATURES`, :func:`seat_features`), shared by
the linear model (:mod:`splendor.ai.learned`) and the value net (:mod:`splendor.ai.valuenet`), and the check of a
model file's header both readers make."""

import math

from .heuristic import WINNING_POINTS, bonus_terms, context_value, seat_context, stage_of

#: The per-seat features, in the order the weights list them.
FEATURES = ("points", "engine", "nobles", "held", "prospects", "usable", "gold",
            "bonuses", "tokens", "affordable", "afford_points", "late_points", "nobles_near")

#: The hand-written value's weights the first seven features are read with (the hard bot's: search.HARD_WEIGHTS).
READ_WEIGHTS = {"bonus": 1.0, "reserve_slot": 0.1}


def seat_features(w, p, market, nobles, stage, supply):
    """The :data:`FEATURES` of player ``p`` (an engine Player of a determinized game), ``w`` the Weights read."""
    bon = p.bon
    tok = p.tok
    eng, nob, _ = bonus_terms(w, bon, nobles)
    ctx = seat_context(w, bon, 0, market, nobles, stage, p.reserved_list)
    gold = tok[5]
    use = [0, 0, 0, 0, 0]  # as context_value: tokens beyond the most any visible card asks for are idle
    affordable = 0
    afford_points = 0
    cards = ctx[1]
    for prices, _, _ in cards:
        short = 0
        for i, n in prices:
            if n > use[i]:
                use[i] = n
            d = n - tok[i]
            if d > 0:
                short += d
        if short <= gold:
            affordable += 1
    if affordable:
        # the points of the cards it can buy now: market cards and its own reserve (same order as seat_context)
        visible = list(market) + list(p.reserved_list)
        for (prices, _, _), card in zip(cards, visible):
            if card.points > afford_points:
                short = 0
                for i, n in prices:
                    d = n - tok[i]
                    if d > 0:
                        short += d
                if short <= gold:
                    afford_points = card.points
    usable = 0
    for i in range(5):
        usable += tok[i] if tok[i] < use[i] else use[i]
    pro = context_value(w, (0.0, cards, ctx[2]), tok, supply) - w.token * usable - w.gold * gold
    pts = p.points
    near = 0
    for nb in nobles:
        need = 0
        for i, n in nb.needs:
            if bon[i] < n:
                need += n - bon[i]
        if need <= 2:
            near += 1
    return (pts + (w.finish if pts >= WINNING_POINTS else 0.0), w.bonus * (1.0 - stage) * eng, nob,
            len(p.reserved_list), pro, usable, gold, sum(bon), sum(tok), affordable, afford_points,
            pts - 10 if pts > 10 else 0, near)


def game_features(game, w):
    """(stage, [features of each seat]) of a (determinized) game."""
    stage = stage_of(game)
    market = [c for row in game.market_rows for c in row if c is not None]
    nobles = game.noble_list
    supply = game.supply_list
    return stage, [seat_features(w, p, market, nobles, stage, supply) for p in game.player_list]


def check_header(data, fmt, what):
    """ValueError unless ``data`` is a dict of format ``fmt``, version 1 (``what`` names the kind in the message)."""
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError(f"not a {what} (format {fmt!r} expected)")
    if data.get("version") != 1:
        raise ValueError(f"{what} version {data.get('version')!r} is not supported (1 expected)")


def sigmoid(z):
    """The logistic of ``z``, 0 or 1 past 30 either way."""
    if z < -30.0:
        return 0.0
    if z > 30.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))
