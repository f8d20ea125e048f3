"""axe-core (from npm, served by the local site at runtime/axe/axe.min.js) finds no serious or critical
accessibility violation on the new-game screen, during a game (with a card dialog open too, and on a phone) and on
the end screen. (The return phase, a damaged-save notice and a refused game file are checked in the tests that
reach them: test_a11y_keyboard, test_hostile_saves, test_game_files.)"""

from __future__ import annotations

import json
import random
import re

import pytest

import splendor
from a11y_helpers import axe
from game_driver import SAVE_KEY, open_game, play_turn, settle, start

def finished_save():
    g = splendor.new_game(players=3, seed=12, first_player=0)
    rng = random.Random(12)
    while not g.is_over:
        actions = g.legal_actions()
        buys = [a for a in actions if a.kind == "buy"]
        g.apply(rng.choice(buys or actions))
    return {"format": "splendor-save", "version": 1, "record": g.record(),
            "seats": [{"name": "Ann", "bot": None}, {"name": "Bot 1", "bot": "easy"}, {"name": "Bot 2", "bot": "hard"}],
            "settings": {}, "log": [{"n": 0, "seat": None, "text": "New game.", "why": "", "kind": "note"}]}


def test_axe_new_game_screen_game_dialog_and_end_screen(page, site_url, console_errors):
    open_game(page)
    assert not (found := axe(page, site_url)), "new-game screen:\n" + "\n".join(found)
    page.get_by_text("More options").click()
    assert not (found := axe(page, site_url)), "new-game screen, more options open:\n" + "\n".join(found)
    start(page, opponents=2, starts="You", seed=4)
    play_turn(page)
    settle(page)
    assert not (found := axe(page, site_url)), "during a game:\n" + "\n".join(found)
    page.get_by_role("region", name="Market").get_by_role("button", name=re.compile(r"^Level 1 card")).first.click()
    page.get_by_role("dialog").wait_for()
    assert not (found := axe(page, site_url)), "card dialog:\n" + "\n".join(found)
    page.get_by_role("dialog").get_by_role("button", name="Close").click()
    page.get_by_role("region", name="Market").get_by_role("button", name=re.compile(r"^Level 2 deck")).click()
    assert not (found := axe(page, site_url)), "deck dialog:\n" + "\n".join(found)
    page.keyboard.press("Escape")
    # The end screen: a finished game saved in the browser opens on it.
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SAVE_KEY, json.dumps(finished_save())])
    page.reload()
    page.get_by_role("dialog", name=re.compile("win|victory", re.I)).wait_for()
    assert not (found := axe(page, site_url)), "end screen:\n" + "\n".join(found)
    assert console_errors == []


def test_axe_on_a_phone_with_a_dialog(phone, site_url):
    page, _ = phone
    open_game(page)
    start(page, opponents=3, starts="You", seed=9)
    settle(page)
    assert not (found := axe(page, site_url)), "phone game:\n" + "\n".join(found)
    page.get_by_role("region", name="Market").get_by_role("button", name=re.compile(r"^Level 3 card")).first.tap()
    assert not (found := axe(page, site_url)), "phone card dialog:\n" + "\n".join(found)


@pytest.mark.slow  # (a whole daily deal: started first, tests/conftest.py)
def test_axe_on_a_puzzle_its_result_and_the_daily_deals_end(phone, site_url):
    """The puzzle on the table, its result over it, and a daily deal's results (its share button and word)."""
    from tap_driver import play
    from test_puzzles import POOL, open_puzzles

    page, _ = phone
    open_game(page)
    open_puzzles(page, "streak")
    assert not (found := axe(page, site_url)), "puzzle:\n" + "\n".join(found)
    play(page, POOL.rising()["answer"])
    page.get_by_role("dialog", name="Solved!").wait_for()
    assert not (found := axe(page, site_url)), "puzzle result:\n" + "\n".join(found)
    page.get_by_role("dialog").get_by_role("button", name="Leave puzzles").tap()
    page.get_by_role("button", name="Play today's deal").tap()
    settle(page)
    while play_turn(page, press="tap"):
        settle(page)
    page.get_by_role("button", name="Share the result").wait_for()
    assert not (found := axe(page, site_url)), "daily deal's end:\n" + "\n".join(found)
