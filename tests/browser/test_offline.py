"""Offline play: after one visit the game starts, resumes and plays to the end with the server stopped
and the browser offline, every file coming from the service worker's precache."""

from __future__ import annotations

import pytest
from browser_helpers import wait_ready, worker_state
from game_driver import is_over, log_text, market_names, near_end_save, open_game, open_save, play_turn, saved, settle
from pwa_helpers import (
    GAME_QUERY,
    move_and_see_the_bot_answer,
    page_paths,
    precache_paths,
    record_requests,
    wait_controlled,
)

from tools.serve import start_server

NOT_PRECACHED = "runtime/axe/axe.min.js"  # in the site, never loaded by the game
FETCH_STATUS_JS = "async (url) => (await fetch(url)).status"


def position(page):
    return (saved(page), log_text(page), market_names(page), page.locator("#status").text_content())


@pytest.mark.slow  # a whole game: started first (tests/conftest.py)
def test_offline_reload_resumes_the_game_and_plays_it_to_the_end(browser, site_dir):
    precached = precache_paths(site_dir)
    server, url = start_server(site_dir)  # its own server, so it can be stopped mid-test
    context = browser.new_context(base_url=url)
    requests = record_requests(context, url)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_save(context, near_end_save(points=8))  # a game near its end: the end comes within a few turns
        open_game(page, GAME_QUERY)
        for _ in range(2):
            play_turn(page)
        settle(page)
        wait_controlled(page)  # precache complete, worker active and in control
        online = list(requests)
        # A file outside the precache that the page uses online is kept for offline use too.
        assert "/" + NOT_PRECACHED not in precached
        assert page.evaluate(FETCH_STATUS_JS, NOT_PRECACHED) == 200
    finally:
        server.stop()
    before = position(page)
    played = len(before[0]["record"]["actions"])

    context.set_offline(True)
    requests.clear()
    page.reload()
    wait_ready(page)
    settle(page)
    assert position(page) == before  # the saved position, turn and log are back
    assert page.evaluate("!!navigator.serviceWorker.controller")

    # The person moves and the bot answers, from its worker, with no network.
    move_and_see_the_bot_answer(page)
    assert worker_state(page) == "1"

    # ... and the whole game, to the end screen.
    turns = 0
    while play_turn(page):
        turns += 1
        assert turns < 200, "the game did not end"
    assert is_over(page)
    assert turns >= 2 and len(saved(page)["record"]["actions"]) > played  # moves were made offline
    assert page.get_by_role("table", name="Final scores").is_visible()

    offline = list(requests)
    assert offline, "no request was recorded offline"
    not_from_cache = [r for r in offline if not r["from_sw"] or r["status"] != 200]
    assert not_from_cache == [], "answered by the network (or failed) while offline"
    # Every file the page and its worker fetched, online and offline, is in the precache.
    assert page_paths(online) - precached == set()
    assert page_paths(offline) - precached == set()
    assert "/runtime/pyodide/pyodide.asm.wasm" in page_paths(offline)
    assert errors == []

    # A deal link (a navigation with a query string) opens offline too.
    requests.clear()
    page.goto(url + "?seed=4711&players=3")
    wait_ready(page)
    assert [r for r in requests if not r["from_sw"]] == []
    assert errors == []
    # The file used online outside the precache is there offline (the server is gone).
    assert page.evaluate(FETCH_STATUS_JS, NOT_PRECACHED) == 200
    context.close()
