"""The game review (splendor/ai/review.py): chances per turn from the evaluator, turns, the position after a turn,
the better move for a person's turn, chunks, and the check of a stored review."""

import json
import random

import pytest

import splendor
from splendor.ai import get_bot
from splendor.ai import review
from splendor.ai.review import (LearnedEvaluator, assemble, check_review, position_after, review_chunk,
                                review_evaluator, review_game, review_json, turns_of)


def played(players=2, seed=3, levels=("random", "medium", "medium", "medium")):
    g = splendor.new_game(players=players, seed=seed)
    bots = [get_bot(level) for level in levels[:players]]
    while not g.is_over:
        seat = g.current_player
        g.apply(bots[seat].choose(g.observation(seat), random.Random(len(g.history))))
    return g


@pytest.fixture(scope="module")
def game2():
    return played()


@pytest.fixture(scope="module")
def review2(game2):
    return review_game(game2.record(), [0])


class Stub:
    """An evaluator that says seat 0 has 0.9 (spread evenly over the others) and plays the first legal move."""

    def __init__(self):
        self.asked = 0

    def chances(self, game):
        self.asked += 1
        n = game.players_count
        return [0.9] + [0.1 / (n - 1)] * (n - 1)

    def better_move(self, game, seat):
        return game.legal_actions()[0], "because the stub says so", 1.0

    def move_chance(self, game, seat, action):
        return 0.25


def test_the_factory_gives_the_experts_value_model():
    ev = review_evaluator()
    assert isinstance(ev, LearnedEvaluator)
    from splendor.ai.learned import load_expert
    assert ev.model is load_expert()[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chances_sum_to_one_over_the_players_at_every_position(players):
    g = played(players, seed=10 + players, levels=("medium",) * 4)
    rev = review_game(g.record(), [0])
    assert len(rev["positions"]) == len(turns_of(g.record())) + 1
    for e in rev["positions"]:
        assert len(e["chances"]) == players
        assert abs(sum(e["chances"]) - 1) < 1e-3
        assert all(0 <= x <= 1 for x in e["chances"])
    # the last position is the result: the winners share it
    last = rev["positions"][-1]["chances"]
    assert all(last[s] > 0 for s in g.winners) and sum(last[s] for s in g.winners) == pytest.approx(1, abs=1e-3)


def test_the_chances_come_from_the_evaluator(game2, review2):
    record = game2.record()
    stub = Stub()
    rev = review_game(record, [0], stub)
    assert stub.asked == len(rev["positions"])
    assert {tuple(e["chances"]) for e in rev["positions"]} == {(0.9, 0.1)}
    # the real evaluator's chances are its model's reading of each replayed position
    ev = review_evaluator()
    g = position_after(record, 5)
    expect = ev.model.win_chances(g)
    got = review2["positions"][5]["chances"]
    assert got == pytest.approx([x / sum(expect) for x in expect], abs=1e-4)
    assert got != review2["positions"][6]["chances"]


def test_the_stub_evaluators_better_move_is_named_for_the_persons_turns_only(game2):
    record = game2.record()
    rev = review_game(record, [0], Stub())
    for t, e in enumerate(rev["positions"][1:], 1):
        seat = rev["moves"][t - 1]["seat"]
        if seat == 0 and e.get("better"):
            assert e["better"]["words"] == "because the stub says so" and e["better"]["chance"] == 1.0
            assert e["played"] == 0.25
        if seat != 0:
            assert "better" not in e


def test_turns_group_returns_and_nobles_with_the_move_before(game2):
    record = game2.record()
    turns = turns_of(record)
    assert turns[0][0] == 0 and turns[-1][1] == len(record["actions"])
    for (a, b, seat), (c, _, _) in zip(turns, turns[1:]):
        assert b == c and b > a
    g = splendor.new_game(players=2, seed=3)
    for first, end, seat in turns:
        assert g.current_player == seat and g.phase in ("action", "veto")
        for text in record["actions"][first:end]:
            assert g.current_player == seat
            g.apply(text)


def test_a_position_stepped_to_is_the_engines_replay(game2):
    record = game2.record()
    turns = turns_of(record)
    for t in (0, 1, 7, len(turns) // 2, len(turns)):
        end = turns[t - 1][1] if t else 0
        want = splendor.new_game(players=2, seed=3)
        for text in record["actions"][:end]:
            want.apply(text)
        assert position_after(record, t).to_dict() == want.to_dict()
    with pytest.raises(ValueError):
        position_after(record, len(turns) + 1)


def test_a_persons_weak_moves_get_a_better_move_with_words(review2):
    """Seat 0 played at random: the evaluator finds better moves, says why, and gives more chance."""
    betters = [(t, e) for t, e in enumerate(review2["positions"]) if e.get("better")]
    assert len(betters) >= 3
    for t, e in betters:
        b = e["better"]
        assert review2["moves"][t - 1]["seat"] == 0
        assert b["chance"] >= e["played"] + review.BETTER_MARGIN
        assert b["words"].split()[0] in ("buys", "takes", "reserves")
        assert b["action"] != review2["moves"][t - 1]["actions"][0]
    turning = review2["turning"]
    assert any(tp["better"] and tp["mover"] == 0 for tp in turning)
    assert [tp["turn"] for tp in turning] == sorted(tp["turn"] for tp in turning)


def test_chunks_put_together_are_the_whole_review(game2, review2):
    record = game2.record()
    total = len(turns_of(record)) + 1
    entries = []
    seen = []
    for start in range(0, total, 7):
        entries.extend(review_chunk(record, [0], start, start + 7))
    assert assemble(record, [0], entries) == review2
    review_game(record, [0], chunk=10, progress=lambda done, of: seen.append((done, of)))
    assert seen[-1] == (total, total) and len(seen) == -(-total // 10)


def test_a_stored_review_is_checked_against_its_game(game2, review2):
    record = game2.record()
    stored = json.loads(json.dumps(review2))
    assert check_review(stored, record) == review2

    def broken(change):
        data = json.loads(json.dumps(review2))
        change(data)
        return data

    bad = [
        None, [], "text", {"format": "x"},
        broken(lambda d: d.update(version=2)),
        broken(lambda d: d["positions"].pop()),
        broken(lambda d: d["positions"][3].update(chances=[0.7, 0.7])),
        broken(lambda d: d["positions"][3].update(chances=["a", 1])),
        broken(lambda d: d["positions"][3].update(chances=None)),
        broken(lambda d: d["moves"][2].update(seat=5)),
        broken(lambda d: d["moves"][2].update(actions=["pass"])),
        broken(lambda d: d.update(people=["me"])),
        broken(lambda d: d.update(actions=3)),
        broken(lambda d: d.update(judge="an older evaluator")),
    ]
    betters = [t for t, e in enumerate(review2["positions"]) if e.get("better")]
    bad.append(broken(lambda d: d["positions"][betters[0]]["better"].update(chance=7)))
    for data in bad:
        with pytest.raises(ValueError):
            check_review(data, record)
    other = played(seed=99).record()
    with pytest.raises(ValueError):
        check_review(stored, other)


def test_the_workers_answer_is_json_and_never_raises(game2):
    record = game2.record()
    reply = json.loads(review_json(json.dumps({"id": 4, "record": record, "people": [0], "start": 2, "stop": 5})))
    assert reply["id"] == 4 and reply["start"] == 2 and len(reply["entries"]) == 3
    assert reply["entries"] == review_chunk(record, [0], 2, 5)
    for bad in ("{", "[]", json.dumps({"record": {"format": "nope"}}),
                json.dumps({"record": record, "start": "x"}),
                json.dumps({"record": dict(record, actions=record["actions"][:3] + ["buy 9.9"])})):
        assert "error" in json.loads(review_json(bad))
