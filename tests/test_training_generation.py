"""One self-play generation in one command (``python -m splendor generation``): its steps leave their files, a run
again skips what is done, and a run stopped inside self-play starts that step afresh."""

import gzip
import json
import os

import pytest

pytest.importorskip("numpy")

from splendor.ai import netfile  # noqa: E402
from splendor.training import generation, netplay  # noqa: E402

SMALL = ["--games", "4", "--batch", "2", "--sims", "4", "--epochs", "1", "--screen-games", "2", "--screen-sims", "4",
         "--jobs", "1", "--seed", "5000"]


def _games(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line)["seed"] for line in f if line.strip()]


def test_a_generation_leaves_its_files_and_a_second_run_skips_them(tmp_path, capsys):
    prev = tmp_path / "prev.json"
    prev.write_text(netfile.write_net(netfile.random_net(seed=3, hidden=(16,))))
    gen = tmp_path / "g1"
    assert generation.main(["--net", str(prev), "--dir", str(gen), *SMALL]) == 0
    out = capsys.readouterr().out
    assert sorted(os.listdir(gen)) == ["games.jsonl.gz", "generation.json", "net.json", "screen.json", "times.json"]
    assert sorted(_games(gen / "games.jsonl.gz")) == [5000, 5001, 5002, 5003]
    net = netfile.read_net((gen / "net.json").read_text())
    assert net.shapes == netfile.read_net(prev.read_text()).shapes  # fitted from the previous network
    meta = json.loads((gen / "generation.json").read_text())
    assert meta["screen"]["games"] == 2 and meta["passed"] == (meta["screen"]["wins"] > 1)
    assert meta["previous"] == "prev.json" and str(tmp_path) not in json.dumps(meta)
    assert "| g1 | 4 games, 4 simulations (gumbel) |" in out
    spent = meta["seconds"]
    assert set(spent) == {"self_play", "fit", "screen", "total"}
    assert spent["total"] == spent["self_play"] + spent["fit"] + spent["screen"]
    assert f"generation: 4 games in {spent['total'] / 60:.1f} minutes (self-play" in out
    stamps = {name: (gen / name).stat().st_mtime_ns for name in ("games.jsonl.gz", "net.json", "screen.json")}
    # the steps' times as they ran, not the second run's (which only skips): a resumed generation keeps its figure
    times = json.loads((gen / "times.json").read_text())
    times["fit"] = 600
    (gen / "times.json").write_text(json.dumps(times))
    assert generation.main(["--net", str(prev), "--dir", str(gen), *SMALL]) == 0
    out = capsys.readouterr().out
    assert out.count("skipped") == 3
    assert {name: (gen / name).stat().st_mtime_ns for name in stamps} == stamps
    again = json.loads((gen / "generation.json").read_text())["seconds"]
    assert again["fit"] == 600 and again["total"] == spent["self_play"] + 600 + spent["screen"]


def test_a_run_stopped_inside_self_play_starts_its_games_afresh(tmp_path, monkeypatch):
    prev = tmp_path / "prev.json"
    prev.write_text(netfile.write_net(netfile.random_net(seed=4, hidden=(16,))))
    gen = tmp_path / "g2"
    real = netplay.main
    calls = []

    def stopped(args):  # the first run plays its first batch, then the machine goes away
        calls.append(args)
        if len(calls) == 1:
            real([*args[:args.index("--games") + 1], "2", *args[args.index("--games") + 2:]])
            raise KeyboardInterrupt
        return real(args)

    monkeypatch.setattr(netplay, "main", stopped)
    with pytest.raises(KeyboardInterrupt):
        generation.main(["--net", str(prev), "--dir", str(gen), *SMALL])
    assert os.listdir(gen) == ["games.partial.jsonl.gz"]  # the finished batch, under its partial name (no time)
    assert generation.main(["--net", str(prev), "--dir", str(gen), *SMALL]) == 0
    assert set(json.loads((gen / "times.json").read_text())) == {"self_play", "fit", "screen"}
    assert sorted(_games(gen / "games.jsonl.gz")) == [5000, 5001, 5002, 5003]  # each game once
    assert not (gen / "games.partial.jsonl.gz").exists()


def test_a_twin_generation_shares_its_deals_among_its_jobs(tmp_path, capfd):
    """``--twin``: self-play on the compiled twin (``netplay --twin``), its batches shared among the jobs' processes
    (5 games in batches of 2 on 2 jobs), into one file that holds every deal once, each record the twin's."""
    prev = tmp_path / "prev.json"
    prev.write_text(netfile.write_net(netfile.random_net(seed=5, hidden=(16,))))
    gen = tmp_path / "g3"
    small = [*SMALL]
    small[small.index("--games") + 1] = "5"
    small[small.index("--jobs") + 1] = "2"
    assert generation.main(["--net", str(prev), "--dir", str(gen), "--twin", *small]) == 0
    with gzip.open(gen / "games.jsonl.gz", "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    assert sorted(r["seed"] for r in records) == [5000, 5001, 5002, 5003, 5004]
    assert all(r["twin"] and r["search"] == "gumbel" and r["decisions"] for r in records)
    assert sorted(os.listdir(gen)) == ["games.jsonl.gz", "generation.json", "net.json", "screen.json", "times.json"]
    assert json.loads((gen / "generation.json").read_text())["self_play"]["twin"] is True
    assert capfd.readouterr().out.count("twin (") == 1  # one figure for all the jobs' batches
    with pytest.raises(SystemExit):
        generation.main(["--net", str(prev), "--dir", str(tmp_path / "g4"), "--twin", "--search", "puct", *SMALL])
