"""The compiled twin of self-play held to the engine (splendor/training/twin, issue 74): a sample of the long check
(``python -m splendor twin --check --random 10000``), so a change of the rules that the twin does not follow fails
the suite. The twin's functions run here as plain Python (numba is a training machine's install), the same source
numba compiles."""

import math
import random

import numpy as np
import pytest

import splendor
from splendor.training.twin import check, rules


def test_random_games_agree_move_for_move_at_every_table_size():
    found, moves = check.check_random(150, seed=74)
    assert found == [] and moves > 15_000


def test_the_check_sees_a_rule_the_twin_does_not_follow(monkeypatch):
    if rules.COMPILED:
        pytest.skip("numba compiled the twin: its rules' numbers are fixed in the compiled code")
    monkeypatch.setattr(rules, "TOKEN_LIMIT", 9)  # (the twin gives tokens back over 9)
    found, _ = check.check_random(20, seed=1)
    assert len(found) >= 10 and all("engine" in f and "twin" in f for f in found)


def test_a_state_reads_the_engines_game_and_the_moves_name_the_same_actions():
    g = splendor.new_game(players=3, seed=5)
    s = check.state_of(g)
    assert s.dtype == np.int16 and len(s) == rules.SIZE and s[rules.N] == 3
    buf = np.zeros(rules.MAX_MOVES, dtype=np.int32)
    k = rules.legal_moves(s, buf)
    assert list(buf[:k]) == [check.code_of(a) for a in g.legal_actions()]
    assert rules.MAX_MOVES > 12 + 3 + 10 + 5 + 12 + 3


def test_the_command_prints_its_differences(capsys):
    assert check.main(["--check", "--random", "6", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("6 random games") and lines[-1].endswith(": 0 differences")


def test_self_play_games_replay_through_both_alike():
    """The positions self-play reaches (the expert's network against itself, Gumbel at 8 simulations), compared move
    for move: the long run is ``python -m splendor twin --check --random 0 --selfplay 1000``."""
    records = check.selfplay_records(4, seed=2, sims=8)
    found, moves = check.check_records(records)
    assert found == [] and moves > 150 and all(r["winners"] for r in records)
    # a record whose move the twin cannot follow is named
    bad = dict(records[0], actions=records[0]["actions"][:3] + ["take2 red"] * 3)
    found, _ = check.check_records([bad])
    assert found and "record 0" in found[0]


def test_the_check_compares_the_networks_input_number_for_number(monkeypatch):
    real = check.twin_encode.encode

    def off_by_a_little(s, x):
        k = real(s, x)
        x[3] += 1e-9  # (the supply's red, a hair off)
        return k

    monkeypatch.setattr(check.twin_encode, "encode", off_by_a_little)
    found, _ = check.check_random(2, seed=1)
    assert found and "input 3" in found[0]


def test_self_play_on_the_twin_makes_netplays_records_the_fit_reads():
    """Gumbel self-play over the twin's arrays (twin/selfplay.py): every move one of the engine's legal moves, the
    twin's state equal to the engine's after every decision (``check``), the records netplay's: the fit's reader
    (netdata.record_rows) takes every decision, each policy a distribution over the legal moves."""
    from splendor.ai.netfile import read_net
    from splendor.training import netdata
    from splendor.training.twin import selfplay
    from pathlib import Path
    net = read_net((Path(splendor.__file__).parent / "ai" / "expert_net.json").read_text("utf-8"))
    records, evaluations = selfplay.play(net, [11, 12, 13], sims=8, check=True)
    assert evaluations > 3 * 40 * 8
    for rec in records:
        assert rec["winners"] and rec["search"] == "gumbel" and rec["twin"]
        game = splendor.replay(rec)
        assert game.is_over and list(game.winners) == rec["winners"]
        rows = netdata.record_rows(rec)
        assert len(rows) == len(rec["decisions"]) > 20
        for d in rec["decisions"]:
            assert abs(sum(d["policy"].values()) - 1) < 0.01 and sum(d["visits"].values()) == 8
            assert -1 <= d["value"] <= 1


def test_twin_self_play_plays_like_the_python_loop_at_the_same_settings():
    """The same search on the same deals: the twin's games and the Python loop's (netplay.play) end alike in length
    (their draws differ, so their moves do too)."""
    from splendor.ai.netfile import read_net
    from splendor.training import netplay
    from splendor.training.twin import selfplay
    from pathlib import Path
    net = read_net((Path(splendor.__file__).parent / "ai" / "expert_net.json").read_text("utf-8"))
    seeds = list(range(300, 306))
    twin, _ = selfplay.play(net, seeds, sims=16)
    python, _ = netplay.play(net, seeds, sims=16, search="gumbel")
    mean = [sum(len(r["decisions"]) for r in rs) / len(rs) for rs in (twin, python)]
    assert abs(mean[0] - mean[1]) < 0.25 * mean[1], mean


def test_a_redeal_shuffles_only_what_the_mover_cannot_see():
    """The twin's universes: each level's deck and the other seats' cards reserved unseen of that level dealt again
    among the same places; the mover's own cards, the market and every count stay."""
    from splendor.training.twin import selfplay
    g = splendor.new_game(players=3, seed=8)
    for text in ("reserve deck 1", "reserve deck 2", "reserve deck 1"):
        g.apply(text)
    s = check.state_of(g)
    seat = g.current_player  # (seat 0 again; seats 1 and 2 hold a card reserved unseen)
    before = s.copy()
    selfplay.seed_rng(3)
    selfplay.redeal(s, seat)
    hidden = [rules.PLY + rules.PSIZE * q + rules.RES for q in (1, 2)]
    unseen = np.r_[rules.DECK:rules.DECK + 90, hidden]
    assert sorted(s[unseen]) == sorted(before[unseen]) and not np.array_equal(s[unseen], before[unseen])
    others = np.setdiff1d(np.arange(rules.SIZE), unseen)
    assert np.array_equal(s[others], before[others])
    assert all(rules.LEVEL[s[i]] == rules.LEVEL[before[i]] for i in hidden)


@pytest.mark.parametrize("players", [3, 4])
def test_self_play_on_the_twin_at_three_and_four_seats_makes_records_the_fit_reads(players):
    """The twin plays at the network's table size (a 3- or 4-seat network: a value per seat): every move one of the
    engine's legal moves and the twin's state the engine's after every decision (``check``), and the fit's reader
    takes every decision with each seat's share of the win as its value target."""
    from splendor.ai.netfile import random_net
    from splendor.training import netdata
    from splendor.training.twin import selfplay
    net = random_net(seed=players, hidden=(16,), players=players)
    records, _ = selfplay.play(net, [31], sims=4, check=True, round_limit=12)
    (rec,) = records
    assert rec["players"] == players and len(rec["decisions"]) >= 12 * players
    game = splendor.replay(rec)
    assert game.round > 12 and {len(d["visits"]) and sum(d["visits"].values()) for d in rec["decisions"]} == {4}
    rows = netdata.record_rows(rec, players=players)
    assert len(rows) == len(rec["decisions"])
    for row in rows:
        assert len(row[2]) == players and abs(sum(row[2]) - 1) < 1e-9 and -1 <= row[3] <= 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_twins_seat_values_are_the_expert_searchs(players):
    """A position's values in the twin's tree are the Python search's, seat for seat: the network's outputs read
    for the mover (puct.seat_values of netrun's value), the same input's values handed to a position of another
    mover turned with the seats, and an end's results (puct.result_values)."""
    from types import SimpleNamespace
    from splendor.ai import encoding as E
    from splendor.ai import puct
    from splendor.ai.netrun import seat_chances
    from splendor.training.twin import selfplay
    rng = np.random.default_rng(players)
    out = rng.normal(size=(2, E.ACTION_COUNT + (1 if players == 2 else players))).astype(np.float32)
    for mover in range(players):
        got = np.zeros(players)
        selfplay._net_values(got, mover, out, 1)
        value = math.tanh(out[1, E.ACTION_COUNT]) if players == 2 else seat_chances(out[1].tolist())
        want = puct.seat_values(SimpleNamespace(current=mover, n=players), value)
        assert np.allclose(got, want, atol=1e-6), (mover, got, want)
        moved = np.zeros(players)
        selfplay._same_values(moved, (mover + 1) % players, got, mover)
        assert np.allclose(moved, np.roll(got, 1))
    game = splendor.new_game(players=players, seed=5)
    pick = random.Random(players)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply_unchecked(legal[pick.randrange(len(legal))])
    ends = np.zeros(players)
    selfplay._result_values(check.state_of(game), ends)
    assert list(ends) == puct.result_values(game) and max(ends) > -1


def test_netplay_on_the_twin_plays_a_four_seat_network_and_refuses_a_comparison_it_cannot_make(tmp_path, capsys):
    """``netplay --twin`` with a 4-player network writes 4-player games; ``--compare-python`` (the Python loop plays
    two seats) is refused with the reason, before a game is played."""
    import gzip
    import json
    from splendor.ai.netfile import random_net, write_net
    from splendor.training import netplay
    net = tmp_path / "net4.json"
    net.write_text(write_net(random_net(seed=2, hidden=(16,), players=4)))
    out = tmp_path / "games.jsonl.gz"
    common = ["--twin", "--net", str(net), "--search", "gumbel", "--sims", "4", "--games", "2", "--seed", "40"]
    assert netplay.main([*common, "--out", str(tmp_path / "no.jsonl"), "--compare-python", "1"]) == 2
    assert "4-player network" in capsys.readouterr().out and not (tmp_path / "no.jsonl").exists()
    assert netplay.main([*common, "--out", str(out)]) == 0
    with gzip.open(out, "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    assert [(r["seed"], r["players"]) for r in records] == [(40, 4), (41, 4)]
    assert "positions per CPU-hour" in capsys.readouterr().out
