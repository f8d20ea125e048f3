"""The soak and bench commands run through their main(argv), as `python -m splendor soak|bench` calls them."""

import re

import pytest

import splendor.__main__ as cli
from splendor import bench, soak


@pytest.mark.slow
def test_short_soak_has_no_failures(capsys):
    assert cli.main(["soak", "--games", "300", "--seed", "7", "--quiet"]) == 0
    out = capsys.readouterr().out
    summary = [line for line in out.splitlines() if line.startswith("soak:")]
    assert len(summary) == 1 and " 0 failures" in summary[0]
    games = int(summary[0].split()[1])
    actions = int(summary[0].split(" actions")[0].rsplit(" ", 1)[1])
    assert games >= 300 and actions > 300 * 80
    assert "bot games" in summary[0]
    with_search = re.search(r"(\d+) with hard, (\d+) with expert", summary[0])  # both search bots played
    assert with_search and int(with_search.group(1)) > 0 and int(with_search.group(2)) > 0, summary[0]


def test_soak_reports_a_broken_invariant_and_exits_non_zero(monkeypatch, capsys):
    calls = {"n": 0}
    real = soak.check_invariants

    def broken_after_a_while(game):
        calls["n"] += 1
        return real(game) + (["white tokens: 3 in the game (planted)"] if calls["n"] == 50 else [])

    monkeypatch.setattr(soak, "check_invariants", broken_after_a_while)
    assert soak.main(["--games", "3", "--bot-share", "0", "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "1 failures" in out and "FAILURE game" in out and "after action 50" in out and "(planted)" in out


def test_soak_reports_a_broken_undo(monkeypatch, capsys):
    monkeypatch.setattr(soak.Game, "undo", lambda self: self._history.pop())  # forgets to restore the state
    assert soak.main(["--games", "2", "--bot-share", "0", "--quiet"]) == 1
    assert "did not restore the state" in capsys.readouterr().out


def test_soak_reports_a_crash_as_a_failure(monkeypatch, capsys):
    def crash(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(soak, "replay", crash)
    assert soak.main(["--games", "2", "--bot-share", "0", "--quiet"]) == 1
    assert "KeyError: 'boom'" in capsys.readouterr().out


def test_soak_refuses_bad_options():
    with pytest.raises(SystemExit):
        soak.main(["--games", "0"])
    with pytest.raises(SystemExit):
        soak.main(["--bot-share", "2"])


def test_bench_prints_figures_for_each_player_count(capsys):
    assert cli.main(["bench", "--games", "4", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line.strip()[:1] in "234" and len(line.split()) == 11]
    assert [r[0] for r in rows] == ["2", "3", "4"]
    for row in rows:
        actions_per_s = float(row[1].replace(",", ""))
        assert actions_per_s > 1000
        assert row[7].endswith("x")


def test_bench_results_are_consistent():
    results = bench.run([2], games=3, seed=5, out=lambda *_: None)
    row = results[2]
    assert row["actions_per_game"] > 20 and 5 < row["rounds_per_game"] < 200
    assert row["copy_us"] > 0 and row["apply_undo_us"] > 0 and row["legal_us"] > 0
    assert row["games_per_s"] == pytest.approx(row["actions_per_s"] / row["actions_per_game"])


def test_bench_refuses_bad_options():
    with pytest.raises(SystemExit):
        bench.main(["--players", "5"])
    with pytest.raises(SystemExit):
        bench.main(["--players", "two"])
