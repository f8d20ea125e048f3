"""The expert's learned move prior (splendor/ai/policy.py), its use by the search's root (PUCT), the expert-model file
that holds it beside the value. The self-play training command that fits both: test_training_selfplay.py."""

import json
import random

import pytest

import splendor
from splendor.ai import Budget, get_bot
from splendor.ai import tree as tree_mod
from splendor.ai.expert import ExpertBot
from splendor.ai.learned import BUNDLE, ByTable, load_model, read_model, read_policy
from splendor.ai.policy import ACTION_FEATURES, PolicyModel, action_features
from splendor.ai.heuristic import Scorer, Weights
from splendor.ai.search import HARD_WEIGHTS

F = {name: i for i, name in enumerate(ACTION_FEATURES)}


def scored(game):
    return Scorer(Weights(**HARD_WEIGHTS)).scores(game, game.current, game.legal_actions())


def mid_game(seed=3, moves=12, players=2):
    game = splendor.new_game(players=players, seed=seed)
    bot = get_bot("medium")
    for _ in range(moves):
        game.apply(bot.choose(game.observation(game.current), random.Random(0), None))
    return game


def test_features_describe_each_kind_of_move():
    game = mid_game()
    rows = action_features(game, game.current, scored(game))
    assert len(rows) == len(game.legal_actions())
    kinds = set()
    for f, a in rows:
        assert len(f) == len(ACTION_FEATURES)
        assert f[F["score_gap"]] <= 0.0
        if a.kind == "buy":
            kinds.add("buy")
            assert f[F["buy"]] == 1.0 and f[F["points"]] == a.card.points and f[F["level"]] == a.card.level
        elif a.kind == "reserve":
            kinds.add("reserve")
            assert f[F["reserve"]] == 1.0 and f[F["blind"]] == (1.0 if a.card is None else 0.0)
            assert f[F["held_after"]] == len(game._players[game.current]._reserved) + 1
        else:
            kinds.add("take")
            n = len(a.colors) * (2 if a.kind == "take_two" else 1)
            over = sum(game._players[game.current].tok) + n - 10
            assert f[F["returned"]] == max(0, over)
    assert {"reserve", "take"} <= kinds
    assert max(f[F["score_gap"]] for f, _ in rows) == 0.0


def test_priors_are_a_distribution_that_follows_the_weights_and_round_trip(tmp_path):
    game = mid_game()
    sc = scored(game)
    uniform = PolicyModel([0.0] * len(ACTION_FEATURES))
    pri = uniform.priors(game, game.current, sc)
    assert abs(sum(p for p, _ in pri) - 1.0) < 1e-9
    assert max(p for p, _ in pri) - min(p for p, _ in pri) < 1e-12
    w = [0.0] * len(ACTION_FEATURES)
    w[F["buy"]] = 5.0
    likes_buys = PolicyModel(w)
    top = max(likes_buys.priors(game, game.current, sc), key=lambda t: t[0])[1]
    assert top.kind == "buy" or not any(a.kind == "buy" for _, a in sc)
    again = PolicyModel.from_dict(json.loads(json.dumps(likes_buys.to_dict())))
    assert again.weights == likes_buys.weights and again.players == 2
    with pytest.raises(ValueError, match="weights"):
        PolicyModel([1.0])
    bad = likes_buys.to_dict()
    bad["features"] = bad["features"][:-1]
    with pytest.raises(ValueError, match="retrain"):
        PolicyModel.from_dict(bad)


def test_the_root_chooses_by_puct_likeliest_new_move_first():
    node = {}
    moves = ["a", "b", "c"]
    priors = [0.2, 0.7, 0.1]
    e, new = tree_mod._choose_root(node, moves, priors, 1.0)
    assert new and e.action == "b"
    e.n, e.w = 3, 0.0  # "b" lost three times: an unsearched move (valued at the mean, 0) with a prior weighs more
    e2, new2 = tree_mod._choose_root(node, moves, priors, 1.0)
    assert new2 and e2.action == "a"
    e2.n, e2.w = 1, 1.0
    node["c"] = tree_mod._Edge("c")
    node["c"].n, node["c"].w = 1, 0.0
    e3, new3 = tree_mod._choose_root(node, moves, priors, 1.0)
    assert not new3 and e3.action == "a"  # the winner, by value


def test_the_expert_with_a_policy_searches_its_favourites_and_records_the_visits():
    game = mid_game()
    w = [0.0] * len(ACTION_FEATURES)
    w[F["blind"]] = 8.0  # a policy that loves blind reservations, which the scorer never offers
    record = []
    bot = ExpertBot(policy=PolicyModel(w), policy_width=2, record=record)
    obs = game.observation(game.current)
    a1, info = bot.decide(obs, random.Random(4), Budget(iterations=40))
    assert game.why_illegal(a1) is None
    feats, visits, cands = record[-1]
    assert sum(visits) == info["iterations"] == 40
    blind = [a for a in cands if a.kind == "reserve" and a.card is None]
    assert blind, "the policy's favourite joined the root's moves"
    assert len(feats) == len(cands) == len(visits)
    # the same decision again: the same move (deterministic under an iteration budget)
    a2, _ = ExpertBot(policy=PolicyModel(w), policy_width=2).decide(obs, random.Random(4), Budget(iterations=40))
    assert a2 == a1
    # at four seats a two-player policy is left alone (the tree search's, as the policy is the tree's)
    four = mid_game(players=4, moves=8)
    with_policy, without = [], []
    for pol, rec in ((PolicyModel(w), with_policy), (None, without)):
        ExpertBot(policy=pol, policy_width=2, record=rec, net=None).decide(four.observation(four.current),
                                                                           random.Random(4), Budget(iterations=20))
    assert with_policy == without


def test_a_policys_search_settings_round_trip_and_bad_ones_are_refused_in_words():
    pol = PolicyModel([0.1] * len(ACTION_FEATURES), search={"horizon": 0, "below_root": True})
    back = PolicyModel.from_dict(json.loads(json.dumps(pol.to_dict())))
    assert back.search == {"horizon": 0, "below_root": True}
    assert "search" not in PolicyModel([0.1] * len(ACTION_FEATURES)).to_dict()  # older files stay as they were
    assert PolicyModel.from_dict(PolicyModel([0.1] * len(ACTION_FEATURES)).to_dict()).search is None
    for bad, words in (({"horizon": -1}, "0 or more"), ({"horizon": "3"}, "whole number"),
                       ({"below_root": "yes"}, "true or false"), ({"depth": 2}, "'horizon' and 'below_root'")):
        with pytest.raises(ValueError, match=words):
            PolicyModel([0.1] * len(ACTION_FEATURES), search=bad)


def test_below_the_root_a_policy_offers_its_favourites_with_their_priors():
    from splendor.ai.search import HardBot
    game = mid_game()
    scorer = HardBot().scorer
    w = [0.0] * len(ACTION_FEATURES)
    w[F["blind"]] = 8.0
    pol = PolicyModel(w)
    moves, priors = tree_mod._offers(game, scorer, 3, pol)
    ranked = sorted(pol.priors(game, game.current, scorer.scores(game, game.current, game.legal_actions())),
                    key=lambda t: -t[0])
    assert moves == [a for _, a in ranked[:3]] and all(a.kind == "reserve" and a.card is None for a in moves[:3])
    assert abs(sum(priors) - 1.0) < 1e-9 and priors == sorted(priors, reverse=True)
    plain, none = tree_mod._offers(game, scorer, 3)
    assert none is None and not any(a.kind == "reserve" and a.card is None for a in plain)


def test_the_expert_follows_its_policys_search_settings_at_the_policys_table_size(monkeypatch):
    seen = []
    real = tree_mod.search

    def spy(bot, game, seat, cands, rng, clock, horizon, priors=None, inner=None):
        seen.append((len(game._players), horizon, inner))
        return real(bot, game, seat, cands, rng, clock, horizon, priors, inner)

    monkeypatch.setattr(tree_mod, "search", spy)
    pol = PolicyModel([0.1] * len(ACTION_FEATURES), search={"horizon": 0, "below_root": True})
    two, four = mid_game(), mid_game(players=4, moves=8)
    for g in (two, four):
        ExpertBot(policy=pol).decide(g.observation(g.current), random.Random(1), Budget(iterations=12))
    ExpertBot(policy=pol, tree_horizon=2, tree_prior=False).decide(two.observation(two.current), random.Random(1),
                                                                   Budget(iterations=12))
    assert seen[0] == (2, 0, pol)      # the policy's own settings where it applies
    assert seen[1] == (4, 3, None)     # elsewhere the expert's defaults
    assert seen[2] == (2, 2, None)     # given settings win over the policy's


def test_an_expert_model_file_routes_the_tables_and_bad_files_are_refused(tmp_path):
    linear = load_model()
    two = json.loads(json.dumps(linear.to_dict()))
    two["to_move"] = 0.5
    pol = PolicyModel([0.1] * len(ACTION_FEATURES)).to_dict()
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"format": BUNDLE, "version": 1, "value": two, "others": linear.to_dict(),
                                "policy": pol, "meta": {"seed": 9}}))
    model = read_model(str(path))
    assert isinstance(model, ByTable)
    assert model.of(mid_game()).to_move == 0.5
    assert model.of(mid_game(players=4, moves=4)).to_move == linear.to_move
    assert read_policy(str(path)).weights == [0.1] * len(ACTION_FEATURES)
    four = mid_game(players=4, moves=4)
    assert model.win_chances(four) == linear.win_chances(four)
    path.write_text(json.dumps({"format": BUNDLE, "version": 2, "value": two}))
    with pytest.raises(ValueError, match="version"):
        read_model(str(path))


def test_a_value_nets_chances_read_at_once_equal_each_seats_own():
    from splendor.ai.valuenet import SEAT_INPUTS, TABLE_INPUTS, ValueNet
    rng = random.Random(2)

    def m(rows, cols):
        return [[rng.gauss(0, 0.3) for _ in range(cols)] for _ in range(rows)]

    net = ValueNet(m(5, SEAT_INPUTS), m(5, SEAT_INPUTS), m(5, TABLE_INPUTS - 1), [0.2] * 5, [0.1] * 5,
                   [rng.gauss(0, 1) for _ in range(5)])
    for players in (2, 4):
        game = mid_game(players=players, moves=10)
        every = net.win_chances(game)
        assert every == pytest.approx([net.win_chance(game, s) for s in range(players)], abs=1e-12)
