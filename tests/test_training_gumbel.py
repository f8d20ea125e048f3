"""Gumbel AlphaZero's root search for self-play (splendor/training/gumbel.py, ``netplay --search gumbel``): each test
fails on a wrong piece of it.

- Gumbel-top-k: the moves considered are the k of the highest g + logit, and the first of them is a draw from the
  prior;
- sequential halving: exactly n walks, in the phase pattern of worked examples, the survivor among the most walked;
- the policy target: softmax(logits + sigma(completed q)) equals a hand computation, an unwalked move completed by
  the mixed value;
- with a stand-in network whose values favour one move, the improved policy puts more on it than the prior and the
  search plays it;
- the universes: each move's walks go round the deals;
- netdata takes a decision's ``policy`` as the target; a netplay game with ``search="gumbel"`` plays to its end and
  records what the fit reads.
"""

import json
import math
import random
import re
from collections import Counter

import pytest

np = pytest.importorskip("numpy")

import splendor  # noqa: E402
from splendor.ai import encoding as enc  # noqa: E402
from splendor.ai import netrun, puct  # noqa: E402
from splendor.ai.netfile import random_net, read_net, write_net  # noqa: E402
from splendor.engine.game import parse_action  # noqa: E402
from splendor.training import gumbel, netdata, netplay  # noqa: E402


# --- Gumbel-top-k ---------------------------------------------------------------------------------------------------

def test_gumbel_top_k_takes_the_k_highest_of_noise_plus_logits_best_first():
    rng = random.Random(7)
    logits = gumbel.logits_of([0.3, 0.25, 0.15, 0.1, 0.08, 0.05, 0.04, 0.02, 0.007, 0.003])
    for _ in range(50):
        g = gumbel.gumbel_draws(rng, len(logits))
        s = [a + b for a, b in zip(g, logits)]
        picked = gumbel.top_k(s, 4)
        assert len(set(picked)) == 4
        assert min(s[i] for i in picked) > max(s[i] for i in range(len(s)) if i not in picked)
        assert [s[i] for i in picked] == sorted((s[i] for i in picked), reverse=True)
    assert gumbel.top_k([1.0, 3.0, 2.0], 5) == [1, 2, 0]  # k over the moves: every move


def test_the_first_move_of_gumbel_top_k_is_a_draw_from_the_prior():
    # the Gumbel-max trick: argmax(g + log p) is distributed as p (uniform noise, or none, would not be)
    rng = random.Random(3)
    prior = [0.5, 0.3, 0.15, 0.05]
    logits = gumbel.logits_of(prior)
    n = 6000
    firsts = Counter(gumbel.top_k([a + b for a, b in zip(gumbel.gumbel_draws(rng, 4), logits)], 1)[0]
                     for _ in range(n))
    for i, p in enumerate(prior):
        assert abs(firsts[i] / n - p) < 0.025, (i, firsts[i] / n, p)


# --- sequential halving -----------------------------------------------------------------------------------------

def _run(halving, n, scores):
    seq = [halving.next(lambda: scores) for _ in range(n)]
    return seq, Counter(seq)


def test_sequential_halving_of_four_moves_and_sixteen_walks():
    # ceil(log2 4) = 2 phases: first floor(16 / (2 x 4)) = 2 walks each of the four, then the two of the highest
    # score floor(16 / (2 x 2)) = 4 each: 6, 6, 2, 2, exactly 16
    scores = [0.0, 1.0, 3.0, 2.0]  # move 2 best, then 3, 1, 0
    h = gumbel.Halving([1, 0, 2, 3], 16)
    seq, count = _run(h, 16, scores)
    assert seq[:8] == [1, 0, 2, 3, 1, 0, 2, 3]
    assert seq[8:] == [2, 3] * 4
    assert count == {2: 6, 3: 6, 1: 2, 0: 2}
    assert h.survivor(scores) == 2
    assert h.survivor([0.0, 1.0, 2.0, 3.0]) == 3  # of the two still in (both walked 6 times), the better now


@pytest.mark.parametrize("m, n, want", [
    # 16 moves, 32 walks: 16 x 1, then 8 x 1, then 4 x 2 (the budget spent): 4 moves at 4, 4 at 2, 8 at 1
    (16, 32, [4] * 4 + [2] * 4 + [1] * 8),
    # 64 walks: 16 x 1, 8 x 2, 4 x 4, 2 x 8
    (16, 64, [15] * 2 + [7] * 2 + [3] * 4 + [1] * 8),
    # 3 moves, 10 walks: 3 x 1, then 2 x 2, then what is left (3) round the last two: 5, 4, 1
    (3, 10, [5, 4, 1]),
    # fewer walks than moves: the first n of the considered, once each
    (16, 8, [1] * 8),
    # one move takes every walk
    (1, 5, [5]),
])
def test_sequential_halving_spends_exactly_the_walks_in_its_phases(m, n, want):
    scores = [float(-i) for i in range(m)]  # the considered order is the scores' order
    h = gumbel.Halving(list(range(m)), n)
    seq, count = _run(h, n, scores)
    assert len(seq) == n
    assert sorted(count.values(), reverse=True) == want
    assert [count[i] for i in range(len(want))] == want  # the better moves kept
    assert h.survivor(scores) == 0


def test_the_halving_ranks_by_the_scores_at_each_phases_end():
    # 8 moves, 24 walks: 8 x 1, then 4 x 2, then 2 x 4; the scores are asked at each phase's end, and change: the
    # last phase keeps what ranks best then, not the order of the first
    asked = []
    first, then = [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0], [0.0, 1.0, 2.0, 3.0, 9.0, 9.0, 9.0, 9.0]

    def scores():
        asked.append(len(asked))
        return first if len(asked) == 1 else then

    h = gumbel.Halving(list(range(8)), 24)
    seq = [h.next(scores) for _ in range(24)]
    assert len(asked) == 2
    assert Counter(seq[8:16]) == {0: 2, 1: 2, 2: 2, 3: 2}
    assert Counter(seq[16:]) == {3: 4, 2: 4}  # 4 to 7 went at the first halving, whatever they score later
    assert h.survivor(then) == 3


# --- the policy target -------------------------------------------------------------------------------------------

def test_the_improved_policy_is_softmax_of_logits_plus_sigma_of_completed_q_by_hand():
    """Priors 0.5, 0.3, 0.2; walks 2, 1, 0 of summed values 0.1, 0.0; the network's root value -0.1.
    q = 0.05, 0.0; the mixed value (-0.1 + 3 x (0.5 x 0.05 + 0.3 x 0) / 0.8) / 4 = -0.0015625 completes the third.
    In [0, 1]: 0.525, 0.5, 0.49921875; sigma = (50 + 2) x 1 x those = 27.3, 26.0, 25.959375. Added to the logits:
    26.606853, 24.796027, 24.349937; the softmax: 0.788524, 0.128939, 0.082537."""
    logits = [math.log(0.5), math.log(0.3), math.log(0.2)]
    q = gumbel.completed_q(-0.1, [0.5, 0.3, 0.2], [2, 1, 0], [0.1, 0.0, 0.0])
    assert q == pytest.approx([0.05, 0.0, -0.0015625])
    # the mixed value: (root value + walks x prior-weighted mean of the walked) / (walks + 1)
    assert gumbel.mixed_value(0.2, [0.5, 0.3, 0.2], [3, 1, 0], [0.4, -0.4, 0.0]) == pytest.approx((0.2 + 4 * 0.1) / 5)
    assert gumbel.mixed_value(0.2, [0.5, 0.3, 0.2], [0, 0, 0], [0.0, 0.0, 0.0]) == 0.2
    pi = gumbel.improved_policy(logits, [2, 1, 0], [0.1, 0.0, 0.0], -0.1)
    assert pi == pytest.approx([0.788524, 0.128939, 0.082537], abs=2e-6)
    # the constants are the paper's: c_visit 50, c_scale 1
    assert gumbel.sigma(0.5, 2) == pytest.approx(26.0)
    # before any walk, every move is completed by the root's value: the policy is the prior
    assert gumbel.improved_policy(logits, [0, 0, 0], [0.0, 0.0, 0.0], 0.3) == pytest.approx([0.5, 0.3, 0.2])


# --- a stand-in network whose values favour one move ------------------------------------------------------------

from test_training_faults import WhiteRunner  # noqa: E402 (the same stand-in: it values white tokens alone)


class WhiteEvaluator:
    """:class:`WhiteRunner` as the search's evaluator (one position at a time)."""

    def evaluate(self, game):
        row = WhiteRunner().forward_batch([enc.encode(game)])[0].tolist()
        moves, priors = netrun.moves_and_priors(game, row)
        return moves, priors, math.tanh(row[enc.ACTION_COUNT])


def _gumbel_search(game, seed, sims, considered=64, universes=1):
    ev = WhiteEvaluator()
    roots = [puct.make_node(game if u == 0 else game.copy(), *ev.evaluate(game)) for u in range(universes)]
    search = gumbel.RootSearch(roots, random.Random(seed), sims, considered)
    for _ in range(sims):
        root, i = search.next_walk()
        puct._simulate(root, ev, 1.25, 0.2, forced=i)
    return roots[0].moves, search


def test_the_improved_policy_favours_the_move_the_values_favour_and_the_search_plays_it():
    game = splendor.new_game(players=2, seed=5, first_player=0)
    for seed in range(6):
        moves, search = _gumbel_search(game, seed, 64)
        names = [str(m) for m in moves]
        white = names.index("take2 white")
        pi = search.policy()
        assert search.prior[white] == pytest.approx(1 / len(moves))  # a uniform prior
        assert pi[white] > 4 * search.prior[white]
        assert max(range(len(pi)), key=pi.__getitem__) == white
        assert names[search.survivor()] == "take2 white", seed
        assert sum(search.visits()) == 64
        assert 0.0 < search.value() <= 1.0  # ahead in whites: the search's value for the mover


def test_each_moves_walks_go_round_the_universes():
    game = splendor.new_game(players=2, seed=5, first_player=0)
    _, search = _gumbel_search(game, 1, 48, considered=4, universes=3)
    # 4 moves: 2 phases, 6 walks each, then 12 more each for the better two: 18, 18, 6, 6
    assert sorted(search.visits(), reverse=True)[:5] == [18, 18, 6, 6, 0]
    for i, n in enumerate(search.visits()):
        per = [r.N[i] for r in search.roots]
        assert sum(per) == n and max(per) - min(per) <= 1, (i, per)


# --- the records -----------------------------------------------------------------------------------------------

def test_netdata_takes_a_decisions_policy_as_its_target_without_pruning():
    game = splendor.new_game(players=2, seed=5, first_player=0)
    game.apply("take white blue green")
    rec = game.record()
    rec.update({"deals": game.dealt(), "winners": [], "scores": [0, 0], "sims": 32, "forced_playouts": True})
    policy = {"take white blue green": 0.6, "take2 white": 0.3, "reserve deck 1": 0.1}
    rec["decisions"] = [{"ply": 0, "value": 0.1, "policy": policy,
                         "visits": {"take white blue green": 20, "take2 white": 10, "reserve deck 1": 2},
                         "prior": {"take white blue green": 0.5, "take2 white": 0.3, "reserve deck 1": 0.2}}]
    (_, pi, z, v, sims), = netdata.record_rows(json.loads(json.dumps(rec)))
    start = splendor.new_game(players=2, seed=5, first_player=0)
    want = [0.0] * enc.ACTION_COUNT
    for m, p in policy.items():
        want[enc.action_index(start, parse_action(start, m))] = p
    assert pi == pytest.approx(want)
    assert (z, v, sims) == (0.0, 0.1, 32)
    del rec["decisions"][0]["policy"]  # without one: the visits, pruned where the search forced playouts
    (_, pi, _, _, _), = netdata.record_rows(json.loads(json.dumps(rec)))
    assert pi != pytest.approx(want)


@pytest.fixture(scope="module")
def gumbel_game():
    from splendor.ai.expert import NET_FILE

    with open(NET_FILE, encoding="utf-8") as f:
        net = read_net(f.read())
    records, evaluations = netplay.play(net, seeds=[31], sims=16, search="gumbel")
    return json.loads(json.dumps(records[0])), evaluations


def test_a_gumbel_self_play_game_plays_to_its_end_and_records_its_policy(gumbel_game):
    rec, evaluations = gumbel_game
    game = splendor.replay(rec)  # every move legal
    assert game.is_over and sorted(rec["winners"]) == sorted(game.winners)
    assert rec["search"] == "gumbel" and rec["considered"] == 16 and rec["sims"] == 16
    assert rec["forced_playouts"] is False
    replay = splendor.Game(players=2, seed=rec["seed"], first_player=rec["first_player"], deals=rec["deals"])
    at = {d["ply"]: d for d in rec["decisions"]}
    assert len(at) >= 20
    for ply, text in enumerate(rec["actions"]):
        d = at.get(ply)
        if d is not None:
            legal = {str(m) for m in enc.legal_indexed(replay)[0]}
            assert sum(d["visits"].values()) == 16  # exactly the simulations
            assert len(d["visits"]) == min(16, len(legal))  # every considered move walked at least once
            assert set(d["policy"]) <= legal and abs(sum(d["policy"].values()) - 1) < 0.01
            assert min(d["policy"].values()) >= 1e-4
            assert d["visits"].get(text, 0) == max(d["visits"].values())  # the survivor, the first moves too
            assert -1.0 <= d["value"] <= 1.0
        replay.apply(text)
    rows = netdata.record_rows(rec)
    assert len(rows) == len(rec["decisions"])
    for (_, pi, _, _, _), d in zip(rows, rec["decisions"]):
        assert max(pi) == pytest.approx(max(d["policy"].values()) / sum(d["policy"].values()), abs=1e-6)
    # each decision: its universes' roots judged, then at most one new position a walk
    assert evaluations <= len(rec["decisions"]) * (puct.SearchParams().universes + 16)


def test_gumbel_self_play_plays_the_survivor_from_the_first_move_on():
    # at 32 walks the visits differ (4 moves at 4, 4 at 2, 8 at 1 of 16 considered): the move played is always one
    # of the most walked, the first ``explore`` moves too (no draw by the visits, as PUCT's self-play makes)
    from splendor.ai.expert import NET_FILE

    with open(NET_FILE, encoding="utf-8") as f:
        net = read_net(f.read())
    records, _ = netplay.play(net, seeds=[32], sims=32, search="gumbel", explore=10, round_limit=6)
    rec = records[0]
    assert len(rec["decisions"]) >= 10
    for d in rec["decisions"]:
        played = rec["actions"][d["ply"]]
        assert d["visits"][played] == max(d["visits"].values())
        if len(d["visits"]) == 16:
            assert sorted(d["visits"].values(), reverse=True) == [4] * 4 + [2] * 4 + [1] * 8
    # the network's values that favour one move make the search play it
    records, _ = netplay.play(WhiteRunner(), seeds=[5], sims=64, search="gumbel", considered=64, round_limit=1)
    assert records[0]["actions"][0] == "take2 white"


def test_the_netplay_command_plays_gumbel_self_play(tmp_path, capsys):
    from splendor.__main__ import main

    net_path = tmp_path / "net.json"
    net_path.write_text(write_net(random_net(seed=2, hidden=(8,))))
    games = tmp_path / "g.jsonl"
    assert main(["netplay", "--net", str(net_path), "--games", "1", "--batch", "1", "--sims", "8",
                 "--search", "gumbel", "--considered", "4", "--c-scale", "0.5", "--out", str(games)]) == 0
    line = capsys.readouterr().out
    rec = json.loads(games.read_text().splitlines()[0])
    # the rates printed are of the same processor time: positions over games is the decisions a game recorded
    rates = re.search(r"(\d+) games and (\d+) positions \(decisions recorded\) per CPU-hour", line)
    assert rates and int(rates[2]) / int(rates[1]) == pytest.approx(len(rec["decisions"]), rel=0.01)
    assert rec["search"] == "gumbel" and rec["considered"] == 4 and rec["c_scale"] == 0.5
    assert all("policy" in d and len(d["visits"]) <= 4 and sum(d["visits"].values()) == 8 for d in rec["decisions"])
    with pytest.raises(ValueError):
        netplay.play(random_net(seed=2, hidden=(8,)), seeds=[1], sims=2, search="mcts")
    with pytest.raises(SystemExit):  # the command refuses the same settings, in words, before any game
        main(["netplay", "--net", str(net_path), "--considered", "0", "--out", str(games)])
    assert "considered must be a whole number of at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("players, mover", [(2, 1)])
def test_the_roots_value_is_the_movers_at_every_seat(players, mover):
    """The search's value of the root is the network's value for the seat to move, not seat 0's (issue 72: read for
    seat 0, half of self-play's targets were the opponent's; only an unused import gave it away)."""
    game = splendor.new_game(players=players, seed=5, first_player=0)
    while game.current_player != mover:
        game.apply(game.legal_actions()[0])
    node = puct.make_node(game, *WhiteEvaluator().evaluate(game))
    seat_values = node.v
    assert len(set(round(v, 6) for v in seat_values)) > 1  # the seats' values differ: a wrong seat shows
    search = gumbel.RootSearch([node], random.Random(1), 8)
    assert search.root_value == pytest.approx(seat_values[mover])
    assert search.value(search.prior) == pytest.approx(seat_values[mover])  # no walk yet: the root's own value
