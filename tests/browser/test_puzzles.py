"""Puzzles on the page (issue 73): one tap from the first screen, the position drawn as the table draws it, the move
made by the taps of a game, the result with the expert's reason, a streak that ends at the first miss, the record
keeping the best, the game in progress untouched, the daily puzzle the same for everyone on a date, and the pool
kept for offline use once loaded. Every tap is a person's (tap_driver: an element covered or cut fails it)."""

import json
from pathlib import Path

import pytest
from browser_helpers import wait_ready
from game_driver import SAVE_KEY, open_game, play_turn, saved, settle, start
from pwa_helpers import wait_controlled
from tap_driver import play, tap

from splendor.engine import parse_action
from splendor.web.puzzles import daily
from splendor.web.puzzles.pool import Pool
from splendor.web.puzzles.state import same_move
from splendor.web.records.player_record import RECORD_KEY
from splendor.training.puzzles import position
from tools.serve import start_server

POOL = Pool.parse((Path(__file__).resolve().parents[2] / "assets" / "puzzles.jsonl").read_text("utf-8"))
SIZES = [(390, 664), (360, 640), (1280, 800)]


def shown_id(page):
    """The id of the puzzle on show (the log's first line names it)."""
    text = page.locator(".log").inner_text()
    return text.split("Puzzle ", 1)[1].split(":", 1)[0]


def wrong_move(puzzle):
    """A legal take that is not the puzzle's answer."""
    game = position(puzzle)
    answer = parse_action(game, puzzle["answer"])
    return next(str(a) for a in game.legal_actions() if a.kind in ("take", "take_two") and not same_move(a, answer))


def record(page):
    return json.loads(page.evaluate(f"() => localStorage.getItem({RECORD_KEY!r})") or "{}")


def settled_puzzle(page):
    page.wait_for_function("() => !document.body.dataset.answering"
                           " && (document.getElementById('status')?.textContent || '').includes('find the best move')")


def open_puzzles(page, mode):
    tap(page.get_by_role("button", name={"rated": "Solve puzzles", "streak": "Puzzle streak",
                                         "daily": "Daily puzzle"}[mode]))
    settled_puzzle(page)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_streak_solved_then_missed_keeps_the_best_and_the_game_in_progress(touch_page, size):
    page = touch_page(*size)
    open_game(page)
    tap(page.get_by_role("button", name="No thanks"))
    start(page, opponents=1, seed=5, starts="You")
    settle(page)
    game_before = page.evaluate(f"() => localStorage.getItem({SAVE_KEY!r})")
    tap(page.locator("#new-game"))
    open_puzzles(page, "streak")
    first = POOL.rising()
    assert shown_id(page) == first["id"]
    assert "Puzzle streak 1: find the best move" in page.locator("#status").inner_text()
    play(page, first["answer"])
    result = page.get_by_role("dialog", name="Solved!")
    result.wait_for()
    assert first["why"][:40] in result.inner_text() and "Streak: 1" in result.inner_text()
    tap(result.get_by_role("button", name="Next puzzle"))
    settled_puzzle(page)
    second = POOL.rising(first["rating"], [first["id"]])
    assert shown_id(page) == second["id"]
    play(page, wrong_move(second))
    missed = page.get_by_role("dialog", name="Not the best move")
    missed.wait_for()
    assert "The streak ends at 1" in missed.inner_text() and "best 1" in missed.inner_text()
    # the table stays there to be looked at, the result a tap away
    tap(missed.get_by_role("button", name="See the table"))
    assert not page.get_by_role("dialog").count()
    tap(page.locator("#puzzle-show"))
    tap(page.get_by_role("dialog").get_by_role("button", name="Leave puzzles"))
    rec = record(page)["puzzles"]
    assert (rec["tried"], rec["solved"], rec["best_streak"]) == (2, 1, 1)
    assert rec["seen"] == [first["id"], second["id"]]
    # the game in progress is as it was: not saved over, and back on the table
    assert page.evaluate(f"() => localStorage.getItem({SAVE_KEY!r})") == game_before
    assert "best streak 1" in page.locator("#puzzles").inner_text()
    tap(page.locator("#back"))
    settle(page)
    assert "Your turn" in page.locator("#status").inner_text()


def test_the_daily_puzzle_is_one_for_everyone_on_a_date_and_works_offline_once_loaded(browser, site_dir):
    server, url = start_server(site_dir)
    seen = {}
    try:
        for day, profile in (("2026-12-07", "a"), ("2026-12-07", "b"), ("2026-12-08", "c")):
            context = browser.new_context(base_url=url, viewport={"width": 390, "height": 664}, has_touch=True)
            page = context.new_page()
            page.clock.set_fixed_time(f"{day}T10:00:00")
            open_game(page)
            open_puzzles(page, "daily")
            seen[profile] = shown_id(page)
            assert "Daily puzzle: find the best move" in page.locator("#status").inner_text()
            if profile == "a":
                wait_controlled(page)
                for _ in range(100):  # (kept by the service worker, asked by the page: a moment after it loaded)
                    if page.evaluate("async () => !!(await caches.match('assets/puzzles.jsonl'))"):
                        break
                    page.wait_for_timeout(100)
                offline_page = (context, page)
            else:
                context.close()
        assert seen["a"] == seen["b"] == POOL.of_the_day("2026-12-07")["id"]
        assert seen["c"] == POOL.of_the_day("2026-12-08")["id"] != seen["a"]
    finally:
        server.stop()
    # the server gone and the browser offline: the pool, loaded once, is kept
    context, page = offline_page
    context.set_offline(True)
    page.reload()
    wait_ready(page)
    open_puzzles(page, "daily")
    assert shown_id(page) == seen["a"]
    puzzle = POOL.by_id[seen["a"]]
    play(page, puzzle["answer"])
    page.get_by_role("dialog", name="Solved!").wait_for()
    context.close()


def a_day_with(players):
    """A day of the coming year whose daily puzzle is of ``players`` (one not in seat 0 where the pool has one)."""
    import datetime
    days = [str(datetime.date(2027, 1, 1) + datetime.timedelta(days=k)) for k in range(365)]
    found = [d for d in days if POOL.of_the_day(d)["players"] == players]
    return next((d for d in found if POOL.of_the_day(d)["seat"]), found[0] if found else None)


@pytest.mark.parametrize("players", [3, 4])
def test_a_puzzle_at_a_bigger_table_is_solved_by_taps_on_a_small_phone(touch_page, players):
    day = a_day_with(players)
    if day is None:
        pytest.fail(f"the pool has no puzzle of {players} players")
    puzzle = POOL.of_the_day(day)
    page = touch_page(360, 640)
    page.clock.set_fixed_time(f"{day}T10:00:00")
    open_game(page)
    open_puzzles(page, "daily")
    assert shown_id(page) == puzzle["id"]
    assert page.locator("section.opponents > *").count() == players - 1  # (the person in the puzzle's seat)
    play(page, puzzle["answer"])
    page.get_by_role("dialog", name="Solved!").wait_for()


def test_the_daily_deal_is_one_deal_for_everyone_on_a_date_scored_once_and_plays_on_offline(browser, site_dir):
    server, url = start_server(site_dir)
    seen, kept = {}, []
    try:
        for day, profile in (("2026-12-07", "a"), ("2026-12-07", "b"), ("2026-12-08", "c")):
            context = browser.new_context(base_url=url, viewport={"width": 390, "height": 664}, has_touch=True)
            page = context.new_page()
            page.clock.set_fixed_time(f"{day}T10:00:00")
            open_game(page)
            assert day in page.locator("#daily").inner_text()
            tap(page.get_by_role("button", name="Play today's deal"))
            settle(page)
            save = saved(page)
            seen[profile] = (save["record"]["seed"], page.get_by_role("region", name="Nobles").inner_text())
            assert save["daily"] == {"day": day, "level": "expert", "scored": True}
            assert save["record"]["seed"] == daily.daily_seed(day)
            if profile == "b":
                context.close()
            else:
                wait_controlled(page)
                kept.append((context, page, day))
        assert seen["a"] == seen["b"] and seen["c"][0] != seen["a"][0]
    finally:
        server.stop()
    for context, page, day in kept:  # the server gone, the browser offline: the day's game goes on after a reload
        context.set_offline(True)
        page.reload()
        wait_ready(page)
        settle(page)
        before = len(saved(page)["record"]["actions"])
        play_turn(page, press="tap")
        settle(page)
        assert len(saved(page)["record"]["actions"]) >= before + 2  # (the person's move and the bot's answer)
        assert saved(page)["daily"]["scored"] is True
        # the record has the day's game from its start: the panel says so, and a new game of it is practice
        tap(page.locator("#new-game"))
        assert "under way" in page.locator("#daily").inner_text()
        tap(page.get_by_role("button", name="Practise today's deal"))
        settle(page)
        assert saved(page)["daily"] == {"day": day, "level": "expert", "scored": False}
        context.close()
