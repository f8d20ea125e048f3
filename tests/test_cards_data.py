"""The project's copy of the card and noble data (splendor/engine/cards.csv, nobles.csv) against every structural
invariant of the base game. The figures are copied here from the reference notes; nothing outside the project is
read. Each invariant is one test, so a wrong card names the fact it breaks.
"""

import copy
import csv
import os
import pickle
from collections import Counter

import pytest

import splendor
from splendor import CARDS, CARDS_BY_LEVEL, COLORS, NOBLES, Card, Noble, card_from_code, noble_from_code

ENGINE_DIR = os.path.dirname(splendor.engine.__file__)
LEVELS = (1, 2, 3)


def level(lv):
    return CARDS_BY_LEVEL[lv - 1]


def cost(card):
    return tuple(card.cost[c] for c in COLORS)


def shape(card):
    return (card.points, tuple(sorted((n for n in cost(card) if n), reverse=True)))


# --- the files themselves ------------------------------------------------------------------------------------------

def test_cards_csv_header_rows_and_order():
    with open(os.path.join(ENGINE_DIR, "cards.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["level", "bonus", "points", "white", "blue", "green", "red", "black"]
    body = rows[1:]
    assert len(body) == 90
    keys = [(int(r[0]), COLORS.index(r[1]), int(r[2]), tuple(int(x) for x in r[3:])) for r in body]
    assert keys == sorted(keys), "rows are sorted by level, bonus (white..black), points, then cost tuple"
    assert len(set(keys)) == 90, "no card appears twice"
    # The engine loads exactly these rows, in this order.
    assert [(c.level, c.bonus_i, c.points, c.cost_t) for c in CARDS] == keys


def test_nobles_csv_header_and_rows():
    with open(os.path.join(ENGINE_DIR, "nobles.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["points", "white", "blue", "green", "red", "black"]
    assert len(rows) == 11
    assert [tuple(int(x) for x in r[1:]) for r in rows[1:]] == [n.req_t for n in NOBLES]


# --- counts and points ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lv, count, per_color", [(1, 40, 8), (2, 30, 6), (3, 20, 4)])
def test_cards_per_level_and_bonus_color(lv, count, per_color):
    assert len(level(lv)) == count
    assert all(c.level == lv for c in level(lv))
    assert Counter(c.bonus for c in level(lv)) == {c: per_color for c in COLORS}


def test_ninety_cards_in_all():
    assert len(CARDS) == 90
    assert sum(len(level(lv)) for lv in LEVELS) == 90
    assert {c.bonus for c in CARDS} == set(COLORS)


@pytest.mark.parametrize("lv, total", [(1, 5), (2, 55), (3, 80)])
def test_total_prestige_per_level(lv, total):
    assert sum(c.points for c in level(lv)) == total


@pytest.mark.parametrize("lv, values", [(1, {0: 35, 1: 5}), (2, {1: 10, 2: 15, 3: 5}), (3, {3: 5, 4: 10, 5: 5})])
def test_point_values_per_level(lv, values):
    assert Counter(c.points for c in level(lv)) == values


@pytest.mark.parametrize("lv, values", [(1, [0] * 7 + [1]), (2, [1, 1, 2, 2, 2, 3]), (3, [3, 4, 4, 5])])
def test_point_values_per_bonus_color(lv, values):
    for color in COLORS:
        assert sorted(c.points for c in level(lv) if c.bonus == color) == values, color


# --- costs ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lv, low, high", [(1, 3, 5), (2, 5, 8), (3, 7, 14)])
def test_total_cost_min_max(lv, low, high):
    totals = [sum(cost(c)) for c in level(lv)]
    assert min(totals) == low and max(totals) == high
    assert all(c.total_cost == sum(cost(c)) for c in level(lv))


@pytest.mark.parametrize("lv, totals", [
    (1, [3, 3, 4, 4, 4, 5, 5, 5]), (2, [5, 6, 7, 7, 8, 8]), (3, [7, 10, 12, 14])])
def test_total_costs_per_bonus_color(lv, totals):
    for color in COLORS:
        assert sorted(sum(cost(c)) for c in level(lv) if c.bonus == color) == totals, color


@pytest.mark.parametrize("lv, total", [(1, 165), (2, 205), (3, 215)])
def test_sum_of_all_costs(lv, total):
    assert sum(sum(cost(c)) for c in level(lv)) == total


@pytest.mark.parametrize("lv, each", [(1, 33), (2, 41), (3, 43)])
def test_column_sums(lv, each):
    for i, color in enumerate(COLORS):
        assert sum(cost(c)[i] for c in level(lv)) == each, color


@pytest.mark.parametrize("lv, total", [(1, 9), (2, 60), (3, 30)])
def test_cost_paid_in_own_bonus_color(lv, total):
    assert sum(c.cost[c.bonus] for c in level(lv)) == total


@pytest.mark.parametrize("lv, largest", [(1, 4), (2, 6), (3, 7)])
def test_largest_single_color_cost(lv, largest):
    assert max(max(cost(c)) for c in level(lv)) == largest


def test_costs_are_non_negative_and_never_gold():
    for c in CARDS:
        assert set(c.cost) == set(COLORS)
        assert all(n >= 0 for n in cost(c))
        assert sum(cost(c)) > 0


# --- shapes --------------------------------------------------------------------------------------------------------

SHAPES = {
    1: [(0, (3,)), (0, (2, 1)), (0, (2, 2)), (0, (1, 1, 1, 1)), (0, (2, 1, 1, 1)), (0, (2, 2, 1)), (0, (3, 1, 1)),
        (1, (4,))],
    2: [(1, (3, 2, 2)), (1, (3, 3, 2)), (2, (4, 2, 1)), (2, (5,)), (2, (5, 3)), (3, (6,))],
    3: [(3, (5, 3, 3, 3)), (4, (7,)), (4, (6, 3, 3)), (5, (7, 3))],
}


@pytest.mark.parametrize("lv", LEVELS)
def test_each_shape_exactly_once_per_bonus_color(lv):
    for color in COLORS:
        shapes = sorted(shape(c) for c in level(lv) if c.bonus == color)
        assert shapes == sorted(SHAPES[lv]), color
    assert Counter(shape(c) for c in level(lv)) == {s: 5 for s in SHAPES[lv]}


# --- the other facts -----------------------------------------------------------------------------------------------

def test_one_point_level_1_cards_cost_4_of_another_color():
    ones = [c for c in level(1) if c.points == 1]
    assert len(ones) == 5
    for c in ones:
        assert shape(c) == (1, (4,))
        assert c.cost[c.bonus] == 0


def test_three_point_level_2_cards_cost_6_of_own_color():
    threes = [c for c in level(2) if c.points == 3]
    assert len(threes) == 5
    for c in threes:
        assert c.cost[c.bonus] == 6 and sum(cost(c)) == 6


def test_level_3_threes_in_own_color():
    for c in level(3):
        if shape(c) in ((4, (6, 3, 3)), (5, (7, 3))):
            assert c.cost[c.bonus] == 3, c


# --- nobles --------------------------------------------------------------------------------------------------------

def test_ten_nobles_worth_three_each():
    assert len(NOBLES) == 10
    assert all(n.points == 3 for n in NOBLES)
    assert len(set(NOBLES)) == 10


def test_four_four_nobles_form_a_cycle_of_the_colors():
    fours = [n for n in NOBLES if sorted(n.req_t) == [0, 0, 0, 4, 4]]
    assert NOBLES[:5] == tuple(fours), "the five 4+4 tiles come first"
    pairs = {frozenset(c for c in COLORS if n.requirement[c]) for n in fours}
    cycle = {frozenset((COLORS[i], COLORS[(i + 1) % 5])) for i in range(5)}
    assert pairs == cycle  # white+blue, blue+green, green+red, red+black, black+white


def test_three_three_three_nobles_complement_the_four_fours():
    threes = [n for n in NOBLES if sorted(n.req_t) == [0, 0, 3, 3, 3]]
    assert NOBLES[5:] == tuple(threes)
    fours = {frozenset(c for c in COLORS if n.requirement[c]) for n in NOBLES[:5]}
    for n in threes:
        needed = frozenset(c for c in COLORS if n.requirement[c])
        assert frozenset(COLORS) - needed in fours
    assert len({frozenset(c for c in COLORS if n.requirement[c]) for n in threes}) == 5


def test_each_color_in_two_four_four_and_three_three_three_tiles():
    for color in COLORS:
        assert sum(1 for n in NOBLES[:5] if n.requirement[color]) == 2
        assert sum(1 for n in NOBLES[5:] if n.requirement[color]) == 3


# --- Card and Noble values -----------------------------------------------------------------------------------------

def test_card_is_frozen():
    card = CARDS[0]
    for name, value in [("points", 9), ("level", 2), ("bonus", "red"), ("new_field", 1)]:
        with pytest.raises(AttributeError):
            setattr(card, name, value)
    with pytest.raises(TypeError):
        card.cost["white"] = 9  # the cost mapping is read-only too
    assert card.points == 0


def test_noble_is_frozen():
    noble = NOBLES[0]
    with pytest.raises(AttributeError):
        noble.points = 5
    with pytest.raises(TypeError):
        noble.requirement["white"] = 0
    assert noble.points == 3


def test_cards_hashable_and_equal_by_value():
    clone = Card(999, 1, "white", 0, (0, 2, 0, 0, 2))  # a separately made card with an existing card's value
    original = card_from_code("1W0:2u2k")
    assert clone == original and clone is not original
    assert hash(clone) == hash(original)
    assert {clone: 1}[original] == 1
    assert len(set(CARDS)) == 90
    assert Card(0, 1, "white", 1, (0, 2, 0, 0, 2)) != original  # points differ
    assert original != "1W0:2u2k"


def test_nobles_hashable_and_equal_by_value():
    clone = Noble(99, 3, (4, 4, 0, 0, 0))
    assert clone == noble_from_code("4w4u") and hash(clone) == hash(noble_from_code("4w4u"))
    assert clone != noble_from_code("4w4k")
    assert clone != CARDS[0]


def test_code_round_trip_for_every_card_and_noble():
    for card in CARDS:
        assert card_from_code(str(card)) is card
        assert repr(card) == f"Card({card.code!r})"
        assert copy.deepcopy(card) is card and pickle.loads(pickle.dumps(card)) is card
    for noble in NOBLES:
        assert noble_from_code(str(noble)) is noble
        assert pickle.loads(pickle.dumps(noble)) is noble
    assert len({c.code for c in CARDS}) == 90
    assert len({n.code for n in NOBLES}) == 10


def test_code_format():
    card = card_from_code("2G2:4w2u1k")
    assert (card.level, card.bonus, card.points) == (2, "green", 2)
    assert dict(card.cost) == {"white": 4, "blue": 2, "green": 0, "red": 0, "black": 1}
    assert card.describe() == "Level 2 card: green bonus, 2 points, costs 4 white, 2 blue, 1 black"
    assert noble_from_code("3u3g3r").describe() == "Noble: 3 points, needs 3 blue, 3 green, 3 red bonuses"


@pytest.mark.parametrize("bad", ["", "2G2", "2G2:4w2u", "2g2:4w2u1k", "9W0:3u", None, 5, "4w4u"])
def test_unknown_card_codes_refused(bad):
    with pytest.raises(ValueError, match="no card has the code"):
        card_from_code(bad)


@pytest.mark.parametrize("bad", ["", "4w4g", "3w3u3r", "4W4U", None, ["4w4u"]])
def test_unknown_noble_codes_refused(bad):
    with pytest.raises(ValueError, match="no noble has the code"):
        noble_from_code(bad)
