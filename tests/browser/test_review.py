"""The game review in Chromium (issue 53): a whole game by taps at 390x664 ends with Review this game; the chart comes
from the bot worker within 20 s; stepping back 12 moves changes the market; the person's moves are named with a
better move and why; at 1280x800 by clicks and keys; the record's list reopens a stored review at once; a damaged
stored review is computed again, and cancelling it leaves the worker free. ``REVIEW_SHOTS=<folder>`` keeps
screenshots of the review at both sizes."""

from __future__ import annotations

import json
import os
import re
import time

import pytest
from a11y_helpers import axe
from browser_helpers import ping_worker
from game_driver import (SAVE_KEY, is_over, open_game, open_with_storage, play_turn, press_on, press_to_finish, settle,
                         start)

FINISHED_KEY = "splendor.finished.v1"
CHART_MS = 20_000


def shot(page, name):
    folder = os.environ.get("REVIEW_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, name), full_page=False)


def market(page):
    """The review table's market: every card's name, level by level."""
    table = page.get_by_role("region", name=re.compile(r"^The table (at the deal|after move \d+)$"))
    return [table.get_by_role("group", name=f"Level {k} cards").get_by_role("img").evaluate_all(
        "(els) => els.map((e) => e.getAttribute('aria-label'))") for k in (3, 2, 1)]


def where(page):
    return page.locator("#review-where").inner_text()


def open_review(page, press="click"):
    dialog = page.get_by_role("dialog")
    press_on(dialog.get_by_role("button", name="Review this game"), press)
    started = time.monotonic()
    page.get_by_role("img", name="Each player’s chance to win after every move").wait_for(timeout=CHART_MS)
    return time.monotonic() - started


def check_better_move(page):
    turning = page.get_by_role("region", name="Turning points")
    turning.wait_for(timeout=CHART_MS)  # (the chart is drawn from its first points: the list once the review is whole)
    items = turning.get_by_role("listitem")
    assert items.count() >= 1
    texts = items.all_inner_texts()
    better = [t for t in texts if "Better:" in t]
    assert better, texts
    # what the better move is and why, after what the move played lost against it (its class, in points of chance)
    assert re.search(r"(Good|Inaccuracy|Mistake|Blunder): \d+ points? of chance below your best choice\.\s+"
                     r"Better: (Buys|Takes|Reserves) .+\.", better[0]), better[0]
    # the chart's point after the move is the line's: the words say where it went
    assert re.search(r"You moved: your chance went from (\d+)% to (\d+)%\.", better[0]), better[0]
    return better[0]


@pytest.mark.slow  # a whole game: started first (tests/conftest.py)
def test_a_whole_game_by_taps_on_a_phone_ends_with_its_review(touch_page):
    page = touch_page(390, 664)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_game(page, "pace=0&bot_budget=iterations:40")
    start(page, opponents=1, starts="You", seed=53)
    assert page.get_by_role("button", name="Review this game").count() == 0  # a game in progress: no review
    turns = 0
    while play_turn(page, press="tap"):
        turns += 1
        assert turns < 120, "the game did not end"
    settle(page)
    save = page.evaluate(f"() => localStorage.getItem({json.dumps(SAVE_KEY)})")
    end = page.get_by_role("dialog").bounding_box()
    assert end["y"] >= 0 and end["y"] + end["height"] <= 664  # the end screen still fits with its new button
    shot(page, "end-390x664.png")
    seconds = open_review(page, press="tap")
    assert seconds < CHART_MS / 1000
    last = where(page)
    total = int(re.match(r"After move (\d+) of (\d+)", last).group(2))
    assert last == f"After move {total} of {total}"
    check_better_move(page)
    shot(page, "review-390x664.png")
    at_end = market(page)
    prev = page.get_by_role("button", name="Previous", exact=True)
    for _ in range(12):
        press_on(prev, "tap")
    assert where(page) == f"After move {total - 12} of {total}"
    assert market(page) != at_end
    # a tap on the chart shows the move under it: here, near its left edge
    box = page.locator("#rv-chart").bounding_box()
    page.touchscreen.tap(box["x"] + 3, box["y"] + box["height"] / 2)
    assert where(page) in ("The deal", f"After move 1 of {total}")
    # a turning point's button steps to its move and brings the steps and the table into view
    tp = page.get_by_role("region", name="Turning points").get_by_role("button").first
    k = int(tp.inner_text().split()[-1])
    tp.scroll_into_view_if_needed()
    shot(page, "review-390x664-turning.png")
    press_on(tp, "tap")
    assert where(page) == f"After move {k} of {total}"
    page.wait_for_function("() => { const r = document.getElementById('review-where').getBoundingClientRect(); "
                           "const bar = document.querySelector('.topbar').getBoundingClientRect(); "
                           "return r.top >= bar.bottom && r.bottom <= innerHeight; }")
    shot(page, "review-390x664-table.png")
    # leaving returns to the end screen; the live game and its save are as they were
    press_on(page.get_by_role("button", name="Back to the results"), "tap")
    assert page.get_by_role("dialog").get_by_role("button", name="Play again").is_visible()
    assert page.evaluate(f"() => localStorage.getItem({json.dumps(SAVE_KEY)})") == save
    assert errors == []


@pytest.mark.slow
def test_a_whole_game_by_clicks_at_the_desktop_is_reviewed_kept_and_a_damaged_review_computed_again(page, site_url,
                                                                                                    console_errors):
    open_game(page, "pace=0&bot_budget=iterations:40")
    start(page, opponents=1, starts="You", seed=54)
    assert page.get_by_role("button", name="Review this game").count() == 0
    turns = 0
    while play_turn(page):
        turns += 1
        assert turns < 120, "the game did not end"
    settle(page)
    open_review(page)
    total = int(re.match(r"After move (\d+) of (\d+)", where(page)).group(2))
    check_better_move(page)
    shot(page, "review-1280x800.png")
    assert not (found := axe(page, site_url)), "review:\n" + "\n".join(found)
    at_end = market(page)
    page.get_by_role("button", name="Next", exact=True).focus()
    for _ in range(12):
        page.keyboard.press("ArrowLeft")
    assert where(page) == f"After move {total - 12} of {total}" and market(page) != at_end
    page.keyboard.press("Home")
    assert where(page) == "The deal"
    page.keyboard.press("End")
    assert where(page) == f"After move {total} of {total}" and market(page) == at_end
    # a turning point's button steps to it
    first_tp = page.get_by_role("region", name="Turning points").get_by_role("button").first
    k = int(first_tp.inner_text().split()[-1])
    first_tp.click()
    assert where(page) == f"After move {k} of {total}"
    page.keyboard.press("Escape")
    assert page.get_by_role("dialog").get_by_role("button", name="Play again").is_visible()
    assert page.evaluate("() => document.activeElement.id") == "review-game"
    page.get_by_role("dialog").get_by_role("button", name="Review this game").click()  # stored: at once
    assert page.evaluate("() => document.activeElement.id") == "review-close"
    page.get_by_role("button", name="Back to the results").click()
    assert page.evaluate("() => document.activeElement.id") == "review-game"

    # stored with the finished game: the record's list opens it at once, with no computing
    stored = json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(FINISHED_KEY)})"))
    assert stored["games"][0]["review"]["positions"]
    page.get_by_role("dialog").get_by_role("button", name="New game").click()
    finished = page.get_by_role("region", name="Finished games")
    assert not (found := axe(page, site_url)), "finished games:\n" + "\n".join(found)
    finished.get_by_role("button", name=re.compile("^Review the game")).first.click()
    assert page.locator("#rv-chart").count() == 1 and page.locator("#rv-bar").count() == 0
    page.get_by_role("button", name="Back", exact=True).click()
    page.get_by_role("region", name="Finished games").wait_for()

    # a damaged stored review is computed again; cancelled, it leaves the worker free
    stored["games"][0]["review"]["positions"][2]["chances"] = ["x"]
    page.evaluate(f"(t) => localStorage.setItem({json.dumps(FINISHED_KEY)}, t)", json.dumps(stored))
    page.reload()
    page.wait_for_selector('body[data-ready="1"]', state="attached")
    page.get_by_role("dialog").get_by_role("button", name="New game").click()  # (the finished game was resumed)
    finished = page.get_by_role("region", name="Finished games")
    finished.get_by_role("button", name=re.compile("^Review the game")).first.click()
    page.locator("#review-cancel").click()
    page.get_by_text("The review was cancelled.").wait_for()
    started = time.monotonic()
    assert ping_worker(page, {"ping": 1})["pong"] == "pong"
    assert time.monotonic() - started < 2.0  # at most the piece in flight was finished
    page.get_by_role("button", name="Review again").click()
    page.locator("#rv-chart").wait_for(timeout=CHART_MS)
    page.get_by_role("region", name="Turning points").wait_for(timeout=CHART_MS)  # (whole, and stored)
    again = json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(FINISHED_KEY)})"))
    assert again["games"][0]["review"]["positions"][2]["chances"] != ["x"]
    assert console_errors == []


def finished_save(players=3):
    """A finished save of 3 players (or 2: Ann and Bot 1; or 4; every seat buying when it can, else at random),
    opened on its end screen."""
    import random

    import splendor

    g = splendor.new_game(players=players, seed=12, first_player=0)
    rng = random.Random(12)
    while not g.is_over:
        actions = g.legal_actions()
        buys = [a for a in actions if a.kind == "buy"]
        g.apply(rng.choice(buys or actions))
    return {"format": "splendor-save", "version": 1, "record": g.record(),
            "seats": [{"name": "Ann", "bot": None}, {"name": "Bot 1", "bot": "easy"},
                      {"name": "Bot 2", "bot": "hard"}, {"name": "Bot 3", "bot": "medium"}][:players],
            "settings": {}, "log": [{"n": 0, "seat": None, "text": "New game.", "why": "", "kind": "note"}]}


def test_without_the_worker_a_three_player_game_is_reviewed_on_the_page(page, console_errors):
    open_with_storage(page, {SAVE_KEY: json.dumps(finished_save())}, query="pace=0&worker=off")
    open_review(page)
    # (counted once the review is whole: while the page computes its pieces it redraws the chart after each)
    page.get_by_role("region", name="Turning points").wait_for(timeout=CHART_MS * 6)
    assert page.locator(".rv-line").count() == 3
    assert page.get_by_role("list", name=re.compile("^Chances after move")).get_by_role("listitem").count() == 3
    total = int(re.match(r"After move (\d+) of (\d+)", where(page)).group(2))
    page.get_by_role("button", name="Deal", exact=True).click()
    assert where(page) == "The deal"
    page.keyboard.press("ArrowRight")
    assert where(page) == f"After move 1 of {total}"
    assert console_errors == []


def follow_hint(page, press="tap"):
    """Play the person's turn as the hint says, by taps on what it marks: the gems to take (one pile marked: two of
    it), or the card or deck to buy or reserve. Giving tokens back and choosing a noble follow the driver's simple
    rule (the review judges a turn's main move). False once the game is over."""
    settle(page)
    if is_over(page):
        return False
    status = page.locator("#status").text_content()
    if any(step in status for step in ("return tokens", "choose a noble", "remove a noble")):
        return play_turn(page, press)
    press_on(page.get_by_role("button", name="Hint", exact=True), press)
    page.locator("#hint-text").wait_for()
    said = page.locator("#hint-text").inner_text()
    verb = said.split()[1]
    if verb == "take":  # (a pile picked loses its mark: the piles are read first)
        marked = page.locator(".pile.hinted").evaluate_all("(els) => els.map((e) => e.id)")
        for pile in marked * (2 if len(marked) == 1 else 1):
            press_on(page.locator(f"#{pile}"), press)
        press_on(page.get_by_role("button", name=re.compile(r"^Take ")), press)
    elif verb in ("buy", "reserve"):
        target = page.locator(".card.hinted, .mini.hinted, .deck.hinted")
        assert target.count() == 1, said
        press_to_finish(page, target, "Buy" if verb == "buy" else "Reserve", press)
    else:
        assert verb == "pass", said
        press_on(page.get_by_role("button", name="Pass"), press)
    return True


@pytest.mark.slow
def test_a_game_played_by_the_hints_is_reviewed_with_hardly_a_loss(touch_page):
    # One coach (issue 62): the hint and the review ask the same judge, so a person who plays every hint is seldom told
    # by the review that a followed hint lost 3 points or more against a better move: the bar of issue 72 is 1 in 40
    # (tools/coach_agreement.py --games 20: 5 of 531), so at most one in a game (the hint's search is timed: the game
    # played differs from run to run).
    page = touch_page(390, 664)
    open_game(page, "pace=0&bot_budget=iterations:40")
    start(page, opponents=1, starts="You", seed=61)
    turns = 0
    while follow_hint(page):
        turns += 1
        assert turns < 120, "the game did not end"
    settle(page)
    open_review(page, press="tap")
    page.get_by_role("region", name="Turning points").wait_for(timeout=CHART_MS)
    kept = json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(FINISHED_KEY)})"))["games"][0]
    review = kept["review"]
    followed = [t for t, m in enumerate(review["moves"], 1) if m["seat"] == 0 and "played" in review["positions"][t]]
    assert len(followed) >= 15
    named = [(t, review["positions"][t]["better"]) for t in followed if review["positions"][t]["better"]]
    assert len(named) <= 1, named
    assert len([tp for tp in review["turning"] if tp["mover"] == 0]) <= len(named)


#: Any part of a review's small card drawn outside it (issue 63: the fourth price of a card was cut).
CARD_CUT_JS = """() => [...document.querySelectorAll('.rv-card, .rv-res .mini')].flatMap((c) => {
  const f = c.getBoundingClientRect();
  return [...c.querySelectorAll('*')].filter((e) => { const r = e.getBoundingClientRect();
    return r.width && (r.bottom > f.bottom + .5 || r.right > f.right + .5 || r.top < f.top - .5); })
    .map((e) => c.getAttribute('aria-label')); })"""


def test_the_reviews_small_cards_show_every_price_at_360_px(touch_page):
    check_small_cards(touch_page(360, 640), 2, "tap")


def test_a_four_player_reviews_reserved_cards_show_every_price_at_1280(page):
    """Issue 72: at 1280 the 4-player review's reserved mini-cards lost their third and fourth price chips."""
    check_small_cards(page, 4, "click")
    assert page.locator(".rv-res .mini").count()  # (reserved cards were among those looked at)


def check_small_cards(page, players, press):
    open_with_storage(page, {SAVE_KEY: json.dumps(finished_save(players=players))}, query="pace=0")
    open_review(page, press=press)
    # (a 4-player game of random buys is long: its whole review takes a few times the chart's first points)
    page.get_by_role("region", name="Turning points").wait_for(timeout=CHART_MS * (1 if players == 2 else 6))
    total = int(re.match(r"After move (\d+) of (\d+)", where(page)).group(2))
    four = 0
    for step in range(0, total + 1, max(1, total // 6)):
        page.evaluate(f"() => document.querySelector('.rv-hit[data-to=\"{step}\"]').dispatchEvent("
                      "new MouseEvent('click', {bubbles: true}))")
        page.wait_for_function(f"() => document.getElementById('review-where').textContent.includes("
                               f"'{'The deal' if step == 0 else f'After move {step} '}')")
        assert page.evaluate(CARD_CUT_JS) == [], step
        four += page.evaluate("() => [...document.querySelectorAll('.rv-card')].filter((c) => "
                              "c.querySelectorAll('.pip').length === 4).length")
    assert four  # (cards of four prices were among those looked at)


def test_every_jump_of_the_line_says_why_and_the_bad_moves_are_marked(touch_page):
    """Issue 72: each move whose point moves 10 or more carries its class and its loss in the step view; the chart
    marks the mistakes and blunders on their mover's line, and names them in its text."""
    page = touch_page(390, 664)
    open_with_storage(page, {SAVE_KEY: json.dumps(finished_save(players=2))}, query="pace=0")
    open_review(page, press="tap")
    page.get_by_role("region", name="Turning points").wait_for(timeout=CHART_MS)
    review = json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(FINISHED_KEY)})"))["games"][0]["review"]
    pos = review["positions"]
    flagged = [t for t in range(1, len(pos)) if "played" in pos[t] and pos[t]["best"] - pos[t]["played"] > .10]
    assert page.locator("#rv-chart .rv-flag").count() == len(flagged)
    desc = page.locator("#rv-chart-desc").text_content()
    for t in flagged:
        assert f"move {t} (" in desc
    jumps = [t for t in range(1, len(pos) - 1)
             if abs(pos[t]["chances"][0] - pos[t - 1]["chances"][0]) >= .10 and "played" in pos[t]]
    for t in (jumps + flagged)[:8]:
        page.evaluate(f"() => document.querySelector('.rv-hit[data-to=\"{t}\"]').dispatchEvent("
                      "new MouseEvent('click', {bubbles: true}))")
        page.wait_for_function(f"() => document.getElementById('review-where').textContent.includes('After move {t} ')")
        line = page.locator(".rv-move .rv-class").inner_text()
        assert re.match(r"(Best|Excellent|Good|Inaccuracy|Mistake|Blunder): ", line), line
        points = round(100 * (pos[t]["best"] - pos[t]["played"]))
        if points >= 1 and not line.startswith("Best"):
            assert f"{points} point" in line, line
