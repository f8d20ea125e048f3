"""The game page in Chromium, driven by accessible names: a game to its end, reload, 3-4 players, phone size,
a damaged save. Every request stays on the local server and the console stays clean."""

from __future__ import annotations

import json
import re

import pytest
from browser_helpers import non_local, wait_ready, worker_state
from game_driver import (
    SAVE_KEY,
    is_over,
    log_text,
    market_names,
    near_end_save,
    open_game,
    open_with_storage,
    play_turn,
    saved,
    settle,
    start,
)

import splendor

EVIL = "<img src=x onerror=alert(1)>"
# Every text the status line shows from now on, in window.statuses.
STATUS_WATCH_JS = """() => { window.statuses = [];
  new MutationObserver(() => {
    const s = document.getElementById('status'); if (s) window.statuses.push(s.textContent); })
    .observe(document.body, {subtree: true, childList: true, characterData: true}); }"""


@pytest.mark.slow  # the end of a game: started first (tests/conftest.py)
def test_a_game_by_clicks_ends_with_the_engine_scores(page, request_log, console_errors):
    """From a save near its end (a player at 9 points) to the end screen by mouse clicks at the desktop's size;
    every redraw checked against a whole one. The whole game from its first move is played by taps in
    test_layout_sizes.py, and a new game's name typed in test_game_files.py."""
    save = near_end_save(seed=4711, points=9)
    save["seats"][0]["name"] = EVIL
    played = len(save["record"]["actions"])
    open_with_storage(page, {SAVE_KEY: json.dumps(save)})
    # The name is shown as text, never run.
    assert page.get_by_role("region", name="Your area").get_by_role("heading", name=EVIL).is_visible()
    assert page.evaluate("() => document.querySelectorAll('img').length") == 0
    # Every redraw changes only what changed (assets/patch.js); checked against what innerHTML would have made.
    page.evaluate("() => { window.splendorPatch.check = true; }")
    redraws = page.evaluate("() => window.splendorPatch.count")
    turns = 0
    while play_turn(page):
        turns += 1
        assert turns < 200, "the game did not end"
    record = saved(page)["record"]
    assert record["seed"] == 4711 and turns >= 2 and len(record["actions"]) > played + 2
    game = splendor.replay(record)
    assert game.is_over
    table = page.get_by_role("table", name="Final scores")
    rows = {}
    for row in table.locator("tbody").get_by_role("row").all():
        name = row.get_by_role("rowheader").inner_text().strip()
        rows[name] = [name] + [c.inner_text().strip() for c in row.get_by_role("cell").all()]
    assert set(rows) == {EVIL, "Bot 1"}, rows
    assert rows[EVIL][1] == str(game.scores[0])
    assert rows["Bot 1"][1] == str(game.scores[1])
    assert rows[EVIL][2] == str(len(game.players[0].cards))
    winner = "You win!" if game.winners == (0,) else ("Bot 1 wins" if game.winners == (1,) else "Shared victory")
    assert page.get_by_role("dialog").get_by_role("heading").inner_text().startswith(winner)
    assert page.evaluate("() => window.splendorPatch.count") > redraws + 2 * turns
    assert page.evaluate("() => window.splendorPatch.mismatches") == []
    assert non_local(request_log) == []
    assert console_errors == []


def test_reload_mid_game_keeps_position_turn_and_log(page, request_log, console_errors):
    open_game(page)
    start(page, opponents=1, seed=2024, starts="A bot")
    for _ in range(4):
        play_turn(page)
    settle(page)
    before = (saved(page), log_text(page), market_names(page), page.locator("#status").text_content())
    page.get_by_role("button", name=re.compile(r"^White gems")).click()  # a choice in progress is not a move
    page.reload()
    wait_ready(page)
    settle(page)
    after = (saved(page), log_text(page), market_names(page), page.locator("#status").text_content())
    assert after == before
    assert "Your turn" in after[3]
    # Undo still works after the reload: the history was rebuilt from the record.
    page.get_by_role("button", name="Undo").click()
    settle(page)
    assert len(saved(page)["record"]["actions"]) < len(before[0]["record"]["actions"])
    assert non_local(request_log) == []
    assert console_errors == []


@pytest.mark.parametrize("opponents", [2, 3])
def test_three_and_four_player_games_start_and_bots_move(page, request_log, console_errors, opponents):
    open_game(page)
    start(page, opponents=opponents, starts="You", levels=["Easy", "Expert", "Hard"][:opponents])
    opp = page.get_by_role("region", name="Opponents")
    assert opp.get_by_role("region").count() == opponents
    page.evaluate(STATUS_WATCH_JS)
    play_turn(page)
    settle(page)
    # The expert (Bot 2) thinks for its 0.8 s, so the page says so (a bot that answers within 0.1 s is not drawn
    # thinking: no redraw for a "thinking" that would flash).
    assert any("Bot 2 is thinking" in text for text in page.evaluate("() => window.statuses"))
    record = saved(page)["record"]
    assert record["players"] == opponents + 1
    assert len(record["actions"]) >= opponents + 1  # the person's move and one per bot
    log = log_text(page)
    for i in range(1, opponents + 1):
        assert f"Bot {i} " in log
    # The worker played them (the page would say so if it had fallen back).
    assert worker_state(page) == "1"
    assert page.get_by_role("note").count() == 0
    assert non_local(request_log) == []
    assert console_errors == []


def test_phone_size_needs_no_sideways_scrolling(phone):
    page, errors = phone
    open_game(page)
    width = page.evaluate("() => innerWidth")
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    start(page, opponents=3, starts="You")
    settle(page)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    for name in ("Market", "Gem supply", "Your area"):
        box = page.get_by_role("region", name=name).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, name
    for button in page.get_by_role("region", name="Market").get_by_role("button").all():
        box = button.bounding_box()
        assert box["x"] + box["width"] <= width and box["height"] >= 44
    for button in page.get_by_role("region", name="Gem supply").get_by_role("button").all():
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    # A card dialog fits too.
    page.get_by_role("region", name="Market").get_by_role("button", name=re.compile("^Level 1 card")).first.tap()
    assert page.get_by_role("dialog").get_by_role("button", name="Buy", exact=True).is_visible()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    assert errors == []


def test_a_damaged_save_is_explained_kept_aside_and_a_new_game_starts(page, console_errors):
    bad = '{"format": "splendor-save", "version": 1, "record": {"actions": ["take gold"]'
    open_with_storage(page, {SAVE_KEY: bad})
    alert = page.get_by_role("alert")
    assert "could not be read" in alert.inner_text()
    kept = page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('splendor.save.corrupt.'))""")
    assert len(kept) == 1
    assert kept[0] in alert.inner_text()
    assert page.evaluate("(k) => localStorage.getItem(k)", kept[0]) == bad
    start(page, opponents=1, starts="You")
    assert saved(page)["record"]["actions"] == []
    assert page.evaluate("(k) => localStorage.getItem(k)", kept[0]) == bad
    assert console_errors == []
    assert not is_over(page)


def test_without_the_worker_the_light_bot_plays_and_the_page_says_so(page, request_log, console_errors):
    open_game(page, "pace=0&worker=off")
    start(page, opponents=1, starts="You")
    assert "own thread" in page.get_by_role("note").inner_text()
    page.get_by_role("button", name="Hint").click()
    hint = page.get_by_text(re.compile(r"^Hint: "))
    hint.wait_for()
    play_turn(page)
    settle(page)
    assert len(saved(page)["record"]["actions"]) == 2  # the person's move and the bot's answer
    assert "Bot 1 " in log_text(page)
    assert page.evaluate("() => document.querySelector('script[worker]') === null")  # no worker was made
    assert non_local(request_log) == []
    assert console_errors == []
