"""The three variants of RULES.md: open reservations, noble veto, rotating-start series."""

import random

import pytest

import splendor
from engine_fixtures import play, position
from splendor.engine.invariants import check_invariants


def random_step(game, rng):
    moves = game.legal_actions()
    game.apply_unchecked(moves[rng.randrange(len(moves))])


# --- open reservations ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("open_variant", [False, True])
def test_open_reservations_show_blind_reserves_to_everyone(open_variant):
    variants = ("open_reservations",) if open_variant else ()
    game = splendor.new_game(players=3, seed=11, variants=variants)
    top = game._decks[1][-1]
    market_card = game.market[0][2]
    play(game, "reserve deck 2", f"reserve {market_card}")
    assert game.players[0].reserved == (top,) and game.players[0].reserved_hidden == (True,)
    assert game.players[1].reserved == (market_card,) and game.players[1].reserved_hidden == (False,)
    # The owner always sees the card; a market reservation was seen by everyone.
    assert game.observation(0)["tableaus"][0]["reserved"] == [top.code]
    for seat in (0, 1, 2):
        assert game.observation(seat)["tableaus"][1]["reserved"] == [market_card.code]
    for seat in (1, 2):
        shown = game.observation(seat)["tableaus"][0]["reserved"]
        assert shown == ([top.code] if open_variant else [{"level": 2}])
    # Everything else is unchanged: the variant only changes what is shown.
    plain = splendor.new_game(players=3, seed=11)
    play(plain, "reserve deck 2", f"reserve {market_card}")
    a, b = game.to_dict(), plain.to_dict()
    assert a.pop("variants") == (["open_reservations"] if open_variant else [])
    assert b.pop("variants") == []
    assert a == b


# --- noble veto ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, first, order", [
    (2, 0, [0, 1]), (2, 1, [1, 0]), (3, 1, [1, 2, 0]), (3, 2, [2, 0, 1]), (4, 2, [2, 3, 0, 1]), (4, 0, [0, 1, 2, 3])])
def test_noble_veto_order_from_the_starting_player(players, first, order):
    game = splendor.new_game(players=players, seed=40 + players, first_player=first, variants=("noble_veto",))
    assert game.phase == "veto"
    assert len(game.nobles) == 2 * players + 1
    removed = []
    for k, seat in enumerate(order):
        assert game.phase == "veto" and game.current_player == seat
        assert len(game.nobles) == 2 * players + 1 - k
        moves = game.legal_actions()
        assert [m.kind for m in moves] == ["veto"] * len(game.nobles)
        assert [m.noble for m in moves] == list(game.nobles)
        choice = game.nobles[(k * 3) % len(game.nobles)]
        game.apply(f"veto {choice}")
        removed.append(choice)
        assert choice not in game.nobles
        assert not any(choice in p.nobles for p in game.players)  # removed from the game, not claimed
    assert game.phase == "action" and game.current_player == first
    assert len(game.nobles) == players + 1
    assert game.round == 1 and game.turns == 0
    assert check_invariants(game) == []
    # Vetoes are undone one by one back to the full row.
    for _ in order:
        game.undo()
    assert len(game.nobles) == 2 * players + 1 and game.current_player == first


def test_noble_veto_refuses_other_actions_and_absent_nobles():
    game = splendor.new_game(players=2, seed=3, variants=("noble_veto",))
    before = game.to_dict()
    with pytest.raises(splendor.IllegalActionError, match="removes one noble"):
        game.apply("take white blue green")
    absent = next(n for n in splendor.NOBLES if n not in game.nobles)
    with pytest.raises(splendor.IllegalActionError, match="not on the table"):
        game.apply(f"veto {absent}")
    assert game.to_dict() == before
    game.apply(f"veto {game.nobles[0]}")
    with pytest.raises(splendor.IllegalActionError, match="not on the table"):
        game.apply(f"veto {before['nobles'][0]}")  # already removed


def test_noble_veto_is_not_offered_without_the_variant():
    game = splendor.new_game(players=2, seed=3)
    assert len(game.nobles) == 3 and game.phase == "action"
    with pytest.raises(splendor.IllegalActionError, match="noble veto variant"):
        game.apply(f"veto {game.nobles[0]}")


# --- rotating-start series -----------------------------------------------------------------------------------------

def play_series(players, seed, variants=("rotating_series",), first_player=0):
    game = splendor.new_game(players=players, seed=seed, first_player=first_player, variants=variants)
    rng = random.Random(seed)
    starts, boards = [game.start], [game.market]
    index = 0
    while not game.is_over:
        random_step(game, rng)
        if game.game_index != index:
            index = game.game_index
            starts.append(game.start)
            boards.append(game.market)
            # Each game is set up afresh.
            assert game.supply == splendor.new_game(players=players, seed=1).supply
            assert all(p.token_count == 0 and not p.cards and not p.reserved and not p.nobles
                       for p in game.players)
            assert game.deck_sizes == (36, 26, 16) and game.turns == 0 and not game.final_round
            assert game.phase == ("veto" if "noble_veto" in variants else "action")
            assert game.current_player == game.start
    return game, starts, boards


@pytest.mark.parametrize("players, first", [(2, 0), (2, 1), (3, 2), (4, 1)])
def test_series_moves_the_starting_seat_each_game_and_sums_scores(players, first):
    game, starts, boards = play_series(players, seed=100 + players, first_player=first)
    assert starts == [(first + k) % players for k in range(players)]
    assert len(set(map(str, boards))) == players, "every game is dealt afresh"
    assert game.game_index == players - 1
    # Per-game results are kept, the last game's included, and the summed scores decide.
    results = game.series_results
    assert len(results) == players and results[-1] == game.scores
    totals = tuple(sum(r[i] for r in results) for i in range(players))
    assert game.series_scores == totals
    best = max(totals)
    assert game.winners == tuple(i for i in range(players) if totals[i] == best)
    assert game.tie_break == ("score" if len(game.winners) == 1 else "shared")
    assert check_invariants(game) == []
    assert splendor.replay(game.record()) == game
    assert splendor.Game.from_dict(game.to_dict()) == game


def test_series_winner_counts_the_last_game():
    """Regression: the summed scores once left out the last game of the series (seat 1 was declared the winner
    on the first game alone)."""
    game, _, _ = play_series(2, seed=3)
    first, last = game.series_results
    assert game.series_scores == (first[0] + last[0], first[1] + last[1])
    assert sum(game.series_scores) == sum(first) + sum(game.scores)


def series_final_turn(totals_before, last_scores):
    """2-player series, second game (seat 1 starts), final round on, seat 0 to play the last turn."""
    points_cards = {15: ["3W5:3w7k", "3U5:7w3u", "3G5:7u3g"], 13: ["3R5:7g3r", "3K4:7r", "3W4:7k"],
                    12: ["3R4:7g", "3K4:3g6r3k", "3G4:7u"], 14: ["3R5:7g3r", "3K5:7r3k", "3W4:7k"]}
    cards = {seat: points_cards[pts] for seat, pts in enumerate(last_scores)}
    game = position(2, seed=8, variants=("rotating_series",), game_index=1, series_results=[totals_before],
                    cards=cards, final=True, current=0, turns=9)
    assert game.scores == tuple(last_scores) and game.start == 1
    game.apply("take white blue green")
    assert game.is_over
    return game


def test_series_tied_totals_share_the_series():
    game = series_final_turn((10, 12), (15, 13))  # totals 25 and 25
    assert game.series_scores == (25, 25)
    assert game.winners == (0, 1) and game.tie_break == "shared"
    assert game.series_results == [(10, 12), (15, 13)]


def test_series_total_decides_not_the_last_game():
    game = series_final_turn((9, 14), (15, 12))  # seat 0 wins the last game, seat 1 the series 26 to 24
    assert game.series_scores == (24, 26)
    assert game.winners == (1,) and game.tie_break == "score"
    # The single game's own result still follows its tie-breaks.
    assert game._deal_winners() == ((0,), "score")


def test_series_undo_across_a_game_boundary_restores_exactly():
    for players in (2, 3, 4):
        game = splendor.new_game(players=players, seed=7, variants=("rotating_series", "noble_veto"))
        rng = random.Random(players)
        boundaries = 0
        while not game.is_over:
            before = game.to_dict()
            index = game.game_index
            random_step(game, rng)
            if game.game_index != index or game.is_over:
                boundaries += 1
                after = game.to_dict()
                game.undo()
                assert game.to_dict() == before
                assert check_invariants(game) == []
                game.apply(after["actions"][-1])
                assert game.to_dict() == after
        assert boundaries == players  # n - 1 new deals and the end of the series
        # Undo all the way back to the very first position of the series.
        while game.can_undo():
            game.undo()
        fresh = splendor.new_game(players=players, seed=7, variants=("rotating_series", "noble_veto"))
        assert game.to_dict() == fresh.to_dict()


def test_series_state_round_trips_mid_series_and_at_the_end():
    game = splendor.new_game(players=3, seed=21, variants=("rotating_series",))
    rng = random.Random(2)
    while game.game_index < 1:
        random_step(game, rng)
    for _ in range(17):
        random_step(game, rng)
    copy = splendor.Game.from_dict(game.to_dict())
    assert copy == game and copy.series_results == game.series_results
    while not game.is_over:
        random_step(game, rng)
    assert splendor.Game.from_dict(game.to_dict()) == game
    bad = game.to_dict()
    bad["series_results"] = bad["series_results"][:-1]
    with pytest.raises(splendor.InvalidStateError, match="series_results"):
        splendor.Game.from_dict(bad)
    bad = game.to_dict()
    bad["series_results"][-1] = [s + 1 for s in bad["series_results"][-1]]
    with pytest.raises(splendor.InvalidStateError, match="last series result"):
        splendor.Game.from_dict(bad)


def test_series_with_all_variants_together():
    variants = ("open_reservations", "noble_veto", "rotating_series")
    game, starts, _ = play_series(3, seed=5, variants=variants, first_player=1)
    assert starts == [1, 2, 0]
    assert game.variants == variants
    assert len(game.series_results) == 3


def test_without_series_a_single_game_decides():
    game = splendor.new_game(players=2, seed=3)
    rng = random.Random(1)
    while not game.is_over:
        random_step(game, rng)
    assert game.series_results == [] and game.game_index == 0
    assert game.series_scores == game.scores
