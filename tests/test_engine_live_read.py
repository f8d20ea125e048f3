"""The engine's live read for the bots (``Game.player_list``, ``market_rows``, ``supply_list``, ``noble_list``,
``open_reservations``, ``Player.reserved_list``): the game's own lists, which follow every apply and undo and say
what the copying properties say; and ``Game.redeal``, which deals again the cards a seat cannot see."""

import random
from collections import Counter

import pytest

import splendor
from splendor.engine.cards import TOKEN_COLORS


def reads(game):
    """The live read turned into the copying properties' shapes."""
    return (dict(zip(TOKEN_COLORS, game.supply_list)), tuple(tuple(r) for r in game.market_rows),
            tuple(game.noble_list), tuple(game.player_list),
            [tuple(p.reserved_list) for p in game.player_list], game.phase)


def copies(game):
    return (game.supply, game.market, game.nobles, game.players, [p.reserved for p in game.players], game.phase_)


def test_the_live_read_is_the_state_itself_through_apply_and_undo():
    game = splendor.new_game(players=3, seed=4, variants=("open_reservations",))
    assert game.open_reservations and not splendor.new_game(players=2, seed=4).open_reservations
    rng = random.Random(2)
    seen = []
    for _ in range(60):
        assert reads(game) == copies(game)
        seen.append(copies(game))
        game.apply(rng.choice(game.legal_actions()))
    assert any(p.reserved_list for p in game.player_list)  # reservations were read too
    for before in reversed(seen):
        game.undo()
        assert reads(game) == copies(game) == before
    # the lists themselves, not copies: what the search reads costs no copy
    assert game.player_list is game.player_list and game.supply_list is game.supply_list
    assert game.player_list[0].reserved_list is game.player_list[0].reserved_list


def blind_reservations():
    game = splendor.new_game(players=2, seed=9)
    game.apply("reserve deck 2")
    game.apply("reserve deck 1")
    return game


def test_redeal_deals_again_what_the_seat_cannot_see_and_nothing_else():
    game = blind_reservations().copy()
    me, other = game.player_list
    mine, theirs = me.reserved_list[0], other.reserved_list[0]
    unseen = Counter(c for d in game._decks for c in d) + Counter([theirs])
    changed = set()
    for k in range(20):
        g = game.copy()
        g.redeal(0, random.Random(k))
        a, b = g.player_list
        assert a.reserved_list == [mine] and a.hidden == [True] and b.hidden == [True]
        assert b.reserved_list[0].level == theirs.level
        assert Counter(c for d in g._decks for c in d) + Counter(b.reserved_list) == unseen
        assert g.deck_sizes == game.deck_sizes and g.market == game.market and g.supply == game.supply
        changed.add((b.reserved_list[0], tuple(g._decks[0][-3:])))
    assert len(changed) > 10  # the other seat's blind card and the decks' order are dealt afresh
    # the same rng deals the same cards
    g1, g2 = game.copy(), game.copy()
    g1.redeal(0, random.Random(5))
    g2.redeal(0, random.Random(5))
    assert g1.to_dict() == g2.to_dict()


def test_redeal_refuses_a_game_with_moves_to_undo():
    with pytest.raises(ValueError, match="without moves to undo"):
        blind_reservations().redeal(0, random.Random(1))
