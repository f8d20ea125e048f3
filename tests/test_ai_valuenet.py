"""The expert's value net (splendor/ai/valuenet.py): its inputs, pure-Python inference against an independent dense
computation, the symmetry of its judgement, its weights file, and the training command that fits it (numpy, from
requirements-train.txt)."""

import json
import math
import random
import re

import pytest

import splendor
from splendor.ai import Budget, get_bot
from splendor.training import common, train
from splendor.training.arena import play_game
from splendor.ai.expert import ExpertBot
from splendor.ai.learned import FEATURES, READ_WEIGHTS, Weights, load_model, read_model
from splendor.ai.valuenet import FAR, SEAT_INPUTS, TABLE_INPUTS, ValueNet, game_vectors
from test_ai_states import build


def random_net(hidden=6, seed=1):
    rng = random.Random(seed)

    def m(rows, cols):
        return [[rng.gauss(0, 0.3) for _ in range(cols)] for _ in range(rows)]

    return ValueNet(m(hidden, SEAT_INPUTS), m(hidden, SEAT_INPUTS), m(hidden, TABLE_INPUTS - 1),
                    [rng.gauss(0, 0.3) for _ in range(hidden)], [rng.gauss(0, 0.3) for _ in range(hidden)],
                    [rng.gauss(0, 1) for _ in range(hidden)], {"seed": seed})


def positions(players=2, seed=5):
    game = splendor.new_game(players=players, seed=seed)
    bot = get_bot("medium")
    out = []
    while not game.is_over:
        if game.phase == "action":
            out.append(game.copy())
        game.apply(bot.choose(game.observation(game.current_player), random.Random(0), None))
    return out


def dense_logit(net, game, s, o):
    """N(s, o) - N(o, s) computed the plain way: the whole input vector times the whole first layer."""
    table, vecs = game_vectors(game, Weights(**READ_WEIGHTS))
    mv = 1.0 if game.current == s else (-1.0 if game.current == o else 0.0)

    def n(x, y, m):
        full = x + y + table + [m]
        total = 0.0
        for j in range(len(net.bias)):
            row = net.first[j] + net.second[j] + net.table[j] + [net.to_move[j]]
            z = net.bias[j] + sum(w * v for w, v in zip(row, full))
            total += net.out[j] * max(0.0, z)
        return total

    return n(vecs[s], vecs[o], mv) - n(vecs[o], vecs[s], -mv)


def test_the_seat_vector_reads_the_nobles_the_market_and_the_reserve():
    one = next(c for c in splendor.CARDS if c.level == 1 and c.points == 1)
    game = build(cards={0: [one.code]}, tokens={0: (2, 1, 0, 0, 0, 1), 1: (0, 0, 0, 0, 0, 0)})
    table, (mine, theirs) = game_vectors(game, Weights(**READ_WEIGHTS))
    assert len(mine) == len(theirs) == SEAT_INPUTS and len(table) == TABLE_INPUTS - 1
    assert table[0] == pytest.approx(1 / 15)  # the stage
    slots = [c for row in game.market for c in row]
    assert table[1:] == [c.points for c in slots]
    nobles = game._nobles
    for j in range(5):  # distance to each noble in bonuses; no noble: as far as can be
        want = sum(max(0, n - game.players[1].bonuses[c]) for c, n in nobles[j].requirement.items()) \
            if j < len(nobles) else FAR
        assert theirs[13 + j] == want
    for j, card in enumerate(slots):  # what each card still lacks, gold counted; the seat with nothing lacks all
        assert theirs[18 + j] == sum(card.cost_t)
        lack = sum(max(0, n - b - t) for n, b, t in zip(card.cost_t, game.players[0].bonuses.values(),
                                                      (2, 1, 0, 0, 0))) - 1
        assert mine[18 + j] == max(0, lack)
    assert theirs[30:] == [FAR, 0] * 3  # nothing reserved


def test_inference_equals_a_plain_dense_computation_and_is_antisymmetric():
    net = random_net()
    for game in positions()[::7]:
        z0, z1 = net.logits(game, 0)[0], net.logits(game, 1)[0]
        assert z0 == pytest.approx(dense_logit(net, game, 0, 1), abs=1e-9)
        assert z0 == pytest.approx(-z1, abs=1e-9)
        assert net.win_chance(game, 0) + net.win_chance(game, 1) == pytest.approx(1.0)
    for game in positions(players=4, seed=8)[::11]:
        zs = net.logits(game, 2)
        assert zs == pytest.approx([dense_logit(net, game, 2, o) for o in (0, 1, 3)], abs=1e-9)
        assert net.win_chance(game, 2) == pytest.approx(1 / (1 + math.exp(-min(zs))))
    over = positions()[-1].copy()
    bot = get_bot("medium")
    while not over.is_over:
        over.apply(bot.choose(over.observation(over.current_player), random.Random(0), None))
    assert {net.win_chance(over, s) for s in range(2)} <= {0.0, 0.5, 1.0}
    assert sum(net.win_chance(over, s) for s in range(2)) == 1.0


def test_a_net_round_trips_through_its_file_and_bad_files_are_refused(tmp_path):
    net = random_net()
    path = tmp_path / "net.json"
    net.save(path)
    again = read_model(path)
    assert isinstance(again, ValueNet) and again.meta == {"seed": 1}
    game = positions()[20]
    assert again.logits(game, 0)[0] == pytest.approx(net.logits(game, 0)[0], abs=1e-4)
    good = json.loads(path.read_text())
    for change, message in ((("version", 2), "version 2"), (("seat_inputs", 3), "retrain it"),
                            (("out", [1.0]), "disagree"), (("bias", "x"), "disagree")):
        data = dict(good)
        data[change[0]] = change[1]
        path.write_text(json.dumps(data))
        with pytest.raises(ValueError, match=message):
            read_model(path)
    path.write_text("[1, 2")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_model(path)


def test_the_expert_searches_with_a_net_at_every_table_size():
    net = random_net(hidden=4)
    for players in (2, 3, 4):
        bots = [ExpertBot(model=net)] + [get_bot("medium")] * (players - 1)
        result = play_game(bots, 17 + players, [Budget(iterations=6)] * players)
        assert result["status"] == "ok", result
    # under an iteration budget and a seed the move is the same
    game = positions()[15]
    obs = game.observation(game.current_player)
    a = ExpertBot(model=net).decide(obs, random.Random(4), Budget(iterations=24))
    b = ExpertBot(model=net).decide(obs, random.Random(4), Budget(iterations=24))
    assert str(a[0]) == str(b[0]) and a[1]["candidates"] == b[1]["candidates"]


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


def test_the_expert_sees_the_winning_reply_and_denies_it():
    """Seat 1 has 14 points and the four green tokens of the one point card it can buy; seat 0 (13 points) cannot buy
    it but can reserve it."""
    x = "1W1:4g"
    others = [c.code for c in splendor.CARDS if c.level == 1 and c.points == 0][:3]
    l2 = [c.code for c in splendor.CARDS if c.level == 2][:4]
    mine, theirs = ["3G5:7u3g", "3R5:7g3r", "3W3:3u3g5r3k"], ["3W5:3w7k", "3U5:7w3u", "3K4:7r"]
    l3 = [c.code for c in splendor.CARDS if c.level == 3 and c.code not in mine + theirs][:4]
    game = build(market=[[x] + others, l2, l3], cards={0: mine, 1: theirs},
                 tokens={0: (1, 1, 0, 1, 1, 0), 1: (0, 0, 4, 0, 0, 0)})
    assert game.players[0].points == 13 and game.players[1].points == 14
    mirror = game.to_dict()
    mirror["current"] = 1
    wins = [a for a in splendor.Game.from_dict(mirror).legal_actions() if a.kind == "buy" and a.card.points]
    assert [a.card.code for a in wins] == [x]  # the one way seat 1 reaches 15 next turn
    legal = game.legal_actions()
    # the expert denies the card on every seed, and it sees why: the reservation is the one move its walks find a
    # way on from (seat 1 cannot win at once; seat 0's own next moves, among every legal one, are searched)
    for seed in range(4):
        tree = ExpertBot(candidates=len(legal))
        action, info = tree.decide(game.observation(0), random.Random(seed), Budget(iterations=40 * len(legal)))
        assert action.kind == "reserve" and action.card.code == x, (seed, action, info)
        best, *rest = info["candidates"]
        assert best["action"] == str(action) and best["value"] > 0.1 > max(c["value"] for c in rest), info


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
