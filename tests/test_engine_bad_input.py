"""Bad input, table-driven: malformed notation, out-of-range seats, illegal actions of every kind, inconsistent saved
states and broken records. Each is refused with a ValueError subclass whose message says why, and nothing changes.
"""

import copy

import pytest

import splendor
from engine_fixtures import position
from splendor import Action, IllegalActionError, InvalidStateError, NotationError, card_from_code, noble_from_code

# --- notation ------------------------------------------------------------------------------------------------------

MALFORMED = [
    ("", "empty action"),
    ("   ", "empty action"),
    ("jump", "is not an action"),
    ("takes white blue green", "is not an action"),
    ("take", "take one to three different colors"),
    ("take white blue green red", "take one to three different colors"),
    ("take white blue green red black", "take one to three"),
    ("take purple", "'purple' is not a color"),
    ("take white blue gold", "'gold' is not a color"),
    ("take white white blue", "the colors of a take must differ"),
    ("take two", "'two' is not a color"),
    ("take two gold", "'gold' is not a color"),
    ("take2", "take2 names one color"),
    ("take2 red blue", "take2 names one color"),
    ("take2 gold", "'gold' is not a color"),
    ("take_two", "take2 names one color"),
    ("return", "return names one token color"),
    ("return red blue", "return names one token color"),
    ("return silver", "'silver' is not a color"),
    ("pass now", "pass takes nothing after it"),
    ("noble", "noble names one noble code"),
    ("noble 4w4g", "no noble has the code '4w4g'"),
    ("noble 4w4u 3w3u3g", "noble names one noble code"),
    ("veto", "veto names one noble code"),
    ("veto 5w5u", "no noble has the code"),
    ("reserve", "reserve names a card code"),
    ("reserve deck", "name a card by its code"),
    ("reserve deck 4", "the deck level is 1, 2 or 3"),
    ("reserve deck 0", "the deck level is 1, 2 or 3"),
    ("reserve deck one", "the deck level is 1, 2 or 3"),
    ("reserve 1W0:2r1k 1W0:3u", "reserve names a card code"),
    ("reserve 9W0:2r1k", "no card has the code"),
    ("reserve 1W0:2r2k", "no card has the code"),
    ("reserve 1X0:2r1k", "no card has the code"),
    ("reserve 1w0:2r1k:3", "no card has the code '1W0:2r1k:3'"),
    ("buy 1w0:2r1k:", "no card has the code"),
    ("reserve 1.5", "name a card by its code"),
    ("reserve 4.1", "name a card by its code"),
    ("reserve somewhere", "name a card by its code"),
    ("buy", "buy names a card"),
    ("buy r4", "name a card by its code"),
    ("buy 0.1", "name a card by its code"),
    ("buy 1W0:2r1k with gold", "after the card comes 'pay'"),
    ("buy 1W0:2r1k pay", "after the card comes 'pay' and the tokens paid"),
    ("buy 1W0:2r1k pay purple", "'purple' is not a color"),
    ("buy 1W0:2r1k pay 2 red", "'2' is not a color"),
    ("buy :", "no card has the code"),
]


@pytest.mark.parametrize("text, words", MALFORMED)
def test_malformed_notation_refused_with_reason(text, words):
    game = splendor.new_game(players=2, seed=1)
    before = game.to_dict()
    with pytest.raises(NotationError) as info:
        splendor.parse_action(game, text)
    assert words in str(info.value)
    with pytest.raises(NotationError):
        game.apply(text)
    assert game.to_dict() == before


@pytest.mark.parametrize("value", [None, 3, b"pass", ["pass"], {"kind": "pass"}])
def test_notation_must_be_text(value):
    with pytest.raises(NotationError, match="an action is text"):
        splendor.parse_notation(value)


def test_notation_is_case_and_space_tolerant_and_round_trips():
    game = splendor.new_game(players=2, seed=1)
    assert splendor.parse_action(game, "  TAKE  White BLUE green ") == Action.take("white", "blue", "green")
    assert splendor.parse_action(game, "take red red") == Action.take_two("red")
    assert splendor.parse_action(game, "take two red") == Action.take_two("red")
    for action in game.legal_actions():
        assert splendor.parse_action(game, str(action)) == action
        assert repr(action) == f"Action({str(action)!r})"


def test_reserve_of_a_reserve_position_is_refused():
    game = position(2, reserved={0: ["1W0:2r1k"]})
    with pytest.raises(IllegalActionError, match="not in the market"):
        game.apply("reserve r1")
    with pytest.raises(IllegalActionError, match="you hold 0 reserved card"):
        splendor.parse_action(splendor.new_game(2, seed=1), "reserve r1")


def test_positions_resolve_against_the_game():
    game = position(2, reserved={0: ["1W0:2r1k"]}, tokens={0: "2r1k"})
    assert splendor.parse_action(game, "reserve 2.3").card == game.market[1][2]
    assert splendor.parse_action(game, "buy r1") == Action.buy(card_from_code("1W0:2r1k"), (0, 0, 0, 2, 1, 0))
    with pytest.raises(IllegalActionError, match="you hold 1 reserved card"):
        splendor.parse_action(game, "buy r2")


# --- seats ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [-1, 3, 4, 100, "0", None, 1.0, True])
def test_observation_of_a_seat_out_of_range(seat):
    game = splendor.new_game(players=3, seed=1)
    with pytest.raises(ValueError, match="seat must be from 0 to 2"):
        game.observation(seat)


def test_observation_of_each_valid_seat():
    game = splendor.new_game(players=4, seed=1)
    for seat in range(4):
        view = game.observation(seat)
        assert view["seat"] == seat and "decks" not in view and "seed" not in view


# --- illegal actions of each kind ----------------------------------------------------------------------------------

def base():
    return position(2, tokens={0: "1w1u", 1: "1r"}, reserved={0: ["3W5:3w7k"], 1: ["3U5:7w3u"]})


ILLEGAL = [
    (Action.take("white", "blue"), "take 3 different colors"),
    (Action.take("white", "blue", "green", "red"), "take 3 different colors"),
    (Action.take("white", "gold", "blue"), "gold cannot be taken"),
    (Action.take("white", "silver", "blue"), "gold cannot be taken"),
    (Action.take(), "take 3 different colors"),
    (Action.take_two("red"), "two red need at least 4 in the pile before taking, and it holds 3"),
    (Action.take_two("gold"), "gold cannot be taken"),
    (Action.reserve(card_from_code("3W5:3w7k")), "not in the market"),
    (Action.reserve(level=7), "no deck of level 7"),
    (Action.reserve(level=None), "no deck of level None"),
    (Action.reserve(level=3.0), "a deck level is 1, 2 or 3, not 3.0"),
    (Action.reserve(level=True), "a deck level is 1, 2 or 3, not True"),
    (Action("fly"), "no kind of action called 'fly'"),
    (Action.buy(card_from_code("3W5:3w7k"), (0,) * 6), "cannot afford 3W5:3w7k: 9 tokens short"),
    (Action.buy(card_from_code("3U5:7w3u"), (0,) * 6), "neither in the market nor among your reserved cards"),
    (Action.buy("1W0:2r1k", (0,) * 6), "buy needs a card"),
    (Action.buy(card_from_code("3W5:3w7k"), (0, 0, 0, 0, 0, 0.0)), "as whole numbers"),
    (Action.return_token("white"), "not now: return tokens only when holding more than 10"),
    (Action.choose_noble(noble_from_code("4w4u")), "not now: nobles come by themselves"),
    (Action.veto(noble_from_code("4w4u")), "not now: nobles are removed only before the game"),
    (Action.pass_turn(), "you can only pass when no other action is possible"),
    ("not an action", "is not an action"),
]


@pytest.mark.parametrize("action, words", ILLEGAL, ids=[w[:30] for _, w in ILLEGAL])
def test_illegal_action_refused_with_reason_and_no_change(action, words):
    game = base()
    before = game.to_dict()
    error = NotationError if isinstance(action, str) else IllegalActionError
    with pytest.raises(error) as info:
        game.apply(action)
    assert words in str(info.value)
    assert game.to_dict() == before
    if not isinstance(action, str):
        assert game.why_illegal(action) == str(info.value)
        assert not game.is_legal(action)


@pytest.mark.parametrize("thing", [None, 5, ("take", "white"), object()])
def test_apply_of_something_not_an_action(thing):
    game = base()
    before = game.to_dict()
    with pytest.raises(IllegalActionError, match="not an action"):
        game.apply(thing)
    assert game.why_illegal(thing).startswith("not an action")
    assert game.to_dict() == before


def test_buy_with_a_malformed_payment():
    game = position(2, market={(1, 0): "1W0:2r1k"}, tokens={0: "2r1k"})
    card = card_from_code("1W0:2r1k")
    before = game.to_dict()
    for pay, words in [((0, 0, 0, 2), "counts the tokens of the six colors"),
                       ((0, 0, 0, 2, 1, -1), "counts the tokens of the six colors"),
                       ((0, 0, 0, 2.0, 1, 0), "as whole numbers"),
                       ((0, 0, 0, 2, True, 0), "as whole numbers"),
                       ((0, 0, 0, 3, 1, 0), "cannot pay 3 red: you hold 2"),
                       ((0, 0, 0, 1, 1, 0), "1 gold, not 0")]:
        with pytest.raises(IllegalActionError, match=words):
            game.apply(Action.buy(card, pay))
        assert game.to_dict() == before
    game.apply(Action.buy(card, {"red": 2, "black": 1}))  # a dict payment of the right tokens is fine
    assert card in game.players[0].cards


def test_undo_with_nothing_to_undo():
    game = splendor.new_game(players=2, seed=1)
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()
    loaded = splendor.Game.from_dict(game.to_dict())
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        loaded.undo()


def test_the_record_follows_undo_and_a_different_move():
    """The notation of the history is kept as far as it was asked for (Game._action_texts): an undone move leaves it,
    and the move played instead is what the state, the record and the copy say."""
    game = splendor.new_game(players=2, seed=1)
    game.apply("take white blue green")
    game.apply("take white red black")
    assert game.to_dict()["actions"] == ["take white blue green", "take white red black"]
    game.undo()
    game.undo()
    game.apply("take2 red")
    assert game.to_dict()["actions"] == game.record()["actions"] == ["take2 red"]
    game.apply("take white blue green")
    assert splendor.replay(game.record()) == game
    loaded = splendor.Game.from_dict(game.to_dict())
    loaded.apply("take green red black")
    loaded.undo()
    loaded.apply("take blue red black")
    assert loaded.to_dict()["actions"] == ["take2 red", "take white blue green", "take blue red black"]
    copied = game.copy()
    copied.apply("take blue red black")
    assert copied.to_dict()["actions"] == ["take blue red black"]  # a copy keeps no history (as before)


def test_every_illegal_action_after_the_game_is_over():
    game = splendor.new_game(players=2, seed=2)
    while not game.is_over:
        game.apply_unchecked(game.legal_actions()[0])
    before = game.to_dict()
    for text in ["take white blue green", "pass", "buy r1", "buy 1W0:2r1k", "return red", "veto 4w4u"]:
        with pytest.raises(ValueError, match="the game is over|no card|reserved"):
            game.apply(text)
    assert game.to_dict() == before


# --- from_dict rejects inconsistent states -------------------------------------------------------------------------

def midgame():
    game = splendor.new_game(players=3, seed=21)
    for text in ["take white blue green", "reserve deck 2", "take2 red", "take white blue black", "reserve 1.1",
                 "take green red black", "take white blue green"]:
        game.apply(text)
    return game


def edited(change):
    data = midgame().to_dict()
    change(data)
    return data


def seat(data, i):
    return data["tableaus"][i]


STATE_FAULTS = [
    ("not an object", lambda d: d.clear() or d.update(format=None), "not a game state"),
    ("format", lambda d: d.update(format="splendor-record"), "not a game state"),
    ("version", lambda d: d.update(version=2), "unsupported state version 2"),
    ("players text", lambda d: d.update(players="3"), "players must be 2, 3 or 4"),
    ("players list", lambda d: d.update(players=[3]), "players must be 2, 3 or 4"),
    ("players bool", lambda d: d.update(players=True), "players must be 2, 3 or 4"),
    ("players count", lambda d: d.update(players=5), "players must be 2, 3 or 4"),
    ("seed", lambda d: d.update(seed=-4), "seed must be at least 0"),
    ("seed float", lambda d: d.update(seed=1.5), "seed must be a whole number"),
    ("variant", lambda d: d.update(variants=["expansion"]), "unknown variant 'expansion'"),
    ("variant twice", lambda d: d.update(variants=["noble_veto", "noble_veto"]), "variants are listed twice"),
    ("variants type", lambda d: d.update(variants="noble_veto"), "variants must be a list"),
    ("first player", lambda d: d.update(first_player=3), "first_player must be from 0 to 2"),
    ("start", lambda d: d.update(start=1), "the starting seat does not follow"),
    ("current", lambda d: d.update(current=3), "current must be from 0 to 2"),
    ("current type", lambda d: d.update(current="1"), "current must be a whole number"),
    ("phase", lambda d: d.update(phase="setup"), "phase must be one of action, return, noble, veto, over"),
    ("phase type", lambda d: d.update(phase=None), "phase must be one of"),
    ("final type", lambda d: d.update(final_round=1), "final_round must be true or false"),
    ("final without 15", lambda d: d.update(final_round=True), "no player has 15 points"),
    ("passes", lambda d: d.update(passes=3), "passes must be from 0 to 2"),
    ("passes negative", lambda d: d.update(passes=-1), "passes must be from 0 to 2"),
    ("turns", lambda d: d.update(turns=-1), "turns must be at least 0"),
    ("game index", lambda d: d.update(game_index=1), "game_index must be from 0 to 0"),
    ("series results", lambda d: d.update(series_results=[[1, 2, 3]]), "series_results must have 0 entries"),
    ("supply type", lambda d: d.update(supply=[4, 4, 4, 4, 4, 5]), "supply must be an object"),
    ("supply color", lambda d: d["supply"].update(silver=1), "supply has an unknown color 'silver'"),
    ("supply non-text color", lambda d: d["supply"].update({1: 1, "x": 2}), "supply has an unknown color"),
    ("supply negative", lambda d: d["supply"].update(white=-1), "supply white must be at least 0"),
    ("supply float", lambda d: d["supply"].update(white=2.0), "supply white must be a whole number"),
    ("supply bool", lambda d: d["supply"].update(white=True), "supply white must be a whole number"),
    ("tokens conserved", lambda d: d["supply"].update(white=d["supply"]["white"] + 1),
     "white tokens in the game; a 3-player game has 5"),
    ("gold conserved", lambda d: d["supply"].update(gold=5), "gold tokens in the game; a 3-player game has 5"),
    ("too many tokens", lambda d: seat(d, 1)["tokens"].update(black=9) or d["supply"].update(black=0),
     "over the limit of 10"),
    ("negative tokens", lambda d: seat(d, 0)["tokens"].update(red=-1), "seat 0 tokens red must be at least 0"),
    ("tokens type", lambda d: seat(d, 0).update(tokens="2w"), "seat 0 tokens must be an object"),
    ("tableaus count", lambda d: d["tableaus"].pop(), "tableaus must have 3 entries"),
    ("tableau type", lambda d: d["tableaus"].__setitem__(0, []), "seat 0 must be an object"),
    ("card twice", lambda d: seat(d, 0)["cards"].append(d["market"][0][0]), "is in two places"),
    ("card twice in decks", lambda d: d["decks"][0].append(d["decks"][0][0]), "is in two places"),
    ("card missing", lambda d: d["decks"][2].pop(), "card(s) are missing"),
    ("unknown card", lambda d: d["decks"][0].__setitem__(0, "1W9:9w"), "no card has the code '1W9:9w'"),
    ("card not text", lambda d: d["decks"][0].__setitem__(0, 17), "no card has the code 17"),
    ("market row level", lambda d: d["market"][0].__setitem__(0, d["decks"][1].pop()),
     "is in the level 1 market row"),
    ("deck level", lambda d: d["decks"][0].append(d["decks"][2].pop()), "is in the level 1 deck"),
    ("market rows", lambda d: d["market"].pop(), "market must have 3 entries"),
    ("market slots", lambda d: d["market"][1].pop(), "market level 2 must have 4 entries"),
    ("market type", lambda d: d.update(market="none"), "market must be a list"),
    ("empty slot with a deck", lambda d: d["decks"][1].append(d["market"][1][2]) or d["market"][1].__setitem__(2, None),
     "market slot is empty while its deck still has cards"),
    ("decks type", lambda d: d["decks"].__setitem__(1, "cards"), "deck 2 must be a list"),
    ("reserve limit", lambda d: seat(d, 2)["reserved"].extend(
        {"card": d["decks"][0].pop(), "hidden": True} for _ in range(4)), "the limit is 3"),
    ("reserved hidden flag", lambda d: seat(d, 1)["reserved"][0].update(hidden="yes"), "hidden must be true or false"),
    ("reserved card type", lambda d: seat(d, 1)["reserved"].__setitem__(0, "2W1:3g2r2k"),
     "seat 1 reserved card must be an object"),
    ("points shown", lambda d: seat(d, 0).update(points=4), "shows 4 points but its cards and nobles make 0"),
    ("noble without bonuses", lambda d: seat(d, 0)["nobles"].append(d["nobles"].pop()),
     "without the bonuses it requires"),
    ("noble twice", lambda d: d["nobles"].append(d["nobles"][0]), "is listed twice"),
    ("noble unknown", lambda d: d["nobles"].__setitem__(0, "5w5u"), "no noble has the code '5w5u'"),
    ("nobles count", lambda d: d["nobles"].pop(), "nobles on the table and 0 claimed; a 3-player game has 4"),
    ("return phase", lambda d: d.update(phase="return"), "return phase needs the player to act to hold more than 10"),
    ("noble phase", lambda d: d.update(phase="noble"), "noble phase needs at least two nobles"),
    ("veto phase", lambda d: d.update(phase="veto"), "veto phase needs the noble veto variant"),
    ("over", lambda d: d.update(phase="over"), "over only after the final round or a round of passes"),
    ("actions type", lambda d: d.update(actions="take white"), "actions must be a list"),
    ("actions texts", lambda d: d["actions"].append(3), "actions must be texts"),
]


@pytest.mark.parametrize("change, words", [(c, w) for _, c, w in STATE_FAULTS], ids=[n for n, _, _ in STATE_FAULTS])
def test_from_dict_rejects_inconsistent_states(change, words):
    data = edited(change)
    kept = copy.deepcopy(data)
    with pytest.raises(InvalidStateError) as info:
        splendor.Game.from_dict(data)
    assert words in str(info.value)
    assert data == kept  # the input is left as it was
    assert isinstance(info.value, ValueError)


def test_from_dict_rejects_a_final_round_missing_and_a_veto_out_of_turn():
    game = position(2, cards={1: ["3W5:3w7k", "3U5:7w3u", "3G5:7u3g"]}, final=True)
    data = game.to_dict()
    data["final_round"] = False
    with pytest.raises(InvalidStateError, match="seat 1 has 15 points but the final round is off"):
        splendor.Game.from_dict(data)
    data = splendor.new_game(players=3, seed=2, first_player=1, variants=("noble_veto",)).to_dict()
    data["current"] = 2
    with pytest.raises(InvalidStateError, match="the seat to veto does not follow"):
        splendor.Game.from_dict(data)


@pytest.mark.parametrize("value", [None, [], "state", 3, 2.5])
def test_from_dict_of_something_not_a_dict(value):
    with pytest.raises(InvalidStateError, match="a game state must be an object"):
        splendor.Game.from_dict(value)


def test_from_dict_accepts_its_own_output_everywhere_in_a_game():
    game = midgame()
    assert splendor.Game.from_dict(game.to_dict()) == game
    assert splendor.Game.from_dict(game.to_dict()).record() == game.record()


# --- records -------------------------------------------------------------------------------------------------------

def record():
    return midgame().record()


RECORD_FAULTS = [
    (lambda r: r.update(format="splendor-state"), "not a game record"),
    (lambda r: r.update(version=0), "unsupported record version 0"),
    (lambda r: r.update(players=7), "players must be 2, 3 or 4"),
    (lambda r: r.pop("seed"), "the record's seed must be a whole number, not None"),
    (lambda r: r.update(seed="12"), "the record's seed must be a whole number"),
    (lambda r: r.update(first_player=5), "first_player must be a seat from 0 to 2"),
    (lambda r: r.update(variants=[1]), "variants must be a list of names"),
    (lambda r: r.update(variants=["fast"]), "unknown variant 'fast'"),
    (lambda r: r.update(actions=None), "actions must be a list of texts"),
    (lambda r: r["actions"].append(None), "action 8 (None) of the record: an action is text"),
    (lambda r: r["actions"].insert(0, "pass"), "action 1 ('pass') of the record: you can only pass"),
    (lambda r: r["actions"].__setitem__(2, "take2 gold"), "action 3 ('take2 gold') of the record: 'gold' is not"),
    (lambda r: r["actions"].__setitem__(1, "buy r2"), "action 2 ('buy r2') of the record"),
]


@pytest.mark.parametrize("change, words", RECORD_FAULTS)
def test_replay_refuses_broken_records(change, words):
    rec = record()
    change(rec)
    with pytest.raises(ValueError) as info:
        splendor.replay(rec)
    assert words in str(info.value)


@pytest.mark.parametrize("value", [None, [], "record", 7])
def test_replay_of_something_not_a_record(value):
    with pytest.raises(ValueError, match="a game record is a JSON object"):
        splendor.replay(value)


def test_replay_error_keeps_its_kind():
    rec = record()
    rec["actions"].insert(0, "pass")
    with pytest.raises(IllegalActionError):
        splendor.replay(rec)
    rec = record()
    rec["actions"].insert(0, "fly away")
    with pytest.raises(NotationError):
        splendor.replay(rec)
