"""Puzzles in the page's state machine and the shipped pool (issue 73): every shipped puzzle replays to its seat's
move and is solved by its answer from whichever seat it is, a miss ends a streak, the record keeps the tries, the
best streak and a puzzle rating, the game in progress is never saved over, the daily puzzle is one a day."""

import json
import random
import re
from pathlib import Path

import pytest

import splendor
from splendor.engine import parse_action
from splendor.web.controller import App
from splendor.web.puzzles.pool import Pool, day_of, day_of_year
from splendor.web.puzzles.state import same_move
from splendor.web.records.player_record import RECORD_KEY
from splendor.web.records.storage import MemoryStorage
from splendor.web import view

POOL_TEXT = (Path(__file__).resolve().parents[1] / "assets" / "puzzles.jsonl").read_text("utf-8")
POOL = Pool.parse(POOL_TEXT)
SAVE_KEY = "splendor.save.v1"


def puzzle_app(storage=None, mode="rated"):
    app = App(storage or MemoryStorage())
    app.act("puzzles", {"mode": mode})
    assert app.pool_wanted == mode and app.puzzle is None  # (the page loads the pool first)
    app.pool_loaded(POOL_TEXT)
    return app


def play(app, text):
    """The person plays ``text`` as the page commits a move."""
    app._commit([parse_action(app.game, text)])


def test_the_shipped_pool_reads_whole_and_each_puzzle_is_a_position_of_its_seat():
    assert POOL.skipped == 0 and len(POOL) >= 20
    seats = set()
    for p in POOL.puzzles:
        g = splendor.new_game(players=p["players"], seed=p["seed"])
        for text in p["actions"]:
            g.apply(text)
        assert g.current_player == p["seat"] and g.phase == "action" and not g.is_over, p["id"]
        answer = parse_action(g, p["answer"])
        assert any(same_move(a, answer) for a in g.legal_actions()), p["id"]
        assert p["why"] and p["chances"] and p["chances"][0][1] >= max(c for _, c in p["chances"]), p["id"]
        seats.add(p["seat"])
    assert seats >= {0, 1}  # (the screen is tested from every seat a puzzle has)


def test_every_shipped_puzzle_is_solved_by_its_answer_and_missed_by_another_move():
    app = puzzle_app()
    for p in POOL.puzzles:
        app._open_puzzle(p, "rated")
        assert app.person == p["seat"] and app.my_turn and app.bot_to_move() is None
        play(app, p["answer"])
        assert app.puzzle["result"]["solved"], p["id"]
        assert app.puzzle["result"]["best"] == dict(map(tuple, p["chances"]))[p["answer"]]
        assert not app.my_turn  # (one move: nothing more to play, and the bots do not answer)
    p = POOL.puzzles[0]
    app._open_puzzle(p, "rated")
    answer = parse_action(app.game, p["answer"])
    other = next(a for a in app.game.legal_actions() if not same_move(a, answer) and a.kind != "return")
    app._commit([other])
    assert not app.puzzle["result"]["solved"]


def test_a_streak_rises_and_ends_at_the_first_miss_and_the_record_keeps_the_best():
    storage = MemoryStorage()
    app = puzzle_app(storage, "streak")
    first = app.puzzle["p"]
    assert first["rating"] == min(p["rating"] for p in POOL.puzzles)
    play(app, first["answer"])
    html = view.render(app)
    assert "Solved!" in html and "Streak: 1" in html
    app.act("puzzle-next", {})
    second = app.puzzle["p"]
    assert second["id"] != first["id"] and second["rating"] >= first["rating"]
    answer = parse_action(app.game, second["answer"])
    app._commit([next(a for a in app.game.legal_actions() if a.kind == "take" and not same_move(a, answer))])
    html = view.render(app)
    assert "Not the best move" in html and "The streak ends at 1" in html and "New streak" in html
    app.act("puzzle-next", {})  # a new streak starts at the easiest
    assert app.puzzle["p"]["id"] == first["id"] and app.puzzle["streak"]["count"] == 0
    part = json.loads(storage.get(RECORD_KEY))["puzzles"]
    assert (part["tried"], part["solved"], part["best_streak"], part["games"]) == (2, 1, 1, 2)
    # the first puzzle again: counted, not rated again
    rating = part["rating"]
    play(app, first["answer"])
    part = json.loads(storage.get(RECORD_KEY))["puzzles"]
    assert (part["tried"], part["games"], part["rating"]) == (3, 2, rating)
    assert "not rated again" in view.render(app)


def test_the_rating_rises_on_a_solve_and_chooses_the_next_puzzle_near_it():
    app = puzzle_app()
    before = app.player_record.puzzle_rating().rating
    p = app.puzzle["p"]
    play(app, p["answer"])
    after = app.player_record.puzzle_rating().rating
    assert after > before
    near = POOL.near(after, [p["id"]], random.Random(1))
    ranked = sorted((abs(q["rating"] - after) for q in POOL.puzzles if q["id"] != p["id"]))
    assert abs(near["rating"] - after) <= ranked[2] and near["id"] != p["id"]


def test_the_game_in_progress_is_kept_aside_never_saved_over_and_comes_back():
    storage = MemoryStorage()
    app = App(storage)
    app.act("start", {})
    g = app.game
    play(app, str(next(a for a in g.legal_actions() if a.kind == "take")))
    saved = storage.get(SAVE_KEY)
    app.act("puzzles", {"mode": "streak"})
    app.pool_loaded(POOL_TEXT)
    assert app.game is not g and app.screen == "game"
    app.act("hint", {})
    assert "no hint" in app.message and not app.can_undo() and "final" in app.undo_off_words()
    play(app, app.puzzle["p"]["answer"])
    assert storage.get(SAVE_KEY) == saved
    app.act("puzzle-leave", {})
    assert app.screen == "setup" and app.game is g and app.puzzle is None
    app.act("back", {})
    assert app.screen == "game" and app.game is g and app.puzzle is None
    # and a reload finds the game as it was
    again = App(storage)
    again.load()
    assert again.game.record() == g.record()


def test_a_pool_that_cannot_be_loaded_or_read_is_said_and_changes_nothing():
    app = App(MemoryStorage())
    app.act("puzzles", {"mode": "daily"})
    app.pool_loaded(None, "The puzzles could not be loaded (offline).")
    assert app.puzzle is None and app.screen == "setup" and "offline" in view.render(app)
    app.act("puzzles", {"mode": "daily"})
    app.pool_loaded("not json\n{}\n")
    assert app.puzzle is None and "no puzzle this page can read" in view.render(app)
    damaged = POOL_TEXT.splitlines()
    damaged[0] = damaged[0][:40]
    assert Pool.parse("\n".join(damaged)).skipped == 1


def test_a_damaged_puzzle_record_is_kept_aside_and_the_games_stay():
    storage = MemoryStorage()
    app = puzzle_app(storage)
    play(app, app.puzzle["p"]["answer"])
    data = json.loads(storage.get(RECORD_KEY))
    data["puzzles"]["solved"] = 99  # (more than tried)
    storage.set(RECORD_KEY, json.dumps(data))
    again = App(storage)
    notes = " ".join(n["text"] for n in again.notices)
    assert "Your puzzle results could not be read" in notes and "kept under the key" in notes
    assert again.player_record.data["puzzles"]["tried"] == 0
    assert any(k.startswith("splendor.record.corrupt.") for k in storage.keys())


def test_the_daily_puzzle_is_one_a_day_the_same_for_everyone_and_none_twice_within_the_pool():
    days = [day_of(1796601600 + 86400 * k) for k in range(len(POOL))]  # from 2026-12-07 (UTC)
    assert days[0] == "2026-12-07"
    picks = [POOL.of_the_day(d)["id"] for d in days if d.startswith("2026")]
    assert len(picks) == len(set(picks))  # (one year's days: no repeat while the pool lasts)
    assert POOL.of_the_day("2026-12-07") == Pool.parse(POOL_TEXT).of_the_day("2026-12-07")
    app = App(MemoryStorage())
    app.today = lambda: "2026-12-08"
    app.act("puzzles", {"mode": "daily"})
    app.pool_loaded(POOL_TEXT)
    assert app.puzzle["p"]["id"] == POOL.of_the_day("2026-12-08")["id"]
    assert [day_of_year(d) for d in ("2026-01-01", "2026-03-01", "2024-03-01")] == [1, 60, 61]


@pytest.mark.parametrize("a, b, same", [
    ("take white blue green", "take green white blue", True),
    ("take white blue green", "take white blue red", False),
])
def test_the_same_move_up_to_order_and_payment(a, b, same):
    g = splendor.new_game(players=2, seed=1)
    assert same_move(parse_action(g, a), parse_action(g, b)) is same


# -- the daily deal --------------------------------------------------------------------------------------------------
from splendor.web.puzzles import daily  # noqa: E402


def daily_app(storage, day, level=None):
    app = App(storage)
    app.today = lambda: day
    app.act("daily", {"daily_level": level} if level else {})
    return app


def play_to_the_end(app, seed=0):
    rng = random.Random(seed)
    g = app.game
    while not g.is_over:
        app._apply(rng.choice(g.legal_actions()), g.current_player)
    app.save()


def test_the_daily_deal_is_the_days_deal_for_everyone_and_its_first_game_is_scored():
    a, b = MemoryStorage(), MemoryStorage()
    one, two = daily_app(a, "2026-12-07", "hard"), daily_app(b, "2026-12-07")
    assert one.game.record()["seed"] == two.game.record()["seed"] == daily.daily_seed("2026-12-07")
    assert one.game.market == two.game.market and one.game.current_player == daily.daily_first("2026-12-07")
    assert [s["bot"] for s in one.seats] == [None, "hard"] and two.seats[1]["bot"] == "expert"
    assert daily_app(MemoryStorage(), "2026-12-08").game.market != one.game.market
    assert one.daily == {"day": "2026-12-07", "level": "hard", "scored": True} and not one.unrated
    assert one.player_record.daily_entry("2026-12-07")["state"] == "started"
    assert json.loads(a.get(SAVE_KEY))["daily"]["scored"] is True
    assert "scored" in one.log[0]["text"]
    # a reload resumes it as the scored game; a second game of the day is practice, unrated
    again = App(a)
    again.today = lambda: "2026-12-07"
    again.load()
    assert again.daily == one.daily
    again.act("daily", {})
    assert again.daily["scored"] is False and again.unrated and "practice" in again.log[0]["text"]


def test_a_scored_daily_deal_keeps_its_result_and_the_days_won_in_a_row():
    storage = MemoryStorage()
    app = daily_app(storage, "2026-12-07")
    play_to_the_end(app, 1)
    row = app.player_record.daily_entry("2026-12-07")
    g = app.game
    state = "lost" if 0 not in g.winners else "won" if len(g.winners) == 1 else "shared"
    assert row == {"level": "expert", "state": state, "you": g.scores[0], "bot": g.scores[1]}
    play_to_the_end(daily_app(storage, "2026-12-07"), 2)  # practice: the day's result stays
    assert App(storage).player_record.daily_entry("2026-12-07") == row
    # the days won in a row, from records of finished games
    rec = App(MemoryStorage()).player_record
    days = rec.data["daily"]["days"]
    for day, result in (("2026-12-03", "won"), ("2026-12-04", "lost"), ("2026-12-05", "won"),
                        ("2026-12-06", "won")):
        days[day] = {"level": "expert", "state": result, "you": 15, "bot": 10}
    assert rec.daily_streak("2026-12-06") == 2 and rec.daily_streak("2026-12-07") == 2  # (today not played yet)
    assert rec.daily_streak("2026-12-08") == 0  # (a day missed ends the run)
    days["2026-12-07"] = {"level": "expert", "state": "started", "you": None, "bot": None}
    g = splendor.new_game(players=2, seed=1)
    g.phase_ = "over"  # (as if it had ended 0-0: a shared victory, which is no day won)
    rec.daily_finished("2026-12-07", g, 0)
    assert days["2026-12-07"]["state"] == "shared" and rec.data["daily"]["best_streak"] == 2


def test_the_shared_result_says_the_day_and_the_result_and_never_the_moves():
    storage = MemoryStorage()
    app = daily_app(storage, "2026-12-07")
    assert app.daily_share_text("https://example.org/") == ""  # (nothing to share before the end)
    play_to_the_end(app, 3)
    app.act("copy-link", {"base": "https://example.org/"})
    text = app.link_copy["url"]
    row = app.player_record.daily_entry("2026-12-07")
    assert text.startswith("Splendor, daily deal of 2026-12-07: I ") and f"{row['you']}-{row['bot']}" in text
    assert "seed" not in text and not any(word in text for word in ("take", "buy", "reserve"))
    assert "Share the result" in view.render(app) and "Daily deal of 2026-12-07: scored" in view.render(app)
    # Play again: the day's deal once more, as practice
    app.act("again", {})
    assert app.daily["scored"] is False and app.game.record()["seed"] == daily.daily_seed("2026-12-07")


def test_a_save_that_names_another_days_deal_is_a_plain_game():
    storage = MemoryStorage()
    daily_app(storage, "2026-12-07")
    data = json.loads(storage.get(SAVE_KEY))
    data["daily"]["day"] = "2026-12-08"
    storage.set(SAVE_KEY, json.dumps(data))
    app = App(storage)
    assert app.load() and app.daily is None


def test_a_damaged_daily_record_is_kept_aside_and_the_games_stay():
    storage = MemoryStorage()
    daily_app(storage, "2026-12-07")
    data = json.loads(storage.get(RECORD_KEY))
    data["daily"]["days"]["2026-02-30"] = {"level": "expert", "state": "won", "you": 15, "bot": 3}
    storage.set(RECORD_KEY, json.dumps(data))
    app = App(storage)
    assert any("could not be read" in n["text"] for n in app.notices)
    assert app.player_record.data["daily"]["days"] == {}


@pytest.mark.parametrize("players, seat", [(3, 2), (4, 3), (4, 1)])
def test_a_puzzle_at_three_or_four_players_seats_the_person_where_the_puzzle_says(players, seat):
    """(The shipped pool's puzzles are of 2 players so far: a made-up line of 3-4 players, its answer the first buy
    or take on offer, read and played as the page would.)"""
    rng = random.Random(players * 10 + seat)
    g = splendor.new_game(players=players, seed=11)
    actions = []
    while not (g.current_player == seat and g.phase == "action" and len(actions) >= 2 * players):
        a = rng.choice(g.legal_actions())
        actions.append(str(a))
        g.apply(a)
    answer = next(a for a in g.legal_actions() if a.kind in ("buy", "take"))
    line = {"id": f"{players}p-test-{seat}", "players": players, "seed": 11, "actions": actions, "seat": seat,
            "answer": str(answer), "margin": 0.3, "theme": "the take toward the next card", "rating": 900,
            "why": "takes gems", "chances": [[str(answer), 60]]}
    app = App(MemoryStorage())
    app.act("puzzles", {"mode": "rated"})
    app.pool_loaded(json.dumps(line) + "\n")
    assert app.person == seat and app.my_turn and [s["bot"] is None for s in app.seats].index(True) == seat
    assert [s["name"] for s in app.seats if s["bot"]] == [f"Bot {k}" for k in range(1, players)]
    stake = app.log[-1]["text"]  # (what is at stake: every seat's points, in seat order)
    assert stake.startswith("Your move: find the best one. Points: ") and f"You {g.players[seat].points}" in stake
    html = view.render(app)
    assert sorted(int(x) for x in re.findall(r'class="seat opp[^"]*" id="seat-(\d)"', html)) == \
        sorted(set(range(players)) - {seat})  # (every other seat a bot's panel; the person's own area below)
    play(app, str(answer))
    assert app.puzzle["result"]["solved"] and app.puzzle["result"]["best"] == 60
