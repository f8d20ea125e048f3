"""The bots: interface, legal actions in every phase, determinism, fairness, no global randomness."""

import random

import pytest

import splendor
from splendor import ai
from splendor.ai import LEVELS, Budget, BotError, get_bot
from splendor.ai.search import HardBot
from splendor.training.arena import play_game
from test_ai_states import build, noble_position, pass_position, return_position

SMALL = Budget(iterations=12)


def test_registry_lists_the_levels_weakest_first():
    from splendor.ai.ladder import NAMES

    assert LEVELS == ("random",) + NAMES and len(NAMES) >= 7
    assert NAMES[0] == "beginner" and NAMES[-1] == "expert"
    assert NAMES.index("easy") < NAMES.index("medium") < NAMES.index("hard") < NAMES.index("expert")
    for level in LEVELS:
        bot = get_bot(level)
        assert bot.level == level
        assert callable(bot.choose)
    with pytest.raises(ValueError, match="unknown bot level"):
        get_bot("master")


def test_budget_parsing():
    assert Budget.parse(0.5).seconds == 0.5
    assert Budget.parse({"iterations": 40}).iterations == 40
    assert Budget.parse(None, Budget(seconds=2)).seconds == 2
    for bad in ({"seconds": 0}, {"iterations": 1.5}, {"minutes": 1}, True, "fast", {"seconds": 1e9}):
        with pytest.raises(ValueError):
            Budget.parse(bad)


@pytest.mark.parametrize("level", LEVELS)
def test_choose_returns_a_legal_action_of_the_seat_to_act(level):
    game = splendor.new_game(players=3, seed=11)
    for _ in range(12):
        obs = game.observation(game.current_player)
        action = get_bot(level).choose(obs, random.Random(3), SMALL)
        assert isinstance(action, splendor.Action)
        assert game.why_illegal(action) is None
        game.apply(action)


@pytest.mark.parametrize("make", [pass_position, return_position, noble_position])
@pytest.mark.parametrize("level", LEVELS)
def test_every_phase_gets_a_legal_answer(level, make):
    game = make()
    action = get_bot(level).choose(game.observation(game.current_player), random.Random(1), SMALL)
    assert game.why_illegal(action) is None


@pytest.mark.parametrize("level", LEVELS)
def test_veto_phase(level):
    game = splendor.new_game(players=2, seed=5, variants=("noble_veto",))
    offered = list(game.nobles)
    vetoed = []
    while game.phase == "veto":
        action = get_bot(level).choose(game.observation(game.current_player), random.Random(2), SMALL)
        assert action.kind == "veto" and game.why_illegal(action) is None
        game.apply(action)
        vetoed.append(action.noble)
    # Each of the two seats removed one of the five nobles dealt (the loop above ran twice), and the game went on.
    assert len(offered) == 5 and len(vetoed) == 2 and game.phase == "action"
    assert sorted(map(str, game.nobles)) == sorted(str(n) for n in offered if n not in vetoed)


def test_returns_give_back_what_is_least_useful():
    # Seat 0 has 13 tokens; no card in the market or its reserve costs any black, so its black tokens are the
    # useless ones: every level that thinks returns black.
    no_black = [c for c in splendor.CARDS if not c.cost_t[4]]
    market = [[c.code for c in no_black if c.level == lv][:4] for lv in (1, 2, 3)]
    reserve = [c.code for c in no_black if c.level == 2][4]
    game = build(phase="return", tokens={0: (3, 3, 0, 2, 3, 2)}, reserved={0: [(reserve, False)]}, market=market)
    assert game.players[0].token_count == 13
    for level in ("easy", "medium", "hard", "expert"):
        obs = game.observation(0)
        action = get_bot(level).choose(obs, random.Random(4), SMALL)
        assert str(action) == "return black", (level, str(action))


def test_bots_refuse_observations_with_no_decision():
    game = splendor.new_game(players=2, seed=1)
    with pytest.raises(BotError, match="seat 0 is to act"):
        get_bot("medium").choose(game.observation(1), random.Random(1), SMALL)
    over = play_game([get_bot("medium"), get_bot("medium")], seed=3)
    assert over["status"] == "ok"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_between_all_levels_finish_with_legal_moves(players):
    # play_game checks every action with why_illegal and counts a bad one as an error.
    for k in range(2):
        levels = [LEVELS[(k + s) % len(LEVELS)] for s in range(players)]
        result = play_game([get_bot(lv) for lv in levels], seed=100 + k, budgets=[Budget(iterations=6)] * players)
        assert result["status"] == "ok", result["error"]
        assert result["winners"]


def test_same_seed_and_iteration_budget_give_the_same_move():
    game = splendor.new_game(players=2, seed=21)
    for text in ("take white blue green", "take red black blue", "reserve deck 2", "take white green red"):
        game.apply(text)
    obs = game.observation(0)
    budget = Budget(iterations=60)
    for level in LEVELS:
        first = get_bot(level).decide(obs, random.Random(99), budget)
        again = get_bot(level).decide(obs, random.Random(99), budget)
        assert first[0] == again[0], level
    for level in ("hard", "expert"):
        moves = [str(get_bot(level).choose(obs, random.Random(s), budget)) for s in (1, 1, 1)]
        assert len(set(moves)) == 1, level


def _two_games_one_observation():
    """Two true states that differ only in deck order and in the card seat 1 reserved blind; seat 0 sees the same."""
    game = splendor.new_game(players=2, seed=8)
    for text in ("take white blue green", "reserve deck 2", "take red black white", "reserve deck 3",
                 "take blue green red", "take white red black"):
        game.apply(text)
    a = game.to_dict()
    b = game.to_dict()
    hidden = b["tableaus"][1]["reserved"]
    assert [r["hidden"] for r in hidden] == [True, True]
    for r in hidden:
        lv = int(r["card"][0]) - 1
        deck = b["decks"][lv]
        r["card"], deck[0] = deck[0], r["card"]  # another unseen card in seat 1's hand
    for deck in b["decks"]:
        deck.reverse()
    g1, g2 = splendor.Game.from_dict(a), splendor.Game.from_dict(b)
    assert g1.to_dict()["decks"] != g2.to_dict()["decks"]
    assert g1.players[1].reserved != g2.players[1].reserved
    return g1, g2


@pytest.mark.parametrize("level", LEVELS)
def test_fairness_hidden_cards_do_not_change_the_move(level):
    g1, g2 = _two_games_one_observation()
    o1, o2 = g1.observation(0), g2.observation(0)
    assert o1 == o2
    budget = Budget(iterations=80)
    m1 = get_bot(level).choose(o1, random.Random(5), budget)
    m2 = get_bot(level).choose(o2, random.Random(5), budget)
    assert m1 == m2
    assert g1.why_illegal(m1) is None and g2.why_illegal(m2) is None


def test_bots_never_touch_the_global_random(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("a bot used the global random generator")

    for name in ("random", "choice", "shuffle", "randrange", "randint", "sample", "uniform", "choices"):
        monkeypatch.setattr(random, name, forbidden)
    game = splendor.new_game(players=2, seed=2)
    for _ in range(6):
        for level in LEVELS:
            action = get_bot(level).choose(game.observation(game.current_player), random.Random(7), SMALL)
            assert game.why_illegal(action) is None
        game.apply(action)


def test_hard_bot_honours_a_time_budget(monkeypatch):
    # The budget's clock is a counter here, so what is asserted is what the search did with its time, not how fast
    # this machine is: each reading of the clock moves it on by 1 ms, so the search stops after a few hundred.
    readings = []

    def fake_now():
        readings.append(len(readings) * 0.001)
        return readings[-1]

    monkeypatch.setattr(Budget, "_now", lambda self: fake_now)
    game = splendor.new_game(players=2, seed=4)
    game.apply("take white blue green")
    action, info = HardBot().decide(game.observation(1), random.Random(1), Budget(seconds=0.3))
    assert game.why_illegal(action) is None
    assert info["iterations"] > 0
    # It stopped because its time ran out (about one reading a deal: 0.3 s of 1 ms steps) and reported that time.
    assert 280 <= len(readings) <= 310 and info["seconds"] == pytest.approx(0.3, abs=0.002)


def test_hard_bot_can_search_every_purchase_beyond_its_top_candidates():
    from splendor.ai.search import HardBot

    engine = {}  # a 0-point level 1 card of each color: a bonus of each, and with ten tokens many cards are affordable
    for c in splendor.CARDS:
        if c.level == 1 and c.points == 0:
            engine.setdefault(c.bonus, c.code)
    game = build(tokens={0: (2, 2, 2, 2, 2, 0)}, cards={0: list(engine.values())})
    buys = [a for a in game.legal_actions() if a.kind == "buy"]
    assert len(buys) >= 3
    obs = game.observation(0)
    narrow, info = HardBot(candidates=1).decide(obs, random.Random(1), SMALL)
    assert info["searched"] == 1  # the bot searches its top candidates only, however many buys there are
    assert game.why_illegal(narrow) is None


def test_halving_shares_the_budget_as_documented():
    from splendor.ai.search import HardBot

    obs = splendor.new_game(players=2, seed=3).observation(0)
    _, info = HardBot().decide(obs, random.Random(1), Budget(iterations=400))
    assert info["searched"] == 8 and info["iterations"] == 400
    # Half the field goes after 4 deals, half again after 8; the last two share the rest: 32 + 16 + 2 x 176.
    assert [c["visits"] for c in info["candidates"]] == [184, 184, 8, 8]


def test_a_timed_clock_stops_before_a_step_that_would_overrun_it():
    from splendor.ai.budget import Clock

    t = [100.0]
    clock = Clock(Budget(seconds=1.0), now=lambda: t[0])
    steps = 0
    while not clock.done():
        t[0] += 0.3  # each step of the search takes 0.3 s
        steps += 1
    assert steps == 3 and abs(t[0] - 100.9) < 1e-9  # a fourth step would end at 1.2 s: not taken
    assert abs(clock.elapsed() - 0.9) < 1e-9
    t[0] = 100.0
    clock = Clock(Budget(seconds=1.0, iterations=2), now=lambda: t[0])
    clock.tick(2)
    assert clock.done()  # the iteration budget still ends it on its own
    # A move's time counts from when the bot began (its preparation is inside the budget), not from its search.
    begun = Budget(seconds=1.0).started(now=lambda: 100.0)
    t[0] = 100.8
    clock = Clock(begun, now=lambda: t[0], since=begun.since)
    assert abs(clock.elapsed() - 0.8) < 1e-9
    assert clock.done()  # the 0.8 s already spent, taken once more, would end past the second
    assert Budget.parse({"seconds": 0.5}).since is None  # a budget is anchored only by the bot that uses it


def test_a_processor_time_budget_counts_only_the_work_done():
    import time

    cpu = Budget.parse({"seconds": 0.2, "cpu": True})
    assert cpu.cpu and cpu.to_dict() == {"seconds": 0.2, "cpu": True} and not Budget(seconds=0.2).cpu
    wall, counted = Budget(seconds=0.2).started().clock(), cpu.started().clock()
    time.sleep(0.25)  # time passes, no work is done: the wall clock's budget is spent, the processor's is not
    assert wall.done() and not counted.done() and counted.elapsed() < 0.1
    end = time.process_time() + 0.3
    while time.process_time() < end:  # work for 0.3 s of processor time
        pass
    assert counted.done()
    for bad in ({"iterations": 5, "cpu": True}, {"seconds": 1, "cpu": "yes"}):
        with pytest.raises(ValueError, match="cpu|processor"):
            Budget.parse(bad)


def test_module_level_choose_shortcut():
    game = splendor.new_game(players=2, seed=9)
    action = ai.choose(game.observation(0), random.Random(1), SMALL, level="easy")
    assert game.why_illegal(action) is None


def test_stage_is_the_leaders_points_and_the_engine_fades_with_it():
    # Seat 0 holds six level 1 cards worth no points; seat 1 holds one worth a point, then eleven more points.
    from splendor.ai.heuristic import View, Weights, seat_values, stage_of
    from splendor.ai.search import HARD_WEIGHTS, HardBot

    zero = [c.code for c in splendor.CARDS if c.level == 1 and c.points == 0][:6]
    one = next(c.code for c in splendor.CARDS if c.level == 1 and c.points == 1)
    game = build(cards={0: zero, 1: [one]})
    assert stage_of(game) == pytest.approx(1 / 15)
    assert View(game, 0).stage == pytest.approx(1 / 15)
    early = seat_values(game, Weights())
    three = [c.code for c in splendor.CARDS if c.level == 3 and c.points == 4][:3]
    late_game = build(cards={0: zero, 1: [one] + three})
    assert stage_of(late_game) == pytest.approx(13 / 15) == View(late_game, 0).stage
    late = seat_values(late_game, Weights())
    assert late[0] < early[0]  # seat 0's six bonuses are worth less as an engine near the end
    # The hard bot plays with its own weights; the medium bot keeps the defaults.
    hard, medium = HardBot(), get_bot("medium")
    assert isinstance(hard, HardBot) and HARD_WEIGHTS
    assert all(getattr(hard.weights, k) == v for k, v in HARD_WEIGHTS.items())
    assert all(getattr(medium.scorer.w, k) == getattr(Weights(), k) for k in HARD_WEIGHTS)
    assert any(getattr(hard.weights, k) != getattr(Weights(), k) for k in HARD_WEIGHTS)



def test_seat_parts_add_up_to_the_seat_value():
    """The leaf model weighs the terms of a seat's value: read apart, they must add up to the value itself."""
    from splendor.ai.heuristic import Weights, seat_parts, seat_values, stage_of
    from splendor.ai.search import HARD_WEIGHTS

    checked = 0
    for w in (Weights(), Weights(**HARD_WEIGHTS)):
        def watch(game, seat, action):
            nonlocal checked
            stage = stage_of(game)
            market = [c for row in game._market for c in row if c is not None]
            for p, value in zip(game._players, seat_values(game, w)):
                pts, engine, nobles, held, pro, usable, gold = seat_parts(w, p, market, game._nobles, stage,
                                                                          game._supply)
                assert held == len(p.reserved) and gold == p.tok[5] and 0 <= usable <= sum(p.tok[:5])
                assert pts + engine + nobles - w.reserve_slot * held + pro + w.token * usable + w.gold * gold \
                    == pytest.approx(value, abs=1e-9)
                checked += 1

        play_game([get_bot("medium"), get_bot("medium")], 7, watch=watch)
    assert checked > 100


