"""Motion and text size: with prefers-reduced-motion every animation and transition is off (and on without it);
with the browser's default font size at 200% (32 px, set through the DevTools protocol as the browser setting
does) the page takes a narrower layout: no sideways scrolling at 1280x800, the market fits, the person's area is
there to see."""

from __future__ import annotations

import re

from game_driver import open_game, play_turn, settle, start

MOVING_JS = """() => {
  const moving = [];
  for (const el of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const cs = getComputedStyle(el, pseudo);
      const animated = cs.animationName !== 'none' && parseFloat(cs.animationDuration) > 0;
      const transition = cs.transitionDuration.split(',').some(d => parseFloat(d) > 0);
      if (animated || transition)
        moving.push([el.id, el.className.baseVal ?? el.className, el.tagName].filter(Boolean).join(' ')
                    + (pseudo || ''));
    }
  }
  return moving;
}"""


def test_reduced_motion_turns_every_animation_off(page):
    open_game(page)
    start(page, opponents=1, starts="You", seed=21)
    play_turn(page)
    settle(page)  # the bot's move is highlighted (the flash animation)
    page.evaluate("() => document.body.insertAdjacentHTML('beforeend',"
                  " '<span class=\"spinner\" id=\"test-spin\"></span>')")
    page.emulate_media(reduced_motion="no-preference")
    moving = page.evaluate(MOVING_JS)
    assert any(m.startswith("test-spin") for m in moving) and any("flash" in m for m in moving), moving  # sees motion
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(MOVING_JS) == []
    card = page.get_by_role("region", name="Market").get_by_role("button", name=re.compile(r"^Level 1 card")).first
    card.hover()
    assert card.evaluate("(el) => getComputedStyle(el).transform") == "none"  # no lift on hover either
    # A highlighted move still stands out without motion: an outline instead.
    flashed = page.locator(".flash").first
    assert flashed.evaluate("(el) => getComputedStyle(el).outlineStyle") == "solid"


def test_text_at_200_percent_keeps_the_market_and_your_area_usable(page):
    page.set_viewport_size({"width": 1280, "height": 800})
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    open_game(page)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "32px"
    width = page.evaluate("() => innerWidth")
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    start(page, opponents=3, starts="You", seed=2)
    settle(page)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
    market = page.get_by_role("region", name="Market")
    assert market.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    for button in market.get_by_role("button").all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    # Text really is larger there (the card faces scale with it too).
    assert page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.card')).fontSize)") > 16
    mine = page.get_by_role("region", name="Your area")
    mine.scroll_into_view_if_needed()
    assert mine.is_visible()
    box = mine.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] > 100
    # Its controls are reachable: the supply's piles and the action prompt fit the width too.
    for button in page.get_by_role("region", name="Gem supply").get_by_role("button").all():
        b = button.bounding_box()
        assert b["x"] + b["width"] <= width and b["height"] >= 44
    # A card dialog fits the screen.
    market.get_by_role("button", name=re.compile(r"^Level 1 card")).first.click()
    dialog = page.get_by_role("dialog")
    d = dialog.bounding_box()
    assert d["x"] >= 0 and d["x"] + d["width"] <= width
    assert dialog.get_by_role("button", name="Close").is_visible()
