"""Game files in the browser: download the game on the table as JSON, open it in a fresh browser (another
context: no shared storage) and play on; a file that breaks the rules is refused with the reason; names and file
names with markup are shown as text and never run (an alert would fail the test)."""

from __future__ import annotations

import json
import re

import pytest

import splendor
from a11y_helpers import axe
from browser_helpers import non_local
from game_driver import log_text, open_game, play_turn, saved, settle, start

EVIL = "<img src=x onerror=alert(1)>"


def no_dialogs(page):
    """Fail the test if the page ever opens an alert, confirm or prompt (markup that ran)."""
    opened = []
    page.on("dialog", lambda d: (opened.append(d.message), d.dismiss()))
    return opened


@pytest.mark.slow  # a whole game: started first (tests/conftest.py)
def test_download_then_open_in_a_fresh_browser_and_play_on(browser, base_url, page, tmp_path, console_errors):
    opened = no_dialogs(page)
    open_game(page)
    start(page, opponents=2, seed=321, starts="You", name=EVIL)
    for _ in range(2):
        play_turn(page)
    settle(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Download this game (JSON)").click()
    download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    data = json.loads(path.read_text("utf-8"))
    # A game in progress: no seed in the file (the decks' order would follow from it), the cards dealt instead.
    assert download.suggested_filename == f"splendor-game-move{len(data['record']['actions'])}.json"
    assert data["record"]["seed"] is None and "321" not in path.read_text("utf-8")
    assert data["format"] == "splendor-game" and data["record"]["actions"] == saved(page)["record"]["actions"]
    assert data["players"][0]["name"] == EVIL
    log_here = log_text(page)

    fresh = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 800})
    other = fresh.new_page()
    other_dialogs = no_dialogs(other)
    errors = []
    other.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_game(other)
        assert other.evaluate("() => localStorage.length") == 0 or saved(other) is None
        other.get_by_label("Choose a game file (.json)").set_input_files(str(path))
        other.get_by_role("region", name="Market").wait_for()
        settle(other)
        assert saved(other)["record"]["actions"] == data["record"]["actions"]
        assert saved(other)["record"]["deals"] == data["record"]["deals"]
        assert other.get_by_role("region", name="Your area").get_by_role("heading", name=EVIL).is_visible()
        log = log_text(other)
        assert "Game opened from the file" in log
        # The person's moves in the same words as where the game was played (the bots' reasons stay behind:
        # a file holds moves, not thoughts).
        moves = [line for line in log_here.splitlines() if line.startswith("You ")]
        assert moves and all(m in log for m in moves)
        assert log.count("Bot 1 ") == log_here.count("Bot 1 ") and log.count("Bot 2 ") == log_here.count("Bot 2 ")
        play_turn(other)  # and play goes on there
        settle(other)
        assert len(saved(other)["record"]["actions"]) > len(data["record"]["actions"])
        splendor.replay(saved(other)["record"])
        assert other.evaluate("() => document.querySelectorAll('img').length") == 0
        assert errors == [] and other_dialogs == []
    finally:
        fresh.close()
    assert opened == [] and console_errors == []


def test_a_file_that_breaks_the_rules_is_refused_with_the_reason(page, site_url, request_log, console_errors):
    opened = no_dialogs(page)
    open_game(page)
    start(page, opponents=1, seed=8, starts="You")
    play_turn(page)
    settle(page)
    before = saved(page)
    g = splendor.new_game(players=2, seed=8)
    bad = {"format": "splendor-game", "version": 1, "record": dict(g.record(), actions=["take gold white blue"]),
           "players": [{"name": EVIL, "bot": None}, {"name": EVIL, "bot": "medium"}]}
    page.get_by_role("button", name="New game").click()
    picker = page.get_by_label("Choose a game file (.json)")
    picker.set_input_files(files=[{"name": f"{EVIL}.json", "mimeType": "application/json",
                                   "buffer": json.dumps(bad).encode()}])
    alert = page.get_by_role("alert").filter(has_text="cannot be opened")
    text = alert.inner_text()
    assert f"The file “{EVIL}.json” cannot be opened" in text  # the file name, as text
    assert "cannot be replayed by the rules (action 1 ('take gold white blue')" in text
    assert "Nothing was changed" in text
    assert not (found := axe(page, site_url)), "\n".join(found)
    assert saved(page) == before
    # Not JSON at all, then a newer format: each refused in its own words.
    picker.set_input_files(files=[{"name": "half.json", "mimeType": "application/json",
                                   "buffer": json.dumps(bad).encode()[:60]}])
    page.get_by_role("alert").filter(has_text="half.json").wait_for()
    assert "cut short or damaged" in page.get_by_role("alert").filter(has_text="half.json").inner_text()
    picker.set_input_files(files=[{"name": "new.json", "mimeType": "application/json",
                                   "buffer": json.dumps(dict(bad, version=3)).encode()}])
    assert "newer version of this page" in page.get_by_role("alert").filter(has_text="new.json").inner_text()
    # The game in progress is still there and goes on.
    page.get_by_role("button", name="Back to the game").click()
    assert saved(page) == before
    play_turn(page)
    assert page.evaluate("() => document.querySelectorAll('img').length") == 0
    assert opened == [] and non_local(request_log) == [] and console_errors == []
    assert re.search(r"You (took|bought|reserved)", log_text(page))
