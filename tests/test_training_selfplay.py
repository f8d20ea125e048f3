"""The self-play training command (``python -m splendor selfplay``, splendor/training/selfplay.py, numpy from
requirements-train.txt; the local path only: a Ray cluster is not tested here): its value targets, and the
generations it writes, with their figures, and resumes. The prior and its search: test_ai_policy.py."""

import json
import random

import pytest

from splendor.ai import Budget
from splendor.ai.expert import ExpertBot
from splendor.ai.learned import BUNDLE, read_model, read_policy
from test_ai_policy import mid_game


def test_value_targets_mix_the_result_with_the_search_in_training_and_stay_results_when_held_out():
    pytest.importorskip("numpy")
    from splendor.training.train import net_arrays
    v = [0.0] * 3
    row = (0.5, v, v, 1.0, 1.0, 0.0, [0.0] * 2)
    games = [(1, [row + (0.8,), row + (None,), row], 1.0), (2, [row + (0.2,)], 0.0), (0, [row + (0.9,)], 0.0)]
    (train, held) = net_arrays(games, 2, mix=0.25)
    assert [round(x, 6) for x in train[4]] == [0.95, 1.0, 1.0] and list(held[4]) == [0.0, 0.0]  # game 1 trains
    (train, held) = net_arrays(games, 3, mix=0.25)
    assert [round(x, 6) for x in train[4]] == [0.95, 1.0, 1.0, 0.05] and list(held[4]) == [0.0]
    (train, _) = net_arrays(games, 3)
    assert list(train[4]) == [1.0, 1.0, 1.0, 0.0]


def test_selfplay_writes_generations_with_their_figures_and_resumes(tmp_path, capsys):
    pytest.importorskip("numpy")
    from splendor.training import selfplay
    out = tmp_path / "run"
    args = ["--out", str(out), "--games", "4", "--iterations", "8", "--holdout", "2", "--epochs", "2",
            "--seed", "3", "--explore", "2", "--match", "2", "--horizon", "0", "--prior-below-root",
            "--value-mix", "0.5"]
    with pytest.raises(SystemExit):
        selfplay.main(args + ["--value-mix", "1.5"])
    assert "between 0 and 1" in capsys.readouterr().err
    assert selfplay.main(args + ["--generations", "1"]) == 0
    text = capsys.readouterr().out
    assert "games 4/4" in text and "s left" in text and "held out" in text
    gen1 = json.loads((out / "gen-001.json").read_text())
    assert gen1["format"] == BUNDLE
    meta = gen1["meta"]
    assert meta["seed"] == 3 and meta["generation"] == 1 and meta["command"].startswith("python -m splendor selfplay")
    assert set(meta["held_out"]) >= {"value_log_loss", "policy_cross_entropy", "policy_top1"}
    assert meta["search"] == {"horizon": 0, "below_root": True} and meta["value_mix"] == 0.5
    assert read_policy(str(out / "gen-001.json")).search == meta["search"]
    rows = [r for _, rs, _, _ in json.loads((out / "games-001.json").read_text())["games"] for r in rs]
    assert rows and all(len(r) == 8 for r in rows)
    assert any(r[7] is not None and 0.0 <= r[7] <= 1.0 for r in rows)  # the search's chance for seat 0
    assert meta["match"]["games"] == 2 and 0.0 <= meta["match"]["share"] <= 1.0
    assert "the new generation's share" in text
    bot = ExpertBot(model=read_model(str(out / "gen-001.json")), policy=read_policy(str(out / "gen-001.json")))
    game = mid_game()
    assert game.why_illegal(bot.choose(game.observation(game.current), random.Random(1), Budget(iterations=10))) \
        is None
    # resumed: the first generation is not played again, the second starts from it
    assert selfplay.main(args + ["--generations", "1"]) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert selfplay.main(args + ["--generations", "2"]) == 0
    assert "generations 2-2" in capsys.readouterr().out
    assert json.loads((out / "gen-002.json").read_text())["meta"]["previous"] == "gen-001.json"
