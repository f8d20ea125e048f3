"""The expert bot and its learned value model: the shipped model file, inference, the search that uses the model.
The training command that fits the model: test_training_linear.py. (Legality in every phase, determinism, fairness
and the global-random trap are checked for every level, expert included, in test_ai_bots.py.)"""

import json
import math
import os
import random

import pytest

import splendor
from splendor.ai import Budget, get_bot, learned
from splendor.training.arena import play_game
from splendor.ai.expert import ExpertBot
from splendor.ai.learned import FEATURES, ValueModel, load_model
from test_ai_states import build


def test_the_shipped_model_file_is_a_model_the_training_command_wrote():
    path = learned.MODEL_FILE
    assert os.path.getsize(path) <= 1_000_000
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    assert data["format"] == "splendor-value-model" and data["features"] == list(FEATURES)
    meta = data["meta"]
    # the settings that reproduce it, and the held-out figure the command printed
    assert meta["command"].startswith("python -m splendor train ")
    assert f"--seed {meta['seed']}" in meta["command"]
    for key in ("games", "bots", "holdout", "l2", "positions_fitted", "positions_held_out"):
        assert key in meta, key
    assert meta["held_out_log_loss"] < meta["hand_leaf_held_out_log_loss"] < meta["constant_held_out_log_loss"]
    model = load_model()
    assert model is load_model()  # read once
    assert model.to_dict()["base"] == data["base"]


def test_the_experts_model_file_is_what_the_expert_plays():
    """MODEL_FILE is what the expert level plays: the training command's linear model, the only model file under
    splendor/ai (a file of the self-play command, value and prior, takes its place when one is shown stronger); beside
    it the 2-player network and the ladder's measured ratings (splendor.ai.ladder, no model)."""
    folder = os.path.dirname(learned.MODEL_FILE)
    assert sorted(n for n in os.listdir(folder) if n.endswith(".json")) == sorted(
        [os.path.basename(learned.MODEL_FILE), "expert_net.json", "ladder.json"])
    value, policy = learned.load_expert()
    assert learned.load_expert() == (value, policy)  # read once
    assert policy is None and value.to_dict()["base"] == load_model().to_dict()["base"]
    bot = get_bot("expert")
    assert bot.model is value and bot.policy is None
    # the self-play generations, kept for the next one and its measurement, read as the expert's model would; the
    # second carries the search it was trained in (the prior below the root too), which an expert with it follows
    models = os.path.join(os.path.dirname(learned.__file__), "..", "training", "models")
    for name, search in (("selfplay-gen-001.json", None),
                         ("selfplay-gen-002.json", {"horizon": 3, "below_root": True})):
        kept = os.path.join(models, name)
        two = learned.read_model(kept)
        policy = learned.read_policy(kept)
        assert isinstance(two, learned.ByTable) and policy.players == 2 and policy.search == search
        assert two.meta["command"].startswith("python -m splendor selfplay ")


def test_importing_the_bots_does_not_read_the_weights():
    import subprocess
    import sys

    code = ("import splendor.ai, splendor.ai.learned as L; assert L._EXPERT is None; "
            "splendor.ai.get_bot('medium'); assert L._EXPERT is None; "
            "splendor.ai.get_bot('expert'); assert L._EXPERT is not None; print('lazy')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert out.stdout.strip() == "lazy", out.stderr


def test_bad_weights_files_are_refused_with_a_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        ValueModel.load(bad)
    good = load_model().to_dict()
    for change, message in ((("format", "x"), "not a value model"), (("version", 9), "version 9"),
                            (("features", ["points"]), "retrain it"), (("base", [1.0]), "coefficients")):
        data = dict(good)
        data[change[0]] = change[1]
        bad.write_text(json.dumps(data))
        with pytest.raises(ValueError, match=message):
            ValueModel.load(bad)


def test_a_model_round_trips_through_its_file(tmp_path):
    k = len(FEATURES)
    model = ValueModel([0.1 * i for i in range(k)], [-0.05 * i for i in range(k)], 0.3, {"seed": 4})
    path = tmp_path / "m.json"
    model.save(path)
    again = ValueModel.load(path)
    assert again.base == pytest.approx(model.base, abs=1e-6)
    assert again.per_stage == pytest.approx(model.per_stage, abs=1e-6)
    assert again.to_move == 0.3  # the file keeps six decimals
    assert again.meta == {"seed": 4}


def test_features_read_the_position():
    one = next(c for c in splendor.CARDS if c.level == 1 and c.points == 1)
    game = build(cards={0: [one.code]}, tokens={0: (2, 1, 0, 0, 0, 1), 1: (0, 0, 0, 0, 0, 0)})
    stage, (mine, theirs) = learned.game_features(game, learned.Weights(**learned.READ_WEIGHTS))
    f = dict(zip(FEATURES, mine))
    g = dict(zip(FEATURES, theirs))
    assert stage == pytest.approx(1 / 15)
    assert f["points"] == 1 and g["points"] == 0
    assert f["bonuses"] == 1 and g["bonuses"] == 0
    assert f["tokens"] == 4 and f["gold"] == 1 and g["tokens"] == 0
    assert f["affordable"] >= g["affordable"] == 0
    assert f["late_points"] == 0


def test_the_model_prefers_what_wins_and_its_win_chance_is_a_probability():
    model = load_model()
    one = next(c.code for c in splendor.CARDS if c.level == 1 and c.points == 1)
    ahead = build(cards={0: [one]})
    st = model.standings(ahead)
    assert st[0] > st[1]
    p0, p1 = model.win_chance(ahead, 0), model.win_chance(ahead, 1)
    assert 0 < p1 < 0.5 < p0 < 1
    # the difference of standings, plus being to move (seat 0 is to act here)
    assert p0 == pytest.approx(1 / (1 + math.exp(-(st[0] - st[1] + model.to_move))))
    over = play_game([get_bot("medium"), get_bot("medium")], 5)
    assert over["status"] == "ok"
    # points and prospects are worth more at every stage: the fit learned the obvious
    for name in ("points", "prospects"):
        i = FEATURES.index(name)
        assert model.base[i] > 0 and model.base[i] + model.per_stage[i] > 0, name


def test_expert_is_the_top_level_and_uses_the_model_at_the_leaves():
    assert splendor.ai.LEVELS[-1] == "expert"
    bot = get_bot("expert")
    assert isinstance(bot, ExpertBot) and bot.model is learned.load_expert()[0] and bot.level == "expert"
    # a model that counts only points makes the search buy the point card; one that counts only gold reserves
    # (in the tree, whatever the replies below its moves)
    market = [c for row in build().market for c in row if c]
    card = next(c for c in market if c.points and max(c.cost_t) <= 4 and sum(c.cost_t) <= 10)
    game = build(tokens={0: tuple(card.cost_t) + (0,)})
    legal = game.legal_actions()
    k = len(FEATURES)

    def only(name):
        return ValueModel([1.0 if f == name else 0.0 for f in FEATURES], [0.0] * k)

    kw = {"horizon": 0, "tree_horizon": 0, "endgame_horizon": 0, "candidates": len(legal)}
    obs = game.observation(0)
    budget = Budget(iterations=200)
    points, info = ExpertBot(model=only("points"), **kw).decide(obs, random.Random(1), budget)
    gold, _ = ExpertBot(model=only("gold"), **kw).decide(obs, random.Random(1), budget)
    assert points.kind == "buy" and points.card == card
    assert gold.kind == "reserve"
    assert info["depth"] >= 2


def test_the_tree_search_walks_down_replies_and_is_reproducible():
    """The expert searches a tree (the hard bot's search is flat): its walks go past the reply to the seat's next
    move, every iteration visits one root move, the most visited one is played, and a seed and an iteration budget
    reproduce the move."""
    obs = build().observation(0)
    bot = ExpertBot(tree_width=2, net=None)
    runs = [bot.decide(obs, random.Random(5), Budget(iterations=60)) for _ in range(2)]
    (action, info), again = runs
    assert again[0] == action and again[1]["candidates"] == info["candidates"]
    assert info["iterations"] == 60 and info["depth"] >= 3
    assert info["candidates"][0]["action"] == str(action)
    assert sum(c["visits"] for c in info["candidates"]) <= 60
    # its leaves judge every seat at once (ValueModel.win_chances): each seat's standing against its best opponent's,
    # the seat to move favoured; the result itself once the game is over
    from splendor.ai.tree import _values
    model, g, rng = load_model(), splendor.new_game(players=3, seed=3), random.Random(1)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
        st = model.standings(g)
        expect = [1 / (1 + math.exp(-(v - max(u for j, u in enumerate(st) if j != s)
                                      + (model.to_move if g.current == s else -model.to_move))))
                  for s, v in enumerate(st)]
        assert _values(model, g, 3) == pytest.approx(expect)
        assert [model.win_chance(g, s) for s in range(3)] == pytest.approx(expect)


def test_the_tree_remembers_the_offered_moves_per_position_without_changing_the_search(monkeypatch):
    """A step down the tree prices the scorer's moves once per position seen after an edge (deals often reach the
    same one): the search with this memory plays exactly as one that prices every step afresh, and prices fewer."""
    from splendor.ai import tree

    # a position whose opponents hold blind reservations: the deals differ in cards the mover cannot see
    g, rng, medium = splendor.new_game(players=3, seed=8), random.Random(4), get_bot("medium")
    while g.round < 8 or g.phase_ != "action" or not any(any(p.hidden) for i, p in enumerate(g._players)
                                                         if i != g.current):
        if rng.random() < 0.3:  # now and then a random move that is not a visible reservation (blind ones come)
            g.apply(rng.choice([a for a in g.legal_actions() if a.kind != "reserve" or a.card is None]))
        else:
            g.apply(medium.choose(g.observation(g.current), rng, Budget(iterations=4)))
    obs = g.observation(g.current)
    priced = []
    offers = tree._offers
    monkeypatch.setattr(tree, "_offers", lambda *a: priced.append(1) or offers(*a))

    def run():
        priced.clear()
        action, info = get_bot("expert").decide(obs, random.Random(2), Budget(iterations=150))
        del info["seconds"]
        return (action, info), len(priced)

    (remembered, n_remembered) = run()
    fresh = iter(range(10**9))
    monkeypatch.setattr(tree, "_seen_key", lambda g: next(fresh))  # no two positions alike: every step priced
    (afresh, n_afresh) = run()
    assert remembered == afresh
    assert n_afresh > 150 and n_remembered < 0.95 * n_afresh


def test_the_tree_offers_the_scorers_best_of_every_legal_move(monkeypatch):
    """Below the root the movers choose among the scorer's best of every legal move, as the root's candidates are
    chosen, not among the playout's pruned moves (three takes, two reservations of the richest cards, no blind one),
    which would leave out the scorer's favourite a third of the time."""
    from splendor.ai import tree
    from splendor.ai.search import prune

    obs = build().observation(0)
    seen = []
    offers = tree._offers

    def spy(g, scorer, width, policy=None):
        got = offers(g, scorer, width, policy)
        assert policy is None and got[1] is None  # the shipped policy steers the root only
        seen.append((g.copy(), scorer, got[0]))
        return got

    monkeypatch.setattr(tree, "_offers", spy)
    ExpertBot(net=None).decide(obs, random.Random(3), Budget(iterations=120))  # the tree search
    outside = 0
    for g, scorer, got in seen:
        legal = g.legal_actions()
        ranked = sorted(scorer.scores(g, g.current, legal), key=lambda t: -t[0])
        assert [str(a) for a in got] == [str(a) for _, a in ranked[:4]]
        kept = {str(a) for a in prune(g, legal, scorer)}
        outside += any(str(a) not in kept for a in got)
    assert seen and outside > 0, (outside, len(seen))
    again = ExpertBot(net=None)
    first = again.decide(obs, random.Random(3), Budget(iterations=120))
    second = again.decide(obs, random.Random(3), Budget(iterations=120))
    assert str(first[0]) == str(second[0]) and first[1]["candidates"] == second[1]["candidates"]


def test_expert_games_finish_with_legal_moves_in_every_table_size():
    for players in (2, 3, 4):
        bots = [get_bot("expert")] + [get_bot("medium")] * (players - 1)
        result = play_game(bots, seed=40 + players, budgets=[Budget(iterations=8)] * players)
        assert result["status"] == "ok", result["error"]
        assert result["winners"]


def test_expert_through_the_protocol():
    from splendor.ai.ladder import CAP_SECONDS
    from splendor.ai.protocol import choose_json, default_budget

    # The expert's own counts (1,500 simulations at two players, the tree's walks at three and four), capped in time.
    assert (default_budget("expert", 2).iterations, default_budget("expert", 2).seconds) == (1500, CAP_SECONDS)
    assert default_budget("expert", 4).iterations == 250
    game = splendor.new_game(players=2, seed=12)
    req = json.dumps({"turn_id": 3, "observation": game.observation(0), "level": "expert", "seed": 2,
                      "budget": {"iterations": 30}})
    a, b = json.loads(choose_json(req)), json.loads(choose_json(req))
    assert "error" not in a and a == {**b, "stats": {**b["stats"], "seconds": a["stats"]["seconds"]}}
    assert a["stats"]["level"] == "expert" and 30 <= a["stats"]["iterations"] < 40  # whole deals: up to 8 over
    assert game.why_illegal(splendor.parse_action(game, a["action"])) is None
    assert a["explanation"]


def test_the_site_ships_the_weights_beside_the_package_but_not_the_training_command():
    from tools import build_site

    files = build_site.browser_package_files()
    # the worker fetches the expert's model by address when it first needs it: not in the zip the page loads
    assert "splendor/ai/expert_model.json" not in files and "splendor/ai/learned.py" in files
    assert build_site.WORKER_FILES == ("splendor/ai/expert_model.json", "splendor/ai/expert_net.json")
    assert "splendor/ai/expert_net.json" not in files and "splendor/ai/kernel_wasm.py" in files
    root = build_site.ROOT
    training = sorted(p.relative_to(root).as_posix() for p in (root / "splendor" / "training").rglob("*.py"))
    assert "splendor/training/train.py" in training and "splendor/training/arena.py" in training
    assert not [f for f in files if f.startswith("splendor/training/")]


def test_the_style_tool_can_search_with_a_learned_model(tmp_path):
    from tools import bot_style

    assert bot_style.hard_bot({"expert": True}, {}).model is learned.load_expert()[0]  # what the expert plays
    assert bot_style.hard_bot({"expert": True, "model": "learned"}, {}).model is learned.load_expert()[0]
    path = tmp_path / "m.json"
    ValueModel([1.0] * len(FEATURES), [0.0] * len(FEATURES)).save(path)
    bot = bot_style.hard_bot({"expert": True, "model": f"learned:{path}", "horizon": 2}, {})
    assert isinstance(bot, ExpertBot) and bot.model.base == [1.0] * len(FEATURES) and bot.horizon == 2
    with pytest.raises(ValueError, match="model"):
        bot_style.hard_bot({"expert": True, "model": "fitted"}, {})


def test_the_style_tool_can_search_the_tree_with_the_hard_bots_judge():
    """``"model": "hand"``: the expert's tree judges with the hand-set values (the hard bot's leaf, the opponent
    counted fully, over 3 points), and plays differently from the shipped expert on the same deal."""
    from splendor.ai.heuristic import Weights, leaf_value
    from splendor.ai.search import HARD_WEIGHTS
    from tools import bot_style

    bot = bot_style.hard_bot({"expert": True, "model": "hand"}, {})
    assert isinstance(bot, ExpertBot) and isinstance(bot.model, bot_style.HandJudge)
    one = next(c.code for c in splendor.CARDS if c.level == 1 and c.points == 1)
    for players in (2, 4):
        game = build(players=players, cards={0: [one]}, tokens={1: (2, 1, 0, 0, 0, 0)})
        chances = bot.model.win_chances(game)
        assert chances == pytest.approx([leaf_value(game, Weights(**HARD_WEIGHTS), s) for s in range(players)])
        assert chances[0] == max(chances) and chances != pytest.approx(load_model().win_chances(game))
    shipped = ExpertBot(net=None)  # the tree search over the shipped linear model
    rows = []
    for judge in (bot, shipped):
        g = build(players=2, cards={0: [one]}, tokens={1: (2, 1, 0, 0, 0, 0)})
        picks = []
        for k in range(6):  # a few decisions of a short game: the judges part somewhere
            a = judge.choose(g.observation(g.current), random.Random(k), Budget(iterations=40))
            picks.append(str(a))
            g.apply(a)
            while not g.is_over and g.phase_ != "action":
                g.apply(judge.choose(g.observation(g.current), random.Random(k), Budget(iterations=40)))
        rows.append(picks)
    assert rows[0] != rows[1]


def _table_model(order, seat, points=0.0):
    """The shipped two-player model with a 4-player table whose only feature weight is ``points``."""
    k = len(FEATURES)
    base = [0.0] * k
    base[FEATURES.index("points")] = points
    two = load_model()
    return ValueModel(two.base, two.per_stage, two.to_move, tables={
        4: learned.TableModel(4, base, [0.0] * k, order, seat)})


def test_a_table_model_judges_its_table_and_leaves_the_others_alone(tmp_path):
    """A table of 3 or 4 players has a model of its own (``train --players N``): the chance that a seat wins is the
    softmax over the seats of its standing plus the worths of its place in the turn order and from the start."""
    one = next(c.code for c in splendor.CARDS if c.level == 1 and c.points == 1)
    four = build(players=4, cards={2: [one]})
    assert four.current == 0 and four.start == 0
    model = _table_model([0.0, -0.1, -0.2, -0.3], [0.0, 0.25, 0.5, 0.75], points=2.0)
    z = [0.0 + 0.0, -0.1 + 0.25, -0.2 + 0.5 + 2.0, -0.3 + 0.75]
    want = [math.exp(v) / sum(math.exp(u) for u in z) for v in z]
    got = model.win_chances(four)
    assert got == pytest.approx(want) and sum(got) == pytest.approx(1.0)
    assert [model.win_chance(four, s) for s in range(4)] == pytest.approx(want)
    # the turn order counts from the seat to move: one seat on, every place shifts
    g = four.copy()
    g.current = 1
    z = [-0.3 + 0.0, 0.0 + 0.25, -0.1 + 0.5 + 2.0, -0.2 + 0.75]
    assert model.win_chances(g) == pytest.approx([math.exp(v) / sum(math.exp(u) for u in z) for v in z])
    # the two-player model is untouched (and a 3-player table without a model of its own uses it)
    two = build(cards={0: [one]})
    assert model.win_chances(two) == pytest.approx(load_model().win_chances(two))
    three = build(players=3, cards={0: [one]})
    assert model.win_chances(three) == pytest.approx(load_model().win_chances(three))
    # the file keeps the table; bad tables are refused with a clear error
    path = tmp_path / "t.json"
    model.save(path)
    again = ValueModel.load(path)
    assert again.tables[4].order == [0.0, -0.1, -0.2, -0.3] and again.win_chances(four) == pytest.approx(got)
    data = model.to_dict()
    for key, table, message in (("5", data["tables"]["4"], "3 or 4 players"),
                                ("4", {**data["tables"]["4"], "order": [0.0]}, "4 turn-order"),
                                ("4", [1, 2], "not an object")):
        path.write_text(json.dumps({**data, "tables": {key: table}}))
        with pytest.raises(ValueError, match=message):
            ValueModel.load(path)


def test_the_expert_searches_a_larger_table_with_its_model():
    """At 4 players the tree's leaves are the table's chances: a table model that rewards being far from the
    start changes what the search reports, and a game with it finishes with legal moves."""
    game = build(players=4)
    flat = _table_model([0.0] * 4, [0.0] * 4)
    tilted = _table_model([0.0] * 4, [0.0, 3.0, 3.0, 3.0])
    infos = []
    for model in (flat, tilted):
        bot = ExpertBot(model=model, tree_horizon=0)
        _, info = bot.decide(game.observation(0), random.Random(4), Budget(iterations=30))
        infos.append(info["win_chance"])
    # no features: every seat is alike but for the place, so seat 0 (the start) has 1/4, then 1/(1 + 3 e^3)
    assert infos[0] == pytest.approx(0.25, abs=0.02)
    assert infos[1] == pytest.approx(1 / (1 + 3 * math.exp(3)), abs=0.01)
    result = play_game([ExpertBot(model=tilted)] + [get_bot("medium")] * 3, 7,
                       [Budget(iterations=8)] + [None] * 3)
    assert result["status"] == "ok", result
