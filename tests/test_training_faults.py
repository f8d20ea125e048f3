"""The training pipeline of the expert's network cannot quietly learn the wrong thing: each test here fails on a
one-line fault that the rest of the suite would let through.

- the records' targets (netdata): the result from the deciding seat's side, a game cut at the round limit a draw
  for both seats, forced playouts pruned (k = 2) only from the searches that added them;
- the fit (netfit): a shuffle of the market, the reserved cards and the nobles moves the inputs and the move index
  the same way (a rotation, which is not its own inverse), the value head learns its targets, and a fitted model
  written as a network file computes what it computed before;
- self-play (netplay): with stand-in networks whose values are known, the move played is the most visited one and
  the value recorded is the search's, from the mover's side;
- the encoding: a fixed set of positions encodes to the vector pinned for ``ENCODING_VERSION``, and an opponent's
  blind reservation shows its level;
- the search (puct): the universes asked for are the universes searched, and a move not yet tried is valued at its
  position's value less the fpu.
"""

import hashlib
import json
import math
import random

import pytest

np = pytest.importorskip("numpy")

import splendor  # noqa: E402
from splendor.ai import encoding as enc  # noqa: E402
from splendor.ai import netfile, netrun, puct  # noqa: E402
from splendor.ai.budget import Budget  # noqa: E402
from splendor.engine.actions import Action  # noqa: E402
from splendor.engine.game import parse_action  # noqa: E402
from splendor.training import netdata, netfit, netplay  # noqa: E402
from splendor.training.netnumpy import NumpyRunner  # noqa: E402


# --- stand-in networks for self-play --------------------------------------------------------------------------------

class ConstantRunner:
    """A network whose value is ``value`` for the mover of every position, its policy uniform: a search's walks of
    one step end at the opponent's move, so the search's value of the root is -``value`` where the network's own is
    ``value``. ``batches`` keeps the size of every batch it was asked about."""

    def __init__(self, value):
        self.value = value
        self.batches = []

    def forward_batch(self, rows):
        self.batches.append(len(rows))
        out = np.zeros((len(rows), enc.ACTION_COUNT + 1), np.float32)
        out[:, enc.ACTION_COUNT] = math.atanh(self.value)
        return out


class WhiteRunner:
    """A network that values white tokens alone: the mover's value is tanh(2 x (its white - the opponent's) / 4),
    its policy uniform. At a game's start taking two white is the move it favours."""

    def forward_batch(self, rows):
        x = np.asarray(rows, np.float32)
        out = np.zeros((len(x), enc.ACTION_COUNT + 1), np.float32)
        out[:, enc.ACTION_COUNT] = 2.0 * (x[:, enc.GLOBALS] - x[:, enc.GLOBALS + enc.PLAYER])
        return out


def _seat_at(rec):
    """ply -> the seat deciding it, from replaying the record's moves."""
    game = splendor.Game(players=2, seed=rec["seed"], first_player=rec["first_player"], deals=rec["deals"])
    seats = {}
    for ply, text in enumerate(rec["actions"]):
        seats[ply] = game.current_player
        game.apply(text)
    return seats


def test_self_play_plays_the_most_visited_move_and_records_the_searchs_value_for_the_mover():
    # one universe, and fpu 0 so that every move is tried once before the values steer the walks
    params = puct.SearchParams(fpu=0.0, universes=1)
    records, _ = netplay.play(WhiteRunner(), seeds=[5], sims=90, params=params, explore=0, round_limit=2)
    rec = records[0]
    seats = _seat_at(rec)
    assert len(rec["decisions"]) == 4 and rec["winners"] == []
    for d in rec["decisions"]:
        played = rec["actions"][d["ply"]]
        assert d["visits"].get(played, 0) == max(d["visits"].values()), (d["ply"], played, d["visits"])
    first = rec["decisions"][0]
    assert seats[0] == 0 and rec["actions"][0] == "take2 white"  # the move the network's values favour
    assert first["visits"]["take2 white"] > sum(first["visits"].values()) / 2
    # the search's value for the mover: its two whites ahead; the network's own value of the empty start is 0
    assert first["value"] > 0.3
    # and the opponent's decision after it, behind by two whites, is judged from the opponent's side
    assert rec["decisions"][1]["value"] < -0.3
    # this search forces no playouts: every visit, small counts too, is in the policy target
    rows = netdata.record_rows(json.loads(json.dumps(rec)))
    game = splendor.Game(players=2, seed=rec["seed"], first_player=0, deals=rec["deals"])
    for d, (_, pi, _, _, _) in zip(rec["decisions"], rows):
        while len(game.history) < d["ply"]:
            game.apply(rec["actions"][len(game.history)])
        total = sum(d["visits"].values())
        want = [0.0] * enc.ACTION_COUNT
        for m, n in d["visits"].items():
            want[enc.action_index(game, parse_action(game, m))] += n / total
        assert pi == pytest.approx(want)
    assert any(0 < n <= 2 for d in rec["decisions"] for n in d["visits"].values())


def test_self_play_records_the_searchs_value_not_the_networks_own():
    runner = ConstantRunner(0.4)
    records, _ = netplay.play(runner, seeds=[3, 4], sims=3, explore=0, round_limit=3)
    for rec in records:
        assert rec["forced_playouts"] is False
        assert len(rec["decisions"]) == 6
        for d in rec["decisions"]:
            # three walks of one step each (one a universe): every one backs up the opponent's 0.4, which is -0.4
            # for the mover; the network's value of the root itself is +0.4
            assert sum(d["visits"].values()) == 3
            assert d["value"] == pytest.approx(-0.4, abs=1e-3)


def test_a_game_cut_at_the_round_limit_is_a_draw_for_both_seats_not_a_loss():
    records, _ = netplay.play(ConstantRunner(0.4), seeds=[3], sims=3, params=puct.SearchParams(universes=1),
                              explore=0, round_limit=2)
    rec = json.loads(json.dumps(records[0]))
    assert rec["winners"] == [] and not splendor.replay(rec).is_over
    rows = netdata.record_rows(rec)
    assert len(rows) == 4
    assert [z for _, _, z, _, _ in rows] == [0.0] * 4
    assert [v for _, _, _, v, _ in rows] == pytest.approx([-0.4] * 4, abs=1e-3)
    # netplay's search forces no playouts: its visits (here 1 for each of three moves, the walks of one universe)
    # are the target as they are
    for _, pi, _, _, _ in rows:
        assert sorted(p for p in pi if p) == pytest.approx([1 / 3] * 3)


def test_the_self_play_runner_searches_the_universes_asked_for():
    for universes in (1, 4):
        runner = ConstantRunner(0.1)
        params = puct.SearchParams(universes=universes)
        netplay.play(runner, seeds=[1, 2], sims=universes, params=params, explore=0, round_limit=1)
        assert runner.batches[0] == 2 * universes  # every game's roots, one a universe, judged in the first batch


# --- the records' targets ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def finished_record():
    """A whole self-play game of a small random network, through JSON as the files hold it."""
    records, _ = netplay.play(netfile.random_net(seed=3, hidden=(16,)), seeds=[11], sims=4, explore=2)
    rec = json.loads(json.dumps(records[0]))
    assert splendor.replay(rec).is_over and len(rec["winners"]) == 1
    return rec


def test_each_decision_is_given_the_game_result_of_the_seat_that_made_it(finished_record):
    rec = finished_record
    winner = rec["winners"][0]
    seats = _seat_at(rec)
    rows = netdata.record_rows(rec)
    assert len(rows) == len(rec["decisions"])
    want = [1.0 if seats[d["ply"]] == winner else -1.0 for d in rec["decisions"]]
    assert [z for _, _, z, _, _ in rows] == want
    assert 0 < want.count(1.0) < len(want)  # both seats' decisions are there
    # the search's value is the record's, for the same seat
    assert [v for _, _, _, v, _ in rows] == [d["value"] for d in rec["decisions"]]


def test_results_for_each_seat():
    assert netdata.result_for(0, [0]) == 1.0 and netdata.result_for(1, [0]) == -1.0
    assert netdata.result_for(1, [1]) == 1.0 and netdata.result_for(0, [1]) == -1.0
    assert netdata.result_for(0, [0, 1]) == netdata.result_for(1, [0, 1]) == 0.0
    assert netdata.result_for(0, []) == netdata.result_for(1, []) == 0.0  # cut at the round limit: no loser


def _one_decision_record(**extra):
    """A record of one move with a search's visits and prior that the pruning changes."""
    game = splendor.new_game(players=2, seed=5, first_player=0)
    game.apply("take white blue green")
    rec = game.record()
    rec.update({"deals": game.dealt(), "winners": [], "scores": [0, 0], "sims": 800, **extra})
    rec["decisions"] = [{"ply": 0, "value": 0.1,
                         "visits": {"take white blue green": 500, "take2 white": 30, "reserve deck 1": 2},
                         "prior": {"take white blue green": 0.5, "take2 white": 0.3, "reserve deck 1": 0.2}}]
    return json.loads(json.dumps(rec))


def _target(rec):
    (_, pi, _, _, _), = netdata.record_rows(rec)
    game = splendor.new_game(players=2, seed=5, first_player=0)
    return {m: pi[enc.action_index(game, parse_action(game, m))]
            for m in ("take white blue green", "take2 white", "reserve deck 1")}


def test_forced_playouts_are_pruned_with_katagos_k_only_where_the_search_forced_them():
    # k = 2: take2 white loses floor(sqrt(2 x 0.3 x 800)) = 21 of its 30 visits; the 2 of deck 1 go (17 forced)
    assert netdata.pruned({"a": 500, "b": 30, "c": 2}, {"a": 0.5, "b": 0.3, "c": 0.2}, 800) == {"a": 500, "b": 9,
                                                                                              "c": 0}
    pruned = {"take white blue green": 500 / 509, "take2 white": 9 / 509, "reserve deck 1": 0.0}
    as_searched = {"take white blue green": 500 / 532, "take2 white": 30 / 532, "reserve deck 1": 2 / 532}
    assert _target(_one_decision_record(forced_playouts=True)) == pytest.approx(pruned)
    assert _target(_one_decision_record()) == pytest.approx(pruned)  # the agent's records, before the field
    assert _target(_one_decision_record(forced_playouts=False)) == pytest.approx(as_searched)  # netplay's
    rec = _one_decision_record(forced_playouts=True)
    rec["decisions"][0]["forced_playouts"] = False  # a decision that says so for itself
    assert _target(rec) == pytest.approx(as_searched)


def test_the_harness_records_say_that_the_agents_searches_forced_playouts(finished_record):
    actions = finished_record["actions"]
    raw = {"seed": finished_record["seed"], "first_player": 0, "actions": actions,
           "winners": finished_record["winners"],
           "az_visits": [[0, {actions[0]: 5}, 0.1, {"prior": {actions[0]: 1.0}}]],
           "opp_visits": [[1, {actions[1]: 5}, 0.1, {"prior": {actions[1]: 1.0}, "forced_playouts": False}]]}
    rec = netdata.from_harness(raw, 100)
    assert rec["forced_playouts"] is True
    assert "forced_playouts" not in rec["decisions"][0] and rec["decisions"][1]["forced_playouts"] is False


# --- the fit ----------------------------------------------------------------------------------------------------

class Rotate:
    """Every interchangeable group turned by one place: new place i holds old place i - 1 (not its own inverse)."""

    def permutation(self, n):
        return np.roll(np.arange(n), 1)


def rotated(game):
    """(``game`` with every group turned as Rotate turns it, every market card's buy and reservation and every
    reserved card's buy of the mover (legal or not), the inputs and the targets of those moves after netfit's shuffle
    by Rotate): every seat of ``game`` holds three reserved cards."""
    n = game.n
    state = game.to_dict()
    four, three, nobles = ([int(i) for i in Rotate().permutation(k)] for k in (4, 3, n + 1))
    state["market"] = [[row[i] for i in four] for row in state["market"]]
    for t in state["tableaus"]:
        assert len(t["reserved"]) == 3
        t["reserved"] = [t["reserved"][i] for i in three]
    state["nobles"] = [state["nobles"][i] for i in nobles]
    cards = [c for row in game.market_rows for c in row if c is not None]
    moves = [Action.buy(c, (0,) * 6) for c in cards] + [Action.reserve(c) for c in cards]
    moves += [Action.buy(c, (0,) * 6) for c in game.player_list[game.current].reserved_list]
    x = np.asarray([enc.encode(game)] * len(moves), np.float32)
    pi = np.zeros((len(moves), enc.ACTION_COUNT), np.float32)
    for row, a in enumerate(moves):
        pi[row, enc.action_index(game, a)] = 1.0
    xb, pb = netfit.shuffle_batch(x, pi, Rotate(), players=n)
    return splendor.Game.from_dict(state), moves, xb, pb


def test_a_rotation_of_every_group_moves_the_inputs_and_the_move_index_the_same_way():
    game = splendor.new_game(players=2, seed=7, first_player=0)
    for text in ("reserve deck 2", "reserve 1U0:3k", "take2 red", "reserve 2W1:3g2r2k", "reserve deck 3",
                 "reserve deck 1", "reserve 1G1:4k", "take white blue black"):
        game.apply(text)
    assert game.current_player == 0 and game.phase == "action"
    # the same position with every group turned: place i holds what place i - 1 held
    mirror, moves, xb, pb = rotated(game)
    assert np.array_equal(xb[0], np.asarray(enc.encode(mirror), np.float32))
    for row, a in enumerate(moves):
        assert pb[row].argmax() == enc.action_index(mirror, a) and pb[row].sum() == 1.0, str(a)
    assert sum(enc.action_index(mirror, a) != enc.action_index(game, a) for a in moves) == len(moves)


def test_random_shuffles_move_each_slots_inputs_and_moves_together():
    rng = np.random.default_rng(4)
    base = enc.GLOBALS + 2 * enc.PLAYER
    res_base = base + 12 * enc.SLOT
    for _ in range(20):
        xc, mc = netfit.permutation(rng)
        for lv in range(3):
            for s in range(4):
                src = (xc[base + (4 * lv + s) * enc.SLOT] - base) // enc.SLOT - 4 * lv
                assert xc[base + (4 * lv + s) * enc.SLOT:base + (4 * lv + s + 1) * enc.SLOT].tolist() == list(
                    range(base + (4 * lv + src) * enc.SLOT, base + (4 * lv + src + 1) * enc.SLOT))
                assert mc[enc.BUY_MARKET + 4 * lv + s] == enc.BUY_MARKET + 4 * lv + src
                assert mc[enc.RESERVE_MARKET + 4 * lv + s] == enc.RESERVE_MARKET + 4 * lv + src
        for j in range(3):
            src = (xc[res_base + j * enc.RESERVED] - res_base) // enc.RESERVED
            assert mc[enc.BUY_RESERVED + j] == enc.BUY_RESERVED + src


def _value_problem(n=60, seed=3):
    """Positions of sparse random inputs (as the encoding's are: most inputs 0, the rest at most 1), each with a
    value target of +0.8 or -0.8 at random, every policy uniform: the value head has to learn them one by one."""
    rng = np.random.default_rng(seed)
    x = (rng.random((n, enc.INPUTS)) < 0.2) * rng.random((n, enc.INPUTS))
    v = np.where(rng.random(n) < 0.5, 0.8, -0.8)
    pi = np.full((n, enc.ACTION_COUNT), 1.0 / enc.ACTION_COUNT)
    return {"x": x.astype(np.float32), "pi": pi.astype(np.float32), "z": v.astype(np.float32),
            "v": v.astype(np.float32), "sims": np.full(n, 800, np.int32), "game": np.arange(n, dtype=np.int32)}


def test_the_value_gradient_is_the_squared_errors():
    data = _value_problem(8)
    model = netfit.MLP([enc.INPUTS, 16, enc.ACTION_COUNT + 1], np.random.default_rng(1))
    _, mse, _, grads = netfit.losses(model, data["x"], data["pi"], data["v"])
    eps = 1e-2
    b = model.b[-1]
    b[enc.ACTION_COUNT] += eps
    up = netfit.losses(model, data["x"], data["pi"], data["v"])[1]
    b[enc.ACTION_COUNT] -= 2 * eps
    down = netfit.losses(model, data["x"], data["pi"], data["v"])[1]
    b[enc.ACTION_COUNT] += eps
    numeric = (up - down) / (2 * eps)
    assert abs(numeric) > 1e-3
    assert grads[-1][1][enc.ACTION_COUNT] == pytest.approx(numeric, rel=0.05)


def test_the_value_head_learns_its_targets():
    data = _value_problem()
    rows = np.arange(len(data["x"]))
    start = netfit.MLP([enc.INPUTS, 16, enc.ACTION_COUNT + 1], np.random.default_rng(1))  # the fit's start (seed 1)

    def value(model):
        return np.tanh(model.forward(data["x"])[-1][:, enc.ACTION_COUNT])

    before = ((value(start) - data["v"]) ** 2).mean()
    model, _ = netfit.fit(data, epochs=40, batch=16, lr=1e-2, hidden=(16,), value_mix=1.0, holdout=1000,
                          log=lambda s: None)
    after_v = value(model)
    after = ((after_v - data["v"]) ** 2).mean()
    assert after < 0.25 * before and after < 0.1
    assert (np.sign(after_v) == np.sign(data["v"])).mean() > 0.95  # the predictions moved toward the targets
    assert netfit.evaluate(model, data, rows)["value_mse_result"] == pytest.approx(float(after), abs=1e-3)


def test_a_fitted_model_written_as_a_network_computes_what_it_computed():
    rng = np.random.default_rng(5)
    model = netfit.MLP([enc.INPUTS, 24, 16, enc.ACTION_COUNT + 1], rng)
    for b in model.b:
        b[:] = rng.standard_normal(len(b)).astype(np.float32) * 0.1
    net = model.to_net({"made_by": "a test"})
    assert net.shapes == [(enc.INPUTS, 24), (24, 16), (16, enc.ACTION_COUNT + 1)]
    back = netfit.MLP.from_net(net)
    for w, w2 in zip(model.W, back.W):
        assert w.shape == w2.shape and np.allclose(w, w2, rtol=2e-3, atol=1e-4)  # float16 rounding only
    x = rng.random((5, enc.INPUTS), dtype=np.float32)
    want = model.forward(x)[-1]
    assert np.allclose(back.forward(x)[-1], want, rtol=1e-2, atol=2e-2)
    stored = netfile.read_net(netfile.write_net(net))
    assert np.allclose(NumpyRunner(stored).forward_batch(x), want, rtol=1e-2, atol=2e-2)
    reference = netrun.runner_for(stored, "python")
    assert np.allclose(reference.forward(x[0].tolist()), want[0], rtol=1e-2, atol=2e-2)


# --- the encoding -----------------------------------------------------------------------------------------------

#: sha256 of the inputs (each rounded to 6 places) of the positions of :func:`_pinned_positions`, per encoding
#: version. A change of what an input means changes the hash: bump ENCODING_VERSION (network files of the old one
#: are then refused) and pin the new hash here.
PINNED = {1: "46569eae00e31572e8c063f1d6fc81140dae6952a757248a08922efd55284ac5"}


def _pinned_positions():
    game = splendor.new_game(players=2, seed=7, first_player=0)
    out = []
    for text in ("reserve deck 2", "take white blue green", "take2 red", "reserve 1G1:4k", "reserve deck 3",
                 "take white blue black"):
        game.apply(text)
        out.append(enc.encode(game))
    return out


def test_the_encoding_is_the_one_pinned_for_its_version():
    xs = _pinned_positions()
    assert all(len(x) == enc.INPUTS for x in xs)
    digest = hashlib.sha256(json.dumps([[round(v, 6) for v in x] for x in xs]).encode()).hexdigest()
    assert enc.ENCODING_VERSION in PINNED, "a new encoding version: pin its hash"
    assert digest == PINNED[enc.ENCODING_VERSION], digest
    # seat 1 to move after seat 0's blind reservation of a level 2 card: the opponent's first reserved slot
    at = enc.GLOBALS + 2 * enc.PLAYER + 12 * enc.SLOT + 3 * enc.RESERVED
    assert xs[0][at:at + enc.RESERVED] == [1.0, 0.0] + [0.0] * 11 + [0.0, 1.0, 0.0] + [0.0, 0.0]


def test_an_opponents_blind_reservation_shows_its_level():
    def after(text):
        game = splendor.new_game(players=2, seed=7, first_player=0)
        game.apply(text)
        return enc.encode(game)

    one, two, three = after("reserve deck 1"), after("reserve deck 2"), after("reserve deck 3")
    at = enc.GLOBALS + 2 * enc.PLAYER + 12 * enc.SLOT + 3 * enc.RESERVED  # the opponent's first reserved slot
    level = range(at + 2 + 11, at + 2 + 14)
    decks = {6, 7, 8}
    for a, b in ((one, two), (two, three), (one, three)):
        differ = {i for i, (u, v) in enumerate(zip(a, b)) if u != v}
        assert differ & set(level), "the level of the opponent's blind reservation does not show"
        assert differ <= decks | set(level)  # nothing else but the decks' sizes tells them apart
    assert [one[i] for i in level] == [1.0, 0.0, 0.0] and [three[i] for i in level] == [0.0, 0.0, 1.0]


# --- the search -------------------------------------------------------------------------------------------------

class CountingUniform(netrun.UniformEvaluator):
    def __init__(self):
        self.evaluations = 0


def test_the_search_searches_the_universes_asked_for():
    game = splendor.new_game(players=2, seed=9)
    for universes in (1, 3, 5):
        params = puct.SearchParams(universes=universes)
        assert params.universes == universes and params.to_dict()["universes"] == universes
        ev = CountingUniform()
        puct.search(game, 0, ev, params, random.Random(1), Budget(iterations=1).clock())
        assert ev.evaluations == universes + 1  # a root for each universe, then the one walk's new position


class Leaning:
    """Every position is even (value 0); the first legal move has prior 0.5, the second 0.3, the rest share 0.2."""

    def evaluate(self, game):
        moves, _ = enc.legal_indexed(game)
        rest = 0.2 / (len(moves) - 2)
        return moves, [0.5, 0.3] + [rest] * (len(moves) - 2), 0.0


def test_a_move_not_yet_tried_is_valued_at_its_positions_value_less_the_fpu():
    """After one walk down the favourite (its value 0), the second walk compares it again, 0 + 1.25 x 0.5 / 2 =
    0.3125, with the second move not yet tried, (0 - fpu) + 1.25 x 0.3: 0.175 at fpu 0.2 (the favourite again),
    0.375 at fpu 0 (the second move)."""
    game = splendor.new_game(players=2, seed=9)

    def visits(fpu):
        params = puct.SearchParams(fpu=fpu, universes=1)
        _, _, stats, _, _ = puct.search(game, 0, Leaning(), params, random.Random(1), Budget(iterations=2).clock())
        return [n for n, _ in stats[:2]]

    assert visits(0.2) == [2, 0]
    assert visits(0.0) == [1, 1]
    assert visits(0.5) == [2, 0]
