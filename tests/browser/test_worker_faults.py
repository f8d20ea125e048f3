"""The bot worker fails, and the page recovers: it crashes (its call raises), hangs past its budget, or answers
for an old position. Each time the light bot on the page's own thread plays the move, the person is told (a note
on the page and the live region), and the game goes on. The faults come from a test hook: the URL setting
``test_worker_fault`` makes main.py ask the worker to fail that way (splendor/web/worker.py)."""

from __future__ import annotations

import json
import re

import pytest
from browser_helpers import READY_TIMEOUT_MS
from game_driver import is_over, log_text, near_end_save, open_game, open_save, play_turn, saved, settle, start

import splendor
from splendor.ai.protocol import default_budget
from test_layout_sizes import check_one_screen
from tools.serve import start_server

# The smallest phone the table is laid out for: a whole turn on one screen, the fallback note dismissed.
SMALL_PHONE = {"viewport": {"width": 390, "height": 664}, "is_mobile": True, "has_touch": True}

WORDS = {
    "crash": "the bot helper stopped working",
    "hang": "the bot helper took more than",
    "stale": "the bot helper answered for an old position",
}


@pytest.mark.parametrize("fault", ["crash", "hang", "stale"])
def test_the_light_bot_takes_over_and_the_game_goes_on(page, fault):
    patience = "&bot_patience=1&bot_budget=0.3" if fault == "hang" else ""
    open_game(page, f"pace=0&test_worker_fault={fault}{patience}")
    start(page, opponents=1, starts="You", seed=77)
    # The worker must be up, so that the bot's move really goes to it (not to the fallback of a slow start).
    page.wait_for_selector('body[data-worker="1"]', state="attached", timeout=READY_TIMEOUT_MS)
    play_turn(page)
    settle(page)
    note = page.get_by_role("note").inner_text()
    assert "lighter level" in note and WORDS[fault] in note, note
    assert page.evaluate("() => document.body.dataset.worker") == "failed"
    assert len(saved(page)["record"]["actions"]) == 2  # the person's move and the bot's, by the light bot
    said = page.locator("#announce").text_content()  # a screen reader hears it too, with the bot's move
    assert said.startswith("The bots switched to a lighter level: " + WORDS[fault]), said
    assert "Bot 1 " in said and said.endswith("Your turn."), said
    # And the game goes on, the light bot answering every move.
    play_turn(page)
    settle(page)
    assert len(saved(page)["record"]["actions"]) >= 4
    assert len(re.findall(r"^Bot 1 ", log_text(page), flags=re.M)) >= 2


# -- a worker that never starts ---------------------------------------------------------------------------------------
# Its script missing from the site (a broken deploy), the package zip it loads unreadable, or a worker that starts
# but never answers its first call: the page says so once, plays every bot move on its own thread without waiting
# again, and the game, resumed from a save near its end, is played to the end by taps with nothing lost.

BOOT_WORDS = {
    "missing": "the bot helper's file could not be loaded (error 404)",
    "zip": "the bot helper could not start",
    "import": "the bot helper could not start",
    "silent": "the bot helper did not start within 4 seconds",  # the test's boot limit
    "aborted": "the bot helper's file could not be loaded (a network error)",
}
# Every announcement of the live region, in order (a screen reader hears each; the page replaces the text).
RECORD_ANNOUNCEMENTS_JS = """() => {
  window.__said = [];
  new MutationObserver(() => window.__said.push(document.getElementById('announce').textContent))
    .observe(document.getElementById('announce'), {childList: true, characterData: true, subtree: true});
}"""


def _faults(kind):
    def faults(path, n):
        if kind == "missing" and path == "/splendor/web/worker.py":
            return 404, b"Not found"
        if kind == "zip" and path == "/splendor.zip" and n >= 2:  # the page's own copy is the first request
            return 200, b"PK\x03\x04" + b"not a zip at all " * 200
        if kind == "import" and path == "/splendor/web/worker.py":  # a deploy whose worker imports what is gone
            return 200, b"from splendor.ai import no_such_module\n__export__ = ['choose', 'ping']\n"
        return None
    return faults


@pytest.mark.parametrize("kind", ["missing", "zip", "import", "silent", "aborted"])
def test_a_worker_that_never_starts_is_told_once_and_no_move_waits_for_it(browser, site_dir, kind):
    save = near_end_save()
    save["seats"][1]["bot"] = "hard"  # a level that needs the worker: its moves would wait for it
    moves_saved = len(save["record"]["actions"])
    server, url = start_server(site_dir, faults=_faults(kind))
    # No service worker: its precache would fetch (and here count) the package too, in an order that varies.
    context = browser.new_context(base_url=url, service_workers="block", **SMALL_PHONE)
    try:
        open_save(context, save)
        if kind == "aborted":  # the request for the worker's script fails on the network (no answer at all)
            context.route("**/splendor/web/worker.py", lambda route: route.abort())
        page = context.new_page()
        # A worker that starts and stays silent is given up after the boot limit (4 s here); the others are told
        # as soon as the browser reports their failure, long before the limit (30 s here).
        limit = 4 if kind == "silent" else 30
        fault = "&test_worker_fault=silent" if kind == "silent" else ""
        open_game(page, f"pace=0&worker_boot={limit}{fault}")
        page.evaluate(RECORD_ANNOUNCEMENTS_JS)
        page.get_by_role("region", name="Market").wait_for()
        assert len(saved(page)["record"]["actions"]) == moves_saved  # resumed as saved
        settled = 0  # the page settled on the person's turn: once resumed, then after each bot move
        told = []
        while True:
            settle(page)  # the bot's answer to the person's last move
            settled += 1
            notes = page.get_by_role("note").filter(has_text="lighter level")
            if settled == 2:  # after the first bot move: told, in words; one tap gives the table its room back
                assert notes.count() == 1, notes.all_inner_texts()
                told.append(notes.inner_text())
                notes.get_by_role("button", name="OK").click()
                check_one_screen(page, "after the note")
            if settled >= 2:
                assert notes.count() == 0  # and it does not come back
            if not play_turn(page):
                break
        # Told once, in words: on the page and in the live region.
        assert len(told) == 1 and BOOT_WORDS[kind] in told[0], told
        said = [s for s in page.evaluate("() => window.__said") if "switched to a lighter level" in s]
        assert len(said) == 1 and BOOT_WORDS[kind] in said[0], said
        assert page.evaluate("() => document.body.dataset.worker") == "failed"
        # Only the first bot move waited for the worker (the page counts the requests that waited for it to start;
        # the boot itself ends by its limit, or earlier when the browser reports the failure: the words above say
        # which); every later move was played at once on the page's own thread.
        assert settled >= 3, settled
        waited = page.evaluate("() => document.body.dataset.bootWaits")
        assert waited == "1" if kind == "silent" else waited in (None, "1"), waited  # a failure reported early: none
        # Every bot move since was the light bot's, at a level that plays on a count of iterations, not a clock.
        levels = page.evaluate("() => document.body.dataset.lightLevels").split()
        assert len(levels) >= settled - 2, levels
        assert all(default_budget(level).seconds is None for level in levels), levels
        # The game reached its end, and the save holds all of it: the first moves as they were, then every move
        # since, replaying to the finished game the end screen shows.
        assert is_over(page)
        record = saved(page)["record"]
        assert record["actions"][:moves_saved] == save["record"]["actions"]
        game = splendor.replay(record)
        assert game.is_over and len(record["actions"]) > moves_saved + 2
        result = page.locator("#status").inner_text()
        assert ("you win" in result.lower()) == (game.winners == [0]), result
    finally:
        context.close()
        server.stop()


def test_a_level_that_does_not_search_plays_first_without_waiting_for_the_worker(page):
    """A medium bot that plays first, while the worker is still starting (here: it never answers, and the page would
    give up on it only after 30 s), moves at once from the page's own thread: the same move the worker would make.
    Nothing is said of a lighter level, since the bot is not lighter."""
    open_game(page, "pace=0&test_worker_fault=silent&worker_boot=30")
    start(page, opponents=1, starts="A bot", seed=4711)
    settle(page, timeout=20_000)
    # No request waited for the worker to start (the page counts those that did).
    assert page.evaluate("() => document.body.dataset.bootWaits") is None, "the first move waited for the worker"
    record = saved(page)["record"]
    assert len(record["actions"]) == 1
    assert page.get_by_role("note").filter(has_text="lighter level").count() == 0
    assert page.evaluate("() => document.body.dataset.worker") in (None, "")
    # The same move the medium bot makes in the worker, for the same request (under CPython here).
    from splendor.web.botcall import answer
    from splendor.web.controller import App
    from splendor.web.records.storage import MemoryStorage

    app = App(MemoryStorage())
    app.act("start", {"seed": "4711", "opponents": "1", "starts": "bot", "level0": "medium"})
    reply = json.loads(answer(json.dumps(app.bot_request())))
    assert reply["action"] == record["actions"][0]


# Where a tap at the middle of an element lands: on it (or inside it), or on what covers it.
HIT_JS = """(el) => { const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top === el || el.contains(top) ? '' : (top ? top.className || top.tagName : 'nothing'); }"""
COVERED_BY_NOTE_JS = """() => {
  const note = document.querySelector('.fallback').getBoundingClientRect();
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return [...document.querySelectorAll('section.seat, .supply, .actionbar, .nobles')]
    .filter((el) => meet(note, el.getBoundingClientRect())).map((el) => el.getAttribute('aria-label') || el.className);
}"""


@pytest.mark.parametrize("size", [(390, 664), (360, 640), (844, 390)])
def test_the_note_of_a_lighter_level_blocks_nothing_on_a_phone(touch_page, size):
    """While the note says the bots play on the page's own thread, the whole turn stays on the one screen (the note
    lies over the market, not in the table's flow: it pushed the person's side under the log, over Take), it covers
    no player's panel, the supply or the controls, and a tap on Take takes the gems."""
    page = touch_page(*size)
    open_game(page, "pace=0&worker=off")
    page.get_by_role("button", name="No thanks").tap()
    start(page, opponents=1, starts="You", seed=31)
    settle(page)
    note = page.get_by_role("note").filter(has_text="lighter level")
    assert note.count() == 1 and note.is_visible()
    check_one_screen(page, "with the note")
    assert page.evaluate(COVERED_BY_NOTE_JS) == []
    piles = [b for b in page.get_by_role("region", name="Gem supply").get_by_role(
        "button", name=re.compile(r"^(White|Blue|Green|Red|Black) gems: [1-9]")).all()
        if b.get_attribute("aria-disabled") != "true"]
    for pile in piles[:3]:
        assert pile.evaluate(HIT_JS) == ""
        pile.tap()
    take = page.get_by_role("button", name=re.compile(r"^Take "))
    assert take.evaluate(HIT_JS) == "", "something lies over Take"
    check_one_screen(page, "gems picked, with the note")
    take.tap()
    settle(page)
    assert len(saved(page)["record"]["actions"]) == 2  # the take, and the bot's answer
    assert note.count() == 1  # the note stays until OK, and the game went on under it
    note.get_by_role("button", name="OK").tap()
    assert note.count() == 0
    check_one_screen(page, "after the note")
