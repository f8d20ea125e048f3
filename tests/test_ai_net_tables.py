"""The network at three and four seats: each table's input layout, the value per seat, the search where every mover
maximises its own chance, the training rows and fit of a 3-4 seat network, and the expert's choice of network by
table."""

import json
import math
import random

import pytest

import splendor
from splendor.ai import encoding as enc
from splendor.ai import expert as expert_mod
from splendor.ai import netfile, netrun, puct
from splendor.ai import get_bot
from splendor.ai.budget import Budget
from splendor.ai.expert import ExpertBot
from splendor.engine.game import determinize, parse_action

from test_ai_net import _positions


# --- the input ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_tables_input_has_its_layouts_length_and_comes_from_the_observation(players):
    lay = enc.LAYOUTS[players]
    assert lay.inputs % 8 == 0 and lay.inputs - 8 < lay.raw <= lay.inputs
    assert lay.raw == lay.noble_at + (players + 1) * lay.noble
    for g in _positions(30, seed=players, players=players):
        x = enc.encode(g)
        assert len(x) == lay.inputs == enc.inputs_for(players)
        assert all(v == 0.0 for v in x[lay.raw:])
        obs = g.observation(g.current_player)
        assert enc.encode(determinize(obs, random.Random(1))) == enc.encode(determinize(obs, random.Random(2))) == x


def test_the_two_seat_layout_is_version_ones():
    lay = enc.LAYOUTS[2]
    assert (lay.globals, lay.slot, lay.noble, lay.raw, lay.inputs, lay.values) == (12, 19, 8, 402, 408, 1)
    assert enc.INPUTS == 408 and enc.ENCODING_VERSION == 1


def test_at_four_seats_the_seats_come_from_the_mover_on_in_turn_order():
    g = splendor.new_game(players=4, seed=5, first_player=0)
    g.apply("take white blue green")  # seat 0
    g.apply("take2 red")  # seat 1
    assert g.current_player == 2
    x = enc.encode(g)
    lay = enc.LAYOUTS[4]
    at = lay.globals
    P = enc.PLAYER
    assert x[at:at + 6] == [0.0] * 6  # seat 2, the mover: nothing yet
    assert x[at + P:at + P + 6] == [0.0] * 6  # seat 3
    assert x[at + 2 * P:at + 2 * P + 6] == [0.25, 0.25, 0.25, 0.0, 0.0, 0.0]  # seat 0
    assert x[at + 3 * P:at + 3 * P + 6] == [0.0, 0.0, 0.0, 0.5, 0.0, 0.0]  # seat 1's two red
    # the mover's place in the round (third) and whether it is the round's last seat (no)
    assert x[12:16] == [0.0, 0.0, 1.0, 0.0] and x[10] == 0.0
    g.apply("take white blue green")
    x = enc.encode(g)
    assert x[12:16] == [0.0, 0.0, 0.0, 1.0] and x[10] == 1.0


def test_at_four_seats_each_market_slot_says_what_each_opponent_lacks_in_turn_order():
    for g in _positions(12, seed=8, players=4):
        x = enc.encode(g)
        lay = enc.LAYOUTS[4]
        n = g.n
        seats = [g.player_list[(g.current + k) % n] for k in range(n)]
        slots = [c for row in g.market_rows for c in row]
        for j, c in enumerate(slots):
            at = lay.market + j * lay.slot
            if c is None:
                assert x[at:at + lay.slot] == [0.0] * lay.slot
                continue
            got = x[at + 14:at + lay.slot]
            for k, q in enumerate(seats[1:]):
                lack = sum(max(0, need - q.bon[i] - q.tok[i]) for i, need in c.needs)
                assert got[2 + 2 * k] == pytest.approx(lack / 10)
                assert got[3 + 2 * k] == (1.0 if lack <= q.tok[5] else 0.0)


def test_at_four_seats_each_noble_says_what_each_seat_lacks():
    for g in _positions(6, seed=9, players=4):
        x = enc.encode(g)
        lay = enc.LAYOUTS[4]
        n = g.n
        for j, nb in enumerate(g.noble_list):
            at = lay.noble_at + j * lay.noble
            assert x[at] == 1.0
            for k in range(n):
                bon = g.player_list[(g.current + k) % n].bon
                assert x[at + 6 + k] == pytest.approx(sum(max(0, need - bon[i]) for i, need in nb.needs) / 8)


# --- the network file and the evaluator -----------------------------------------------------------------------------

def test_a_four_seat_network_needs_a_value_per_seat():
    data = json.loads(netfile.write_net(netfile.random_net(seed=2, hidden=(8,), players=4)))
    assert data["players"] == 4 and data["inputs"] == 624 and data["layers"][-1] == [8, 65, "linear"]
    assert netfile.read_net(json.dumps(data)).players == 4
    data["layers"] = [[624, 8, "relu"], [8, 62, "linear"]]
    with pytest.raises(netfile.NetFileError, match="not 61 moves and 4 values"):
        netfile.read_net(json.dumps(data))


def test_the_evaluator_gives_every_seats_chance_at_four_seats():
    net = netfile.random_net(seed=4, hidden=(16,), players=4)
    ev = expert_mod.evaluator_for(net)
    for g in _positions(10, seed=10, players=4):
        moves, priors, values = ev.evaluate(g)
        assert len(values) == 4 and all(-1.0 <= v <= 1.0 for v in values)
        assert sum((v + 1) / 2 for v in values) == pytest.approx(1.0)
        assert sum(priors) == pytest.approx(1.0) and set(moves) <= set(g.legal_actions())
        out = netrun.runner_for(net, "python").forward(enc.encode(g))
        ex = [math.exp(v) for v in out[enc.ACTION_COUNT:]]
        assert values[0] == pytest.approx(2 * ex[0] / sum(ex) - 1)  # the mover's first


def test_the_numpy_backend_computes_the_reference_at_four_seats():
    pytest.importorskip("numpy")
    net = netfile.random_net(seed=7, hidden=(32,), players=4)
    ref, fast = netrun.runner_for(net, "python"), netrun.runner_for(net, "numpy")
    for g in _positions(5, seed=11, players=4):
        x = enc.encode(g)
        assert fast.forward(x) == pytest.approx(ref.forward(x), abs=1e-3)


# --- the search at N seats ------------------------------------------------------------------------------------------

def test_seat_values_turn_the_movers_list_into_seat_order():
    g = splendor.new_game(players=4, seed=1, first_player=0)
    g.apply("take white blue green")
    assert puct.seat_values(g, [0.1, 0.2, 0.3, 0.4]) == [0.4, 0.1, 0.2, 0.3]
    g2 = splendor.new_game(players=2, seed=1, first_player=0)
    g2.apply("take white blue green")
    assert puct.seat_values(g2, 0.5) == [-0.5, 0.5]


def test_the_result_at_the_end_is_each_seats_share_of_the_win():
    class Over:
        n = 4
        winners = [2]

    assert puct.result_values(Over()) == [-1.0, -1.0, 1.0, -1.0]
    Over.winners = [1, 3]
    assert puct.result_values(Over()) == [-1.0, 0.0, -1.0, 0.0]
    Over.n, Over.winners = 2, [0, 1]
    assert puct.result_values(Over()) == [0.0, 0.0]


def test_a_walks_value_is_added_to_each_move_as_its_movers_own():
    nodes = []
    for mover in (1, 2, 3, 0):
        nd = puct._Node()
        nd.mover, nd.N, nd.W, nd.n = mover, [0], [0.0], 0
        nodes.append(nd)
    puct.backup([(nd, 0) for nd in nodes], [0.1, 0.2, 0.3, 0.4])
    assert [nd.W[0] for nd in nodes] == [0.2, 0.3, 0.4, 0.1] and all(nd.N == [1] for nd in nodes)


class TokenLover:
    """A stand-in network at N seats: every move equally likely, each seat's chance proportional to
    exp(its tokens): a mover who maximises its own chance takes three."""

    def evaluate(self, game):
        moves, _ = enc.legal_indexed(game)
        n = game.n
        ex = [math.exp(sum(game.player_list[(game.current + k) % n].tok)) for k in range(n)]
        s = sum(ex)
        return moves, [1.0 / len(moves)] * len(moves), [2 * e / s - 1 for e in ex]


def test_every_mover_of_a_four_seat_search_plays_for_itself():
    g = splendor.new_game(players=4, seed=3, first_player=0)
    g.apply("take white blue green")  # seat 1 to move: the root's mover is not seat 0
    seat = g.current_player
    moves, _, stats, value, _ = puct.search(g, seat, TokenLover(), puct.SearchParams(universes=1),
                                            random.Random(1), Budget(iterations=600).started().clock())
    best = moves[puct.best_index(stats)]
    assert best.kind == "take" and len(best.colors) == 3, str(best)
    # the value read for the root's seat is its own: with three tokens a seat of four is ahead, not behind
    assert -1.0 < value and (stats[puct.best_index(stats)][1] / stats[puct.best_index(stats)][0]) > -0.5


def test_the_uniform_stand_in_values_every_seat_evenly():
    g = splendor.new_game(players=3, seed=3)
    _, _, values = netrun.UniformEvaluator().evaluate(g)
    assert values == pytest.approx([2 / 3 - 1] * 3)


# --- training rows and the fit ----------------------------------------------------------------------------------------

def test_seat_shares_are_from_the_movers_side():
    from splendor.training import netdata

    assert netdata.seat_shares(1, [2], 4) == [0.0, 1.0, 0.0, 0.0]
    assert netdata.seat_shares(3, [0, 3], 4) == [0.5, 0.5, 0.0, 0.0]
    assert netdata.seat_shares(0, [], 3) == pytest.approx([1 / 3] * 3)


def _four_seat_record(seed=21):
    """A whole 4-seat game of random moves with a decision (visits on the move played and one other) at every action
    phase, written as the records are."""
    rng = random.Random(seed)
    g = splendor.new_game(players=4, seed=seed, first_player=0)
    decisions = []
    ply = 0
    while not g.is_over and g.round < 80:
        legal = g.legal_actions()
        a = rng.choice(legal)
        if g.phase == "action":
            other = next((b for b in legal if enc.action_index(g, b) != enc.action_index(g, a)), a)
            decisions.append({"ply": ply, "visits": {str(a): 30, str(other): 10}, "value": 0.0})
        g.apply(a)
        ply += 1
    rec = g.record()
    rec["deals"] = g.dealt()
    rec["winners"] = list(g.winners)
    rec["decisions"] = decisions
    rec["forced_playouts"] = False
    return json.loads(json.dumps(rec))


def test_a_four_seat_record_becomes_rows_with_each_seats_share():
    np = pytest.importorskip("numpy")
    from splendor.training import netdata

    rec = _four_seat_record()
    assert rec["winners"]
    assert netdata.record_rows(rec) == []  # a 2-seat build leaves it out
    rows = netdata.record_rows(rec, 4)
    assert len(rows) == len(rec["decisions"])
    g = splendor.Game(players=4, seed=rec["seed"], first_player=0, deals=rec["deals"])
    by_ply = {d["ply"]: d for d in rec["decisions"]}
    k = 0
    for ply, text in enumerate(rec["actions"]):
        if ply in by_ply:
            x, pi, z, _, _ = rows[k]
            assert x == enc.encode(g) and len(x) == 624
            assert z == netdata.seat_shares(g.current_player, rec["winners"], 4)
            played = parse_action(g, text)
            alone = len(by_ply[ply]["visits"]) == 1  # (a position of one move index)
            assert pi[enc.action_index(g, played)] == pytest.approx(1.0 if alone else 0.75)
            k += 1
        g.apply(text)
    assert np.asarray([r[2] for r in rows]).sum(axis=1) == pytest.approx(np.ones(len(rows)))


def test_a_rotation_at_four_seats_moves_the_inputs_and_the_move_index_the_same_way():
    np = pytest.importorskip("numpy")
    from test_training_faults import rotated

    g = splendor.new_game(players=4, seed=7, first_player=0)
    for k in range(12):  # every seat reserves three: blind ones from the decks, seen ones from the market
        g.apply(f"reserve deck {k % 3 + 1}" if k % 2 else str(next(
            a for a in g.legal_actions() if a.kind == "reserve" and a.card is not None)))
        while g.phase != "action":
            g.apply(g.legal_actions()[0])
    assert g.current_player == 0 and all(len(p.reserved_list) == 3 for p in g.player_list)
    mirror, moves, xb, pb = rotated(g)
    assert np.array_equal(xb[0], np.asarray(enc.encode(mirror), np.float32))
    for row, a in enumerate(moves):
        assert pb[row].argmax() == enc.action_index(mirror, a), str(a)


def _share_problem(n=80, seed=3):
    """Sparse random inputs at four seats, each with one seat winning at random: the value head learns them."""
    import numpy as np

    rng = np.random.default_rng(seed)
    width = enc.inputs_for(4)
    x = ((rng.random((n, width)) < 0.2) * rng.random((n, width))).astype(np.float32)
    z = np.eye(4, dtype=np.float32)[rng.integers(0, 4, n)]
    pi = np.full((n, enc.ACTION_COUNT), 1.0 / enc.ACTION_COUNT, np.float32)
    return {"x": x, "pi": pi, "z": z, "v": np.zeros(n, np.float32), "sims": np.full(n, 400, np.int32),
            "game": np.arange(n, dtype=np.int32)}


def test_the_four_seat_value_gradient_is_its_cross_entropys():
    np = pytest.importorskip("numpy")
    from splendor.training import netfit

    data = _share_problem(8)
    model = netfit.MLP([enc.inputs_for(4), 16, enc.ACTION_COUNT + 4], np.random.default_rng(1))
    _, ce, _, grads = netfit.losses(model, data["x"], data["pi"], data["z"])
    eps = 1e-2
    b = model.b[-1]
    for j in range(enc.ACTION_COUNT, enc.ACTION_COUNT + 4):
        b[j] += eps
        up = netfit.losses(model, data["x"], data["pi"], data["z"])[1]
        b[j] -= 2 * eps
        down = netfit.losses(model, data["x"], data["pi"], data["z"])[1]
        b[j] += eps
        assert grads[-1][1][j] == pytest.approx((up - down) / (2 * eps), rel=0.05, abs=1e-4)


def test_a_four_seat_fit_learns_who_wins_and_writes_a_file_the_expert_plays(tmp_path):
    np = pytest.importorskip("numpy")
    from splendor.training import netfit

    data = _share_problem()
    rows = np.arange(len(data["x"]))
    model, _ = netfit.fit(data, epochs=60, batch=16, lr=1e-2, hidden=(16,), holdout=1000, log=lambda s: None)
    fig = netfit.evaluate(model, data, rows)
    assert fig["value_top"] > 0.9 and fig["value_ce"] < 0.5  # chance: 0.25 and log 4 = 1.39
    net = netfile.read_net(netfile.write_net(model.to_net({}, 4)))
    assert net.players == 4 and net.shapes[0] == (624, 16)
    g = _positions(1, seed=12, players=4)[0]
    action, info = ExpertBot(net=net).decide(g.observation(g.current_player), random.Random(1), {"iterations": 40})
    assert action in g.legal_actions() and info["net"] is True and info["iterations"] == 40


# --- the expert's network by table --------------------------------------------------------------------------------

def test_the_expert_plays_each_table_with_that_tables_network(tmp_path, monkeypatch):
    path = tmp_path / "expert_net_4p.json"
    path.write_text(netfile.write_net(netfile.random_net(seed=9, hidden=(16,), players=4)))
    monkeypatch.setitem(expert_mod.NET_FILES, 4, str(path))
    monkeypatch.setattr(expert_mod, "_NETS", {})
    bot = ExpertBot()
    g4 = _positions(1, seed=13, players=4)[0]
    _, info = bot.decide(g4.observation(g4.current_player), random.Random(1), {"iterations": 50})
    assert info["net"] is True and info["iterations"] == 50 and 0.0 <= info["position_chance"] <= 1.0
    g3 = _positions(1, seed=13, players=3)[0]
    _, info3 = bot.decide(g3.observation(g3.current_player), random.Random(1), {"iterations": 30})
    assert "net" not in info3  # no 3-seat network: the tree search
    assert bot.net_problem_at(3) == "no network file" and bot.net_problem_at(4) is None
    # a 2-seat network handed in does not play at four seats, nor a 4-seat one at two
    two = ExpertBot(net=netfile.random_net(seed=5, hidden=(16,)))
    assert two.evaluator_at(4) is None and two.evaluator_at(2) is not None
    four = ExpertBot(net=netfile.random_net(seed=5, hidden=(16,), players=4))
    assert four.evaluator_at(2) is None and four.evaluator_at(4) is not None


def _renamed(game, k):
    """``game`` with its seats renamed: seat i becomes seat i + k (the first player and the seat to move too)."""
    d = game.to_dict()
    n = game.n
    d["tableaus"] = [d["tableaus"][(i - k) % n] for i in range(n)]
    for key in ("current", "start", "first_player"):
        d[key] = (d[key] + k) % n
    d["actions"] = []
    return splendor.Game.from_dict(d)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_encoding_is_the_same_whatever_the_seats_are_called(players):
    """The network sees the position from the mover: renaming the seats (the first player with them) changes none of
    its inputs, the mover's place in the round included (issue 72: counted from seat 0 instead of the first player,
    the network misread whether a 15-point move gets an answer in every game a bot starts)."""
    for first in range(players):
        game = splendor.new_game(players=players, seed=9, first_player=first)
        medium = get_bot("medium")
        for _ in range(3 * players + 1):
            game.apply(medium.choose(game.observation(game.current_player), random.Random(len(game.history))))
        while game.phase != "action":
            game.apply(game.legal_actions()[0])
        x = enc.encode(game)
        for k in range(1, players):
            assert enc.encode(_renamed(game, k)) == x, (first, k)
