"""Training the expert's network: the positions read from game records with visits, the fit, the shuffles that leave
the game unchanged, and the batched self-play runner whose records the fit reads."""

import gzip
import json

import pytest

np = pytest.importorskip("numpy")

import splendor  # noqa: E402
from splendor.ai import encoding as enc  # noqa: E402
from splendor.ai.expert import ExpertBot  # noqa: E402
from splendor.ai.netfile import random_net, read_net, write_net  # noqa: E402
from splendor.training import netdata, netfit, netplay  # noqa: E402


def test_forced_playouts_are_pruned_as_the_agents_training_does():
    # KataGo's k = 2, as the agent's search: b loses floor(sqrt(2 x 0.3 x 800)) = 21 visits, c's 2 become 0
    assert netdata.pruned({"a": 500, "b": 30, "c": 2}, {"a": 0.5, "b": 0.3, "c": 0.2}, 800) == {"a": 500, "b": 9,
                                                                                              "c": 0}
    assert netdata.pruned({"a": 5, "b": 3}, None, 800) == {"a": 5, "b": 3}
    assert netdata.pruned({"a": 40, "b": 40, "c": 9}, {"a": 0.1, "b": 0.1, "c": 0.1}, 800) == {"a": 40, "b": 40,
                                                                                             "c": 0}


@pytest.fixture(scope="module")
def selfplay_records():
    net = random_net(seed=3, hidden=(16,))
    records, evaluations = netplay.play(net, seeds=[11, 12], sims=6, explore=4)
    return records, evaluations


def test_batched_self_play_finishes_games_and_records_every_decision(selfplay_records):
    records, evaluations = selfplay_records
    assert len(records) == 2 and evaluations > 0
    for rec in records:
        game = splendor.replay({k: rec[k] for k in ("format", "version", "players", "seed", "first_player",
                                                    "variants", "actions", "deals")})
        assert game.is_over and sorted(rec["winners"]) == sorted(game.winners)
        plies = [d["ply"] for d in rec["decisions"]]
        assert plies == sorted(plies) and len(plies) >= 20
        for d in rec["decisions"]:
            assert 6 <= sum(d["visits"].values()) <= 6 + 3  # the simulations (a universe's root may add none)
            assert abs(sum(d["prior"].values()) - 1) < 0.01


def test_self_play_turns_the_cycle_collector_off_only_while_it_plays():
    import gc

    seen = []
    net = random_net(seed=3, hidden=(8,))
    was = gc.isenabled()
    try:
        for start in (True, False):
            (gc.enable if start else gc.disable)()
            netplay.play(net, seeds=[5], sims=2, explore=0, progress=lambda done, total: seen.append(gc.isenabled()))
            assert gc.isenabled() is start  # as the caller had it
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)  # off at every move


def test_self_play_opening_positions_when_first_walked_through_plays_the_same_games():
    from splendor.ai.expert import NET_FILE

    with open(NET_FILE, encoding="utf-8") as f:
        net = read_net(f.read())  # the shipped network: its priors and values shape the trees as in real self-play
    lazy, lazy_evals = netplay.play(net, seeds=[21, 22], sims=24, explore=4, lazy=True)
    eager, eager_evals = netplay.play(net, seeds=[21, 22], sims=24, explore=4, lazy=False)
    assert lazy == eager and lazy_evals == eager_evals
    assert all(len(rec["decisions"]) >= 20 for rec in lazy)


def test_records_become_positions_with_legal_targets(selfplay_records):
    records, _ = selfplay_records
    rows = [row for rec in records for row in netdata.record_rows(json.loads(json.dumps(rec)))]
    assert len(rows) == sum(len(r["decisions"]) for r in records)
    game = splendor.Game(players=2, seed=records[0]["seed"], first_player=0, deals=records[0]["deals"])
    first = rows[0]
    moves, index = enc.legal_indexed(game)
    assert first[0] == enc.encode(game)
    assert abs(sum(first[1]) - 1) < 1e-9
    assert {i for i, p in enumerate(first[1]) if p > 0} <= set(index)
    assert all(z in (-1.0, 0.0, 1.0) for _, _, z, _, _ in rows)


def test_built_arrays_hold_every_row_and_number_games_across_files(selfplay_records, tmp_path):
    records, _ = selfplay_records
    other = dict(records[0], players=3)  # a record of another table: no rows, yet a game in the count
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl.gz"
    first.write_text("".join(json.dumps(r) + "\n" for r in [records[0], other, records[1]]))
    with gzip.open(second, "wt", encoding="utf-8") as f:
        f.write(json.dumps(records[1]) + "\n")
    expected = [(row, g) for g, rec in enumerate([records[0], other, records[1], records[1]])
                for row in netdata.record_rows(rec)]
    for jobs in (1, 2):
        data = netdata.build([str(first), str(second)], jobs=jobs)
        assert data["x"].dtype == np.float32 and data["game"].dtype == np.int32
        assert data["game"].tolist() == [g for _, g in expected]
        assert np.array_equal(data["x"], np.asarray([row[0] for row, _ in expected], np.float32))
        assert np.array_equal(data["pi"], np.asarray([row[1] for row, _ in expected], np.float32))
        assert data["z"].tolist() == [row[2] for row, _ in expected]
    chunked, games = netdata._file_rows(str(first), chunk=1)
    whole, _ = netdata._file_rows(str(first), chunk=100)
    assert games == 3 and all(np.array_equal(chunked[k], whole[k]) for k in whole)


def test_a_file_becomes_arrays_as_it_is_read_not_after(selfplay_records, tmp_path):
    import tracemalloc

    records, _ = selfplay_records
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records * 8))
    peaks = {}
    for chunk in (1, 1000):
        tracemalloc.start()
        try:
            arrays, _ = netdata._file_rows(str(path), chunk=chunk)
            peaks[chunk] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    # rows held as Python lists take several times their arrays' bytes (a 20,000-game file: more than 20 GB)
    assert peaks[1] < 0.6 * peaks[1000]
    assert peaks[1] < 3.5 * arrays["x"].nbytes


def test_a_shuffle_of_the_market_moves_the_input_and_the_move_index_together():
    class Reverse:
        """The first group (the level 1 market) reversed, every other group as it is."""

        def __init__(self):
            self.calls = 0

        def permutation(self, n):
            self.calls += 1
            return np.arange(n)[::-1] if self.calls == 1 else np.arange(n)

    game = splendor.new_game(players=2, seed=8)
    game.apply("take white blue green")
    state = game.to_dict()
    state["market"][0] = state["market"][0][::-1]
    mirror = splendor.Game.from_dict(state)
    xc, mc = netfit.permutation(Reverse())
    x = np.asarray(enc.encode(game), np.float32)
    assert np.array_equal(x[xc], np.asarray(enc.encode(mirror), np.float32))
    for a in game.legal_actions():
        if a.kind in ("buy", "reserve") and a.card is not None and a.card.level == 1:
            assert mc[enc.action_index(mirror, a)] == enc.action_index(game, a)
    assert sorted(xc.tolist()) == list(range(enc.INPUTS)) and sorted(mc.tolist()) == list(range(enc.ACTION_COUNT))


def test_a_policy_weight_of_zero_leaves_a_positions_targets_out_of_the_fit():
    rng = np.random.default_rng(2)
    model = netfit.MLP([enc.INPUTS, 16, enc.ACTION_COUNT + 1], rng)
    x = rng.random((3, enc.INPUTS), dtype=np.float32)
    pi_a = np.eye(enc.ACTION_COUNT, dtype=np.float32)[[0, 5, 9]]
    pi_b = np.eye(enc.ACTION_COUNT, dtype=np.float32)[[0, 5, 40]]  # another target for the last position only
    vt = np.array([0.5, -0.5, 1.0], np.float32)
    weights = np.array([1.0, 1.0, 0.0], np.float32)

    def grads(pi, pw):
        return [g for pair in netfit.losses(model, x, pi, vt, pw)[3] for g in pair]
    for ga, gb in zip(grads(pi_a, weights), grads(pi_b, weights)):
        assert np.allclose(ga, gb)  # the last position's policy target moves nothing
    assert any(not np.allclose(ga, gb) for ga, gb in zip(grads(pi_a, None), grads(pi_b, None)))
    for ga, gb in zip(grads(pi_a, np.ones(3, np.float32)), grads(pi_a, None)):
        assert np.allclose(ga, gb)  # weights of 1 are the plain mean


def test_a_fit_learns_its_positions_and_writes_a_file_the_expert_plays(selfplay_records, tmp_path):
    records, _ = selfplay_records
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    data = netdata.build([str(path)])
    before = netfit.evaluate(netfit.MLP([enc.INPUTS, 16, enc.ACTION_COUNT + 1], np.random.default_rng(1)), data,
                             np.arange(len(data["x"])))
    model, figures = netfit.fit(data, epochs=30, batch=16, lr=3e-3, hidden=(16,), holdout=2, log=lambda s: None)
    after = netfit.evaluate(model, data, np.flatnonzero(data["game"] % 2 != 0))
    assert after["policy_ce"] < before["policy_ce"]
    assert set(figures) >= {"top1", "policy_ce", "value_mse_result", "value_sign"}
    net = read_net(write_net(model.to_net({"held_out": figures})))
    assert net.meta["held_out"] == figures
    game = splendor.new_game(players=2, seed=4)
    action, info = ExpertBot(net=net).decide(game.observation(0), __import__("random").Random(1), {"iterations": 20})
    assert info["net"] is True and action in game.legal_actions()


def test_netfit_and_netplay_commands_write_their_files(tmp_path, capsys):
    from splendor.__main__ import main

    net_path = tmp_path / "net.json"
    net_path.write_text(write_net(random_net(seed=2, hidden=(8,))))
    games = tmp_path / "g.jsonl.gz"
    assert main(["netplay", "--net", str(net_path), "--games", "2", "--batch", "2", "--sims", "4",
                 "--out", str(games)]) == 0
    assert "positions (decisions recorded) per CPU-hour" in capsys.readouterr().out
    out = tmp_path / "fitted.json"
    assert main(["netfit", "--data", str(games), "--out", str(out), "--epochs", "2", "--hidden", "8",
                 "--holdout", "2", "--jobs", "1", "--start", str(net_path)]) == 0
    fitted = read_net(out.read_text())
    assert fitted.meta["command"].startswith("python -m splendor netfit")
    assert fitted.meta["positions"] > 0


def test_a_netplay_run_stopped_midway_keeps_the_batches_it_finished(tmp_path, monkeypatch):
    """Each batch is written when it is done, as a whole gzip member: a run interrupted in its third batch leaves
    the first two batches' games, readable."""
    import gzip
    import json

    from splendor.__main__ import main

    net_path = tmp_path / "net.json"
    net_path.write_text(write_net(random_net(seed=2, hidden=(8,))))
    real = netplay._task
    done = []

    def stopping(task):
        if len(done) == 2:
            raise KeyboardInterrupt  # (a machine taken back, a session's end)
        done.append(task)
        return real(task)

    monkeypatch.setattr(netplay, "_task", stopping)
    games = tmp_path / "g.jsonl.gz"
    with pytest.raises(KeyboardInterrupt):
        main(["netplay", "--net", str(net_path), "--games", "6", "--batch", "2", "--sims", "4", "--out", str(games)])
    with gzip.open(games, "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    assert [r["seed"] for r in records] == [90001, 90002, 90003, 90004]  # the first two batches, whole


def test_the_harness_raw_log_becomes_records_that_replay_and_train(tmp_path):
    import random

    from splendor.ai import get_bot

    game = splendor.new_game(players=2, seed=77, first_player=1)
    bot = get_bot("medium")
    raw = {"seed": 77, "first_player": 1, "az_seat": 1, "az_visits": [], "opp_visits": [], "actions": []}
    while not game.is_over:
        seat = game.current_player
        action = bot.choose(game.observation(seat), random.Random(len(game.history)))
        if game.phase == "action":
            key = "az_visits" if seat == 1 else "opp_visits"
            raw[key].append([len(raw["actions"]), {str(action): 7}, 0.25, {"prior": {str(action): 1.0}}])
        raw["actions"].append(str(action))
        game.apply(action)
    raw["winners"] = list(game.winners)
    path = tmp_path / "raw.jsonl"
    path.write_text(json.dumps(raw) + "\n" + json.dumps({**raw, "winners": [1 - raw["winners"][0]]}) + "\n")
    from splendor.__main__ import main
    out = tmp_path / "games.jsonl.gz"
    assert main(["netdata", "--harness", str(path), "--sims", "100", "--out", str(out)]) == 0
    recs = [json.loads(line) for line in __import__("gzip").open(out, "rt")]
    assert len(recs) == 1  # the second game's winners do not replay: refused, not written
    rec = recs[0]
    assert rec["sims"] == 100 and rec["winners"] == raw["winners"]
    assert [d["ply"] for d in rec["decisions"]] == sorted(d[0] for d in raw["az_visits"] + raw["opp_visits"])
    assert splendor.replay(rec).winners == game.winners
    rows = netdata.record_rows(rec)
    assert len(rows) == len(rec["decisions"]) and all(max(pi) == 1.0 for _, pi, _, _, _ in rows)


def test_netfit_at_four_players_writes_a_four_player_network_the_expert_plays(tmp_path):
    """``netfit --players 4`` writes a file that says 4 players, which the expert then plays at that table (issue 72:
    a file that said 2 players, which the expert refuses, passed the suite)."""
    import gzip
    import random

    from splendor.__main__ import main
    from splendor.ai import get_bot
    from splendor.ai.expert import ExpertBot

    bot = get_bot("medium")
    lines = []
    for seed in (3, 4, 5):
        game = splendor.new_game(players=4, seed=seed, first_player=seed % 4)
        rec = {"players": 4, "seed": seed, "first_player": seed % 4, "actions": [], "decisions": [], "sims": 100}
        while not game.is_over:
            action = bot.choose(game.observation(game.current_player), random.Random(len(game.history)))
            if game.phase == "action":
                rec["decisions"].append({"ply": len(rec["actions"]), "visits": {str(action): 9}, "value": 0.0})
            rec["actions"].append(str(action))
            game.apply(action)
        rec["winners"] = list(game.winners)
        lines.append(json.dumps(rec))
    data = tmp_path / "four.jsonl.gz"
    with gzip.open(data, "wt") as f:
        f.write("\n".join(lines) + "\n")
    out = tmp_path / "four.json"
    assert main(["netfit", "--data", str(data), "--out", str(out), "--players", "4", "--epochs", "1", "--hidden", "8",
                 "--holdout", "3", "--jobs", "1"]) == 0
    net = read_net(out.read_text())
    assert net.players == 4
    game = splendor.new_game(players=4, seed=9)
    expert = ExpertBot(net=net)
    assert expert.net_problem_at(4) is None and expert.evaluator_at(4) is not None
    _, info = expert.decide(game.observation(0), random.Random(1), {"iterations": 8})
    assert info.get("net") is True
