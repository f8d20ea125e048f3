"""One scenario per ruling of RULES.md about a turn: the four actions, market refills, the token limit, nobles."""

import json
import random

import pytest

import splendor
from engine_fixtures import forced_pass_position, position, refused
from splendor import Action, card_from_code
from splendor.engine.invariants import check_invariants


def texts(game):
    return [str(a) for a in game.legal_actions()]


# --- take two ------------------------------------------------------------------------------------------------------

def test_take_two_needs_exactly_four_or_more_in_the_pile():
    game = position(2, tokens={1: "1r"})  # red pile 3, the others 4
    assert game.supply["red"] == 3 and game.supply["white"] == 4
    moves = texts(game)
    assert "take2 white" in moves and "take2 red" not in moves
    refused(game, "take2 red", "two red need at least 4 in the pile", "holds 3")
    game.apply("take2 white")
    assert game.players[0].tokens["white"] == 2 and game.supply["white"] == 2
    assert game.current_player == 1  # that is the whole action
    refused(game, "take2 white", "at least 4", "holds 2")


def test_take_two_from_five_leaves_three_and_then_refuses():
    game = position(3)
    game.apply("take2 green")
    assert game.supply["green"] == 3
    assert "take2 green" not in texts(game)
    refused(game, "take2 green", "holds 3")


def test_take_two_never_gold():
    game = position(2)
    refused(game, Action.take_two("gold"), "gold cannot be taken")
    with pytest.raises(splendor.NotationError, match="not a color"):
        splendor.parse_action(game, "take2 gold")


# --- take three different ------------------------------------------------------------------------------------------

def test_take_three_different_when_three_or_more_colors_remain():
    game = position(2)
    takes = [m for m in texts(game) if m.startswith("take ")]
    assert len(takes) == 10  # C(5, 3)
    refused(game, "take white blue", "take 3 different colors", "5 colors have tokens")
    refused(game, "take white", "take 3 different colors")
    game = position(2, tokens={1: "4g4r"})  # exactly three colors left
    assert [m for m in texts(game) if m.startswith("take ")] == ["take white blue black"]
    refused(game, "take white blue", "take 3 different colors", "3 colors have tokens")
    refused(game, "take white blue green", "the green pile is empty")


def test_take_from_the_two_colors_left():
    game = position(2, tokens={1: "4g4r2k", 0: "2k"})
    assert game.supply == {"white": 4, "blue": 4, "green": 0, "red": 0, "black": 0, "gold": 5}
    takes = [m for m in texts(game) if m.startswith("take")]
    assert takes == ["take white blue", "take2 white", "take2 blue"]
    refused(game, "take white", "take 2 different colors", "2 colors have tokens")
    refused(game, "take white blue green", "green pile is empty")
    game.apply("take white blue")
    assert game.players[0].tokens == {"white": 1, "blue": 1, "green": 0, "red": 0, "black": 2, "gold": 0}


def test_take_from_the_one_color_left():
    game = position(3, tokens={1: "5g5r", 2: "5k5u", 0: "2w"})
    assert game.supply["white"] == 3 and sum(game.supply.values()) - game.supply["gold"] == 3
    takes = [m for m in texts(game) if m.startswith("take")]
    assert takes == ["take white"]  # 3 white: no take of two
    refused(game, "take white blue", "blue pile is empty")
    game.apply("take white")
    assert game.players[0].tokens["white"] == 3 and game.supply["white"] == 2


def test_take_never_gold():
    game = position(2)
    refused(game, Action.take("gold", "white", "blue"), "gold cannot be taken")
    refused(game, Action.take("white", "gold"), "gold")
    with pytest.raises(splendor.NotationError, match="not a color"):
        splendor.parse_action(game, "take gold white blue")


def test_take_colors_in_any_order():
    """Regression: "take red green black" was refused ("the colors of a take must differ") because only the
    generated order white..black matched a legal action."""
    game = position(2)
    game.apply("take red green black")
    assert game.players[0].tokens == {"white": 0, "blue": 0, "green": 1, "red": 1, "black": 1, "gold": 0}
    assert str(game.history[-1]) == "take green red black"
    assert Action.take("black", "white", "blue") == Action.take("white", "blue", "black")
    game.apply(Action.take("black", "blue", "white"))
    assert game.players[1].tokens["black"] == 1 and str(game.history[-1]) == "take white blue black"
    assert splendor.replay(game.record()) == game


def test_take_of_one_color_twice_is_not_a_take_of_three():
    game = position(2)
    refused(game, Action.take("white", "white", "blue"), "must differ")


# --- reserve -------------------------------------------------------------------------------------------------------

def test_reserve_from_the_market_refills_the_slot_and_gives_gold():
    game = position(2, seed=5)
    card = game.market[1][2]
    top = game._decks[1][-1]
    game.apply(f"reserve {card}")
    p = game.players[0]
    assert p.reserved == (card,) and p.reserved_hidden == (False,)
    assert p.tokens["gold"] == 1 and game.supply["gold"] == 4
    assert game.market[1][2] == top and game.deck_sizes == (36, 25, 16)
    assert card not in [c for row in game.market for c in row]
    # Everyone saw it: it is public in every seat's view.
    assert game.observation(1)["tableaus"][0]["reserved"] == [card.code]


def test_blind_reserve_takes_the_deck_top_and_stays_secret():
    game = position(3, seed=6)
    top = game._decks[2][-1]
    market = game.market
    game.apply("reserve deck 3")
    p = game.players[0]
    assert p.reserved == (top,) and p.reserved_hidden == (True,)
    assert game.market == market and game.deck_sizes == (36, 26, 15)
    assert p.tokens["gold"] == 1
    own = game.observation(0)
    assert own["tableaus"][0]["reserved"] == [top.code]
    for seat in (1, 2):
        other = game.observation(seat)
        assert other["tableaus"][0]["reserved"] == [{"level": 3}]
        text = json.dumps(other)
        assert top.code not in text  # nowhere in another seat's view
        assert "decks" not in other and other["deck_sizes"] == [36, 26, 15]
    # A bot's sample of the unseen cards keeps what the seat saw and deals the rest.
    sample = splendor.determinize(game.observation(1), random.Random(1))
    assert sample.observation(1) == game.observation(1)
    assert sample.players[0].reserved[0].level == 3 and sample.players[0].reserved_hidden == (True,)


def test_reserve_with_no_gold_left_is_allowed_without_gold():
    game = position(2, tokens={1: "5*"})
    assert game.supply["gold"] == 0
    card = game.market[0][0]
    assert f"reserve {card}" in texts(game)
    game.apply(f"reserve {card}")
    assert game.players[0].reserved == (card,)
    assert game.players[0].tokens["gold"] == 0 and game.supply["gold"] == 0
    assert game.current_player == 1 and game.phase == "action"


def test_reserve_at_ten_tokens_takes_the_gold_then_returns_one():
    game = position(2, tokens={0: "2w2u2g2r2k"})
    game.apply("reserve deck 1")
    p = game.players[0]
    assert p.tokens["gold"] == 1 and p.token_count == 11
    assert game.phase == "return" and game.current_player == 0
    assert texts(game) == ["return white", "return blue", "return green", "return red", "return black",
                           "return gold"]
    game.apply("return gold")  # even the gold just taken may go back
    assert p.token_count == 10 and p.tokens["gold"] == 0 and game.supply["gold"] == 5
    assert game.phase == "action" and game.current_player == 1


def test_fourth_reservation_refused():
    game = position(2, reserved={0: ["3W5:3w7k", ("2U3:6u", True), "1K1:4u"]})
    assert not any(m.startswith("reserve") for m in texts(game))
    refused(game, "reserve deck 1", "already hold 3 reserved cards")
    refused(game, f"reserve {game.market[2][0]}", "already hold 3")


def test_reserve_of_a_card_not_in_the_market_or_an_empty_deck_refused():
    game = position(2, reserved={1: ["3W5:3w7k"]})
    refused(game, "reserve 3W5:3w7k", "not in the market")
    refused(game, Action.reserve(level=4), "no deck of level 4")


# --- buy -----------------------------------------------------------------------------------------------------------

def test_buy_mixing_bonuses_tokens_and_gold():
    # 2G2:4w2u1k with 2 white bonuses: the price is 2 white, 2 blue, 1 black.
    game = position(2, market={(2, 0): "2G2:4w2u1k"}, bonuses={0: "2w"}, tokens={0: "1w2u2*1r"})
    card = card_from_code("2G2:4w2u1k")
    assert game.price(card) == {"white": 2, "blue": 2, "green": 0, "red": 0, "black": 1}
    assert game.default_payment(card) == {"white": 1, "blue": 2, "green": 0, "red": 0, "black": 0, "gold": 2}
    assert game.can_afford(card)
    buy = next(a for a in game.legal_actions() if a.kind == "buy" and a.card == card)
    assert str(buy) == "buy 2G2:4w2u1k pay white blue blue gold gold"
    supply = game.supply
    game.apply(buy)
    p = game.players[0]
    assert p.tokens == {"white": 0, "blue": 0, "green": 0, "red": 1, "black": 0, "gold": 0}
    assert game.supply["white"] == supply["white"] + 1 and game.supply["gold"] == supply["gold"] + 2
    assert card in p.cards and p.bonuses["green"] == 1 and p.points == 2
    assert game.market[1][0] != card and game.current_player == 1


def test_gold_may_be_spent_while_holding_the_color():
    game = position(2, market={(2, 0): "2G2:4w2u1k"}, tokens={0: "4w2u1k2*"})
    code = "2G2:4w2u1k"
    before = game.to_dict()
    # Overpaying or underpaying is refused with the reason; paying tokens not held too.
    refused(game, f"buy {code} pay white white white white blue blue black gold", "0 gold, not 1")
    refused(game, f"buy {code} pay white white white blue blue black", "1 gold, not 0")
    refused(game, f"buy {code} pay white white white white blue blue", "1 gold, not 0")
    refused(game, f"buy {code} pay white blue blue black gold gold gold", "cannot pay 3 gold", "you hold 2")
    refused(game, f"buy {code} pay white white white white green blue blue black", "cannot pay 1 green")
    assert game.why_illegal(splendor.parse_action(game, f"buy {code} pay white white blue blue black gold gold")) \
        is None
    game.apply(f"buy {code} pay white white white blue blue black gold")  # 3 white and a gold for the 4th
    p = game.players[0]
    assert p.tokens == {"white": 1, "blue": 0, "green": 0, "red": 0, "black": 0, "gold": 1}
    assert game.supply["gold"] == before["supply"]["gold"] + 1
    assert game.history[-1].payment == {"white": 3, "blue": 2, "green": 0, "red": 0, "black": 1, "gold": 1}


def test_overpaying_a_discounted_color_refused():
    game = position(2, market={(2, 0): "2G2:4w2u1k"}, bonuses={0: "2w"}, tokens={0: "4w2u1k"})
    refused(game, "buy 2G2:4w2u1k pay white white white white blue blue black", "costs you 2 white after bonuses",
            "not 4")
    game.apply("buy 2G2:4w2u1k")  # the default pays only the price
    assert game.players[0].tokens["white"] == 2


def test_fully_discounted_card_is_free_but_uses_the_turn():
    game = position(2, market={(1, 0): "1K0:3g"}, bonuses={0: "3g"}, tokens={0: "1w"})
    card = card_from_code("1K0:3g")
    assert game.price(card) == dict.fromkeys(splendor.COLORS, 0)
    assert "buy 1K0:3g" in texts(game)  # no "pay": nothing is paid
    assert splendor.parse_action(game, "buy 1K0:3g").payment == dict.fromkeys(splendor.TOKEN_COLORS, 0)
    game.apply("buy 1K0:3g")
    p = game.players[0]
    assert card in p.cards and p.tokens["white"] == 1 and p.token_count == 1
    assert game.current_player == 1 and game.turns == 1


def test_extra_bonuses_give_nothing_back():
    game = position(2, market={(1, 0): "1K0:3g"}, bonuses={0: "5g"})
    game.apply("buy 1K0:3g")
    assert game.players[0].token_count == 0 and game.supply == splendor.new_game(2, 1).supply


def test_buy_a_reserved_card_even_a_blind_one():
    game = position(2, reserved={0: ["1W0:2u2k", ("2G2:4w2u1k", True)]}, tokens={0: "4w2u1k"})
    market, decks = game.market, game.deck_sizes
    moves = texts(game)
    assert "buy 2G2:4w2u1k pay white white white white blue blue black" in moves
    assert not any(m.startswith("buy 1W0:2u2k") for m in moves)  # no black for it
    game.apply("buy r2")
    p = game.players[0]
    assert p.reserved == (card_from_code("1W0:2u2k"),) and p.reserved_hidden == (False,)
    assert p.cards == (card_from_code("2G2:4w2u1k"),) and p.points == 2
    assert game.market == market and game.deck_sizes == decks


def test_buy_another_seats_reserved_card_refused():
    game = position(2, reserved={1: ["1W0:2u2k"]}, tokens={0: "2u2k"})
    refused(game, "buy 1W0:2u2k", "neither in the market nor among your reserved cards")


def test_buy_unaffordable_refused():
    game = position(2, market={(3, 0): "3W4:7k"}, tokens={0: "4k1*"})
    refused(game, "buy 3W4:7k", "cannot afford", "2 tokens short")


# --- market refill and empty decks ---------------------------------------------------------------------------------

def test_refill_from_the_deck_then_an_empty_slot_stays_empty():
    # 4 players: the level 1 deck holds one card, every other level 1 card is in a tableau (no noble is met).
    market = {(1, 0): "1W1:4g", (1, 1): "1U1:4r", (1, 2): "1G1:4k", (1, 3): "1R1:4w"}
    game = position(4, seed=9, market=market, deck_top={1: ["1K1:4u"]},
                    bonuses={0: "7w2k", 1: "7u2k", 2: "7g1k", 3: "7r2k"}, tokens={0: "4g", 1: "4r"})
    assert game.deck_sizes[0] == 1 and check_invariants(game) == []
    game.apply("buy 1W1:4g")
    assert game.market[0][0] == card_from_code("1K1:4u") and game.deck_sizes[0] == 0
    game.apply("buy 1U1:4r")
    assert game.market[0][1] is None and game.deck_sizes[0] == 0
    assert "reserve deck 1" not in texts(game)
    refused(game, "reserve deck 1", "level 1 deck is empty")
    refused(game, "buy 1.2", "market slot 1.2 is empty")
    game.apply("reserve 1G1:4k")
    assert game.market[0] == (card_from_code("1K1:4u"), None, None, card_from_code("1R1:4w"))
    assert game.observation(0)["market"][0] == ["1K1:4u", None, None, "1R1:4w"]
    assert splendor.Game.from_dict(game.to_dict()) == game
    assert check_invariants(game) == []
    game.undo()
    game.undo()
    game.undo()
    assert game.market[0] == tuple(card_from_code(c) for c in market.values()) and game.deck_sizes[0] == 1


# --- the token limit -----------------------------------------------------------------------------------------------

def test_return_phase_any_colors_one_per_action_until_exactly_ten():
    game = position(2, tokens={0: "2w2u2g2r1k1*"})
    game.apply("take white blue green")
    p = game.players[0]
    assert p.token_count == 13 and game.phase == "return" and game.current_player == 0
    assert texts(game) == ["return white", "return blue", "return green", "return red", "return black",
                           "return gold"]
    refused(game, "take white blue red", "you hold 13 tokens", "return 3 tokens first")
    refused(game, "pass", "return 3 tokens first")
    game.apply("return white")  # a token just taken
    assert p.token_count == 12 and game.phase == "return" and game.current_player == 0
    game.apply("return gold")
    game.apply("return black")
    assert p.tokens == {"white": 2, "blue": 3, "green": 3, "red": 2, "black": 0, "gold": 0}
    assert "return red" not in texts(game) and game.phase == "action" and game.current_player == 1
    refused(game, "return red", "only when holding more than 10")


def test_return_of_a_color_not_held_refused():
    game = position(2, tokens={0: "4w4u2g"})
    game.apply("take green red black")
    assert texts(game) == ["return white", "return blue", "return green", "return red", "return black"]
    refused(game, "return gold", "you hold no gold token")


def test_ten_tokens_exactly_is_allowed():
    game = position(2, tokens={0: "2w2u2g1r"})
    game.apply("take white blue green")
    assert game.players[0].token_count == 10 and game.current_player == 1 and game.phase == "action"


# --- nobles --------------------------------------------------------------------------------------------------------

def test_one_noble_met_comes_by_itself():
    game = position(2, nobles=["4w4u", "4g4r", "3g3r3k"], bonuses={0: "4w3u"}, market={(1, 0): "1U0:3k"},
                    tokens={0: "3k"})
    game.apply("buy 1U0:3k")
    p = game.players[0]
    assert p.nobles == (splendor.noble_from_code("4w4u"),) and p.points == 3
    assert [n.code for n in game.nobles] == ["4g4r", "3g3r3k"]  # not replaced
    assert game.phase == "action" and game.current_player == 1


def test_two_nobles_met_one_chosen_now_the_other_on_a_later_turn():
    game = position(2, nobles=["4w4u", "3w3u3g", "4r4k"], bonuses={0: "4w3u3g"}, market={(1, 0): "1U0:3k"},
                    tokens={0: "3k"})
    game.apply("buy 1U0:3k")
    assert game.phase == "noble" and game.current_player == 0
    assert texts(game) == ["noble 4w4u", "noble 3w3u3g"]
    refused(game, "take white blue green", "choose which noble")
    refused(game, "pass", "choose which noble")
    refused(game, "noble 4r4k", "do not meet the noble 4r4k")
    game.apply("noble 3w3u3g")
    p = game.players[0]
    assert p.nobles == (splendor.noble_from_code("3w3u3g"),) and p.points == 3
    assert game.phase == "action" and game.current_player == 1
    game.apply("take red green black")  # seat 1
    assert game.current_player == 0 and len(p.nobles) == 1
    game.apply("take white blue green")  # any action: the second noble comes at its end
    assert p.nobles == (splendor.noble_from_code("3w3u3g"), splendor.noble_from_code("4w4u"))
    assert p.points == 6 and [n.code for n in game.nobles] == ["4r4k"]
    game.undo()
    assert len(p.nobles) == 1 and game.current_player == 0


PENDING = dict(nobles=["3w3r3k", "4w4u"], claimed={0: ["4r4k"]}, bonuses={0: "3w4r4k"})


@pytest.mark.parametrize("action", ["take white blue green", "take2 blue", "reserve deck 2", "reserve 1.1",
                                    "buy free"])
def test_second_noble_comes_at_the_end_of_a_later_turn_after_any_action(action):
    extra = {}
    if action == "buy free":
        extra = dict(market={(1, 0): "1W0:2r1k"})  # free: red and black are covered by bonuses
        action = "buy 1W0:2r1k"
    game = position(2, **PENDING, **extra)
    p = game.players[0]
    assert p.points == 3 and game.qualifying_nobles() == [splendor.noble_from_code("3w3r3k")]
    game.apply(action)
    assert [n.code for n in p.nobles] == ["4r4k", "3w3r3k"] and p.points >= 6
    assert game.current_player == 1


def test_second_noble_comes_after_a_pass_too():
    game = forced_pass_position(**PENDING)
    assert texts(game) == ["pass"]
    game.apply("pass")
    assert [n.code for n in game.players[0].nobles] == ["4r4k", "3w3r3k"]
    assert game.current_player == 1 and game.passes == 1


def test_tokens_never_count_for_nobles():
    game = position(2, nobles=["4r4k", "4w4u", "3u3g3r"], bonuses={0: "4r3k"}, tokens={0: "4k"})
    assert game.qualifying_nobles() == []
    game.apply("take white blue green")
    assert game.players[0].nobles == () and len(game.nobles) == 3


def test_token_limit_comes_before_the_noble():
    game = position(2, nobles=["3w3r3k", "4w4u", "4u4g"], bonuses={0: "3w3r3k"}, tokens={0: "2w2u2g2r2k"},
                    current=0)
    # The noble was met already (a pending one): at this turn's end it comes, but only after the returns.
    game.apply("take white blue green")
    assert game.phase == "return" and game.players[0].nobles == ()
    game.apply("return red")
    game.apply("return red")
    assert game.players[0].nobles == ()
    game.apply("return black")
    assert [n.code for n in game.players[0].nobles] == ["3w3r3k"] and game.current_player == 1


def test_a_noble_can_start_the_final_round():
    cards = ["3W5:3w7k", "3U4:7w", "2U3:6u"]  # 12 points
    game = position(2, nobles=["4g4r", "3g3r3k", "4w4u"], cards={0: cards}, bonuses={0: "3w1u"},
                    market={(1, 0): "1U0:3k"}, tokens={0: "3k"})
    p = game.players[0]
    assert p.points == 12 and p.bonuses["white"] == 4 and p.bonuses["blue"] == 3
    game.apply("buy 1U0:3k")
    assert p.points == 15 and [n.code for n in p.nobles] == ["4w4u"]
    assert game.final_round and not game.is_over and game.current_player == 1


def test_noble_choice_cannot_be_declined_but_is_one_per_turn():
    game = position(3, nobles=["4w4u", "3w3u3g", "4u4g", "4r4k"], bonuses={0: "4w3u4g"},
                    market={(1, 0): "1U0:3k"}, tokens={0: "3k"})
    game.apply("buy 1U0:3k")  # meets 4w4u, 3w3u3g and 4u4g at once
    assert game.phase == "noble" and len(game.legal_actions()) == 3
    game.apply("noble 4u4g")
    assert len(game.players[0].nobles) == 1
    for _ in range(2):
        game.apply(game.legal_actions()[0])  # seats 1 and 2
    assert game.current_player == 0
    game.apply("take white blue green")  # two still met: the choice again
    assert game.phase == "noble" and texts(game) == ["noble 4w4u", "noble 3w3u3g"]
    game.apply("noble 4w4u")
    assert [n.code for n in game.players[0].nobles] == ["4u4g", "4w4u"] and game.current_player == 1
