"""The training command's value net (``python -m splendor train --net``, numpy from requirements-train.txt): what
it writes is what inference reproduces, saved positions fitted again, exploring games, unreadable files refused in
words, and a fit compared with the model in play. The net's inference and its search: test_ai_valuenet.py."""

import math
import re

import pytest

from splendor.ai import get_bot
from splendor.ai.learned import FEATURES, load_model, read_model
from splendor.ai.valuenet import ValueNet
from splendor.training import common, train
from splendor.training.arena import play_game


def test_training_a_net_writes_what_inference_reproduces(tmp_path, capsys):
    pytest.importorskip("numpy", reason="the training-only package of requirements-train.txt")
    saved = tmp_path / "pos.jsonl.gz"
    out = tmp_path / "net.json"
    assert train.main(["--out", str(out), "--seed", "6", "--games", "15", "--holdout", "3", "--net", "5",
                       "--epochs", "4", "--save-positions", str(saved)]) == 0
    text = capsys.readouterr().out
    assert f"wrote the positions to {saved}" in text
    assert "fitting a net of 5 hidden units" in text and "epoch 4/4" in text
    net = load_model(str(out))
    assert isinstance(net, ValueNet) and len(net.bias) == 5
    assert net.meta["seed"] == 6 and net.meta["hidden"] == 5 and net.meta["command"].startswith("python -m splendor")
    # the held-out loss the command printed is what the pure-Python inference scores on those positions
    header, games = train.read_positions(saved)
    assert header["seed"] == 6 and header["bots"] == ["medium", "medium"] and len(games) == 15
    total = n = 0
    for k, rows, y in games:
        if y is None or k % 3:
            continue
        for stage, v0, v1, mv, started, hand, table in rows:
            z = net.logits_of(table, [v0, v1], 0 if mv > 0 else 1, 0)[0]
            total += math.log1p(math.exp(z)) - y * z
            n += 1
    assert n and total / n == pytest.approx(net.meta["held_out_log_loss"], abs=1e-4)
    # fitting the saved positions again gives the same net (the seed is the file's)
    again = tmp_path / "again.json"
    assert train.main(["--out", str(again), "--positions", str(saved), "--holdout", "3", "--net", "5",
                       "--epochs", "4"]) == 0
    assert read_model(again).out == pytest.approx(net.out, abs=1e-6)
    # and the linear model fits them too, as it fits played games
    lin = tmp_path / "lin.json"
    assert train.main(["--out", str(lin), "--positions", str(saved), "--holdout", "3"]) == 0
    played = tmp_path / "played.json"
    assert train.main(["--out", str(played), "--seed", "6", "--games", "15", "--holdout", "3"]) == 0
    assert read_model(lin).base == read_model(played).base


def test_several_positions_files_are_fitted_together_and_each_is_recorded(tmp_path, capsys):
    files, fitted = [], []
    for seed in (3, 4):
        files.append(tmp_path / f"pos{seed}.jsonl.gz")
        out = tmp_path / f"lin{seed}.json"
        assert train.main(["--out", str(out), "--seed", str(seed), "--games", "6", "--holdout", "3",
                           "--save-positions", str(files[-1])]) == 0
        fitted.append(read_model(out).meta["positions_fitted"])
    both = tmp_path / "both.json"
    assert train.main(["--out", str(both), "--positions", str(files[0]), "--positions", str(files[1]),
                       "--holdout", "3"]) == 0
    text = capsys.readouterr().out
    assert f"from {files[0]}" in text and f"from {files[1]}" in text
    meta = read_model(both).meta
    assert meta["games"] == 12 and meta["positions_fitted"] == sum(fitted)
    assert [(s["file"], s["seed"]) for s in meta["sources"]] == [("pos3.jsonl.gz", 3), ("pos4.jsonl.gz", 4)]


def test_exploring_games_play_one_of_the_scorers_best_moves_and_are_recorded(tmp_path, capsys):
    """``train --explore EPS``: with chance EPS a move is one of the hard scorer's 8 best at random instead of the
    bot's; the chance is recorded with the saved positions and in the model."""
    seen = []
    explorer = common.Explorer(get_bot("medium"), 1.0)

    def watch(game, seat, action):
        if seat == 0 and game.phase_ == "action":
            ranked = sorted(explorer.scorer.scores(game, 0, game.legal_actions()), key=lambda t: -t[0])
            seen.append((str(action), [str(a) for _, a in ranked[:8]], str(ranked[0][1])))

    play_game([explorer, get_bot("medium")], seed=5, watch=watch)
    assert all(a in top for a, top, _ in seen)
    assert sum(a != best for a, _, best in seen) > len(seen) / 2  # not the scorer's own pick, mostly
    out, saved = tmp_path / "x.json", tmp_path / "x.jsonl.gz"
    assert train.main(["--out", str(out), "--seed", "3", "--games", "6", "--holdout", "3", "--explore", "0.5",
                       "--save-positions", str(saved)]) == 0
    assert train.read_positions(saved)[0]["explore"] == 0.5
    assert read_model(out).meta["explore"] == 0.5
    plain = tmp_path / "plain.json"
    assert train.main(["--out", str(plain), "--seed", "3", "--games", "6", "--holdout", "3"]) == 0
    assert read_model(plain).base != read_model(out).base and "explore" not in read_model(plain).meta
    with pytest.raises(SystemExit):
        train.main(["--out", str(out), "--seed", "3", "--explore", "1.5"])
    assert "--explore is a chance" in capsys.readouterr().err


def test_a_positions_file_that_cannot_be_read_is_refused_in_words(tmp_path, capsys):
    bad = tmp_path / "bad.gz"
    bad.write_text("plain text")
    with pytest.raises(SystemExit):
        train.main(["--out", str(tmp_path / "x.json"), "--positions", str(bad)])
    assert "--positions" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        train.main(["--out", str(tmp_path / "x.json")])  # neither a seed to play nor positions
    assert "--seed is needed" in capsys.readouterr().err


def test_a_fit_is_compared_with_the_model_in_play_on_the_same_held_out_positions(tmp_path, capsys):
    """The command prints, beside the held-out loss, how the written model and the reference (``--model``, else the
    shipped model) judge the held-out positions as the search reads them: each figure is the mean log loss of that
    model's own chances (``chances_against_best``) for seat 0."""
    saved = tmp_path / "pos.jsonl.gz"
    out = tmp_path / "lin.json"
    assert train.main(["--out", str(out), "--seed", "5", "--games", "9", "--holdout", "3",
                       "--save-positions", str(saved)]) == 0
    text = capsys.readouterr().out
    m = re.search(r"as the search reads them \(the start seat's term left out\), on the same held-out positions: "
                  r"this model ([\d.]+), the shipped model ([\d.]+)", text)
    assert m, text
    _, games = train.read_positions(saved)

    def loss(model):
        total = n = 0
        for k, rows, y in games:
            if y is None or k % 3:
                continue
            for stage, v0, v1, mv, *_ in rows:
                st = model.standings_of(stage, [v0[:len(FEATURES)], v1[:len(FEATURES)]])
                p = model.chances_against_best(st, 0 if mv > 0 else 1)[0]
                total -= y * math.log(p) + (1 - y) * math.log(1 - p)
                n += 1
        return total / n

    mine, shipped = read_model(out), load_model()
    assert float(m.group(1)) == pytest.approx(loss(mine), abs=1e-4)
    assert float(m.group(2)) == pytest.approx(loss(shipped), abs=1e-4)
    assert mine.meta["reference"] == {"file": "expert_model.json", "held_out_log_loss": round(loss(shipped), 5)}
    # with --model, that model is the reference (here the fit just written: the same figure twice)
    again = tmp_path / "again.json"
    assert train.main(["--out", str(again), "--positions", str(saved), "--holdout", "3", "--model", str(out)]) == 0
    m = re.search(r"this model ([\d.]+), --model ([\d.]+)", capsys.readouterr().out)
    assert m and float(m.group(2)) == pytest.approx(loss(mine), abs=1e-4)
