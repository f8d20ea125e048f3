"""The expert's value net (splendor/ai/valuenet.py): its inputs, pure-Python inference against an independent dense
computation, the symmetry of its judgement, its weights file and the expert's search with it. The training command
that fits it: test_training_net.py."""

import json
import math
import random

import pytest

import splendor
from splendor.ai import Budget, get_bot
from splendor.training.arena import play_game
from splendor.ai.expert import ExpertBot
from splendor.ai.learned import READ_WEIGHTS, Weights, read_model
from splendor.ai.valuenet import FAR, SEAT_INPUTS, TABLE_INPUTS, ValueNet, game_vectors
from test_ai_states import build


def random_net(hidden=6, seed=1):
    rng = random.Random(seed)

    def m(rows, cols):
        return [[rng.gauss(0, 0.3) for _ in range(cols)] for _ in range(rows)]

    return ValueNet(m(hidden, SEAT_INPUTS), m(hidden, SEAT_INPUTS), m(hidden, TABLE_INPUTS - 1),
                    [rng.gauss(0, 0.3) for _ in range(hidden)], [rng.gauss(0, 0.3) for _ in range(hidden)],
                    [rng.gauss(0, 1) for _ in range(hidden)], {"seed": seed})


def positions(players=2, seed=5):
    game = splendor.new_game(players=players, seed=seed)
    bot = get_bot("medium")
    out = []
    while not game.is_over:
        if game.phase == "action":
            out.append(game.copy())
        game.apply(bot.choose(game.observation(game.current_player), random.Random(0), None))
    return out


def dense_logit(net, game, s, o):
    """N(s, o) - N(o, s) computed the plain way: the whole input vector times the whole first layer."""
    table, vecs = game_vectors(game, Weights(**READ_WEIGHTS))
    mv = 1.0 if game.current == s else (-1.0 if game.current == o else 0.0)

    def n(x, y, m):
        full = x + y + table + [m]
        total = 0.0
        for j in range(len(net.bias)):
            row = net.first[j] + net.second[j] + net.table[j] + [net.to_move[j]]
            z = net.bias[j] + sum(w * v for w, v in zip(row, full))
            total += net.out[j] * max(0.0, z)
        return total

    return n(vecs[s], vecs[o], mv) - n(vecs[o], vecs[s], -mv)


def test_the_seat_vector_reads_the_nobles_the_market_and_the_reserve():
    one = next(c for c in splendor.CARDS if c.level == 1 and c.points == 1)
    game = build(cards={0: [one.code]}, tokens={0: (2, 1, 0, 0, 0, 1), 1: (0, 0, 0, 0, 0, 0)})
    table, (mine, theirs) = game_vectors(game, Weights(**READ_WEIGHTS))
    assert len(mine) == len(theirs) == SEAT_INPUTS and len(table) == TABLE_INPUTS - 1
    assert table[0] == pytest.approx(1 / 15)  # the stage
    slots = [c for row in game.market for c in row]
    assert table[1:] == [c.points for c in slots]
    nobles = game._nobles
    for j in range(5):  # distance to each noble in bonuses; no noble: as far as can be
        want = sum(max(0, n - game.players[1].bonuses[c]) for c, n in nobles[j].requirement.items()) \
            if j < len(nobles) else FAR
        assert theirs[13 + j] == want
    for j, card in enumerate(slots):  # what each card still lacks, gold counted; the seat with nothing lacks all
        assert theirs[18 + j] == sum(card.cost_t)
        lack = sum(max(0, n - b - t) for n, b, t in zip(card.cost_t, game.players[0].bonuses.values(),
                                                      (2, 1, 0, 0, 0))) - 1
        assert mine[18 + j] == max(0, lack)
    assert theirs[30:] == [FAR, 0] * 3  # nothing reserved


def test_inference_equals_a_plain_dense_computation_and_is_antisymmetric():
    net = random_net()
    for game in positions()[::7]:
        z0, z1 = net.logits(game, 0)[0], net.logits(game, 1)[0]
        assert z0 == pytest.approx(dense_logit(net, game, 0, 1), abs=1e-9)
        assert z0 == pytest.approx(-z1, abs=1e-9)
        assert net.win_chance(game, 0) + net.win_chance(game, 1) == pytest.approx(1.0)
    for game in positions(players=4, seed=8)[::11]:
        zs = net.logits(game, 2)
        assert zs == pytest.approx([dense_logit(net, game, 2, o) for o in (0, 1, 3)], abs=1e-9)
        assert net.win_chance(game, 2) == pytest.approx(1 / (1 + math.exp(-min(zs))))
    over = positions()[-1].copy()
    bot = get_bot("medium")
    while not over.is_over:
        over.apply(bot.choose(over.observation(over.current_player), random.Random(0), None))
    assert {net.win_chance(over, s) for s in range(2)} <= {0.0, 0.5, 1.0}
    assert sum(net.win_chance(over, s) for s in range(2)) == 1.0


def test_a_net_round_trips_through_its_file_and_bad_files_are_refused(tmp_path):
    net = random_net()
    path = tmp_path / "net.json"
    net.save(path)
    again = read_model(path)
    assert isinstance(again, ValueNet) and again.meta == {"seed": 1}
    game = positions()[20]
    assert again.logits(game, 0)[0] == pytest.approx(net.logits(game, 0)[0], abs=1e-4)
    good = json.loads(path.read_text())
    for change, message in ((("version", 2), "version 2"), (("seat_inputs", 3), "retrain it"),
                            (("out", [1.0]), "disagree"), (("bias", "x"), "disagree")):
        data = dict(good)
        data[change[0]] = change[1]
        path.write_text(json.dumps(data))
        with pytest.raises(ValueError, match=message):
            read_model(path)
    path.write_text("[1, 2")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_model(path)


def test_the_expert_searches_with_a_net_at_every_table_size():
    net = random_net(hidden=4)
    for players in (2, 3, 4):
        bots = [ExpertBot(model=net)] + [get_bot("medium")] * (players - 1)
        result = play_game(bots, 17 + players, [Budget(iterations=6)] * players)
        assert result["status"] == "ok", result
    # under an iteration budget and a seed the move is the same
    game = positions()[15]
    obs = game.observation(game.current_player)
    a = ExpertBot(model=net).decide(obs, random.Random(4), Budget(iterations=24))
    b = ExpertBot(model=net).decide(obs, random.Random(4), Budget(iterations=24))
    assert str(a[0]) == str(b[0]) and a[1]["candidates"] == b[1]["candidates"]


def test_the_expert_sees_the_winning_reply_and_denies_it():
    """Seat 1 has 14 points and the four green tokens of the one point card it can buy; seat 0 (13 points) cannot buy
    it but can reserve it."""
    x = "1W1:4g"
    others = [c.code for c in splendor.CARDS if c.level == 1 and c.points == 0][:3]
    l2 = [c.code for c in splendor.CARDS if c.level == 2][:4]
    mine, theirs = ["3G5:7u3g", "3R5:7g3r", "3W3:3u3g5r3k"], ["3W5:3w7k", "3U5:7w3u", "3K4:7r"]
    l3 = [c.code for c in splendor.CARDS if c.level == 3 and c.code not in mine + theirs][:4]
    game = build(market=[[x] + others, l2, l3], cards={0: mine, 1: theirs},
                 tokens={0: (1, 1, 0, 1, 1, 0), 1: (0, 0, 4, 0, 0, 0)})
    assert game.players[0].points == 13 and game.players[1].points == 14
    mirror = game.to_dict()
    mirror["current"] = 1
    wins = [a for a in splendor.Game.from_dict(mirror).legal_actions() if a.kind == "buy" and a.card.points]
    assert [a.card.code for a in wins] == [x]  # the one way seat 1 reaches 15 next turn
    legal = game.legal_actions()
    # the expert denies the card on every seed, and it sees why: the reservation is the one move its walks find a
    # way on from (seat 1 cannot win at once; seat 0's own next moves, among every legal one, are searched)
    for seed in range(4):
        tree = ExpertBot(candidates=len(legal), net=None)
        action, info = tree.decide(game.observation(0), random.Random(seed), Budget(iterations=40 * len(legal)))
        assert action.kind == "reserve" and action.card.code == x, (seed, action, info)
        best, *rest = info["candidates"]
        assert best["action"] == str(action) and best["value"] > 0.1 > max(c["value"] for c in rest), info
