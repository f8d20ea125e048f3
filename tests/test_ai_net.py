"""The net-guided expert under CPython: the encoding, the network file, the backends against the reference, the
PUCT search (with a uniform stand-in and with a small random network) and the expert's choice of search."""

import json
import random

import pytest

import splendor
from splendor.ai import encoding as enc
from splendor.ai import expert as expert_mod
from splendor.ai import netfile, netrun, puct
from splendor.ai.budget import Budget
from splendor.ai.expert import ExpertBot
from splendor.engine.game import determinize


def _positions(n=40, seed=1, players=2):
    """Action-phase positions of random games, with blind reservations and returns among them."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        g = splendor.new_game(players=players, seed=rng.randrange(10**6))
        while not g.is_over and len(out) < n:
            legal = g.legal_actions()
            blind = [a for a in legal if a.kind == "reserve" and a.card is None]
            g.apply(blind[0] if blind and rng.random() < 0.2 else rng.choice(legal))
            if g.phase == "action" and rng.random() < 0.3:
                out.append(g.copy())
    return out


# --- encoding -----------------------------------------------------------------------------------------------------

def test_the_move_index_names_every_index_once():
    assert len(set(enc.ACTION_NAMES)) == enc.ACTION_COUNT and all(enc.ACTION_NAMES)
    assert sorted(enc.TAKE_INDEX.values()) == list(range(enc.TAKES, enc.PASS))


def test_legal_moves_have_distinct_indices_that_action_index_agrees_with():
    for g in _positions(60):
        moves, index = enc.legal_indexed(g)
        assert len(set(index)) == len(index)
        assert all(0 <= i < enc.ACTION_COUNT for i in index)
        assert [enc.action_index(g, a) for a in moves] == index
        legal = g.legal_actions()
        assert all(a in legal for a in moves)
        # every legal move has its index among them (other payments of a buy share the first one's)
        assert {enc.action_index(g, a) for a in legal} == set(index)


def test_the_input_comes_from_the_observation_alone():
    """Two deals of what the mover cannot see (deck order, the opponent's blind reservations) give one input."""
    checked = 0
    for g in _positions(60, seed=3):
        obs = g.observation(g.current_player)
        a = enc.encode(determinize(obs, random.Random(1)))
        b = enc.encode(determinize(obs, random.Random(2)))
        assert a == b == enc.encode(g)
        assert len(a) == enc.INPUTS
        if any(any(t["reserved"]) and any(isinstance(r, dict) for r in t["reserved"]) for t in obs["tableaus"]):
            checked += 1
    assert checked  # some positions did hold a blind reservation of the opponent


def test_the_input_is_from_the_movers_side():
    g = splendor.new_game(players=2, seed=5)
    g.apply("take white blue green")
    x = enc.encode(g)  # seat 1 to move: its own tokens (none) come first, seat 0's three after
    first = enc.GLOBALS
    assert x[first:first + 5] == [0.0] * 5
    assert x[first + enc.PLAYER:first + enc.PLAYER + 3] == [0.25, 0.25, 0.25]


# --- the network file ---------------------------------------------------------------------------------------------

def _file(**change):
    data = json.loads(netfile.write_net(netfile.random_net(seed=2, hidden=(8,))))
    data.update(change)
    return json.dumps(data)


@pytest.mark.parametrize("change, words", [
    ({"format": "other"}, "not a network file"),
    ({"version": 2}, "version 2 is not supported"),
    ({"encoding": 99}, "input encoding 99"),
    ({"players": 5}, "for 5 players; a table has 2, 3 or 4"),
    ({"players": 3}, "reads 408 inputs .* the encoding has 512 and 61 at 3 players"),
    ({"players": True}, "for True players"),
    ({"inputs": 10}, "reads 10 inputs"),
    ({"dtype": "int4"}, "stored as 'int4'; this version reads float16 or int8"),
    ({"layers": [[408, 8, "relu"], [8, 62, "sigmoid"]]}, "'relu' or 'linear'"),
    ({"layers": [[408, 8, "relu"], [8, 61, "linear"]]}, "not 61 moves and a value"),
    ({"layers": [[408, 12, "relu"], [12, 62, "linear"]]}, "not a multiple of 8"),
    ({"layers": [[408, 8, "relu"], [8, 62, "relu"]]}, "last layer must be linear"),
    ({"weights": "AAAA"}, "weights are 3 bytes; its layers stored as float16 need 7660"),
    ({"weights": "not base64!"}, "not base64"),
])
def test_a_file_that_does_not_fit_is_refused_with_its_reason(change, words):
    with pytest.raises(netfile.NetFileError, match=words):
        netfile.read_net(_file(**change))


def test_not_json_and_infinite_weights_are_refused():
    with pytest.raises(netfile.NetFileError, match="not JSON"):
        netfile.read_net("{")
    net = netfile.random_net(seed=2, hidden=(8,))
    net.layers[0][0][0] = float("inf")
    with pytest.raises(netfile.NetFileError, match="not finite"):
        netfile.read_net(netfile.write_net(net))


def test_a_file_round_trips_at_float16():
    net = netfile.random_net(seed=4, hidden=(16, 8))
    again = netfile.read_net(netfile.write_net(net, meta={"made": "test"}))
    assert again.shapes == [(enc.INPUTS, 16), (16, 8), (8, enc.ACTION_COUNT + 1)]
    assert [list(l[0]) for l in again.layers] == [l[0] for l in net.layers]  # already float16: exact
    assert again.meta == {"made": "test"}
    assert "parameters: " in netfile.describe(again)


def test_int8_weights_are_each_rows_scale_times_a_whole_number():
    net = netfile.random_net(seed=4, hidden=(16,))
    text = netfile.write_net(net, dtype="int8")
    assert len(text) < 0.6 * len(netfile.write_net(net))
    again = netfile.read_net(text)
    for (a, b), (W, _, _), (W8, bias8, _) in zip(net.shapes, net.layers, again.layers):
        for j in range(b):
            row, row8 = W[j * a:(j + 1) * a], W8[j * a:(j + 1) * a]
            scale = max(abs(v) for v in row8) / 127
            assert all(abs(v - w) <= scale / 2 + 1e-3 * scale for v, w in zip(row, row8))
            assert all(abs(w / scale - round(w / scale)) < 1e-6 for w in row8)
    data = json.loads(text)
    data["weights"] = data["weights"][:-8]
    with pytest.raises(netfile.NetFileError, match="stored as int8 need"):
        netfile.read_net(json.dumps(data))



def _doubles(text):
    """A network file's weights decoded in double precision, layer by layer: (W, b) as lists (the reference)."""
    import base64
    import struct

    data = json.loads(text)
    raw = base64.b64decode(data["weights"])
    at, out = 0, []
    for a, b, _ in data["layers"]:
        if data["dtype"] == "float16":
            W = list(struct.unpack_from(f"<{a * b}e", raw, at))
            at += 2 * a * b
        else:
            q = struct.unpack_from(f"<{a * b}b", raw, at)
            scales = struct.unpack_from(f"<{b}e", raw, at + a * b)
            at += a * b + 2 * b
            W = [q[j * a + i] * scales[j] for j in range(b) for i in range(a)]
        out.append((W, list(struct.unpack_from(f"<{b}e", raw, at))))
        at += 2 * b
    return out


def test_a_network_is_read_into_float32_arrays_exactly():
    """The bot worker reads the network once, and its interpreter's memory never shrinks: each layer's weights are
    float32 arrays (4 bytes a value; a list of floats took 6.1 MB for the shipped file under CPython), and float32
    holds every stored value exactly (float16, or int8 times a float16 scale)."""
    import array

    with open(expert_mod.NET_FILE, encoding="utf-8") as f:
        shipped = f.read()
    for text in (shipped, netfile.write_net(netfile.random_net(seed=3, hidden=(16,)))):
        net = netfile.read_net(text)
        for (W, bias, _), (W64, bias64) in zip(net.layers, _doubles(text)):
            assert isinstance(W, array.array) and W.typecode == "f"
            assert isinstance(bias, array.array) and bias.typecode == "f"
            assert list(W) == W64 and list(bias) == bias64


def test_describenet_prints_a_file_or_says_why_not(tmp_path, capsys):
    good = tmp_path / "net.json"
    good.write_text(netfile.write_net(netfile.random_net(seed=1, hidden=(8,))))
    from splendor.__main__ import main

    assert main(["describenet", str(good)]) == 0
    assert "input encoding 1, 2 players" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text(_file(players=5))
    assert main(["describenet", str(bad)]) == 1
    assert "for 5 players" in capsys.readouterr().err


# --- backends -----------------------------------------------------------------------------------------------------

def test_numpy_runs_the_reference_computation():
    pytest.importorskip("numpy")
    net = netfile.random_net(seed=7, hidden=(32, 16))
    ref, fast = netrun.runner_for(net, "python"), netrun.runner_for(net, "numpy")
    for g in _positions(8, seed=9):
        x = enc.encode(g)
        a, b = ref.forward(x), fast.forward(x)
        assert len(a) == enc.ACTION_COUNT + 1
        assert max(abs(u - v) for u, v in zip(a, b)) <= 1e-4 * max(1.0, max(abs(u) for u in a))


def test_the_evaluator_gives_priors_over_the_legal_moves_and_a_value():
    ev = netrun.NetEvaluator(netrun.runner_for(netfile.random_net(seed=3, hidden=(16,)), "python"))
    for g in _positions(5, seed=11):
        moves, priors, value = ev.evaluate(g)
        assert moves == enc.legal_indexed(g)[0]
        assert abs(sum(priors) - 1) < 1e-9 and all(p > 0 for p in priors)
        assert -1 <= value <= 1


# --- the search ---------------------------------------------------------------------------------------------------

class Counting(netrun.UniformEvaluator):
    """The uniform stand-in, checking that each position it is asked about is an action phase."""

    def __init__(self):
        self.evaluations = 0

    def evaluate(self, game):
        assert game.phase == "action"
        for p in game.players:
            assert p.token_count <= 10
        return super().evaluate(game)


def test_the_search_spends_its_budget_on_legal_moves_and_is_deterministic():
    for g in _positions(6, seed=13):
        seat = g.current_player
        ev = Counting()
        clock = Budget(iterations=200).clock()
        moves, prior, stats, value, depth = puct.search(g, seat, ev, puct.SearchParams(), random.Random(1), clock)
        assert sum(n for n, _ in stats) == 200 and clock.n == 200
        assert all(m in g.legal_actions() for m in moves)
        assert ev.evaluations <= 200 + 3  # one per new position, and the universes' roots
        again = puct.search(g, seat, Counting(), puct.SearchParams(), random.Random(1), Budget(iterations=200).clock())
        assert again[2] == stats and again[0] == moves


class AtOnce:
    """The network's evaluator without ``evaluate_later``: the search opens every position as it adds it."""

    def __init__(self, ev):
        self.evaluate = ev.evaluate


def test_positions_opened_when_first_walked_through_search_as_those_opened_at_once():
    runner = netrun.runner_for(netfile.random_net(seed=4, hidden=(16,)), "numpy")
    for g in _positions(4, seed=17):
        seat = g.current_player
        lazy = netrun.NetEvaluator(runner)
        opened = []
        later = lazy.evaluate_later

        def counting(game):
            value, pending = later(game)

            def opening():
                opened.append(game)
                return pending()
            return value, opening
        lazy.evaluate_later = counting
        got = puct.search(g, seat, lazy, puct.SearchParams(), random.Random(2), Budget(iterations=300).clock())
        want = puct.search(g, seat, AtOnce(netrun.NetEvaluator(runner)), puct.SearchParams(), random.Random(2),
                           Budget(iterations=300).clock())
        assert got[0] == want[0] and got[1] == want[1] and got[2] == want[2] and got[3] == want[3]
        assert 0 < len(opened) < lazy.evaluations - 3  # some positions added were never walked through


def _winning_position():
    """A position of medium bots' game where seat 1, the round's last seat, can end the game as its only winner."""
    for seed in range(1, 200):
        g = splendor.new_game(players=2, seed=seed)
        bot = splendor.ai.get_bot("medium")
        while not g.is_over:
            seat = g.current_player
            if g.phase == "action" and seat == 1:
                rival = g.players[0].points
                for a in g.legal_actions():
                    if a.kind == "buy" and g.players[1].points + a.card.points >= 15 and rival < 15:
                        win = a
                        return g, [m for m in g.legal_actions() if m.kind == "buy" and m.card is win.card]
            g.apply(bot.choose(g.observation(seat), random.Random(g.turns), None))
    raise AssertionError("no position found")


def test_the_search_finds_and_plays_a_win_that_a_uniform_prior_does_not_tell():
    g, wins = _winning_position()
    moves, prior, stats, value, depth = puct.search(g, 1, netrun.UniformEvaluator(), puct.SearchParams(),
                                                    random.Random(1), Budget(iterations=400).clock())
    best = moves[puct.best_index(stats)]
    assert best in wins
    # the evaluator's prior is uniform; the search raises the buys that reach the winning points
    raised = {p for m, p in zip(moves, prior) if m in wins}
    assert len(raised) == 1 and min(raised) > max(p for m, p in zip(moves, prior) if m not in wins)
    assert stats[puct.best_index(stats)][1] / stats[puct.best_index(stats)][0] > 0.9


def test_returns_in_the_tree_keep_ten_tokens_and_spare_gold():
    g = splendor.new_game(players=2, seed=2)
    state = g.to_dict()
    state["tableaus"][0]["tokens"] = {"white": 3, "blue": 3, "green": 2, "red": 1, "black": 0, "gold": 1}
    state["supply"] = {"white": 1, "blue": 1, "green": 2, "red": 3, "black": 4, "gold": 4}
    g = splendor.Game.from_dict(state)
    g.apply("take green red black")  # 13 tokens: three to give back
    assert g.phase == "return"
    puct.finish_turn(g)
    p = g.players[0]
    assert g.phase == "action" and p.token_count == 10 and p.tokens["gold"] == 1


def test_search_params_are_checked():
    with pytest.raises(ValueError, match="c_puct"):
        puct.SearchParams(c_puct=-1)
    assert puct.SearchParams().to_dict() == {"c_puct": 1.25, "fpu": 0.2, "universes": 3}


# --- the expert's choice of search --------------------------------------------------------------------------------

def test_the_expert_uses_the_network_at_two_players_only():
    net = netfile.random_net(seed=5, hidden=(16,))
    bot = ExpertBot(net=net)
    g2 = _positions(1, seed=17)[0]
    _, info = bot.decide(g2.observation(g2.current_player), random.Random(1), {"iterations": 60})
    assert info["net"] is True and info["iterations"] == 60 and len(info["candidates"]) <= 4
    g3 = _positions(1, seed=17, players=3)[0]
    _, info3 = bot.decide(g3.observation(g3.current_player), random.Random(1), {"iterations": 60})
    assert "net" not in info3 and info3["iterations"] == 60


def test_a_refused_network_file_leaves_the_tree_search_playing(tmp_path, monkeypatch):
    bad = tmp_path / "expert_net.json"
    bad.write_text(_file(encoding=7))
    monkeypatch.setitem(expert_mod.NET_FILES, 2, str(bad))
    monkeypatch.setattr(expert_mod, "_NETS", {})
    bot = ExpertBot()
    assert bot.evaluator is None and "input encoding 7" in bot.net_problem
    g = _positions(1, seed=19)[0]
    action, info = bot.decide(g.observation(g.current_player), random.Random(1), {"iterations": 30})
    assert action in g.legal_actions() and "net" not in info
    monkeypatch.setitem(expert_mod.NET_FILES, 2, str(tmp_path / "missing.json"))
    monkeypatch.setattr(expert_mod, "_NETS", {})
    assert ExpertBot().net_problem == "no network file"


def test_the_expert_plays_whole_games_with_a_network_in_every_phase():
    """Returns, nobles and the veto variant's first decisions go through the expert too; every answer is legal."""
    net = netfile.random_net(seed=6, hidden=(16,))
    bot = ExpertBot(net=net)
    for seed, variants in ((3, ()), (4, ("noble_veto",))):
        g = splendor.new_game(players=2, seed=seed, variants=variants)
        phases = set()
        while not g.is_over and g.round < 60:
            seat = g.current_player
            phases.add(g.phase)
            action = bot.choose(g.observation(seat), random.Random(g.turns), {"iterations": 12})
            g.apply(action)
        assert "action" in phases
        if variants:
            assert "veto" in phases
