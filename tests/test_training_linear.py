"""The training command of the linear value model (``python -m splendor train``, splendor/training/train.py and
train_tables.py): its games, its fits (two-player and a larger table's), the figures it prints and records, and
its checks of its arguments. The model itself, its inference and the search that uses it: test_ai_expert.py."""

import math
import random
import re

import pytest

from splendor.ai import learned
from splendor.ai.learned import FEATURES, ValueModel, load_model


def test_train_command_runs_end_to_end(tmp_path, capsys):
    import splendor.__main__ as cli
    from splendor.training import train

    out = tmp_path / "w.json"
    assert cli.main(["train", "--out", str(out), "--seed", "3", "--games", "12", "--holdout", "3"]) == 0
    text = capsys.readouterr().out
    assert "playing 12 games of medium against medium (seed 3, 1 job(s))" in text
    assert re.search(r"games 12/12, \d+ positions, \d+ s, about 0 s left", text), text
    m = re.search(r"(\d+) positions to fit, (\d+) held out", text)
    assert m and int(m.group(1)) > int(m.group(2)) > 0
    held = re.search(r"log loss: held-out ([\d.]+) \(fitted positions ([\d.]+)\); on the held-out positions the "
                     r"hard bot's hand-set leaf scores ([\d.]+), a constant guess ([\d.]+)", text)
    assert held, text
    model = ValueModel.load(out)  # the same format as the shipped file
    assert model.meta["seed"] == 3 and model.meta["games"] == 12
    assert model.meta["held_out_log_loss"] == pytest.approx(float(held.group(1)), abs=1e-4)
    assert model.meta["command"] == f"python -m splendor train --out {out} --seed 3 --games 12 --holdout 3"
    # the same seed plays the same games and fits the same model
    again = tmp_path / "again.json"
    assert train.main(["--out", str(again), "--seed", "3", "--games", "12", "--holdout", "3"]) == 0
    assert ValueModel.load(again).base == model.base
    with pytest.raises(SystemExit):
        train.main(["--out", str(again), "--seed", "3", "--bots", "medium,wizard"])
    assert "--bots takes two levels among random, beginner, easy" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # a table's seats: any number of levels, each one a level
        train.main(["--players", "4", "--out", str(again), "--seed", "3", "--bots", "hard,wizard"])
    assert "--bots takes levels among random, beginner, easy" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        train.main(["--out", str(tmp_path / "no" / "such" / "w.json"), "--seed", "3"])
    with pytest.raises(SystemExit):
        train.main(["--out", str(again), "--seed", "3", "--model", str(tmp_path / "missing.json")])
    capsys.readouterr()
    # a step of expert iteration: the search with a model plays the games
    third = tmp_path / "gen2.json"
    assert train.main(["--out", str(third), "--seed", "4", "--games", "4", "--holdout", "2", "--bots",
                       "expert,medium", "--budget-iterations", "3", "--model", str(out)]) == 0
    assert "playing 4 games of expert against medium (seed 4, 3 iterations a move" in capsys.readouterr().out
    assert ValueModel.load(third).meta["model"] == str(out)


def test_the_fit_recovers_a_known_logistic_model():
    from splendor.training import train

    rng = random.Random(3)
    truth = [1.5, -0.7, 0.3]
    rows = []
    for _ in range(5000):
        x = [rng.gauss(0, 1) for _ in truth]
        p = 1 / (1 + math.exp(-sum(t * v for t, v in zip(truth, x))))
        rows.append((x, 1.0 if rng.random() < p else 0.0))
    w = train.fit(rows, l2=1e-6, sample=2000, out=lambda *a, **k: None)
    assert all(abs(a - b) < 0.12 for a, b in zip(w, truth)), w
    assert train.log_loss(rows, w) < train.log_loss(rows, [0.0, 0.0, 0.0])


def test_train_players_fits_a_table_and_adds_it_to_the_base_model(tmp_path, capsys):
    from splendor.training import train

    out = tmp_path / "w4.json"
    assert train.main(["--players", "4", "--out", str(out), "--seed", "2", "--games", "12", "--holdout", "3"]) == 0
    text = capsys.readouterr().out
    assert "playing 12 games of 4 players, medium, medium (seed 2, 1 job(s))" in text
    held = re.search(r"log loss of the winner: held-out ([\d.]+) \(fitted positions ([\d.]+)\); on the held-out "
                     r"positions the base model \(as the search read it at 4 players\) scores ([\d.]+), a uniform "
                     r"guess 1.3863", text)
    assert held, text
    model = ValueModel.load(out)
    shipped = load_model()
    assert model.base == pytest.approx(shipped.base, abs=1e-6)  # the two-player model is the base's
    table = model.tables[4]
    assert table.meta["seed"] == 2 and table.meta["games"] == 12
    assert table.meta["held_out_log_loss"] == pytest.approx(float(held.group(1)), abs=1e-4)
    assert table.meta["base_held_out_log_loss"] == pytest.approx(float(held.group(3)), abs=1e-4)
    assert table.order[0] == 0.0 and table.seat[0] == 0.0 and len(table.order) == 4
    # it fits what it was given: better than a uniform guess on the positions it saw
    assert float(held.group(2)) < math.log(4)
    # a 3-player table added to that file keeps the 4-player one
    both = tmp_path / "w34.json"
    assert train.main(["--players", "3", "--base", str(out), "--out", str(both), "--seed", "2", "--games", "6",
                       "--holdout", "3"]) == 0
    again = ValueModel.load(both)
    assert sorted(again.tables) == [3, 4] and again.tables[4].base == pytest.approx(table.base, abs=1e-6)
    capsys.readouterr()
    for bad in (["--net", "8"], ["--explore", "0.1"], ["--bots", "master"],
                ["--base", str(tmp_path / "missing.json")]):
        with pytest.raises(SystemExit):
            train.main(["--players", "4", "--out", str(out), "--seed", "2", *bad])
    with pytest.raises(SystemExit):  # --base adds a table: not for two-player models
        train.main(["--out", str(out), "--seed", "2", "--base", str(both)])


def test_a_table_is_fitted_to_the_experts_own_games_saved_and_fitted_again(tmp_path, capsys):
    """Expert iteration at a larger table: the expert plays its seats (with --model's judge), the positions are saved,
    and fitting the saved games again gives the same table, compared with the table of the model in play."""
    from splendor.training import common, train

    first, games = tmp_path / "t4.json", tmp_path / "t4.jsonl.gz"
    assert train.main(["--players", "4", "--bots", "expert,hard,hard,hard", "--budget-iterations", "4", "--games",
                       "4", "--holdout", "2", "--seed", "5", "--out", str(first), "--save-positions", str(games)]) == 0
    text = capsys.readouterr().out
    assert "playing 4 games of 4 players, expert, hard, hard, hard (seed 5, 4 iterations a move" in text
    table = ValueModel.load(first).tables[4]
    assert table.meta["bots"] == ["expert", "hard", "hard", "hard"] and table.meta["budget_iterations"] == 4
    # the games had an expert in them: the saved positions hold the seats' features as the arena played them
    header, saved = train.read_positions(str(games))
    assert header["players"] == 4 and header["bots"] == ["expert", "hard", "hard", "hard"]
    assert [k for k, _, _ in saved] == list(range(4)) and all(len(y) == 4 and sum(y) == 1 for _, _, y in saved)
    # fitted again from the file, added to a base whose own 4-player table knows nothing (every seat alike): the
    # same table, printed beside the base table's loss on the same held-out positions (a uniform guess's, log 4)
    k, two = len(FEATURES), load_model()
    blank = ValueModel(two.base, two.per_stage, two.to_move,
                       tables={4: learned.TableModel(4, [0.0] * k, [0.0] * k, [0.0] * 4, [0.0] * 4)})
    blank.save(tmp_path / "blank.json")
    again = tmp_path / "t4b.json"
    assert train.main(["--players", "4", "--positions", str(games), "--base", str(tmp_path / "blank.json"),
                       "--holdout", "2", "--out", str(again)]) == 0
    text = capsys.readouterr().out
    assert "read 4 games of 4 players, expert, hard, hard, hard (seed 5)" in text
    refit = ValueModel.load(again).tables[4]
    assert refit.base == pytest.approx(table.base, abs=1e-6) and refit.order == pytest.approx(table.order, abs=1e-6)
    in_play = re.search(r"the 4-player table of \S+ scores ([\d.]+) on the same positions", text)
    assert in_play and float(in_play.group(1)) == pytest.approx(math.log(4), abs=1e-4)
    assert refit.meta["base_table_held_out_log_loss"] == pytest.approx(math.log(4), abs=1e-4)
    assert refit.meta["held_out_log_loss"] == pytest.approx(table.meta["held_out_log_loss"], abs=1e-6)
    # the saved games are a table's: not for a two-player fit, nor for another table size
    for bad in (["--positions", str(games), "--out", str(again)],
                ["--players", "3", "--positions", str(games), "--out", str(again)]):
        with pytest.raises(SystemExit):
            train.main(bad)
    assert "holds games of 4 players" in capsys.readouterr().err
    # an expert plays with --model's judge in the games (a missing file fails at once)
    assert common.training_bot("expert", str(first)).model.tables[4].base == pytest.approx(table.base, abs=1e-6)
    with pytest.raises(SystemExit):
        train.main(["--players", "4", "--bots", "expert,hard", "--seed", "5", "--out", str(again), "--model",
                    str(tmp_path / "missing.json")])


def test_the_table_fit_recovers_a_known_conditional_logit():
    from splendor.training import train_tables

    rng = random.Random(5)
    truth = [1.2, -0.6, 0.4]
    rows = []
    for _ in range(3000):
        zs = [[rng.gauss(0, 1) for _ in truth] for _ in range(4)]
        e = [math.exp(sum(t * v for t, v in zip(truth, z))) for z in zs]
        r, acc, win = rng.random() * sum(e), 0.0, 3
        for s, x in enumerate(e):
            acc += x
            if r < acc:
                win = s
                break
        rows.append((zs, [1.0 if s == win else 0.0 for s in range(4)]))
    w = train_tables.fit(rows, l2=1e-6, sample=1500, out=lambda *a, **k: None)
    assert all(abs(a - b) < 0.12 for a, b in zip(w, truth)), w
    assert train_tables.log_loss(rows, w) < train_tables.log_loss(rows, [0.0] * 3) - 0.1
