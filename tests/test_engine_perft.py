"""Perft-style counts of legal actions from fixed positions (fixed seeds and fixed action prefixes): any change in
what legal_actions() generates, or in its order, shows here at once.

The counts were computed once by the engine and checked by hand where the comments say so; then pinned.
"""

from collections import Counter

import pytest

import splendor
from engine_fixtures import forced_pass_position, position


def perft(game, depth):
    """Leaf count of the tree of legal actions ``depth`` plies deep (apply_unchecked and undo: undo is exercised
    too, and the position is unchanged afterwards)."""
    if depth == 0 or game.is_over:
        return 1
    total = 0
    for action in game.legal_actions():
        game.apply_unchecked(action)
        total += perft(game, depth - 1)
        game.undo()
    return total


def texts(game):
    return [str(a) for a in game.legal_actions()]


def test_start_of_a_two_player_game():
    game = splendor.new_game(players=2, seed=1)
    moves = texts(game)
    # By hand: no tokens, so no buy; C(5,3) = 10 takes of three; 5 takes of two (4 in every pile);
    # 12 market reserves and 3 blind ones: 30.
    assert len(moves) == 30
    assert Counter(a.kind for a in game.legal_actions()) == {"take": 10, "take_two": 5, "reserve": 15}
    assert moves[0] == "take white blue green" and moves[9] == "take green red black"
    assert moves[10:15] == ["take2 white", "take2 blue", "take2 green", "take2 red", "take2 black"]
    assert moves[15] == "reserve 1U1:4r" and moves[-4] == "reserve 3G4:7u" and moves[-1] == "reserve deck 3"
    assert moves[-3:] == ["reserve deck 1", "reserve deck 2", "reserve deck 3"]


def test_perft_from_the_two_player_start():
    game = splendor.new_game(players=2, seed=1)
    before = game.to_dict()
    # Depth 2 by hand: after each of the 10 takes of three, three piles hold 3 and two hold 4: 10 + 2 + 15 = 27;
    # after each of the 5 takes of two: 10 + 4 + 15 = 29; after each of the 15 reserves (supply untouched, market
    # refilled, no gold spendable without a card to buy): 30. 10*27 + 5*29 + 15*30 = 865.
    assert [perft(game, d) for d in (1, 2, 3)] == [30, 865, 24190]
    assert game.to_dict() == before


def test_perft_from_the_four_player_start():
    game = splendor.new_game(players=4, seed=2)
    assert [perft(game, d) for d in (1, 2)] == [30, 900]  # 7 per pile: every take leaves take-twos possible


MID_2P = ["reserve deck 1", "take2 green", "reserve 3U3:3w3g3r5k", "reserve deck 3", "take2 black",
          "take white blue red", "take blue green black", "reserve 2U2:2w1r4k", "reserve 1G0:3r", "reserve 1G1:4k"]


def test_two_player_middle_game_position():
    game = splendor.new_game(players=2, seed=0)
    for text in MID_2P:
        game.apply(text)
    # By hand: seat 0 holds three reserved cards (no reserve), 1 blue, 1 green, 3 black and 3 gold; the supply is
    # 3 white, 2 blue, 1 green, 3 red, 1 black: all five colors, none at 4: 10 takes of three, no take of two;
    # six cards are affordable with the gold, its reserved 1G0:3r among them (three gold for three red).
    assert game.current_player == 0 and len(game.players[0].reserved) == 3
    assert game.supply == {"white": 3, "blue": 2, "green": 1, "red": 3, "black": 1, "gold": 0}
    assert texts(game) == [
        "buy 1R0:2w1g2k pay green black black gold gold", "buy 1W0:3w1u1k pay blue black gold gold gold",
        "buy 1W0:3u pay blue gold gold", "buy 1R0:2w1u1g1k pay blue green black gold gold",
        "buy 1K0:2g1r pay green gold gold", "buy 1G0:3r pay gold gold gold",
        "take white blue green", "take white blue red", "take white blue black", "take white green red",
        "take white green black", "take white red black", "take blue green red", "take blue green black",
        "take blue red black", "take green red black"]
    assert [perft(game, d) for d in (1, 2, 3)] == [16, 122, 1242]


@pytest.mark.parametrize("players, prefix, count, kinds, first, last, deeper", [
    (3, ["reserve deck 1", "take2 green", "reserve 3U3:3w3g3r5k", "reserve deck 3", "take2 black",
         "take white blue red", "take blue red black", "reserve 2K2:1u4g2r", "reserve 2G2:5g"],
     29, {"buy": 3, "take": 10, "take_two": 1, "reserve": 15}, "buy 1G0:3r pay red gold gold", "reserve deck 3",
     [29, 750, 20355]),
    (4, ["reserve deck 1", "take2 green", "reserve 3W5:3w7k", "reserve deck 2", "take2 red", "take white blue red",
         "take blue red black", "reserve 1W0:3u", "reserve 1G1:4k", "take2 green", "reserve deck 1", "reserve deck 2",
         "take blue green black", "reserve 1W0:3w1u1k", "take2 blue", "take green red black"],
     31, {"buy": 4, "take": 10, "take_two": 2, "reserve": 15}, "buy 1G0:3r pay red red gold", "reserve deck 3",
     [31, 796, 19764]),
])
def test_middle_game_positions(players, prefix, count, kinds, first, last, deeper):
    game = splendor.new_game(players=players, seed=0)
    for text in prefix:
        game.apply(text)
    moves = texts(game)
    assert len(moves) == count
    assert Counter(a.kind for a in game.legal_actions()) == kinds
    assert moves[0] == first and moves[-1] == last
    assert [perft(game, d) for d in (1, 2, 3)] == deeper


def test_decision_phases():
    # Return phase: one return per color held, gold last.
    game = position(2, tokens={0: "3w2u2g2r1*"})
    game.apply("take white blue green")
    assert texts(game) == ["return white", "return blue", "return green", "return red", "return gold"]
    # After one return the player holds 12, still over the limit: five colors again, or four after returning gold.
    assert perft(game, 2) == 4 * 5 + 1 * 4
    # Noble phase: the nobles met, in table order.
    game = position(2, nobles=["4r4k", "4w4u", "3w3u3g"], bonuses={0: "4w3u3g"}, market={(1, 0): "1U0:3k"},
                    tokens={0: "3k"})
    game.apply("buy 1U0:3k")
    assert texts(game) == ["noble 4w4u", "noble 3w3u3g"]
    # Veto phase: every noble on the table.
    game = splendor.new_game(players=3, seed=6, variants=("noble_veto",))
    assert [a.kind for a in game.legal_actions()] == ["veto"] * 7
    assert perft(game, 3) == 7 * 6 * 5
    assert perft(game, 4) == 7 * 6 * 5 * 30  # then the first turn of an untouched board


def test_forced_pass_is_the_only_action():
    game = forced_pass_position()
    assert texts(game) == ["pass"]
    # Then seat 1 (no reserved card, nothing affordable, every pile empty) may only reserve: 12 + 3.
    assert perft(game, 2) == 15
