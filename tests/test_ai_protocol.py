"""The worker protocol (JSON in, JSON out, never raising) and the one-sentence explanations."""

import json
import random

import pytest

import splendor
from splendor.ai import get_bot
from splendor.ai.explain import explain, explain_details
from splendor.ai.protocol import choose_json, handle_json, hint_json
from test_ai_states import build, noble_position, pass_position, return_position


def _request(game, **extra):
    req = {"turn_id": 17, "observation": game.observation(game.current_player), "level": "medium", "seed": 3}
    req.update(extra)
    return json.dumps(req)


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert"])
def test_move_round_trip(level):
    game = splendor.new_game(players=2, seed=12)
    game.apply("take white blue green")
    text = choose_json(_request(game, level=level, budget={"iterations": 20}, turn_id="t-9"))
    resp = json.loads(text)
    assert resp["turn_id"] == "t-9"
    assert "error" not in resp
    action = splendor.parse_action(game, resp["action"])
    assert game.why_illegal(action) is None
    assert isinstance(resp["explanation"], str) and len(resp["explanation"]) > 10
    assert resp["stats"]["level"] == level
    assert resp["stats"]["seconds"] >= 0
    game.apply(action)  # the notation is all the page needs


def test_same_request_same_answer_with_iterations():
    game = splendor.new_game(players=2, seed=13)
    req = _request(game, level="hard", budget={"iterations": 40})
    a, b = json.loads(choose_json(req)), json.loads(choose_json(req))
    assert a["action"] == b["action"] and a["explanation"] == b["explanation"]


def test_hint_is_the_coachs_best_move_spoken_to_the_person():
    # The hint is the coach's: the expert's search, the move it judges best, with the moves it weighed most and the
    # chance each gives (the review's judge: splendor.ai.coach)
    from splendor.ai import coach

    game = splendor.new_game(players=2, seed=14)
    req = _request(game, level="easy", budget={"iterations": 120})
    resp = json.loads(hint_json(req))
    assert resp["stats"]["level"] == "expert" and resp["stats"]["net"] is True
    j = coach.judge(game, 0, random.Random(3), 120)
    assert resp["action"] == str(j.moves[j.best])
    weighed = resp["weighed"]
    assert 2 <= len(weighed) <= 3 and weighed[0]["action"] == resp["action"]
    assert [w["action"] for w in weighed] == [str(a) for a, _, _ in j.ranked(len(weighed))]
    assert all(0 < w["chance"] < 1 for w in weighed)
    assert weighed[0]["chance"] == round(j.chance_of(j.moves[j.best])[0], 3)
    assert "you" in resp["explanation"] or resp["explanation"].split()[0] in ("takes", "buys", "reserves")
    assert json.loads(handle_json(json.dumps({**json.loads(req), "mode": "hint"})))["action"] == resp["action"]


def test_hint_at_four_players_weighs_chances_that_sum_over_the_seats():
    from splendor.ai import coach

    game = splendor.new_game(players=4, seed=14)
    resp = json.loads(hint_json(_request(game, level="easy", budget={"iterations": 40})))
    assert resp["stats"]["net"] is False and resp["weighed"][0]["action"] == resp["action"]
    j = coach.judge(game, 0, random.Random(3), 40)
    assert resp["action"] == str(j.moves[j.best])
    for a, _, _ in j.ranked(3):
        assert abs(sum(j.chance_of(a)) - 1) < 1e-9  # every seat's chance after the move, summing to 1


def test_hint_without_budget_uses_the_short_default(monkeypatch):
    # What the hint thinks with is pinned, not how long this machine took: the coach is handed 0.5 s (the page's
    # request carries no budget), shorter than the bots' own moves' 0.8 s, so that a person asking waits less.
    from splendor.ai import Budget, HardBot, coach

    handed = []
    judge = coach.judge

    def spy(game, seat, rng, budget, *args, **kwargs):
        handed.append(budget)
        return judge(game, seat, rng, coach.HINT_MIN_WALKS, *args, **kwargs)  # (the least a hint makes: one call)

    monkeypatch.setattr(coach, "judge", spy)
    game = splendor.new_game(players=2, seed=15)
    resp = json.loads(hint_json(json.dumps({"turn_id": 1, "observation": game.observation(0)})))
    assert "error" not in resp and resp["stats"]["level"] == "expert"
    assert len(handed) == 1 and isinstance(handed[0], Budget) and handed[0].to_dict() == {"seconds": 0.5}
    moved = []
    decide = HardBot.decide

    def spy_bot(self, observation, rng, budget=None):
        moved.append(budget)
        return decide(self, observation, rng, {"iterations": 20})

    monkeypatch.setattr(HardBot, "decide", spy_bot)
    move = json.loads(choose_json(_request(game, level="hard")))  # (a WeakenedExpert: a HardBot below)
    # a level's own counts, with the browser's time cap
    assert "error" not in move and len(moved) == 1 and moved[0].to_dict() == {"seconds": 1.5, "iterations": 1}
    moved.clear()
    move = json.loads(choose_json(_request(game, level="expert")))
    assert "error" not in move and moved[0].to_dict() == {"seconds": 1.5, "iterations": 1500}


@pytest.mark.parametrize("make", [pass_position, return_position, noble_position])
def test_every_phase_through_the_protocol(make):
    game = make()
    resp = json.loads(choose_json(_request(game, level="hard", budget={"iterations": 10})))
    assert game.why_illegal(splendor.parse_action(game, resp["action"])) is None
    assert resp["explanation"]


def test_bad_requests_get_an_error_and_the_turn_id_back():
    game = splendor.new_game(players=2, seed=16)
    obs = game.observation(0)
    cases = [
        ("not json", None),
        ("[1, 2]", None),
        (json.dumps({"observation": obs, "level": "medium"}), None),  # no turn_id
        (json.dumps({"turn_id": 5, "level": "medium"}), 5),
        (json.dumps({"turn_id": 6, "observation": obs, "level": "master"}), 6),
        (json.dumps({"turn_id": 7, "observation": obs, "level": "hard", "budget": {"seconds": -1}}), 7),
        (json.dumps({"turn_id": 8, "observation": obs, "level": "hard", "seed": "x"}), 8),
        (json.dumps({"turn_id": 9, "observation": game.observation(1), "level": "medium"}), 9),  # not to act
        (json.dumps({"turn_id": 10, "observation": {**obs, "market": "broken"}, "level": "medium"}), 10),
        (json.dumps({"turn_id": 11, "observation": {**obs, "deck_sizes": [1, 2, 3]}, "level": "medium"}), 11),
        (json.dumps({"turn_id": 12, "observation": obs, "level": "medium", "mode": "ponder"}), 12),
    ]
    for text, tid in cases:
        resp = json.loads(choose_json(text) if "ponder" not in text else handle_json(text))
        assert set(resp) == {"turn_id", "error"}, (text[:60], resp)
        assert resp["turn_id"] == tid
        assert isinstance(resp["error"], str) and resp["error"]
    assert "over" in json.loads(choose_json(json.dumps({"turn_id": 1, "observation": _finished(), "level": "easy"})))[
        "error"]
    assert json.loads(choose_json(b"\xff\xfe"))["error"]
    assert json.loads(choose_json(None))["error"]


def _finished():

    game = splendor.new_game(players=2, seed=3)
    bots = [get_bot("medium"), get_bot("medium")]
    rng = random.Random(1)
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game.observation(game.current_player), rng))
    return game.observation(0)


# Explanations ---------------------------------------------------------------------------------------------------

def test_explanations_name_cards_and_colors_in_words():
    game = splendor.new_game(players=2, seed=7)
    obs = game.observation(0)
    text = explain(obs, "take white blue green")
    assert text.startswith("takes white, blue and green")
    assert "level" in text and "card" in text
    card = game.market[1][0]
    text = explain(obs, splendor.Action.reserve(card))
    assert text.startswith(f"reserves the level 2 {card.bonus} card")
    assert "gold" in text
    assert ":" not in text.split(":")[0][-10:]  # no card code such as 2G2:4w2u1k
    assert str(card) not in text
    text = explain(obs, "reserve deck 3")
    assert "level 3 deck" in text


def test_focus_names_the_card_and_colors_a_page_can_highlight():
    game = splendor.new_game(players=2, seed=7)
    obs = game.observation(0)
    details = explain_details(obs, "take white blue green")
    assert details["colors"] == ["white", "blue", "green"]
    card = splendor.card_from_code(details["card"])
    assert card in [c for row in game.market for c in row]
    assert f"level {card.level} {card.bonus} card" in details["sentence"]
    assert card.cost_t[0] or card.cost_t[1] or card.cost_t[2]  # the tokens help pay for it


def test_explaining_a_buy_mentions_points_nobles_and_gold():
    # Seat 0 has 2 green, 1 white and 1 blue bonuses and the noble 3w3u3g is on the table: buying a green card
    # brings it to 3 green for that noble, paid partly in gold.
    greens = [c.code for c in splendor.CARDS if c.bonus in ("green", "white", "blue") and c.level == 1]
    greens = [c for c in greens if c[1] == "G"][:2] + [c for c in greens if c[1] in "WU"][:1] + \
        [c for c in greens if c[1] == "U"][:1]
    target = next(c for c in splendor.CARDS if c.bonus == "green" and c.level == 2 and c.points == 2)
    game = build(cards={0: greens}, tokens={0: (3, 4, 0, 0, 0, 3)}, reserved={0: [(target.code, False)]},
                 nobles=["3w3u3g", "4r4k", "3u3g3r"])
    assert game.can_afford(target)
    pay = game.default_payment(target)
    text = explain(game.observation(0), splendor.Action.buy(target, pay))
    assert text.startswith("buys the level 2 green card worth 2 points from your reserve")
    assert "3 green" in text and "noble" in text
    assert ("gold" in text) == bool(pay["gold"])
    resp = json.loads(choose_json(json.dumps({"turn_id": 2, "observation": game.observation(0), "level": "medium"})))
    assert resp["focus"]["card"] in [c.code for c in splendor.CARDS]
    text_they = explain(game.observation(0), splendor.Action.buy(target, pay), voice="they")
    assert "them" in text_they and "you" not in text_they


def test_explanations_for_every_kind_are_plain_sentences():
    cases = [
        (pass_position(), "pass", "passes"),
        (return_position(), "return white", "returns a white token"),
        (noble_position(), "noble 3w3u3g", "chooses the noble needing 3 white, 3 blue and 3 green"),
    ]
    veto = splendor.new_game(players=2, seed=5, variants=("noble_veto",))
    cases.append((veto, f"veto {veto.nobles[0]}", "removes the noble needing"))
    for game, text, start in cases:
        sentence = explain(game.observation(game.current_player), text)
        assert sentence.startswith(start), sentence
        assert "\n" not in sentence


def test_bot_moves_over_a_game_all_get_explanations():
    game = splendor.new_game(players=3, seed=31)
    bot = get_bot("medium")
    rng = random.Random(2)
    for _ in range(60):
        if game.is_over:
            break
        obs = game.observation(game.current_player)
        action = bot.choose(obs, rng)
        sentence = explain(obs, action, voice="they")
        assert sentence and sentence[0].islower() and "None" not in sentence
        if action.kind in ("take", "take_two"):
            assert all(c in sentence for c in action.colors)
        if action.kind in ("buy",) or (action.kind == "reserve" and action.card is not None):
            assert f"level {action.card.level} {action.card.bonus} card" in sentence
        game.apply(action)


def test_explanations_say_the_gold_the_points_and_the_price_once():
    """A reservation takes "1 gold" (none when none is left), one point is "1 point", a card told apart from its
    twin by its printed cost is not priced a second time, and a bot's take over 10 leaves its returns to their own
    lines (advice to the person keeps them)."""
    game = splendor.new_game(players=2, seed=7)
    card = game.market[1][0]
    assert " and takes 1 gold" in explain(game.observation(0), splendor.Action.reserve(card))
    broke = build(tokens={0: (0, 0, 0, 0, 0, 5)})
    assert "though no gold is left" in explain(broke.observation(0), splendor.Action.reserve(broke.market[0][0]))
    # One point: a 1-point white card, no noble near.
    one = next(c for c in splendor.CARDS if c.level == 1 and c.points == 1 and c.bonus == "white")
    game = build(tokens={0: (2, 2, 2, 2, 2, 0)}, reserved={0: [(one.code, False)]}, nobles=["4r4k", "4g4r", "3u3g3r"])
    text = explain(game.observation(0), splendor.Action.buy(one, game.default_payment(one)))
    assert "it brings you to 1 point" in text and "1 points" not in text
    # Two level 1 white cards without points in the reserve: the one bought is named by its printed cost, once.
    twins = [c for c in splendor.CARDS if c.level == 1 and c.points == 0 and c.bonus == "white"][:2]
    game = build(tokens={0: (2, 2, 2, 2, 2, 0)}, reserved={0: [(c.code, False) for c in twins]})
    text = explain(game.observation(0), splendor.Action.buy(twins[0], game.default_payment(twins[0])))
    assert " costing " in text and "it costs" not in text, text
    # Taking past 10: advice says what to give back; a bot's sentence leaves it to its return moves.
    game = build(tokens={0: (2, 2, 2, 2, 1, 0)})
    assert "then gives back 2 tokens" in explain(game.observation(0), "take white blue green")
    assert "gives back" not in explain(game.observation(0), "take white blue green", voice="they")


def test_a_light_hint_is_the_light_levels_move_without_the_coach(monkeypatch):
    # Without its worker the page asks the hint of the level it plays instead (no search, no network on its thread)
    from splendor.ai import coach
    from splendor.web.botcall import answer

    def no_coach(*args, **kwargs):
        raise AssertionError("the coach searched on the page's thread")

    monkeypatch.setattr(coach, "advise", no_coach)
    game = splendor.new_game(players=2, seed=16)
    req = _request(game, level="expert", mode="hint")
    resp = json.loads(answer(req, light=True))
    assert "error" not in resp and resp["stats"]["level"] == "medium" and resp["weighed"] == []
    medium = get_bot("medium").choose(game.observation(0), random.Random(3))
    assert resp["action"] == str(medium)
    assert "the coach searched" in json.loads(hint_json(req))["error"]  # the worker's hint is the coach's


@pytest.mark.parametrize("players, seat", [(2, 1), (3, 2), (4, 3)])
def test_the_hint_weighs_each_move_by_the_chance_of_the_seat_it_advises(players, seat):
    """Every seat, not only seat 0: the weighed moves' chances are the advised seat's (issue 72: read for seat 0,
    the whole suite passed), the advised move's the same as its win_chance, and none of them another seat's."""
    from splendor.ai import coach

    game = splendor.new_game(players=players, seed=14)
    medium = get_bot("medium")
    while game.current_player != seat or game.phase != "action":
        game.apply(medium.choose(game.observation(game.current_player), random.Random(len(game.history))))
    its = 120 if players == 2 else coach.HINT_MIN_WALKS
    resp = json.loads(hint_json(json.dumps({"turn_id": 1, "observation": game.observation(seat), "seed": 2,
                                            "budget": {"iterations": its}})))
    j = coach.judge(game, seat, random.Random(2), its)
    weighed = resp["weighed"]
    assert weighed and weighed[0]["action"] == resp["action"] == str(j.moves[j.best])
    assert weighed[0]["chance"] == resp["stats"]["win_chance"]
    for w in weighed:
        mine = j.chance_of(splendor.parse_action(game, w["action"]))
        assert w["chance"] == round(mine[seat], 3) and any(abs(w["chance"] - mine[s]) > 1e-3 for s in range(players)
                                                           if s != seat), (w, mine)


def test_the_weighed_list_starts_with_the_advised_move_wherever_the_search_ranked_it():
    """A move that wins at once is advised whatever the visits: the list the page shows still starts with it (issue
    72: the list's first move was taken as the advised one)."""
    from splendor.ai.protocol import weighed

    info = {"candidates": [{"action": "take white blue green", "value": 0.6}, {"action": "buy 1W0:3u", "value": 0.9},
                           {"action": "take red black blue", "value": 0.5}]}
    out = weighed(info, "buy 1W0:3u")
    assert [w["action"] for w in out] == ["buy 1W0:3u", "take white blue green", "take red black blue"]
    assert out[0]["chance"] == 0.9
    assert weighed(info, "take white green red") == []  # a move it did not weigh: no list


def test_a_buy_to_fifteen_says_whether_it_ends_the_game_or_starts_the_final_round():
    """Told to the person by the hint: the round's last seat ends the game at once ("brings you to 15 points, which
    starts the final round" was said of a move that ended it: issue 72); the round's first seat starts the final
    round."""
    from test_ai_tactics import _started_by, win_in_one

    last, right = win_in_one()  # seat 1 started: seat 0 is the round's last
    first = _started_by(last, 0)
    said = {name: explain(game.observation(0), splendor.parse_action(game, right), {}, voice="you")
            for name, game in (("last", last), ("first", first))}
    assert "brings you to 15 points and ends the game" in said["last"], said
    assert "brings you to 15 points, which starts the final round" in said["first"], said


def test_the_weighed_list_never_shows_a_better_chance_than_the_advised_move_nor_a_guess():
    """The hint's list is coherent (issue 72: the advised move at 59% beside a weighed one at 68%): another move is
    listed only with enough walks of its own and a chance no higher than the advised move's."""
    from splendor.ai.protocol import WEIGHED_MIN_VISITS, weighed

    info = {"candidates": [
        {"action": "take white blue green", "value": 0.59, "visits": 300},
        {"action": "buy 1W0:3u", "value": 0.68, "visits": 40},  # better on fewer walks: not shown beside it
        {"action": "take red black blue", "value": 0.52, "visits": WEIGHED_MIN_VISITS - 1},  # a guess
        {"action": "take2 red", "value": 0.55, "visits": WEIGHED_MIN_VISITS}]}
    out = weighed(info, "take white blue green")
    assert [w["action"] for w in out] == ["take white blue green", "take2 red"]
    assert all(w["chance"] <= out[0]["chance"] for w in out)


@pytest.mark.parametrize("players", [2, 4])
def test_a_hint_whose_time_is_spent_before_its_search_still_has_its_chance(players):
    """Issue 72: the first hint of a game (its time spent while the worker read the expert's files) came without a
    chance; a hint makes coach.HINT_MIN_WALKS walks whatever its time."""
    import time

    from splendor.ai import coach
    from splendor.ai.budget import Budget
    g = splendor.new_game(players=players, seed=8)
    spent = Budget(seconds=0.2).started(now=lambda: time.perf_counter() - 10)
    action, info = coach.advise(g.observation(0), random.Random(1), spent)
    assert info["iterations"] >= coach.HINT_MIN_WALKS
    assert 0 < info["win_chance"] < 1 and info["candidates"][0]["action"] == str(action)
