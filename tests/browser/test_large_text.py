"""Text at twice the size: Chromium's default font size at 32 px (a person with low vision sets it so; the page
follows it), at 1280x800, 390x664 and 320x640. No sideways scroll; every market card, pile, your area, the top bar,
the opponents' strip, the Buy dialog and the results sheet whole: nothing of them drawn outside its box, nothing
scrolled away inside it (issue 75: every card cut its bonus gem and a price chip, and a phone scrolled sideways).
On a phone the table may scroll up and down at this size (one screen is the goal at 100%)."""

import json

import pytest
from game_driver import SAVE_KEY, open_game, open_with_storage, settle, start
from test_review import finished_save

SIZES = {"1280x800": (1280, 800), "390x664": (390, 664), "320x640": (320, 640)}

# Each element under ``roots`` drawn outside its root's box, or holding more than it shows (scrollWidth beyond
# clientWidth, where it clips, and a button's words beyond its edges); visually hidden words (for screen readers)
# left out.
CUT_JS = """(roots) => {
  const out = [];
  const hidden = (e) => e.closest('.sr-only, .lab-long, .coach-long') || getComputedStyle(e).clip !== 'auto';
  for (const sel of roots) {
    for (const root of document.querySelectorAll(sel)) {
      const f = root.getBoundingClientRect();
      for (const e of [root, ...root.querySelectorAll('*')]) {
        if (hidden(e)) continue;
        const r = e.getBoundingClientRect();
        if (!r.width) continue;
        const clips = getComputedStyle(e).overflowX !== 'visible' || e.tagName === 'BUTTON';
        if (r.left < f.left - 1 || r.right > f.right + 1) out.push(`${sel}: ${e.className || e.tagName} leaves it`);
        else if (clips && e.scrollWidth > e.clientWidth + 1 && e.clientWidth)
          out.push(`${sel}: ${e.className || e.tagName} holds ${e.scrollWidth} px in ${e.clientWidth}`);
      }
    }
  }
  return [...new Set(out)];
}"""
TABLE = [".topbar", ".market .card", ".market .deck", ".supply .pile", ".seat.mine", ".seat.opp", ".actionbar",
         ".nobles .noble"]
SIDEWAYS_JS = "() => document.documentElement.scrollWidth > innerWidth + 1"


def twice_the_text(page):
    """The browser's default font size at 32 px (twice Chromium's 16), as its settings set it."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})


@pytest.mark.parametrize("size", list(SIZES))
def test_at_twice_the_text_size_the_table_is_whole_and_never_scrolls_sideways(page, size):
    w, h = SIZES[size]
    page.set_viewport_size({"width": w, "height": h})
    twice_the_text(page)
    open_game(page)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "32px"
    page.get_by_role("button", name="No thanks").click()
    start(page, opponents=1, seed=5, starts="You")
    settle(page)
    assert page.evaluate(CUT_JS, TABLE) == []
    assert not page.evaluate(SIDEWAYS_JS)
    assert page.locator(".market .card").count() == 12
    # the Buy dialog of a card
    page.locator(".market .card").first.click()
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    assert page.evaluate(CUT_JS, ["#dialog"]) == []
    assert not page.evaluate(SIDEWAYS_JS)
    dialog.get_by_role("button", name="Close").click()


@pytest.mark.parametrize("size", list(SIZES))
def test_at_twice_the_text_size_the_results_are_whole(page, size):
    w, h = SIZES[size]
    page.set_viewport_size({"width": w, "height": h})
    twice_the_text(page)
    open_with_storage(page, {SAVE_KEY: json.dumps(finished_save(players=2))}, query="pace=0")
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Review this game").wait_for()
    assert page.evaluate(CUT_JS, ["#dialog"]) == []
    assert not page.evaluate(SIDEWAYS_JS)
    # and its review: the chart, the steps, the table after a move
    dialog.get_by_role("button", name="Review this game").click()
    page.get_by_role("img", name="Each player’s chance to win after every move").wait_for(timeout=30_000)
    assert page.evaluate(CUT_JS, [".topbar", ".rv-steps", ".rv-nav", ".rv-seats section", ".rv-row"]) == []
    assert not page.evaluate(SIDEWAYS_JS)


@pytest.mark.parametrize("size", list(SIZES))
def test_at_twice_the_text_size_the_first_screens_puzzles_and_a_puzzles_result_are_whole(page, size):
    from tap_driver import play
    from test_puzzles import POOL, settled_puzzle

    w, h = SIZES[size]
    page.set_viewport_size({"width": w, "height": h})
    twice_the_text(page)
    open_game(page)
    assert page.evaluate(CUT_JS, [".today", ".today-row"]) == []
    assert not page.evaluate(SIDEWAYS_JS)
    page.get_by_role("button", name="Puzzle streak").click()
    settled_puzzle(page)
    assert page.evaluate(CUT_JS, [".topbar"]) == []
    assert not page.evaluate(SIDEWAYS_JS)
    play(page, POOL.rising()["answer"], how="click")  # (the taps of a puzzle at this size: as a game's)
    page.get_by_role("dialog", name="Solved!").wait_for()
    assert page.evaluate(CUT_JS, ["#puzzle-result"]) == []
    assert not page.evaluate(SIDEWAYS_JS)
    page.get_by_role("dialog").get_by_role("button", name="Next puzzle").click()
    settled_puzzle(page)
