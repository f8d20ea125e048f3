"""The page redraws only what changed (assets/patch.js): what a tap leaves alone stays the very same element and its
HTML is not even parsed again, and the page is exactly what putting the view's HTML in with innerHTML would make
(checked at every redraw of a whole game in test_game_play.py)."""

from __future__ import annotations

import re

from game_driver import open_game, settle, start

CHECK_JS = "() => { window.splendorPatch.check = true; window.splendorPatch.mismatches.length = 0; }"
MARK_JS = """() => {
  for (const [name, el] of Object.entries({market: document.querySelector('.market'),
      log: document.querySelector('.log'), opponents: document.querySelector('.opponents'),
      pile: document.getElementById('pile-white'), status: document.getElementById('status')})) {
    el.__kept = name;
  }
}"""
KEPT_JS = """() => ({market: document.querySelector('.market').__kept, log: document.querySelector('.log').__kept,
  opponents: document.querySelector('.opponents').__kept, pile: document.getElementById('pile-white').__kept,
  status: document.getElementById('status').__kept})"""


def test_a_gem_tap_changes_only_what_it_changes(page):
    page.set_viewport_size({"width": 390, "height": 664})
    open_game(page, "pace=0&bot_budget=iterations:20")
    start(page, opponents=2, seed=31, starts="You")
    settle(page)
    page.evaluate(CHECK_JS)
    page.evaluate(MARK_JS)
    pile = page.locator("#pile-white")
    assert pile.get_attribute("aria-pressed") == "false"
    market, supply = page.locator(".market").bounding_box(), page.locator(".supply").bounding_box()
    pile.click()
    assert pile.get_attribute("aria-pressed") == "true"
    # The action bar keeps its height: neither the market nor the pile being tapped moves under the finger.
    assert page.locator(".market").bounding_box() == market and page.locator(".supply").bounding_box() == supply
    assert page.get_by_role("button", name="Put back white").is_visible()
    # The market, the log, the opponents, the pile itself and the status line are the elements they were: only
    # their changed attributes and text were set.
    assert page.evaluate(KEPT_JS) == {"market": "market", "log": "log", "opponents": "opponents", "pile": "pile",
                                      "status": "status"}
    # Only the parts of the page whose HTML changed were parsed (the supply, the action bar, your area and what is
    # not in a region): the market, nobles, opponents and log are left out (splendor/web/view.py region()).
    parsed, total = page.evaluate("() => [window.splendorPatch.parsed, window.splendorPatch.total]")
    assert parsed < total * 0.4, (parsed, total)
    page.get_by_role("button", name="Put back white").click()
    assert pile.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => window.splendorPatch.mismatches") == []
    # A move adds its log lines at the top of the log (newest first); the lines already there stay the elements they
    # were instead of each being rewritten one place down.
    page.evaluate("() => { document.querySelector('.log-list li').__kept = 'newest'; }")
    lines = page.locator(".log-list li").count()
    for color in ("white", "blue", "green"):
        page.locator(f"#pile-{color}").click()
    page.get_by_role("button", name=re.compile(r"^Take ")).click()
    settle(page)
    kept = page.evaluate("() => [...document.querySelectorAll('.log-list li')]"
                         ".findIndex((li) => li.__kept === 'newest')")
    now = page.locator(".log-list li").count()
    assert now > lines and kept == now - lines  # the line that was newest, moved down by the lines added
    assert page.evaluate("() => window.splendorPatch.mismatches") == []

