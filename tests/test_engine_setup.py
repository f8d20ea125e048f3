"""Setup for 2, 3 and 4 players, and seeded randomness."""

import random

import pytest

import splendor
from splendor.engine.invariants import check_invariants


@pytest.mark.parametrize("players, per_color", [(2, 4), (3, 5), (4, 7)])
@pytest.mark.parametrize("veto", [False, True])
def test_setup_per_player_count(players, per_color, veto):
    game = splendor.new_game(players=players, seed=99, variants=("noble_veto",) if veto else ())
    assert game.supply == {"white": per_color, "blue": per_color, "green": per_color, "red": per_color,
                           "black": per_color, "gold": 5}
    assert len(game.nobles) == (2 * players + 1 if veto else players + 1)
    assert len(set(game.nobles)) == len(game.nobles)
    assert game.phase == ("veto" if veto else "action")
    for lv, row in enumerate(game.market, 1):
        assert len(row) == 4 and all(card is not None and card.level == lv for card in row)
    assert game.deck_sizes == (36, 26, 16)
    assert len(game.players) == players and game.players_count == players
    for p in game.players:
        assert p.tokens == dict.fromkeys(splendor.TOKEN_COLORS, 0) and p.token_count == 0
        assert p.bonuses == dict.fromkeys(splendor.COLORS, 0)
        assert p.cards == () and p.reserved == () and p.nobles == () and p.points == 0
    assert game.current_player == 0 and game.round == 1 and not game.final_round and not game.is_over
    assert game.winners == () and game.scores == (0,) * players
    assert check_invariants(game) == []


def test_same_seed_same_game_and_global_random_plays_no_part():
    random.seed(1)
    a = splendor.new_game(players=3, seed=2024)
    random.seed(2)
    b = splendor.new_game(players=3, seed=2024)
    assert a.to_dict() == b.to_dict()
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(60):
        moves_a, moves_b = a.legal_actions(), b.legal_actions()
        assert moves_a == moves_b
        a.apply(moves_a[rng_a.randrange(len(moves_a))])
        random.random()  # disturbing the global generator changes nothing
        b.apply(moves_b[rng_b.randrange(len(moves_b))])
    assert a == b


def test_different_seeds_give_different_deals():
    deals = {str(splendor.new_game(players=2, seed=s).to_dict()["decks"]) for s in range(40)}
    markets = {str(splendor.new_game(players=2, seed=s).market) for s in range(40)}
    assert len(deals) == 40 and len(markets) == 40
    nobles = {tuple(splendor.new_game(players=4, seed=s).nobles) for s in range(40)}
    assert len(nobles) > 30


def test_the_deal_is_pinned():
    """The shuffle is part of the record format: a record replays to the same game on every Python (CPython here,
    Pyodide in the browser). If this changes, every saved record changes meaning."""
    game = splendor.new_game(players=3, seed=12345)
    assert [[c.code for c in row] for row in game.market] == PINNED_MARKET
    assert [n.code for n in game.nobles] == PINNED_NOBLES
    assert game.to_dict()["decks"][2][-3:] == PINNED_LEVEL3_TOP


PINNED_MARKET = [["1W1:4g", "1R0:2w1g2k", "1G0:1u2r2k", "1R0:2w1u1g1k"],
                 ["2W1:3g2r2k", "2W2:5r", "2R2:1w4u2g", "2U1:2u3g3k"],
                 ["3R4:3u6g3r", "3G4:7u", "3G5:7u3g", "3R3:3w5u3g3k"]]
PINNED_NOBLES = ["4w4u", "4r4k", "3w3r3k", "4g4r"]
PINNED_LEVEL3_TOP = ["3W4:7k", "3U3:3w3g3r5k", "3W3:3u3g5r3k"]


def test_first_player_random_is_drawn_from_the_seed():
    seats = [splendor.new_game(players=4, seed=s, first_player="random").current_player for s in range(40)]
    assert seats == [splendor.new_game(players=4, seed=s, first_player="random").current_player
                     for s in range(40)]
    assert set(seats) == {0, 1, 2, 3}
    game = splendor.new_game(players=3, seed=77, first_player="random")
    assert game.first_player == game.current_player == game.start
    assert game.record()["first_player"] == game.first_player  # the record holds the seat drawn
    assert splendor.replay(game.record()) == game
    assert splendor.new_game(players=3, seed=77, first_player=None).first_player == game.first_player


@pytest.mark.parametrize("players, first", [(2, 1), (3, 2), (4, 3)])
def test_chosen_first_player_starts_and_play_goes_clockwise(players, first):
    game = splendor.new_game(players=players, seed=1, first_player=first)
    order = []
    for _ in range(2 * players):
        order.append(game.current_player)
        game.apply("take white blue green" if game.supply["white"] and game.supply["blue"] and game.supply["green"]
                   else game.legal_actions()[0])
        while game.phase == "return":
            game.apply(game.legal_actions()[0])
    assert order == [(first + k) % players for k in range(2 * players)]
    assert game.round == 3


def test_no_seed_draws_one_and_records_it():
    game = splendor.new_game(players=2)
    assert isinstance(game.seed, int) and game.seed >= 0
    assert splendor.new_game(players=2, seed=game.seed).to_dict() == game.to_dict()


@pytest.mark.parametrize("kwargs, words", [
    (dict(players=1), "players must be 2, 3 or 4"),
    (dict(players=5), "players must be 2, 3 or 4"),
    (dict(players="2"), "players must be 2, 3 or 4"),
    (dict(players=True), "players must be 2, 3 or 4"),
    (dict(players=2.0), "players must be 2, 3 or 4"),
    (dict(seed=-1), "seed must be a whole number"),
    (dict(seed="abc"), "seed must be a whole number"),
    (dict(seed=1.5), "seed must be a whole number"),
    (dict(seed=True), "seed must be a whole number"),
    (dict(players=3, first_player=3), "first_player must be a seat from 0 to 2"),
    (dict(first_player=-1), "first_player must be a seat"),
    (dict(first_player="last"), "first_player must be a seat"),
    (dict(variants=("open",)), "unknown variant 'open'"),
    (dict(variants="noble-veto"), "unknown variant"),
])
def test_bad_setup_refused_with_reason(kwargs, words):
    with pytest.raises(ValueError) as info:
        splendor.new_game(**{"seed": 1, **kwargs})
    assert words in str(info.value)


def test_variants_in_canonical_order_and_single_name():
    game = splendor.new_game(players=2, seed=1, variants=("rotating_series", "open_reservations"))
    assert game.variants == ("open_reservations", "rotating_series")
    assert splendor.new_game(players=2, seed=1, variants="noble_veto").variants == ("noble_veto",)


@pytest.mark.parametrize("variants", [(), ("noble_veto",), ("rotating_series",)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_record_without_its_seed_replays_what_everyone_has_seen(players, variants):
    """record(hide_decks=True): no seed, the cards dealt so far; it replays to a game every seat sees as the same,
    in hand and on the table, whose own record replays equal; the undealt cards are shuffled afresh."""
    import json

    for seed in range(6):
        g = splendor.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 500)):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        record = json.loads(json.dumps(g.record(hide_decks=True)))
        assert record["seed"] is None
        h = splendor.replay(record)
        assert all(h.observation(s) == g.observation(s) for s in range(players))
        assert [p.reserved for p in h.players] == [p.reserved for p in g.players]
        assert h.dealt() == g.dealt() and splendor.replay(h.record()) == h
        assert splendor.Game.from_dict(h.to_dict()).record() == h.record()


@pytest.mark.parametrize("deals, words", [
    ("cards", "a list of 1 to 1 deals"),
    ([{"cards": [[], []], "nobles": []}], "the cards drawn from each of the three decks"),
    ([{"cards": [["2G2:4w2u1k"], [], []], "nobles": []}], "must be level 1 cards"),
    ([{"cards": [["1K0:1w1u1g1r"] * 2, [], []], "nobles": []}], "each once"),
    ([{"cards": [[], [], []], "nobles": ["4w4u"]}], "the 3 nobles laid out"),
    ([{"cards": [[], [], []], "nobles": ["4w4u", "4w4u", "4w4k"]}], "names a noble twice"),
    ([{"cards": [[], [], []], "nobles": ["4w4u", "9z", "4w4k"]}], "no noble has the code"),
])
def test_bad_deals_in_a_record_are_refused_in_words(deals, words):
    record = {"format": "splendor-record", "version": 1, "players": 2, "seed": None, "first_player": 0,
              "variants": [], "actions": [], "deals": deals}
    with pytest.raises(ValueError, match=words):
        splendor.replay(record)
    with pytest.raises(ValueError, match="seed must be a whole number"):
        splendor.replay(dict(record, deals=None))
