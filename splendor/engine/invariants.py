"""Invariants every reachable position of a game keeps: the one check shared by the playout tests and the soak.

``check_invariants(game)`` returns a list of problems (empty when the position is sound); ``assert_invariants``
raises ``InvariantError`` (an AssertionError) naming them. Standard library only, and cheap enough to run after
every action of a random playout.

>>> import splendor
>>> game = splendor.new_game(players=3, seed=5)
>>> check_invariants(game)
[]
>>> game._supply[0] -= 1          # a white token vanishes
>>> check_invariants(game)[0]
'white tokens: 4 in the game, a 3-player game has 5'
"""

from .cards import CARDS, TOKEN_COLORS
from .game import GOLD_TOKENS, PHASES, RESERVE_LIMIT, TOKEN_LIMIT, TOKENS_PER_COLOR, WINNING_POINTS

_ALL_IDS = frozenset(card.id for card in CARDS)  # ints: a set of them costs no Python-level __hash__


class InvariantError(AssertionError):
    """A position that breaks an invariant of the game; the message lists what is wrong."""


def check_invariants(game):
    """Every broken invariant of ``game``'s position, as readable sentences ([] when sound)."""
    problems = []
    bad = problems.append
    n = game.n
    players = game._players
    phase = game.phase_
    supply = game._supply

    if phase not in PHASES:
        bad(f"unknown phase {phase!r}")
    if not 0 <= game.current < n:
        bad(f"current seat {game.current} out of range")
    if len(players) != n:
        bad(f"{len(players)} seats in a {n}-player game")

    # Tokens: conserved per color, never negative.
    expected = [TOKENS_PER_COLOR.get(n, 0)] * 5 + [GOLD_TOKENS]
    for i, color in enumerate(TOKEN_COLORS):
        total = supply[i]
        if supply[i] < 0:
            bad(f"the {color} supply is negative: {supply[i]}")
        for seat, p in enumerate(players):
            if p.tok[i] < 0:
                bad(f"seat {seat} holds {p.tok[i]} {color} tokens")
            total += p.tok[i]
        if total != expected[i]:
            bad(f"{color} tokens: {total} in the game, a {n}-player game has {expected[i]}")

    # Cards: every one of the 90 exactly once, each level in its own row and deck.
    seen = []
    for lv, row in enumerate(game._market):
        if len(row) != 4:
            bad(f"market level {lv + 1} has {len(row)} slots")
        for card in row:
            if card is None:
                if game._decks[lv]:
                    bad(f"a level {lv + 1} market slot is empty while its deck holds {len(game._decks[lv])} cards")
                continue
            if card.level != lv + 1:
                bad(f"level {card.level} card {card} in the level {lv + 1} market row")
            seen.append(card)
    for lv, deck in enumerate(game._decks):
        for card in deck:
            if card.level != lv + 1:
                bad(f"level {card.level} card {card} in the level {lv + 1} deck")
        seen.extend(deck)
    for seat, p in enumerate(players):
        seen.extend(p._cards)
        seen.extend(p._reserved)
        if len(p._reserved) > RESERVE_LIMIT:
            bad(f"seat {seat} holds {len(p._reserved)} reserved cards")
        if len(p.hidden) != len(p._reserved):
            bad(f"seat {seat}: {len(p.hidden)} hidden flags for {len(p._reserved)} reserved cards")
        bon = [0] * 5
        points = 0
        for card in p._cards:
            bon[card.bonus_i] += 1
            points += card.points
        for noble in p._nobles:
            points += noble.points
            if any(bon[i] < k for i, k in noble.needs):
                bad(f"seat {seat} holds the noble {noble} without its bonuses")
        if bon != p.bon:
            bad(f"seat {seat} bonuses {p.bon} but its cards give {bon}")
        if points != p.points:
            bad(f"seat {seat} has {p.points} points but its cards and nobles make {points}")
    if len(seen) != len(CARDS) or {card.id for card in seen} != _ALL_IDS:
        counts = {}
        for card in seen:
            counts[card] = counts.get(card, 0) + 1
        twice = [c for c, k in counts.items() if k > 1]
        missing = [c for c in CARDS if c not in counts]
        bad(f"cards not accounted once: {len(seen)} placed, twice {twice[:3]}, missing {missing[:3]}")

    # Nobles: players + 1 in play (more only while vetoing), none twice.
    claimed = [nb for p in players for nb in p._nobles]
    every = list(game._nobles) + claimed
    if len(set(every)) != len(every):
        bad("a noble is in two places")
    if phase == "veto":
        if claimed or not n + 1 < len(game._nobles) <= 2 * n + 1:
            bad(f"veto phase with {len(game._nobles)} nobles on the table and {len(claimed)} claimed")
        elif game.current != (game.start + 2 * n + 1 - len(game._nobles)) % n:
            bad(f"seat {game.current} vetoes out of turn")
    elif len(every) != n + 1:
        bad(f"{len(every)} nobles in play in a {n}-player game")

    # The turn's bookkeeping.
    for seat, p in enumerate(players):
        count = sum(p.tok)
        if count > TOKEN_LIMIT and not (phase == "return" and seat == game.current):
            bad(f"seat {seat} holds {count} tokens in the {phase} phase")
    if phase == "return" and sum(players[game.current].tok) <= TOKEN_LIMIT:
        bad("return phase while the player holds 10 tokens or fewer")
    if phase == "noble" and len(game.qualifying_nobles()) < 2:
        bad("noble phase without two nobles to choose from")
    if phase == "over":
        if not (game.final or game.passes >= n):
            bad("game over without a final round or a round of passes")
    elif not 0 <= game.passes < n:
        bad(f"{game.passes} passes in a row and the game goes on")
    reached = [seat for seat, p in enumerate(players) if p.points >= WINNING_POINTS]
    if game.final and not reached:
        bad("final round without anyone at 15 points")
    # Mid-turn (return, noble) the player to act may just have reached 15: the flag is set as the turn ends.
    waiting = [s for s in reached if not (phase in ("return", "noble") and s == game.current)]
    if waiting and not game.final:
        bad(f"seat {waiting[0]} has {players[waiting[0]].points} points and no final round began")
    if game._series:
        if len(game.series_results) != game.game_index + (1 if phase == "over" else 0):
            bad(f"{len(game.series_results)} series results in game {game.game_index + 1} ({phase})")
        if game.start != (game.first_player + game.game_index) % n:
            bad(f"game {game.game_index + 1} of the series starts at seat {game.start}")
    elif game.series_results or game.game_index:
        bad("series results outside a rotating-start series")
    return problems


def assert_invariants(game):
    """Raise InvariantError listing every broken invariant of ``game`` (nothing when sound)."""
    problems = check_invariants(game)
    if problems:
        raise InvariantError("; ".join(problems))


__all__ = ["InvariantError", "check_invariants", "assert_invariants"]
