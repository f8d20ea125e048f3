"""Reading states back: ``Game.from_dict`` with full validation (``determinize``, for bots, builds on it in game.py).

A state read from outside (a saved game, a crafted file) is checked before it becomes a Game: every card of the game
exactly once, tokens conserved, no count negative, the phase consistent with the position. Every fault raises
``InvalidStateError`` (a ValueError) saying what is wrong.
"""

from .actions import NotationError
from .cards import CARDS, TOKEN_COLORS, card_from_code, noble_from_code
from .rules import FORMAT_VERSION, GOLD_TOKENS, PHASES, STATE_FORMAT, TOKEN_LIMIT, TOKENS_PER_COLOR, WINNING_POINTS


class InvalidStateError(ValueError):
    """A state that is not a consistent position of the game; the message says why."""


def _fail(msg):
    raise InvalidStateError(msg)


def _int(value, what, low=0, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(f"{what} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        _fail(f"{what} must be from {low} to {high}, not {value}" if high is not None
              else f"{what} must be at least {low}, not {value}")
    return value


def _dict(value, what):
    if not isinstance(value, dict):
        _fail(f"{what} must be an object, not {type(value).__name__}")
    return value


def _list(value, what, length=None):
    if not isinstance(value, list):
        _fail(f"{what} must be a list, not {type(value).__name__}")
    if length is not None and len(value) != length:
        _fail(f"{what} must have {length} entries, not {len(value)}")
    return value


def _counts(value, what, colors):
    value = _dict(value, what)
    extra = set(value) - set(colors)
    if extra:
        _fail(f"{what} has an unknown color {sorted(extra, key=repr)[0]!r}")
    return [_int(value.get(c, 0), f"{what} {c}") for c in colors]


def _card(code, what):
    try:
        return card_from_code(code)
    except ValueError as exc:
        _fail(f"{what}: {exc}")


def _noble(code, what):
    try:
        return noble_from_code(code)
    except ValueError as exc:
        _fail(f"{what}: {exc}")


def game_from_dict(cls, data):
    data = _dict(data, "a game state")
    if data.get("format") != STATE_FORMAT:
        _fail(f"not a game state: format is {data.get('format')!r}, expected {STATE_FORMAT!r}")
    if data.get("version") != FORMAT_VERSION:
        _fail(f"unsupported state version {data.get('version')!r} (this game reads {FORMAT_VERSION})")
    n = data.get("players")
    if isinstance(n, bool) or not isinstance(n, int) or n not in TOKENS_PER_COLOR:
        _fail(f"players must be 2, 3 or 4, not {n!r}")
    variants = _list(data.get("variants", []), "variants")
    try:
        game = cls(players=n, seed=_int(data.get("seed"), "seed"),
                   first_player=_int(data.get("first_player"), "first_player", 0, n - 1),
                   variants=tuple(v if isinstance(v, str) else repr(v) for v in variants), deals=data.get("deals"))
    except InvalidStateError:
        raise
    except ValueError as exc:
        _fail(str(exc))
    if len(game.variants) != len(variants):
        _fail("variants are listed twice")

    game.game_index = _int(data.get("game_index", 0), "game_index", 0, (n - 1) if game._series else 0)
    # A finished series also holds the scores of its last game.
    finished = game._series and data.get("phase") == "over"
    results = _list(data.get("series_results", []), "series_results", game.game_index + finished)
    game.series_results = [tuple(_int(x, "a series score") for x in _list(r, "a series result", n))
                           for r in results]
    game.start = _int(data.get("start"), "start", 0, n - 1)
    if game.start != (game.first_player + game.game_index) % n:
        _fail("the starting seat does not follow from first_player and the game of the series")
    game.current = _int(data.get("current"), "current", 0, n - 1)
    phase = data.get("phase")
    if phase not in PHASES:
        _fail(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    game.phase_ = phase
    final = data.get("final_round")
    if not isinstance(final, bool):
        _fail("final_round must be true or false")
    game.final = final
    # n passes in a row end the game: a game that goes on has had fewer.
    game.passes = _int(data.get("passes", 0), "passes", 0, n if phase == "over" else n - 1)
    game.turns = _int(data.get("turns", 0), "turns")

    # Cards: every one of the 90 exactly once.
    seen = {}

    def place(card, where):
        if card in seen:
            _fail(f"the card {card} is in two places: {seen[card]} and {where}")
        seen[card] = where

    market = _list(data.get("market"), "market", 3)
    game._market = []
    for lv, row in enumerate(market):
        row = _list(row, f"market level {lv + 1}", 4)
        out = []
        for slot, code in enumerate(row):
            if code is None:
                out.append(None)
                continue
            card = _card(code, f"market level {lv + 1}")
            if card.level != lv + 1:
                _fail(f"the level {card.level} card {card} is in the level {lv + 1} market row")
            place(card, "the market")
            out.append(card)
        game._market.append(out)
    decks = _list(data.get("decks"), "decks", 3)
    game._decks = []
    for lv, deck in enumerate(decks):
        cards = [_card(code, f"deck {lv + 1}") for code in _list(deck, f"deck {lv + 1}")]
        for card in cards:
            if card.level != lv + 1:
                _fail(f"the level {card.level} card {card} is in the level {lv + 1} deck")
            place(card, f"deck {lv + 1}")
        game._decks.append(cards)
    for lv in range(3):
        if game._decks[lv] and None in game._market[lv]:
            _fail(f"a level {lv + 1} market slot is empty while its deck still has cards")

    nobles_all = set()
    game._nobles = []
    for code in _list(data.get("nobles"), "nobles"):
        nb = _noble(code, "nobles")
        if nb in nobles_all:
            _fail(f"the noble {nb} is listed twice")
        nobles_all.add(nb)
        game._nobles.append(nb)

    supply = _counts(data.get("supply"), "supply", TOKEN_COLORS)
    game._supply = supply
    tableaus = _list(data.get("tableaus"), "tableaus", n)
    totals = supply[:]
    for seat, t in enumerate(tableaus):
        t = _dict(t, f"seat {seat}")
        p = game._players[seat]
        p.tok = _counts(t.get("tokens"), f"seat {seat} tokens", TOKEN_COLORS)
        for i in range(6):
            totals[i] += p.tok[i]
        for code in _list(t.get("cards"), f"seat {seat} cards"):
            card = _card(code, f"seat {seat} cards")
            place(card, f"seat {seat}'s cards")
            p._cards.append(card)
            p.bon[card.bonus_i] += 1
            p.points += card.points
        reserved = _list(t.get("reserved"), f"seat {seat} reserved")
        if len(reserved) > 3:
            _fail(f"seat {seat} holds {len(reserved)} reserved cards; the limit is 3")
        for r in reserved:
            r = _dict(r, f"seat {seat} reserved card")
            card = _card(r.get("card"), f"seat {seat} reserved")
            if not isinstance(r.get("hidden"), bool):
                _fail(f"seat {seat} reserved card {card}: hidden must be true or false")
            place(card, f"seat {seat}'s reserve")
            p._reserved.append(card)
            p.hidden.append(r["hidden"])
        for code in _list(t.get("nobles"), f"seat {seat} nobles"):
            nb = _noble(code, f"seat {seat} nobles")
            if nb in nobles_all:
                _fail(f"the noble {nb} is in two places")
            nobles_all.add(nb)
            if not all(p.bon[i] >= k for i, k in nb.needs):
                _fail(f"seat {seat} has the noble {nb} without the bonuses it requires")
            p._nobles.append(nb)
            p.points += nb.points
        if "points" in t and t["points"] != p.points:
            _fail(f"seat {seat} shows {t['points']!r} points but its cards and nobles make {p.points}")
        if sum(p.tok) > TOKEN_LIMIT and not (phase == "return" and seat == game.current):
            _fail(f"seat {seat} holds {sum(p.tok)} tokens, over the limit of {TOKEN_LIMIT}")
    missing = [c for c in CARDS if c not in seen]
    if missing:
        _fail(f"{len(missing)} card(s) are missing, for example {missing[0]}")
    expected = [TOKENS_PER_COLOR[n]] * 5 + [GOLD_TOKENS]
    for i, c in enumerate(TOKEN_COLORS):
        if totals[i] != expected[i]:
            _fail(f"there are {totals[i]} {c} tokens in the game; a {n}-player game has {expected[i]}")

    # Nobles on the table: players+1 in play (up to 2 x players + 1 while vetoing).
    claimed = sum(len(p._nobles) for p in game._players)
    if phase == "veto":
        if claimed or not n + 1 < len(game._nobles) <= 2 * n + 1 or not game._veto:
            _fail("the veto phase needs the noble veto variant and more than players + 1 nobles on the table")
        if game.current != (game.start + 2 * n + 1 - len(game._nobles)) % n:
            _fail("the seat to veto does not follow from the starting seat and the nobles removed")
    elif len(game._nobles) + claimed != n + 1:
        _fail(f"{len(game._nobles)} nobles on the table and {claimed} claimed; a {n}-player game has {n + 1}")
    # The final round starts as a turn ends at 15 points or more (mid-turn, in the return or noble phase, the player
    # to act may have reached 15 already).
    reached = [seat for seat, p in enumerate(game._players) if p.points >= WINNING_POINTS]
    if game.final and not reached:
        _fail("the final round is on but no player has 15 points")
    waiting = [seat for seat in reached if not (phase in ("return", "noble") and seat == game.current)]
    if waiting and not game.final:
        _fail(f"seat {waiting[0]} has {game._players[waiting[0]].points} points but the final round is off")
    if phase == "return" and sum(game._players[game.current].tok) <= TOKEN_LIMIT:
        _fail("the return phase needs the player to act to hold more than 10 tokens")
    if phase == "noble" and len(game.qualifying_nobles()) < 2:
        _fail("the noble phase needs at least two nobles met by the player to act")
    if phase == "over" and not (game.final or game.passes >= n):
        _fail("the game is over only after the final round or a round of passes")
    if finished and (game.game_index != n - 1 or game.series_results[-1] != game.scores):
        _fail("a finished series ends with its last game, whose scores are the last series result")
    actions = _list(data.get("actions", []), "actions")
    if not all(isinstance(a, str) for a in actions):
        _fail("actions must be texts")
    game._prior = tuple(actions)
    return game


__all__ = ["InvalidStateError", "game_from_dict", "NotationError"]
