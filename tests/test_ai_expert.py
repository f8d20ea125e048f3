"""The expert bot and its learned value model: the shipped weights file, inference, the training command, the search
that uses the model. (Legality in every phase, determinism, fairness and the global-random trap are checked for
every level, expert included, in test_ai_bots.py.)"""

import json
import math
import os
import random
import re

import pytest

import splendor
from splendor.ai import Budget, get_bot, learned
from splendor.ai.arena import play_game
from splendor.ai.expert import ExpertBot
from splendor.ai.learned import FEATURES, ValueModel, load_model
from splendor.ai.search import finish_turn
from test_ai_states import build


def test_the_shipped_weights_file_is_a_model_the_training_command_wrote():
    path = learned.WEIGHTS_FILE
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


def test_importing_the_bots_does_not_read_the_weights():
    import subprocess
    import sys

    code = ("import splendor.ai, splendor.ai.learned as L; assert L._SHIPPED is None; "
            "splendor.ai.get_bot('hard'); assert L._SHIPPED is None; "
            "splendor.ai.get_bot('expert'); assert L._SHIPPED is not None; print('lazy')")
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
    assert again.base == pytest.approx(model.base, abs=1e-6) and again.per_stage == pytest.approx(model.per_stage, abs=1e-6)
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


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "flat"])
def test_expert_is_the_top_level_and_uses_the_model_at_the_leaves(tree):
    assert splendor.ai.LEVELS[-1] == "expert"
    bot = get_bot("expert")
    assert isinstance(bot, ExpertBot) and bot.leaf_model is load_model() and bot.level == "expert" and bot.tree
    # a model that counts only points makes the search buy the point card; one that counts only gold reserves
    # (in the tree, whatever the replies below its moves)
    market = [c for row in build().market for c in row if c]
    card = next(c for c in market if c.points and max(c.cost_t) <= 4 and sum(c.cost_t) <= 10)
    game = build(tokens={0: tuple(card.cost_t) + (0,)})
    legal = game.legal_actions()
    k = len(FEATURES)

    def only(name):
        return ValueModel([1.0 if f == name else 0.0 for f in FEATURES], [0.0] * k)

    kw = {"horizon": 0, "tree_horizon": 0, "endgame_horizon": 0, "candidates": len(legal), "tree": tree}
    obs = game.observation(0)
    budget = Budget(iterations=200 if tree else 12)
    points, info = ExpertBot(model=only("points"), **kw).decide(obs, random.Random(1), budget)
    gold, _ = ExpertBot(model=only("gold"), **kw).decide(obs, random.Random(1), budget)
    assert points.kind == "buy" and points.card == card
    assert gold.kind == "reserve"
    assert ("depth" in info) == tree and info.get("depth", 2) >= 2


def test_the_model_can_add_candidates_and_make_the_returns():
    """Two tuning knobs of ExpertBot (off in the shipped level): ``prior`` adds the model's best moves one ply ahead
    to the scorer's candidates; ``model_choices`` gives back tokens (and picks nobles) by the model one ply ahead."""
    k = len(FEATURES)

    def only(name, sign=1.0):
        return ValueModel([sign if f == name else 0.0 for f in FEATURES], [0.0] * k)

    game = build()
    obs = game.observation(0)
    plain = ExpertBot(model=only("gold"), candidates=2)
    _, info = plain.decide(obs, random.Random(1), Budget(iterations=8))
    assert info["searched"] == 2
    wide = ExpertBot(model=only("gold"), candidates=2, prior=3)
    _, info = wide.decide(obs, random.Random(1), Budget(iterations=8))
    assert info["searched"] == 5
    # the three added are what a gold-loving model likes best: reservations (each brings a gold)
    det = splendor.determinize(obs, random.Random(0))
    cands = wide._candidates(det, 0, wide.scorer.scores(det, 0, det.legal_actions()))
    assert len(cands) == 5 and all(a.kind == "reserve" for a in cands[2:])
    # returns: a model that dislikes held tokens of any kind still must give back; a perverse one that dislikes
    # "usable" tokens gives back one the cards need (the scorer would not): its choice is the model's, one ply ahead
    ret = build(phase="return", tokens={0: (3, 3, 3, 2, 1, 0)})
    rb = ExpertBot(model=only("tokens", -1.0), model_choices=True)
    action, info = rb.decide(ret.observation(0), random.Random(1), Budget(iterations=4))
    assert action in ret.legal_actions() and action.kind == "return"
    model = only("usable", -1.0)
    rb = ExpertBot(model=model, model_choices=True)
    action, _ = rb.decide(ret.observation(0), random.Random(1), Budget(iterations=4))
    after = {}
    for a in ret.legal_actions():
        g = ret.copy()
        g.apply_unchecked(a)
        after[str(a)] = model.win_chance(g, 0)
    assert after[str(action)] == max(after.values())
    scorer_pick, _ = ExpertBot(model=model).decide(ret.observation(0), random.Random(1), Budget(iterations=4))
    assert after[str(scorer_pick)] < max(after.values())


def test_one_ply_judges_a_move_where_the_next_turn_starts():
    """The model's one-ply judgement (the prior and model_choices knobs) is taken after the seat's returns and noble:
    mid-turn the seat is still "to move", which the model rewards, so every take that forces a return looked better
    than it is (a one-ply player of the model then took and gave back tokens all game)."""
    game = build(tokens={0: (2, 2, 2, 2, 1, 0)})  # nine tokens: a take of three needs two back
    bot = ExpertBot()
    take = next(a for a in game.legal_actions() if a.kind == "take" and len(a.colors) == 3)
    [(value, action)] = bot._one_ply(game, 0, [take])
    g = game.copy()
    g.apply_unchecked(action)
    assert g.phase_ == "return" and g.current == 0
    mid_turn = bot.model.win_chance(g, 0)
    finish_turn(g, bot.rollout)
    assert g.phase_ == "action" and g.current == 1 and sum(g.players[0].tokens.values()) == 10
    assert value == pytest.approx(bot.model.win_chance(g, 0))
    assert mid_turn > value + 0.05


def test_greedy_plies_play_the_first_turns_of_a_playout_by_the_model():
    """greedy_plies=m (a tuning knob, off): in a sample, the first m turns after the searched move are each mover's
    best move by the model one ply ahead (among the playout's pruned moves), not the scorer's. A model that counts
    gold alone makes the reply a reservation; the scorer's reply is not."""
    k = len(FEATURES)
    gold = ValueModel([1.0 if f == "gold" else 0.0 for f in FEATURES], [0.0] * k)
    game = build()
    take = next(a for a in game.legal_actions() if a.kind == "take" and len(a.colors) == 3)
    replies = {}
    for plies in (0, 1):
        bot = ExpertBot(model=gold, greedy_plies=plies)
        g = bot._sample(game, take, 0, 1, lambda g, s: g)
        assert g.phase_ == "action" and g.current == 0
        replies[plies] = g.players[1].tokens["gold"]
    assert replies == {0: 0, 1: 1}


def test_a_playout_with_a_temperature_draws_its_moves_from_the_softmax():
    """playout_tau=T (a tuning knob, off): the playouts draw each action-phase move from the softmax of the scorer's
    scores over T instead of playing the best-looking one; a draw is reproducible from its random stream."""
    from splendor.ai.search import playout
    scorer = ExpertBot().rollout
    start = splendor.new_game(players=2, seed=11)

    def played(tau=0.0, seed=None):
        g = start.copy()
        playout(g, 8, scorer, tau, random.Random(seed))
        return g.to_dict()["actions"]

    greedy = played()
    assert len(greedy) >= 8
    assert played(0.0, 1) == greedy
    hot = [played(0.3, seed) for seed in range(6)]
    assert sum(h != greedy for h in hot) >= 3 and hot[0] == played(0.3, 0)
    obs = build().observation(0)
    bot = ExpertBot(playout_tau=0.3)
    runs = [bot.decide(obs, random.Random(4), Budget(iterations=24)) for _ in range(2)]
    assert runs[0][0] == runs[1][0] and runs[0][1]["candidates"] == runs[1][1]["candidates"]


def test_whole_turns_give_a_move_that_returns_tokens_a_whole_playout():
    """whole_turns (a tuning knob): the searched move's turn is finished (its returns) before the playout's turns
    are counted. Without it a take that must give tokens back is played out one turn fewer than a reservation, and
    judged with the other seat to move one more time."""
    game = build(tokens={0: (2, 2, 2, 2, 1, 0)})
    take = next(a for a in game.legal_actions() if a.kind == "take" and len(a.colors) == 3)
    reserve = next(a for a in game.legal_actions() if a.kind == "reserve")

    def sampled(bot, action):
        g = bot._sample(game, action, 0, 4, lambda g, s: g)
        kinds = [t.split()[0] for t in g.to_dict()["actions"]]
        return g.current, sum(k not in ("return", "noble") for k in kinds) - 1  # turns after the searched move

    assert sampled(ExpertBot(), reserve) == (1, 4)
    assert sampled(ExpertBot(), take) == (0, 3)  # the bias
    assert sampled(ExpertBot(whole_turns=True), take) == (1, 4)
    assert sampled(ExpertBot(whole_turns=True), reserve) == (1, 4)


def test_the_share_knob_counts_every_opponent_at_a_larger_table():
    """``share`` (a tuning knob, off): the search's leaf is the seat's share of the table, exp(standing) over every
    seat's, instead of its chance against the best opponent alone; at two seats the two agree (without to-move)."""
    model = load_model()
    one = next(c.code for c in splendor.CARDS if c.level == 1 and c.points == 1)
    two = build(cards={0: [one]})
    st = model.standings(two)
    assert model.win_share(two, 0) == pytest.approx(1 / (1 + math.exp(-(st[0] - st[1]))))
    three = build(players=3, cards={0: [one]}, tokens={1: (2, 1, 0, 0, 0, 0)})
    shares = [model.win_share(three, s) for s in range(3)]
    assert sum(shares) == pytest.approx(1.0) and shares[0] == max(shares)
    st = model.standings(three)
    assert shares[2] == pytest.approx(math.exp(st[2]) / sum(math.exp(v) for v in st))
    # the search judges its leaves by the share: with no playout and every move searched, its value is the best
    # move's share right after it (the market is seen, so every deal agrees)
    legal = three.legal_actions()
    bot = ExpertBot(model=model, share=True, horizon=0, endgame_horizon=0, candidates=len(legal), tree=False)
    action, info = bot.decide(three.observation(0), random.Random(2), Budget(iterations=len(legal) * 4))
    after = {}
    for a in legal:
        g = three.copy()
        g.apply_unchecked(a)
        after[str(a)] = model.win_share(g, 0)
    assert info["win_chance"] == pytest.approx(after[str(action)], abs=1e-3)
    assert after[str(action)] == pytest.approx(max(after.values()), abs=1e-3)


def test_the_tree_search_walks_down_replies_and_is_reproducible():
    """The shipped expert searches a tree (``tree=True``; ``tree=False`` is the flat search of the hard bot): its
    walks go past the reply to the seat's next move, every iteration visits one root move, the most visited one is
    played, and a seed and an iteration budget reproduce the move."""
    obs = build().observation(0)
    bot = ExpertBot(tree=True, tree_width=2)
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


def test_the_tree_can_offer_the_other_seats_fewer_moves(monkeypatch):
    """``tree_others=2`` (a tuning knob): below the root the other seats choose among the scorer's 2 best moves, the
    seat itself among its ``tree_width`` best, so at 4 players the walks reach deeper on the same iterations."""
    from splendor.ai import tree

    obs = splendor.new_game(players=4, seed=3).observation(0)
    asked = []
    offers = tree._offers
    monkeypatch.setattr(tree, "_offers", lambda g, scorer, width, *rest: asked.append((g.current, width)) or
                        offers(g, scorer, width, *rest))
    depth = {}
    for bot in (get_bot("expert"), ExpertBot(tree_others=2)):
        asked.clear()
        depth[bot.tree_others] = bot.decide(obs, random.Random(1), Budget(iterations=200))[1]["depth"]
        assert {w for s, w in asked if s != 0} == {bot.tree_others or 4}
    assert {w for s, w in asked if s == 0} == {4}  # the seat's own next move is reached, with its 4 best
    assert depth[2] > depth[None] >= 4


def test_the_tree_can_let_the_other_seats_play_against_the_seat(monkeypatch):
    """``tree_paranoid`` (a tuning knob, off): the other seats' moves in the tree are valued by how much they lower
    the seat's chance (paranoid search) instead of by their own chance (max-n, shipped). With every leaf judged
    0.1, 0.2, 0.3, 0.4 for the four seats, each edge's mean is its mover's chance, or 1 - 0.1 for every other seat's."""
    from splendor.ai import tree

    obs = splendor.new_game(players=4, seed=3).observation(0)
    edges = []

    class Edge(tree._Edge):
        __slots__ = ()

        def __init__(self, action):
            super().__init__(action)
            edges.append(self)

    monkeypatch.setattr(tree, "_Edge", Edge)
    monkeypatch.setattr(tree, "_values", lambda model, g, n: [0.1, 0.2, 0.3, 0.4])
    means = {}
    for paranoid in (False, True):
        edges.clear()
        ExpertBot(tree_paranoid=paranoid).decide(obs, random.Random(1), Budget(iterations=200))
        means[paranoid] = {round(e.w / e.n, 9) for e in edges if e.n}
    assert means[False] == {0.1, 0.2, 0.3, 0.4}
    assert means[True] == {0.1, 0.9}


def test_the_tree_can_judge_every_leaf_with_the_seat_to_move(monkeypatch):
    """``tree_to_seat`` (a tuning knob, off): a new leaf is played on until the seat is to move again, so every leaf
    is judged at the seat's own turn; the shipped tree plays ``tree_horizon`` (3) turns on, whoever is then to move."""
    from splendor.ai import tree

    obs = splendor.new_game(players=4, seed=3).observation(0)
    leaves = []
    playout = tree.playout
    monkeypatch.setattr(tree, "playout", lambda g, turns, scorer: leaves.append(
        (turns, playout(g, turns, scorer).current)))
    for to_seat in (False, True):
        leaves.clear()
        ExpertBot(tree_to_seat=to_seat).decide(obs, random.Random(1), Budget(iterations=200))
        turns = {t for t, _ in leaves}
        if to_seat:
            assert {seat for _, seat in leaves} == {0} and turns == {0, 1, 2, 3}
        else:
            assert turns == {3} and len({seat for _, seat in leaves}) > 1


def test_the_tree_can_model_the_other_seats_as_hard_bots(monkeypatch):
    """``tree_others_hard=N`` (a tuning knob, off): in the tree each other seat plays one move, the hard bot's choice
    with N iterations of its search in that deal; the seat itself still chooses among the scorer's 4 best."""
    from splendor.ai import tree
    from splendor.ai.search import HardBot

    obs = splendor.new_game(players=4, seed=3).observation(0)
    asked, decided = [], []
    offers, decide = tree._offers, HardBot._decide

    def spy_decide(self, g, seat, rng, budget, legal):
        action, info = decide(self, g, seat, rng, budget, legal)
        decided.append((seat, info["iterations"], action, g.copy()))
        return action, info

    monkeypatch.setattr(tree, "_offers", lambda g, *rest: asked.append(g.current) or offers(g, *rest))
    monkeypatch.setattr(HardBot, "_decide", spy_decide)
    bot = ExpertBot(tree_others_hard=8)
    first = bot.decide(obs, random.Random(1), Budget(iterations=60))
    assert set(asked) == {0} and decided
    assert {seat for seat, *_ in decided} == {1, 2, 3} and {n for _, n, *_ in decided} == {8}
    assert all(g.why_illegal(a) is None for _, _, a, g in decided)
    assert first[1]["depth"] >= 5  # one move a seat: the walks reach the seat's next move
    decided.clear()
    again = bot.decide(obs, random.Random(1), Budget(iterations=60))
    assert str(first[0]) == str(again[0]) and first[1]["candidates"] == again[1]["candidates"]


def test_the_tree_can_offer_the_scorers_best_of_every_legal_move(monkeypatch):
    """The shipped expert (``tree_pruned=False``): below the root the movers choose among the scorer's best of every
    legal move, as the root's candidates are chosen; ``tree_pruned=True`` (the level shipped before it)
    among the playout's pruned moves (three takes, two reservations of the richest cards, no blind one), which leave
    out the scorer's favourite a third of the time."""
    from splendor.ai import tree
    from splendor.ai.search import prune

    obs = build().observation(0)
    seen = []
    offers = tree._offers

    def spy(g, scorer, width, *rest):
        got = offers(g, scorer, width, *rest)
        seen.append((g.copy(), scorer, got))
        return got

    monkeypatch.setattr(tree, "_offers", spy)
    for pruned in (True, False):
        seen.clear()
        bot = ExpertBot(tree_pruned=True) if pruned else get_bot("expert")
        bot.decide(obs, random.Random(3), Budget(iterations=120))
        outside = 0
        for g, scorer, got in seen:
            legal = g.legal_actions()
            pool = prune(g, legal, scorer) if pruned and len(legal) > 1 else legal
            ranked = sorted(scorer.scores(g, g.current, pool), key=lambda t: -t[0])
            assert [str(a) for a in got] == [str(a) for _, a in ranked[:4]]
            kept = {str(a) for a in prune(g, legal, scorer)}
            outside += any(str(a) not in kept for a in got)
        assert seen and (outside == 0 if pruned else outside > 0), (pruned, outside, len(seen))
    again = get_bot("expert")
    first = again.decide(obs, random.Random(3), Budget(iterations=120))
    second = again.decide(obs, random.Random(3), Budget(iterations=120))
    assert str(first[0]) == str(second[0]) and first[1]["candidates"] == second[1]["candidates"]


def test_expert_games_finish_with_legal_moves_in_every_table_size():
    for players in (2, 3, 4):
        for expert in (get_bot("expert"), ExpertBot(tree=False)):
            bots = [expert] + [get_bot("medium")] * (players - 1)
            result = play_game(bots, seed=40 + players, budgets=[Budget(iterations=8)] * players)
            assert result["status"] == "ok", result["error"]
            assert result["winners"]


def test_expert_through_the_protocol():
    from splendor.ai.protocol import DEFAULT_BUDGETS, choose_json

    assert DEFAULT_BUDGETS["expert"].seconds == 0.8
    game = splendor.new_game(players=2, seed=12)
    req = json.dumps({"turn_id": 3, "observation": game.observation(0), "level": "expert", "seed": 2,
                      "budget": {"iterations": 30}})
    a, b = json.loads(choose_json(req)), json.loads(choose_json(req))
    assert "error" not in a and a == {**b, "stats": {**b["stats"], "seconds": a["stats"]["seconds"]}}
    assert a["stats"]["level"] == "expert" and 30 <= a["stats"]["iterations"] < 40  # whole deals: up to 8 over
    assert game.why_illegal(splendor.parse_action(game, a["action"])) is None
    assert a["explanation"]


def test_train_command_runs_end_to_end(tmp_path, capsys):
    import splendor.__main__ as cli
    from splendor.ai import train

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
    assert "--bots takes two levels among random, easy, medium, hard, expert" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # a table's seats: any number of levels, each one a level
        train.main(["--players", "4", "--out", str(again), "--seed", "3", "--bots", "hard,wizard"])
    assert "--bots takes levels among random, easy, medium, hard, expert" in capsys.readouterr().err
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
    from splendor.ai import train

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


def test_the_site_package_ships_the_weights_but_not_the_training_command():
    from tools import build_site

    files = build_site.browser_package_files()
    assert "splendor/ai/expert_weights.json" in files and "splendor/ai/learned.py" in files
    assert "splendor/ai/train.py" not in files and "splendor/ai/arena.py" not in files
    assert "splendor/ai/train_tables.py" not in files


def test_the_style_tool_can_search_with_a_learned_model(tmp_path):
    from tools import bot_style

    assert bot_style.hard_bot({"leaf_model": "learned"}, {}).leaf_model is load_model()
    path = tmp_path / "m.json"
    ValueModel([1.0] * len(FEATURES), [0.0] * len(FEATURES)).save(path)
    bot = bot_style.hard_bot({"leaf_model": f"learned:{path}", "horizon": 2}, {})
    assert bot.leaf_model.base == [1.0] * len(FEATURES) and bot.horizon == 2


def test_the_style_tool_can_search_the_tree_with_the_hard_bots_judge():
    """``"leaf_model": "hand"``: the expert's tree judges with the hand-set values (the hard bot's leaf, the opponent
    counted fully, over 3 points), and plays differently from the shipped expert on the same deal."""
    from splendor.ai.heuristic import Weights, leaf_value
    from splendor.ai.search import HARD_WEIGHTS
    from tools import bot_style

    bot = bot_style.hard_bot({"expert": True, "leaf_model": "hand"}, {})
    assert isinstance(bot, ExpertBot) and isinstance(bot.model, bot_style.HandJudge) and bot.tree
    one = next(c.code for c in splendor.CARDS if c.level == 1 and c.points == 1)
    for players in (2, 4):
        game = build(players=players, cards={0: [one]}, tokens={1: (2, 1, 0, 0, 0, 0)})
        chances = bot.model.win_chances(game)
        assert chances == pytest.approx([leaf_value(game, Weights(**HARD_WEIGHTS), s) for s in range(players)])
        assert chances[0] == max(chances) and chances != pytest.approx(load_model().win_chances(game))
    shipped = ExpertBot()
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
    assert [model.win_share(four, s) for s in range(4)] == pytest.approx(want)
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


def test_train_players_fits_a_table_and_adds_it_to_the_base_model(tmp_path, capsys):
    from splendor.ai import train

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
    from splendor.ai import train

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
    assert train.training_bot("expert", str(first)).model.tables[4].base == pytest.approx(table.base, abs=1e-6)
    with pytest.raises(SystemExit):
        train.main(["--players", "4", "--bots", "expert,hard", "--seed", "5", "--out", str(again), "--model",
                    str(tmp_path / "missing.json")])


def test_the_table_fit_recovers_a_known_conditional_logit():
    from splendor.ai import train_tables

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
