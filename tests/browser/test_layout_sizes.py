"""The whole turn on one screen: at phone sizes (portrait and landscape), a tablet and a desktop, on a game eight rounds
in, turns are played by taps and, after each, every region a turn needs is inside the viewport without scrolling
(bounding boxes): each opponent's panel, the nobles, the three market rows with their decks, the supply, the step's
controls and the person's area. Every chip of a market card's cost lies inside its card; market cost digits are at
least 12 px and tap targets at least 44 px. The same with the system asking for reduced motion. A tap on an opponent
opens the full view of that player."""

from __future__ import annotations

import json
import re

import pytest

import splendor
from game_driver import SAVE_KEY, mid_game_save, open_game, open_with_storage, play_turn, settle, start

SIZES = {
    "phone 390x664": (390, 664, True),
    "phone 390x844": (390, 844, True),
    "phone 360x740": (360, 740, True),
    "phone 412x915": (412, 915, True),
    "phone landscape 844x390": (844, 390, True),
    "tablet 768x1024": (768, 1024, True),
    "desktop 1280x800": (1280, 800, False),
}

# Every box a turn needs, in CSS px of the viewport (getBoundingClientRect), with what must hold of it.
REGIONS_JS = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, r.width, r.height]; };
  const named = (name) => document.querySelector(`[aria-label="${name}"]`);
  const out = {};
  for (const name of ['Nobles', 'Market', 'Gem supply', 'Your move', 'Your area']) out[name] = box(named(name));
  document.querySelectorAll('.opponents > section').forEach((el, i) => { out['opponent ' + (i + 1)] = box(el); });
  document.querySelectorAll('[data-grid="market"] button, .market .card')
    .forEach((el) => { out['market ' + (el.id || el.className)] = box(el); });
  return out;
}"""
TARGETS_JS = """() => [...document.querySelectorAll(
    '#main button:not(.inspect), .topbar button')].filter((el) => el.offsetParent !== null)
  .map((el) => [el.id || el.className, el.getBoundingClientRect().width, el.getBoundingClientRect().height])"""
# Every chip of every market card's cost (its gem and its colour letter) that reaches outside its card.
COST_JS = """() => [...document.querySelectorAll('.market .card')].flatMap((card) => {
  const c = card.getBoundingClientRect();
  return [...card.querySelectorAll('.cost .pip, .cost .pip .pl')].map((el) => el.getBoundingClientRect())
    .filter((r) => r.left < c.left - .5 || r.top < c.top - .5 || r.right > c.right + .5 || r.bottom > c.bottom + .5)
    .map((r) => `${card.getAttribute('aria-label')}: a chip at ${r.top - c.top | 0}..${r.bottom - c.top | 0}`
      + ` of ${c.height | 0} px`);
})"""
DIGITS_JS = """() => [...document.querySelectorAll('.market .pip b')]
  .map((el) => parseFloat(getComputedStyle(el, '::before').fontSize))"""


def check_one_screen(page, where):
    width, height = page.evaluate("() => [innerWidth, innerHeight]")
    assert page.evaluate("() => scrollY") == 0, f"{where}: the page was scrolled"
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width, f"{where}: sideways scrolling"
    boxes = page.evaluate(REGIONS_JS)
    assert sum(1 for k in boxes if k.startswith("opponent ")) >= 1
    assert sum(1 for k in boxes if k.startswith("market ")) >= 15, boxes.keys()  # 3 decks and 12 places
    for name, (left, top, right, bottom, w, h) in boxes.items():
        assert w > 0 and h > 0, f"{where}: {name} is not shown"
        assert left >= -0.5 and top >= -0.5 and right <= width + 0.5 and bottom <= height + 0.5, (
            f"{where}: {name} at {left:.0f},{top:.0f}..{right:.0f},{bottom:.0f} is outside the {width}x{height} screen")
    outside = page.evaluate(COST_JS)
    assert not outside, f"{where}: a card's cost is cut off: {outside[:3]}"
    digits = page.evaluate(DIGITS_JS)
    assert digits and min(digits) >= 12, f"{where}: cost digits of {min(digits)} px"
    for name, w, h in page.evaluate(TARGETS_JS):
        assert w >= 43.5 and h >= 43.5, f"{where}: the tap target {name} is {w:.0f}x{h:.0f} px"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_turn_fits_one_screen(request, size):
    """A game eight rounds in (bought or reserved cards on every panel), as the page opens on it; a turn, a
    move being built and a player inspected; then the same with the system asking for reduced motion (switched while
    the page is open, as a person may do: the layout and the moves follow it at once)."""
    w, h, touch = SIZES[size]
    if touch:  # phones and the tablet: a page of its own at this size in the shared touch-screen context
        page = request.getfixturevalue("touch_page")(w, h)
    else:  # the desktop: a page of its own in the shared context of mouse and keyboard
        page = request.getfixturevalue("page")
        page.set_viewport_size({"width": w, "height": h})
    page.emulate_media(reduced_motion="no-preference")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    save = mid_game_save(opponents=3 if "390x664" in size or "landscape" in size else 2, seed=31, rounds=8)
    game = splendor.replay(save["record"])
    assert all(p.cards or p.reserved for p in game.players) and any(p.reserved for p in game.players)
    open_with_storage(page, {SAVE_KEY: json.dumps(save)}, "pace=0&bot_budget=iterations:40")
    settle(page)
    check_one_screen(page, f"{size}, the saved game opened")
    for motion in ("no-preference", "reduce"):
        page.emulate_media(reduced_motion=motion)
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches") == (motion == "reduce")
        where = f"{size}, {motion}"
        play_turn(page)
        settle(page)
        check_one_screen(page, f"{where}, after a turn")
        # A move being built (gems picked) keeps everything in place too.
        while not re.match(r"Your turn[.,]", page.locator("#status").text_content()):
            assert play_turn(page), f"{where}: the game ended before a turn to pick gems in"  # a return, a noble
            settle(page)
        piles = [b for b in page.get_by_role("region", name="Gem supply").get_by_role(
            "button", name=re.compile(r"^(White|Blue|Green|Red|Black) gems: [1-9]")).all()
            if b.get_attribute("aria-disabled") != "true"]
        assert piles, f"{where}: no pile to pick from"
        for pile in piles[:3]:
            pile.tap() if touch else pile.click()
        check_one_screen(page, f"{where}, gems picked")
        assert page.get_by_role("button", name=re.compile(r"^Take ")).is_visible()
        # A tap on an opponent opens everything they hold.
        opponent = page.get_by_role("button", name=re.compile(r"^See all of Bot 1's cards"))
        opponent.tap() if touch else opponent.click()
        dialog = page.get_by_role("dialog")
        assert dialog.get_by_role("heading", name=re.compile(r"^Bot 1 \(Medium\): \d+ points?$")).is_visible()
        assert "Bought cards" in dialog.inner_text() and "Reserved cards" in dialog.inner_text()
        d = dialog.bounding_box()
        assert d["x"] >= 0 and d["x"] + d["width"] <= w
        dialog.get_by_role("button", name="Close").click()
        assert page.get_by_role("dialog").count() == 0
        page.get_by_role("button", name="Clear").click()  # the picked gems go back: the next turn is played
    assert errors == []


def test_the_add_to_home_screen_note_does_not_push_the_table_down(playwright, browser, base_url):
    """iOS Safari shows its Add to Home Screen steps; during a game they wait under the log, off the first screen."""
    descriptor = dict(playwright.devices["iPhone 13"])
    descriptor.pop("default_browser_type", None)
    context = browser.new_context(**descriptor, base_url=base_url)
    page = context.new_page()
    try:
        open_game(page, "pace=0&bot_budget=iterations:40")
        note = page.get_by_role("region", name="Add to Home Screen")
        assert note.is_visible()
        start(page, opponents=1, starts="You", seed=5)
        settle(page)
        check_one_screen(page, "iPhone 13 with the Add to Home Screen note")
        height = page.evaluate("() => innerHeight")
        log = page.get_by_role("region", name="Game log").bounding_box()
        box = note.bounding_box()
        assert box["y"] >= height and box["y"] >= log["y"] + log["height"]  # below the screen and below the log
        note.scroll_into_view_if_needed()
        note.get_by_role("button", name="OK").tap()
        assert note.count() == 0
    finally:
        context.close()


@pytest.mark.slow  # a whole game: started first (tests/conftest.py)
def test_a_whole_game_by_taps_on_a_small_phone_never_scrolls(touch_page):
    """390x664 (an iPhone's visible area), three bots, every turn tapped to the end: after each turn the table still
    fits the screen, and the end screen fits it too."""
    page = touch_page(390, 664)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_game(page, "pace=0&bot_budget=iterations:40")
    start(page, opponents=3, starts="You", seed=77)
    turns = 0
    while play_turn(page):
        turns += 1
        assert turns < 120, "the game did not end"
        settle(page)
        if page.get_by_role("dialog").count() == 0:
            check_one_screen(page, f"390x664, turn {turns}")
    end = page.get_by_role("dialog").bounding_box()
    assert end["x"] >= 0 and end["x"] + end["width"] <= 390 and end["y"] >= 0 and end["y"] + end["height"] <= 664
    assert page.get_by_role("dialog").get_by_role("button", name="Play again").is_visible()
    assert errors == []


def crowded_four_player_save():
    """A 4-player game at the person's turn where each bot's last turn is among the longest said: a blind reserve
    with its gold and a token given back ("Reserved the level 3 deck's top card unseen and took 1 gold. Returned a
    white token."), three lines of a panel."""
    from splendor.web.controller import App
    from splendor.web.records.storage import MemoryStorage

    app = App(MemoryStorage())
    app.act("start", {"seed": "5", "opponents": "3", "starts": "person"})
    g = app.game

    def bot_move(seat):
        legal = g.legal_actions()
        if g.phase != "action":
            return legal[0]
        blind = [a for a in legal if a.kind == "reserve" and a.card is None and a.level == 3]
        if g.players[seat].token_count >= 9 and blind:
            return blind[0]
        return next((a for a in legal if a.kind == "take" and len(a.colors) == 3), legal[0])

    for _ in range(5):
        legal = g.legal_actions()
        mine = [a for a in legal if a.kind == "take" and len(a.colors) == 3] if g.players[0].token_count < 8 else []
        app._apply((mine or [a for a in legal if a.kind == "buy"] or legal)[0], 0)
        while g.phase == "return" and g.current_player == 0:
            app._apply(g.legal_actions()[0], 0)
        while not app.my_turn:
            req = app.bot_request()
            assert app.bot_reply({"turn_id": req["turn_id"], "action": str(bot_move(g.current_player)),
                                  "explanation": ""}) == "applied"
    said = app.last_moves()
    assert all(said[s].startswith("Reserved the level 3 deck") and "Returned" in said[s] for s in (1, 2, 3)), said
    return app.to_save()


def test_at_four_players_on_a_desktop_each_bots_last_move_is_on_the_screen(page):
    """1280x800: the third bot's panel ends on the screen with its last move whole, three lines long; the log and
    the bots' speed are under your side, in sight."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_with_storage(page, {SAVE_KEY: json.dumps(crowded_four_player_save())})
    settle(page)
    for seat in (1, 2, 3):
        last = page.locator(f"#seat-{seat} .last-move")
        top, bottom, lines = last.evaluate("""(e) => { const r = e.getBoundingClientRect();
          return [r.top, r.bottom, Math.round(r.height / parseFloat(getComputedStyle(e).lineHeight))]; }""")
        assert bottom <= 800 and lines >= 3, (seat, top, bottom, lines)
    speed = page.get_by_role("group", name="Bot speed")
    assert speed.count() == 1 and speed.bounding_box()["y"] + speed.bounding_box()["height"] <= 800
