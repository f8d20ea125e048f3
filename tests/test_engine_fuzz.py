"""Hypothesis fuzzing of the engine's three doors from outside: action text (parse_action / apply), saved states
(Game.from_dict) and game records (replay). Whatever comes in, the engine raises a ValueError subclass with a
message or accepts a sound game; it never raises anything else and never changes a game (or the input) on refusal.
"""

import copy
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import splendor
from splendor.engine.invariants import check_invariants

# 200 examples each in the normal run; SPLENDOR_FUZZ_EXAMPLES=5000 for a deeper search by hand.
FUZZ = settings(max_examples=int(os.environ.get("SPLENDOR_FUZZ_EXAMPLES", "200")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _positions():
    """A few real positions: a fresh deal, a middle game with reserved cards and gold, a return phase, a noble
    veto, a finished game."""
    out = [splendor.new_game(players=2, seed=1)]
    rng = random.Random(3)
    for players, seed, variants, steps in [(3, 5, (), 40), (4, 6, ("open_reservations",), 70),
                                           (2, 7, ("noble_veto",), 1), (3, 8, ("rotating_series",), 400)]:
        game = splendor.new_game(players=players, seed=seed, variants=variants)
        for _ in range(steps):
            if game.is_over:
                break
            moves = game.legal_actions()
            game.apply(moves[rng.randrange(len(moves))])
        out.append(game)
    game = splendor.new_game(players=2, seed=9)
    while game.phase != "return":
        moves = [m for m in game.legal_actions() if m.kind in ("take", "take_two")] or game.legal_actions()
        game.apply(moves[0])
    out.append(game)
    finished = splendor.new_game(players=2, seed=10)
    while not finished.is_over:
        moves = finished.legal_actions()
        finished.apply_unchecked(moves[rng.randrange(len(moves))])
    out.append(finished)
    return out


POSITIONS = _positions()
STATES = [g.to_dict() for g in POSITIONS]
RECORDS = [g.record() for g in POSITIONS]

WORDS = (["take", "take2", "take_two", "two", "reserve", "buy", "return", "noble", "veto", "pass", "deck", "pay",
          "gold", "1", "2", "3", "4", "0", "1.1", "1.4", "3.4", "2.5", "0.1", "r1", "r2", "r3", "r4", "r0", ":", "::",
          "1w0:", "W", "4w4u", "3w3u3g", "4w4g", "-1", "1e3", "\u00e9", "\u0661", "TAKE", "Pass"]
         + list(splendor.TOKEN_COLORS) + [c.code for c in splendor.CARDS[::7]]
         + [c.code.lower() for c in splendor.CARDS[::11]] + [n.code for n in splendor.NOBLES])
notation = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join),
    st.lists(st.sampled_from(WORDS), max_size=8).map("".join),
    st.builds(lambda pre, rest: pre + " " + rest,
              st.sampled_from(["take", "take2", "reserve", "buy", "return", "noble", "veto", "buy 1.1 pay"]),
              st.text(alphabet="wugrk*WUGRK0123456789:. -", max_size=20)),
)


def assert_readable(exc):
    assert isinstance(exc, ValueError), f"{type(exc).__name__}: {exc}"
    assert str(exc).strip(), f"{type(exc).__name__} without a message"


@FUZZ
@given(text=notation, which=st.integers(0, len(POSITIONS) - 1))
def test_any_text_to_parse_action_and_apply(text, which):
    game = POSITIONS[which].copy()
    before = game.to_dict()
    try:
        action = splendor.parse_action(game, text)
    except Exception as exc:  # noqa: BLE001 - the point is to see which exceptions escape
        assert_readable(exc)
        assert isinstance(exc, (splendor.NotationError, splendor.IllegalActionError))
        assert game.to_dict() == before
        return
    assert splendor.parse_action(game, str(action)) == action  # the notation round-trips
    try:
        game.apply(action)
    except Exception as exc:  # noqa: BLE001
        assert_readable(exc)
        assert isinstance(exc, splendor.IllegalActionError)
        assert game.to_dict() == before
        return
    assert check_invariants(game) == []
    game.undo()
    assert game.to_dict() == before


@FUZZ
@given(text=notation)
def test_any_text_to_apply_directly(text):
    game = POSITIONS[1].copy()
    before = game.to_dict()
    try:
        game.apply(text)
    except Exception as exc:  # noqa: BLE001
        assert_readable(exc)
        assert game.to_dict() == before
    else:
        assert check_invariants(game) == []


json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 100) | st.floats(allow_nan=True) | st.text(max_size=12)
    | st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


def check_from_dict(data):
    original = repr(data)  # repr: NaN compares unequal to itself
    try:
        game = splendor.Game.from_dict(data)
    except Exception as exc:  # noqa: BLE001
        assert_readable(exc)
        assert isinstance(exc, splendor.InvalidStateError), type(exc)
        assert repr(data) == original, "from_dict changed its input"
        return None
    assert repr(data) == original, "from_dict changed its input"
    assert check_invariants(game) == [], check_invariants(game)
    assert splendor.Game.from_dict(game.to_dict()) == game
    return game


@FUZZ
@given(data=json_like)
def test_arbitrary_json_to_from_dict(data):
    check_from_dict(data)


@FUZZ
@given(data=st.dictionaries(st.sampled_from(sorted(STATES[1])), json_like, max_size=12))
def test_arbitrary_dicts_with_state_keys_to_from_dict(data):
    check_from_dict(data)


def paths(value, prefix=()):
    """Every path (tuple of keys and indexes) into a JSON-like value."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


def mutate(data, draw):
    """One random edit of a JSON-like tree: replace a value, delete a key or item, duplicate or swap items, nudge a
    number, or move a value to another place."""
    every = list(paths(data))[1:]
    shallow = [p for p in every if len(p) <= 3]  # the bookkeeping and the counts, not only the long card lists
    path = draw(st.sampled_from(shallow if draw(st.booleans()) else every))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    kind = draw(st.sampled_from(["replace", "delete", "duplicate", "nudge", "copy-from", "swap"]))
    if kind == "replace":
        parent[key] = draw(json_like)
    elif kind == "delete":
        del parent[key]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif kind == "nudge" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
        parent[key] += draw(st.sampled_from([-2, -1, 1, 2, 11]))
    elif kind == "copy-from":
        source = draw(st.sampled_from(every))
        value = data
        try:
            for k in source:
                value = value[k]
        except (KeyError, IndexError, TypeError):
            return
        parent[key] = copy.deepcopy(value)
    elif kind == "swap" and isinstance(parent, list) and len(parent) > 1:
        other = draw(st.integers(0, len(parent) - 1))
        parent[key], parent[other] = parent[other], parent[key]


@FUZZ
@given(which=st.integers(0, len(STATES) - 1), count=st.integers(1, 3), data=st.data())
def test_mutated_states_to_from_dict(which, count, data):
    state = copy.deepcopy(STATES[which])
    for _ in range(count):
        mutate(state, data.draw)
    check_from_dict(state)


@FUZZ
@given(which=st.integers(0, len(RECORDS) - 1), count=st.integers(1, 3), data=st.data())
def test_mutated_records_to_replay(which, count, data):
    record = copy.deepcopy(RECORDS[which])
    for _ in range(count):
        mutate(record, data.draw)
    check_replay(record)


@FUZZ
@given(record=json_like | st.dictionaries(st.sampled_from(["format", "version", "players", "seed", "first_player",
                                                           "variants", "actions"]), json_like, max_size=7))
def test_arbitrary_records_to_replay(record):
    check_replay(record)


@FUZZ
@given(players=st.sampled_from([2, 3, 4, 5, "2", None]), seed=st.one_of(st.integers(-1, 10**6), st.none()),
       actions=st.lists(notation, max_size=6))
def test_records_of_arbitrary_actions_to_replay(players, seed, actions):
    check_replay({"format": "splendor-record", "version": 1, "players": players, "seed": seed, "first_player": 0,
                  "variants": [], "actions": actions})


def check_replay(record):
    original = repr(record)
    try:
        game = splendor.replay(record)
    except Exception as exc:  # noqa: BLE001
        assert_readable(exc)
        assert repr(record) == original, "replay changed its input"
        return
    assert repr(record) == original
    assert check_invariants(game) == []
    assert splendor.replay(game.record()) == game
    assert game.record()["seed"] == record["seed"], "a replay is the recorded game, never a new random one"
