"""A short arena run through its command line, seat rotation, the interval, and jobs giving the same games."""

import re
import statistics

import pytest

import splendor
from splendor.__main__ import main as splendor_main
from splendor.training import arena


def _rows(out):
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^(\S+(?: \(\d\))?)\s+(\d+)\s+([\d.]+)\s+([\d.]+)%\s+\[\s*([\d.]+)%,\s*([\d.]+)%\]\s+([\d.]+)\s+"
                     r"([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", line)
        if m:
            rows[m.group(1)] = [m.group(1)] + [float(x) for x in m.groups()[1:]]
    return rows


def test_two_player_arena_prints_every_figure(capsys):
    code = splendor_main(["arena", "--bots", "easy,random", "--players", "2", "--games", "4", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "arena: easy vs random; 2 players; 4 games; seed 3" in out
    assert "finished 4, stuck 0, errors 0" in out
    rows = _rows(out)
    assert set(rows) == {"easy", "random"}
    easy, rnd = rows["easy"], rows["random"]
    assert easy[1] == rnd[1] == 4  # each bot played every game, seats rotated
    assert easy[2] + rnd[2] == pytest.approx(4.0)  # wins (shared ones split) add up to the games
    assert easy[3] > rnd[3]  # the easy bot beats the random one
    assert easy[4] <= easy[3] <= easy[5]  # the rate lies inside its interval
    assert easy[6] >= 15  # the winner's side reached 15 points on average
    assert easy[7] > 0 and easy[8] > 0 and easy[9] >= easy[8]  # rounds; median <= max time per move
    assert 0 < easy[10] < 1  # processor time per move


def test_without_a_budget_option_each_level_plays_as_the_browser_worker_does(capsys):
    """The arena's default: every level its own counts, the worker's budget less its time cap (so the same moves on
    any machine); the bots that are not levels 400 iterations; an option or @N overrides."""
    from splendor.ai import LEVELS
    from splendor.ai.protocol import default_budget

    for players in (2, 3, 4):
        for level in LEVELS:
            worker = default_budget(level, players)
            assert arena.entry_budget(level, players).to_dict() == {"iterations": worker.iterations}, level
    assert arena.entry_budget("expert", 2).iterations == 1500 and arena.entry_budget("expert", 3).iterations == 250
    assert arena.entry_budget("hard-classic", 2) is arena.DEFAULT_BUDGET
    assert arena.entry_budget("expert@30", 2).iterations == 30
    assert arena.entry_budget("expert", 2, arena.Budget(iterations=9)).iterations == 9
    assert arena.main(["--bots", "medium,easy", "--games", "1", "--seed", "3"]) == 0
    assert "budget level defaults" in capsys.readouterr().out
    # a weakened configuration that is not a level, checked in words
    for bad in ("weak/x/1/0", "weak/0/1", "weak/0/99/0"):
        with pytest.raises(ValueError, match="weak/"):
            arena.parse_entry(bad)


def test_multi_player_arena_fills_seats_cyclically(capsys):
    code = arena.main(["--bots", "hard,medium", "--players", "3", "--games", "2", "--seed", "5",
                       "--budget-iterations", "8"])
    out = capsys.readouterr().out
    assert code == 0
    assert "budget iterations=8" in out
    rows = _rows(out)
    assert rows["hard"][1] == 3 and rows["medium"][1] == 3  # seats A B A, then B A B
    assert "finished 2, stuck 0, errors 0" in out


def test_seating_rotates_the_starting_bot():
    assert arena.seating(0, 2, 2) == [0, 1]
    assert arena.seating(1, 2, 2) == [1, 0]
    assert arena.seating(1, 4, 3) == [1, 2, 0, 1]


def test_wilson_interval():
    lo, hi = arena.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = arena.wilson(200, 200)
    assert hi == 1.0 and 0.98 < lo < 0.99
    assert arena.wilson(0, 0) == (0.0, 0.0)


def test_bad_arguments_are_refused(capsys):
    with pytest.raises(SystemExit):
        arena.main(["--bots", "easy,master"])
    with pytest.raises(SystemExit):
        arena.main(["--players", "5"])
    assert "master" in capsys.readouterr().err


def test_a_network_file_plays_as_the_expert_with_that_network(tmp_path, capsys):
    """``--bots net=FILE@N``: a fit screened against the shipped network; a file that cannot be read is refused."""
    pytest.importorskip("numpy")
    import random

    from splendor.ai.netfile import random_net, write_net

    path = tmp_path / "fit.json"
    net = random_net(seed=3, hidden=(8,))
    path.write_text(write_net(net))
    entry = f"net={path}@6"
    assert arena.parse_entry(entry) == (f"net={path}", 6)
    bot = arena.make_bot(entry)
    game = splendor.new_game(players=2, seed=4)
    from splendor.ai import encoding, netrun

    x = encoding.encode(game)  # this file's network, not the shipped one
    assert bot.evaluator.runner.forward(x) == pytest.approx(netrun.runner_for(net, "python").forward(x), abs=1e-3)
    action, info = bot.decide(game.observation(0), random.Random(1), {"iterations": 6})
    assert info["net"] is True and action in game.legal_actions()
    assert arena.main(["--bots", f"{entry},expert@6", "--games", "2", "--seed", "3"]) == 0
    assert f"net={path}@6" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        arena.main(["--bots", f"net={tmp_path / 'missing.json'},expert"])
    assert "no network file" in capsys.readouterr().err


def test_results_do_not_depend_on_jobs():
    one = arena.run(["medium", "easy"], players=2, games=2, seed=9, jobs=1)
    two = arena.run(["medium", "easy"], players=2, games=2, seed=9, jobs=2)
    strip = [(r["scores"], r["winners"], r["rounds"], r["seats"]) for r in one]
    assert strip == [(r["scores"], r["winners"], r["rounds"], r["seats"]) for r in two]


def test_a_stuck_game_is_counted_not_hung():
    from splendor.ai import get_bot

    result = arena.play_game([get_bot("random"), get_bot("random")], seed=4, max_actions=10)
    assert result["status"] == "stuck" and result["actions"] == 10
    text = arena.report(["random", "random"], 2, [dict(result, seats=[0, 1], k=0)], 1, None, 0.1)
    assert "stuck 1" in text


def test_bot_style_tool_compares_at_an_equal_time_a_move(capsys, monkeypatch):
    """--seconds: both seats get that time a move (not an iteration count), and the win rate comes with its interval."""
    from tools import bot_style

    budgets = []
    real = bot_style.arena.play_game

    def play_game(bots, seed, given, **kwargs):
        budgets.extend(given)
        return real(bots, seed, given, **kwargs)

    monkeypatch.setattr(bot_style.arena, "play_game", play_game)
    args = ["--games", "1", "--seconds", "0.01", "--jobs", "1", "--hard", '{"expert": true}', "--vs", "level:hard"]
    assert bot_style.main(args) == 0
    out = capsys.readouterr().out
    assert "vs level:hard, 0.01 s a move, 1 games" in out, out
    assert re.search(r"hard wins [\d.]+% \[[\d.]+%, [\d.]+%\]", out), out
    assert len(budgets) == 2 and all(b.seconds == 0.01 and b.iterations is None for b in budgets)
    with pytest.raises(SystemExit):  # a time or a count, not both
        bot_style.main(["--games", "1", "--iterations", "4", "--seconds", "0.01"])
    with pytest.raises(SystemExit):  # and a time that is one
        bot_style.main(["--games", "1", "--seconds", "0"])
    assert "--seconds must be more than 0" in capsys.readouterr().err
    # --cpu: the seconds are processor time (measurements beside other work); --progress: a line a game
    budgets.clear()
    assert bot_style.main(args + ["--cpu", "--progress"]) == 0
    out = capsys.readouterr().out
    assert "0.01 s of processor time a move" in out and re.search(r"game 1: rounds \d+, tuned bot's share", out)
    assert len(budgets) == 2 and all(b.seconds == 0.01 and b.cpu for b in budgets)
    with pytest.raises(SystemExit):
        bot_style.main(["--games", "1", "--cpu"])
    assert "--cpu goes with --seconds" in capsys.readouterr().err
    # --tuned-seconds: the tuned bot alone gets more time (its seat moves with the game: seats rotate)
    for k in (0, 1):
        budgets.clear()
        assert bot_style.main(args + ["--tuned-seconds", "0.03", "--first", str(k)]) == 0
        assert "0.01 s a move (0.03 s for the tuned bot)" in capsys.readouterr().out
        tuned = bot_style.arena.seating(k, 2, 2).index(0)
        assert [b.seconds for b in budgets] == [0.03 if s == tuned else 0.01 for s in range(2)], (k, budgets)
    with pytest.raises(SystemExit):
        bot_style.main(["--games", "1", "--tuned-seconds", "0.03"])
    assert "--tuned-seconds goes with --seconds" in capsys.readouterr().err


def test_the_arena_can_give_processor_time_a_move(capsys):
    assert arena.main(["--bots", "hard,medium", "--games", "1", "--seed", "3", "--budget-cpu-seconds", "0.01"]) == 0
    assert "budget seconds=0.01 (processor time)" in capsys.readouterr().out


def test_bot_style_tool_plays_the_arena_deals_and_prints_the_mix(capsys):
    """tools/bot_style.py (tuning the hard bot's game length): same deals as the arena, the same games twice, and a
    wrong setting refused before any game."""
    from tools import bot_style

    args = ["--games", "2", "--iterations", "4", "--jobs", "1", "--hard", '{"candidates": 3}', "--vs", "easy"]
    assert bot_style.main(args) == 0
    first = capsys.readouterr().out
    m = re.search(r"2 games, seed 1: ([\d.]+) rounds \(se [\d.]+, max (\d+)\); hard wins ([\d.]+)%", first)
    assert m, first
    assert 15 <= float(m.group(1)) <= int(m.group(2)) < 60
    mix = dict(item.rsplit(" ", 1) for item in first.splitlines()[1].removeprefix("per game: ").split(", "))
    assert float(mix["buy L1"]) + float(mix.get("buy L2", 0)) + float(mix.get("buy L3", 0)) >= 3  # 15 points need cards
    assert "the leader first holds 5 points in round" in first
    bot_style.main(args)
    assert re.sub(r"\[\d+ s\]", "", capsys.readouterr().out) == re.sub(r"\[\d+ s\]", "", first)
    with pytest.raises(TypeError):
        bot_style.main(["--games", "1", "--hard", '{"no_such_knob": 1}'])
    # The bot's weights change the play (no opponent term).
    bot_style.main(args[:-2] + ["--weights", '{"opponent": 0.0}', "--vs", "easy"])
    def play(out):  # what was played: the figures after the settings' header, without the time taken
        return re.sub(r"\[\d+ s\]", "", out.split("seed 1:", 1)[1])

    assert play(capsys.readouterr().out) != play(first)
    with pytest.raises(TypeError):  # a keyword HardBot does not take
        bot_style.main(["--games", "1", "--hard", '{"every_buy": true}'])
    with pytest.raises(ValueError, match="unknown weight"):
        bot_style.main(["--games", "1", "--weights", '{"no_such_weight": 1}'])


def test_bot_style_tool_replays_the_arena_game_by_game(capsys):
    """With the hand-written hard bot (the arena's hard-classic), the tool's games are the arena's (so its figures
    stand in for an arena run), and
    --first K plays the same games as the tail of a longer run."""
    from splendor.ai.budget import Budget
    from tools import bot_style

    games = arena.run(["hard-classic", "easy"], players=2, games=3, seed=5, budget=Budget(iterations=3))
    assert bot_style.main(["--games", "3", "--seed", "5", "--iterations", "3", "--jobs", "1", "--vs", "easy",
                           "--per-game"]) == 0
    out = capsys.readouterr().out
    per_game = re.findall(r"^game (\d+): rounds (\d+)$", out, re.M)
    assert per_game == [(str(r["k"] + 1), str(r["rounds"])) for r in games]
    wins = sum(len([s for s in r["winners"] if r["seats"][s] == 0]) / len(r["winners"]) for r in games)
    assert f"hard wins {wins / 3:.1%}" in out
    bot_style.main(["--games", "1", "--first", "2", "--seed", "5", "--iterations", "3", "--jobs", "1", "--vs", "easy",
                    "--per-game"])
    tail = capsys.readouterr().out
    assert re.findall(r"^game (\d+): rounds (\d+)$", tail, re.M) == per_game[2:]
    assert "seed 5 from game 3:" in tail
    with pytest.raises(SystemExit):
        bot_style.main(["--games", "1", "--first", "-1"])
    # --players 3: the tuned bot and two of --vs, seated as the arena seats "hard,easy,easy"
    games = arena.run(["hard-classic", "easy", "easy"], players=3, games=3, seed=5, budget=Budget(iterations=3))
    assert bot_style.main(["--games", "3", "--seed", "5", "--iterations", "3", "--jobs", "1", "--vs", "easy",
                           "--players", "3", "--per-game"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^game (\d+): rounds (\d+)$", out, re.M) == [(str(r["k"] + 1), str(r["rounds"])) for r in games]
    wins = sum(len([s for s in r["winners"] if r["seats"][s] == 0]) / len(r["winners"]) for r in games)
    assert "vs easy, 3 players, 3 iterations" in out and f"hard wins {wins / 3:.1%}" in out
    # how each bot plays, apart: its seats, its points at the end (the arena's mean points), its actions
    def mean_points(tuned):
        return statistics.fmean(r["scores"][s] for r in games for s in range(3) if (r["seats"][s] == 0) == tuned)

    for who, tuned, seats in (("tuned bot", True, 3), ("the others", False, 6)):
        line = re.search(rf"^{who}, per seat \({seats} seats\): (.*)$", out, re.M)
        assert line, out
        parts = dict(item.rsplit(" ", 1) for item in line.group(1).split(", ") if " points " not in item)
        assert float(parts["points"]) == pytest.approx(mean_points(tuned), abs=0.005)
        buys = sum(float(parts.get(f"buy L{lv}", 0)) for lv in (1, 2, 3))
        assert buys > 0 and float(parts["take"]) > 0
        assert re.search(r"5 points in round [\d.]+ \([0-9] of \d\)", line.group(1))


def test_bot_style_tool_pairs_its_games_with_a_log(tmp_path, capsys):
    """--pair LOG: the mean difference game by game over the games in both, from an arena --progress log."""
    from tools import bot_style

    log = tmp_path / "arena.txt"
    log.write_text("game 1: ok scores [15, 9] winners [0] rounds 30 bots ['hard', 'hard']\n"
                   "game 2: ok scores [15, 12] winners [0] rounds 26 bots ['hard', 'hard']\n"
                   "game 9: ok scores [16, 12] winners [0] rounds 20 bots ['hard', 'hard']\n")
    assert bot_style.paired({1: 28, 2: 27, 3: 40}, log) == (
        f"paired with {log}, 2 games: 27.50 against 28.00 rounds, difference -0.50 (se 1.50)")
    assert "no game in common" in bot_style.paired({5: 28}, log)
    assert bot_style.main(["--games", "2", "--seed", "5", "--iterations", "3", "--jobs", "1", "--per-game"]) == 0
    own = tmp_path / "own.txt"
    own.write_text(capsys.readouterr().out)
    bot_style.main(["--games", "2", "--seed", "5", "--iterations", "3", "--jobs", "1", "--pair", str(own)])
    last = capsys.readouterr().out.splitlines()[-1]  # the same bot on the same deals: the same games
    assert ", 2 games: " in last and last.endswith("difference +0.00 (se 0.00)")
    assert bot_style.paired_shares({1: 1.0}, own) is None  # a --per-game log: lengths only


def test_bot_style_tool_pairs_the_tuned_bots_share_with_its_own_progress_log(tmp_path, capsys):
    """--pair LOG with a --progress log of the tool: the tuned bot's share game by game, the difference and its se."""
    from tools import bot_style

    log = tmp_path / "progress.txt"
    log.write_text("game 2: rounds 27, tuned bot's share 0; so far 0 of 1 [5 s]\n"
                   "game 1: rounds 30, tuned bot's share 1; so far 1 of 2 [9 s]\n"
                   "game 3: rounds 25, tuned bot's share 0.5; so far 1.5 of 3 [12 s]\n")
    assert bot_style.paired_shares({1: 1.0, 2: 1.0, 3: 0.0, 4: 1.0}, log) == (
        f"the tuned bot's share, paired with {log}, 3 games: 66.7% against 50.0%, difference +16.7 points "
        f"(se 44.1); the results differ in 2 games")
    assert bot_style.paired_shares({7: 1.0}, log) is None
    assert bot_style.main(["--games", "2", "--seed", "5", "--iterations", "3", "--jobs", "1", "--progress",
                           "--players", "3"]) == 0
    own = tmp_path / "own.txt"
    own.write_text(capsys.readouterr().out)
    bot_style.main(["--games", "2", "--seed", "5", "--iterations", "3", "--jobs", "1", "--players", "3",
                    "--pair", str(own)])
    last = capsys.readouterr().out.splitlines()[-1]  # the same bot on the same deals: the same results
    assert ", 2 games: " in last and last.endswith("difference +0.0 points (se 0.0); the results differ in 0 games")


def test_arena_log_tool_reads_the_progress_lines_as_the_arena_counts_them(tmp_path, capsys):
    from tools import arena_log

    assert arena.main(["--bots", "medium,easy", "--games", "4", "--seed", "2", "--progress"]) == 0
    out = capsys.readouterr().out
    log = tmp_path / "arena.log"
    log.write_text(out)
    games = arena_log.read(out)
    assert [g[0] for g in games] == [1, 2, 3, 4]
    assert arena_log.main([str(log)]) == 0
    text = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("medium "))
    wins = float(row.split()[2])  # the arena's own count
    assert f"medium: 4 seats, {wins:g} wins, {100 * wins / 4:.1f}%" in text
    assert "4 games read, 4 finished" in text
    (tmp_path / "empty.log").write_text("nothing\n")
    assert arena_log.main([str(tmp_path / "empty.log")]) == 1


def test_search_agreement_tool_counts_the_runs_that_pick_the_reference_move(capsys, monkeypatch):
    """tools/search_agreement.py: a small budget's picks against a large one's, per position and in all."""
    from splendor.ai.search import HardBot
    from tools import search_agreement

    obs = search_agreement.positions([7], every=15, iterations=3)
    assert [rnd for rnd, _ in obs][:4] == [2, 2, 17, 17] and [o["seat"] for _, o in obs][:4] == [0, 1, 0, 1]
    obs = obs[:4]
    # a search of a single candidate plays the scorer's best move whatever its budget: every run agrees
    lines = []
    assert search_agreement.agreement(HardBot(candidates=1), obs, 2, 6, 3, out=lambda s, **k: lines.append(s)) == (
        12, 12)
    assert len(lines) == 4 and all(line.endswith("3 of 3 runs at 2 agree") for line in lines)
    # the command's total is the sum of its lines (the same positions, not played again)
    monkeypatch.setattr(search_agreement, "positions", lambda seeds, every: obs if (seeds, every) == ([7], 15) else [])
    assert search_agreement.main(["--level", "hard-classic", "--iterations", "4", "--reference", "8", "--runs", "2",
                                  "--seeds", "7", "--every", "15"]) == 0
    out = capsys.readouterr().out
    per = [int(n) for n in re.findall(r"(\d+) of 2 runs at 4 agree", out)]
    assert len(per) == 4
    assert (f"hard-classic: {sum(per)} of 8 runs at 4 iterations pick the move of 8 ({sum(per) / 8:.1%}) over 4 "
            "positions") in out
    with pytest.raises(SystemExit):
        search_agreement.main(["--runs", "0"])


