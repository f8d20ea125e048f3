"""Hostile saves in the browser: damaged, foreign, older, newer and rule-breaking saves planted before the page
loads, storage that is full (setItem throws QuotaExceededError) or unavailable (localStorage access throws, as in
some private modes). Each time the page starts, says what happened in words, keeps the bad data under another key
(nothing deleted) and a game can be played."""

from __future__ import annotations

import json
import re

import pytest

import splendor
from a11y_helpers import axe
from browser_helpers import wait_ready
from engine_fixtures import record_card_twice, record_over_ten_tokens
from game_driver import SAVE_KEY, open_game, saved, settle, start

CORRUPT = "splendor.save.corrupt."
KEPT_JS = f"() => Object.keys(localStorage).filter(k => k.startsWith({json.dumps(CORRUPT)})).sort()"


def a_save(actions=("take white blue green", "take red black white"), **changes):
    g = splendor.new_game(players=2, seed=7, first_player=0)
    for a in actions:
        g.apply(a)
    save = {"format": "splendor-save", "version": 1, "record": g.record(),
            "seats": [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": "medium"}],
            "settings": {}, "log": [{"n": 0, "seat": None, "text": "New game.", "why": "", "kind": "note"}]}
    save.update(changes)
    return save


CASES = {
    "truncated JSON": (json.dumps(a_save())[:90], "cut short or damaged"),
    "JSON of the wrong shape": (json.dumps({"format": "splendor-save", "version": 1, "record": [1, 2]}),
                                "cannot be replayed by the rules"),
    "older version": (json.dumps(a_save(version=0)), "older version of this page"),
    "newer version": (json.dumps(a_save(version=2)), "newer version of this page"),
    "too many tokens": (json.dumps(a_save(record=record_over_ten_tokens())),
                        "you hold 12 tokens: return 2 tokens first"),
    "a card twice": (json.dumps(a_save(record=record_card_twice())), "is not in the market"),
}


@pytest.mark.slow  # a whole game: started first (tests/conftest.py)
def test_each_damaged_save_is_told_kept_aside_and_a_game_goes_on(page, site_url, console_errors):
    open_game(page)
    for i, (case, (raw, words)) in enumerate(CASES.items()):
        page.evaluate("([k, v]) => { localStorage.clear(); localStorage.setItem(k, v); "
                      "localStorage.setItem('other', 'kept') }", [SAVE_KEY, raw])
        page.reload()
        wait_ready(page)
        alert = page.get_by_role("alert").filter(has_text="could not be read")
        text = alert.inner_text()
        assert words in text, (case, text)
        kept = page.evaluate(KEPT_JS)
        assert len(kept) == 1 and kept[0] in text, (case, kept)
        assert page.evaluate("(k) => localStorage.getItem(k)", kept[0]) == raw, case
        assert page.evaluate("() => localStorage.getItem('other')") == "kept"
        if i == 0:
            assert not (found := axe(page, site_url)), "\n".join(found)  # the notice is accessible too
        if i == len(CASES) - 1:  # play on: a new game, a move, the bot's answer, all saved
            start(page, opponents=1, starts="You", seed=11)
            page.get_by_role("button", name=re.compile(r"^White gems")).click()
            page.get_by_role("button", name=re.compile(r"^Blue gems")).click()
            page.get_by_role("button", name=re.compile(r"^Green gems")).click()
            page.get_by_role("button", name=re.compile(r"^Take ")).click()
            settle(page)
            assert len(saved(page)["record"]["actions"]) == 2
            assert page.evaluate("(k) => localStorage.getItem(k)", kept[0]) == raw
    assert console_errors == []


FULL_JS = """() => {
  const real = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (String(key).startsWith('splendor.'))
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return real.call(this, key, value);
  };
}"""
UNAVAILABLE_JS = """() => {
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
  });
}"""


def play_one_turn(page):
    for color in ("White", "Blue", "Green"):
        page.get_by_role("button", name=re.compile(rf"^{color} gems")).click()
    page.get_by_role("button", name=re.compile(r"^Take ")).click()
    settle(page)
    assert "Bot 1 " in page.get_by_role("region", name="Game log").inner_text()


def test_full_storage_is_told_and_the_damaged_save_stays_where_it_was(page, console_errors):
    page.add_init_script(f"localStorage.setItem({json.dumps(SAVE_KEY)}, '{{\"damaged')")  # before the trap
    page.add_init_script(f"({FULL_JS})()")
    open_game(page)
    alert = page.get_by_role("alert").filter(has_text="could not be read").inner_text()
    assert "left where it was" in alert and "cut short or damaged" in alert
    start(page, opponents=1, starts="You", seed=5)
    play_one_turn(page)
    assert page.evaluate(f"() => localStorage.getItem({json.dumps(SAVE_KEY)})") == '{"damaged'
    assert page.evaluate(KEPT_JS) == []
    assert console_errors == []


def test_unavailable_storage_is_told_and_play_goes_on(page, console_errors):
    page.add_init_script(f"({UNAVAILABLE_JS})()")
    open_game(page)
    assert "cannot be read on this device" in page.get_by_role("alert").first.inner_text()
    start(page, opponents=1, starts="You", seed=5)
    play_one_turn(page)
    assert page.locator("#status").text_content().startswith("Your turn")
    assert console_errors == []
