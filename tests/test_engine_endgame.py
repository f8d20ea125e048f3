"""The end of the game: the final round for every player count and trigger seat, the winner, every tie-break, the
forced pass and the stalemate."""

import pytest

import splendor
from engine_fixtures import cards_worth, forced_pass_position, position, refused
from splendor.engine.invariants import check_invariants

TWELVE = ["3W4:7k", "3U4:7w", "3G4:7u"]  # 12 points, three bonuses: no noble in reach


def trigger_position(players, trigger, start, rounds_done=3):
    """Seat ``trigger`` to play, at 12 points, able to buy 2W3:6w (3 points) and so reach exactly 15."""
    turns = rounds_done * players + (trigger - start) % players
    return position(players, seed=30 + players, first_player=start, cards={trigger: TWELVE},
                    market={(2, 0): "2W3:6w"}, tokens={trigger: "4w2*"}, current=trigger, turns=turns)


CASES = [(n, trigger, start) for n in (2, 3, 4) for trigger in range(n) for start in (0, n - 1)]


@pytest.mark.parametrize("players, trigger, start", CASES)
def test_final_round_gives_everyone_the_same_number_of_turns(players, trigger, start):
    game = trigger_position(players, trigger, start)
    assert not game.final_round and game.round == 4
    game.apply("buy 2W3:6w")
    assert game.players[trigger].points == 15
    last = (start - 1) % players
    expected = []  # the seats still to play: those after the trigger, up to the one before the starting seat
    seat = trigger
    while seat != last:
        seat = (seat + 1) % players
        expected.append(seat)
    played = []
    while not game.is_over:
        assert game.final_round
        played.append(game.current_player)
        game.apply(game.legal_actions()[0] if game.phase != "action" else
                   next(a for a in game.legal_actions() if a.kind in ("take", "take_two", "reserve")))
    assert _dedupe(played, expected) == expected
    assert game.turns == 4 * players, "everyone had exactly four turns"
    assert game.winners == (trigger,) and game.tie_break == "score" and game.current_player is None
    assert game.legal_actions() == []
    refused_over(game)
    assert check_invariants(game) == []


def _dedupe(played, expected):
    """Seats in the order they started a turn (a return or noble decision repeats the seat)."""
    out = []
    for seat in played:
        if not out or out[-1] != seat:
            out.append(seat)
    return out


def refused_over(game):
    before = game.to_dict()
    for text in ("take white blue green", "pass", "reserve deck 1"):
        with pytest.raises(splendor.IllegalActionError, match="the game is over"):
            game.apply(text)
    with pytest.raises(splendor.IllegalActionError, match="the game is over"):
        game.apply("buy 1.1")
    assert game.to_dict() == before


def test_the_game_does_not_end_the_moment_someone_reaches_15():
    game = trigger_position(3, trigger=0, start=0)
    game.apply("buy 2W3:6w")
    assert game.final_round and not game.is_over and game.current_player == 1
    assert game.winners == () and game.tie_break is None


def test_the_winner_need_not_be_the_trigger_player():
    # Seat 0 reaches 15 first; seat 1, at 13, buys a 3-point card in the final round and wins with 16.
    thirteen = cards_worth(13, 3, exclude=TWELVE + ["2W3:6w", "2U3:6u"])
    game = position(3, seed=12, cards={0: TWELVE, 1: thirteen}, market={(2, 0): "2W3:6w", (2, 1): "2U3:6u"},
                    tokens={0: "4w1*", 1: "4u1*"})
    game.apply("buy 2W3:6w")
    game.apply("buy 2U3:6u")
    assert game.scores[:2] == (15, 16) and not game.is_over
    game.apply("take white blue green")
    assert game.is_over and game.winners == (1,) and game.tie_break == "score"


def test_several_players_past_15_still_one_final_round():
    thirteen = cards_worth(13, 3, exclude=TWELVE + ["2W3:6w", "2U3:6u"])
    game = position(2, seed=13, first_player=1, cards={1: TWELVE, 0: thirteen},
                    market={(2, 0): "2W3:6w", (2, 1): "2U3:6u"}, tokens={1: "4w1*", 0: "4u1*"}, current=1)
    game.apply("buy 2W3:6w")  # seat 1 starts and triggers; seat 0 plays once more
    assert not game.is_over and game.current_player == 0
    game.apply("buy 2U3:6u")
    assert game.is_over and game.scores == (16, 15) and game.winners == (0,)


# --- tie-breaks ----------------------------------------------------------------------------------------------------

def last_turn(players, points_and_counts, reserved=None):
    """The last turn of the final round (start 0, so the last seat plays it), each seat at (points, cards)."""
    used = [item if isinstance(item, str) else item[0] for codes in (reserved or {}).values() for item in codes]
    cards = {}
    # The densest tableaus first: 15 points in 3 cards needs the three 5-point cards left.
    for seat in sorted(range(players), key=lambda s: -points_and_counts[s][0] / points_and_counts[s][1]):
        pts, count = points_and_counts[seat]
        cards[seat] = cards_worth(pts, count, exclude=used)
        used += cards[seat]
    game = position(players, seed=50 + players, cards=cards, reserved=reserved or {}, final=True,
                    current=players - 1, turns=6 * players - 1)
    assert [(p.points, len(p.cards)) for p in game.players] == list(points_and_counts)
    game.apply("take white blue green")
    assert game.is_over
    return game


def test_highest_score_wins():
    game = last_turn(3, [(15, 4), (17, 5), (16, 4)])
    assert game.winners == (1,) and game.tie_break == "score"


def test_tie_on_score_fewer_bought_cards_wins():
    game = last_turn(3, [(16, 5), (16, 4), (12, 3)])
    assert game.winners == (1,) and game.tie_break == "fewer cards"


def test_tie_break_ignores_reserved_cards():
    # Seat 0 holds more cards in all (4 bought + 3 reserved) but fewer bought ones: it wins.
    game = last_turn(2, [(16, 4), (16, 5)], reserved={0: ["1W0:2r1k", "1U0:3k", ("1G0:3r", True)]})
    assert len(game.players[0].reserved) == 3
    assert game.winners == (0,) and game.tie_break == "fewer cards"


def test_still_tied_the_victory_is_shared():
    game = last_turn(2, [(15, 4), (15, 4)])
    assert game.winners == (0, 1) and game.tie_break == "shared"


def test_shared_victory_has_no_seat_order_tie_break():
    game = last_turn(4, [(16, 5), (16, 4), (10, 2), (16, 4)])
    assert game.winners == (1, 3) and game.tie_break == "shared"
    game = last_turn(4, [(16, 4), (16, 5), (16, 4), (16, 4)])
    assert game.winners == (0, 2, 3) and game.tie_break == "shared"


def test_three_tied_on_score_one_with_fewest_cards():
    game = last_turn(4, [(15, 4), (15, 4), (15, 3), (9, 2)])
    assert game.winners == (2,) and game.tie_break == "fewer cards"


# --- forced pass and stalemate -------------------------------------------------------------------------------------

def test_forced_pass_when_no_action_is_possible():
    game = forced_pass_position()
    assert game.supply == {"white": 0, "blue": 0, "green": 0, "red": 0, "black": 0, "gold": 5}
    assert [str(a) for a in game.legal_actions()] == ["pass"]
    refused(game, "take white", "white pile is empty")
    refused(game, "take2 white", "holds 0")
    refused(game, "reserve deck 1", "already hold 3")
    refused(game, "buy 1.1", "cannot afford")
    refused(game, "buy r1", "cannot afford")
    game.apply("pass")
    assert game.current_player == 1 and game.passes == 1 and not game.is_over


def test_pass_refused_when_another_action_exists():
    game = position(2)
    refused(game, "pass", "only pass when no other action is possible")


def test_stalemate_a_full_round_of_passes_ends_the_game():
    game = forced_pass_position(reserved={0: ["3W5:3w7k", "3U5:7w3u", "3G5:7u3g"],
                                          1: ["3R5:7g3r", "3K5:7r3k", "3K4:7r"]},
                                cards={1: ["2K3:6k"]})
    assert game.scores == (0, 3)
    game.apply("pass")
    assert [str(a) for a in game.legal_actions()] == ["pass"]
    game.apply("pass")
    assert game.is_over and not game.final_round
    assert game.winners == (1,) and game.tie_break == "score"  # scored as usual
    assert check_invariants(game) == []
    game.undo()
    assert game.current_player == 1 and game.passes == 1 and not game.is_over


def test_stalemate_with_equal_scores_is_shared():
    game = forced_pass_position(reserved={0: ["3W5:3w7k", "3U5:7w3u", "3G5:7u3g"],
                                          1: ["3R5:7g3r", "3K5:7r3k", "3K4:7r"]})
    game.apply("pass")
    game.apply("pass")
    assert game.is_over and game.winners == (0, 1) and game.tie_break == "shared"


def test_an_action_between_passes_starts_the_count_again():
    # Seat 1 can still reserve: a pass, a reserve, a pass is not a full round of passes.
    game = forced_pass_position(reserved={0: ["3W5:3w7k", "3U5:7w3u", "3G5:7u3g"], 1: ["3R5:7g3r"]})
    game.apply("pass")
    assert game.passes == 1
    game.apply("reserve deck 3")
    assert game.passes == 0 and game.phase == "return"  # the gold made 11 tokens
    game.apply("return gold")
    assert game.passes == 0 and game.current_player == 0
    game.apply("pass")
    assert game.passes == 1 and not game.is_over and game.current_player == 1


def test_stalemate_in_three_players_needs_all_three_passes():
    # Seat 2 is the only one with a move left: the two passes before it do not end the game.
    game = position(3, seed=8, tokens={0: "4w4r2k", 1: "4u4g2k", 2: "1w1u1g1r1k"},
                    reserved={0: ["3W5:3w7k", "3U5:7w3u", "3G5:7u3g"], 1: ["3R5:7g3r", "3K5:7r3k", "3K4:7r"]},
                    market={(1, 0): "1W0:1u1g1r1k", (1, 1): "1U0:1w1g1r1k", (1, 2): "1G0:1w1u1r1k",
                            (1, 3): "1R0:1w1u1g1k", (2, 0): "2W1:2w3u3r", (2, 1): "2U2:5u", (2, 2): "2G2:5g",
                            (2, 3): "2R2:1w4u2g", (3, 0): "3W3:3u3g5r3k", (3, 1): "3K4:3g6r3k", (3, 2): "3G4:7u",
                            (3, 3): "3R4:7g"})
    # Every colored pile is empty; seat 2 can still reserve (and buy).
    assert game.supply == {"white": 0, "blue": 0, "green": 0, "red": 0, "black": 0, "gold": 5}
    for seat in (0, 1):
        assert game.current_player == seat and [str(a) for a in game.legal_actions()] == ["pass"]
        game.apply("pass")
    assert game.passes == 2 and not game.is_over
    assert "reserve deck 1" in [str(a) for a in game.legal_actions()]
    game.apply("reserve deck 1")
    assert game.passes == 0 and not game.is_over and game.current_player == 0
    game.apply("pass")
    game.apply("pass")
    assert game.passes == 2 and not game.is_over and game.current_player == 2
