"""The bot worker fails, and the page recovers: it crashes (its call raises), hangs past its budget, or answers
for an old position. Each time the light bot on the page's own thread plays the move, the person is told (a note
on the page and the live region), and the game goes on. The faults come from a test hook: the URL setting
``test_worker_fault`` makes main.py ask the worker to fail that way (splendor/web/worker.py)."""

from __future__ import annotations

import re

import pytest
from browser_helpers import READY_TIMEOUT_MS
from game_driver import log_text, open_game, play_turn, saved, settle, start

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
