"""Learning and sharing in Chromium: the How to play guide from the table (and offline), the guided first turn,
deal links, the end screen's link, and the player's own record (counted once, kept across reloads, a damaged one
kept aside). Driven by accessible names, like the other browser tests."""

from __future__ import annotations

import itertools
import json
import re

from a11y_helpers import axe
from browser_helpers import non_local, wait_ready
from game_driver import (SAVE_KEY, is_over, last_turn_save, market_names, open_game, open_with_storage, play_turn,
                         saved, settle, start)
from pwa_helpers import GAME_QUERY, page_paths, precache_paths, record_requests, wait_controlled

import splendor
from splendor.engine import COLORS, Action
from tools.serve import start_server

RECORD_KEY = "splendor.record.v1"
GUIDE_MARK = ", marked by the guide"


def storage_get(page, key):
    text = page.evaluate("(k) => localStorage.getItem(k)", key)
    return json.loads(text) if text else None


# -- How to play ----------------------------------------------------------------------------------------------------
def read_the_guide(page, site_url=None):
    """Open the guide from the table, page through it, close it with Escape and with its button (with
    ``site_url``, axe checks its first page too)."""
    opener = page.get_by_role("button", name="How to play")
    opener.click()
    dialog = page.get_by_role("dialog", name="How to play")
    dialog.wait_for()
    if site_url:
        assert not (found := axe(page, site_url)), "the guide:\n" + "\n".join(found)
    assert dialog.get_by_role("heading", name=re.compile("The goal")).is_visible()
    assert dialog.get_by_role("img").first.is_visible()  # the illustration
    dialog.get_by_role("button", name="Next: Gems").click()
    assert "2 of 8" in dialog.inner_text() and "at least 4" in dialog.inner_text()
    dialog.get_by_role("button", name="The end").click()
    assert "fewer bought cards" in dialog.inner_text()
    page.keyboard.press("Escape")
    assert page.get_by_role("dialog").count() == 0
    assert page.evaluate("() => document.activeElement.id") == "howto-open"  # focus is back on the opener
    opener.click()
    page.get_by_role("dialog", name="How to play").get_by_role("button", name="Close").click()
    assert page.get_by_role("dialog").count() == 0


def test_the_guide_opens_and_closes_from_the_table(page, site_url, request_log, console_errors):
    open_game(page)
    start(page, opponents=1, starts="You")
    settle(page)
    read_the_guide(page, site_url)
    # It is there during a bot's turn too, and on the new-game screen.
    play_turn(page)
    read_the_guide(page)
    page.get_by_role("button", name="New game").click()
    read_the_guide(page)
    assert non_local(request_log) == []
    assert console_errors == []


def test_the_guide_works_offline(browser, site_dir):
    precached = precache_paths(site_dir)
    server, url = start_server(site_dir)
    context = browser.new_context(base_url=url)
    requests = record_requests(context, url)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_game(page, GAME_QUERY)
        start(page, opponents=1, starts="You")
        settle(page)
        wait_controlled(page)
    finally:
        server.stop()
    context.set_offline(True)
    requests.clear()
    page.reload()
    wait_ready(page)
    settle(page)
    read_the_guide(page)
    # Its styles and pictures came from the precache, like everything else.
    assert {"/assets/learn.css", "/assets/gems.svg", "/splendor.zip"} <= precached
    assert {"/assets/learn.css", "/assets/gems.svg"} <= page_paths(requests)
    not_from_cache = [r for r in requests if not r["by_sw"] and not (r["from_sw"] and r["status"] == 200)]
    assert not_from_cache == [], str(not_from_cache)
    page.get_by_role("button", name="How to play").click()
    art = page.get_by_role("dialog").locator(".howto-art")
    assert art.evaluate("(el) => getComputedStyle(el).minHeight") not in ("0px", "auto")  # learn.css applied
    assert errors == []
    context.close()


# -- the guided first game -----------------------------------------------------------------------------------------
def pays_within_two_turns(game, card, take):
    """After ``take``, the person's tokens pay ``card`` at once or after one more take (tried exhaustively)."""
    p = game.players[0]
    price = game.price(card, 0)
    tok, supply = dict(p.tokens), dict(game.supply)
    k = 2 if take.kind == "take_two" else 1
    for c in take.colors:
        tok[c] += k
        supply[c] -= k

    def pays(t):
        return sum(max(0, price[c] - t[c]) for c in COLORS) <= t["gold"]

    avail = [c for c in COLORS if supply[c]]
    nexts = [dict.fromkeys(combo, 1) for combo in itertools.combinations(avail, min(3, len(avail)))]
    nexts += [{c: 2} for c in COLORS if supply[c] >= 4]
    return pays(tok) or any(pays({c: tok[c] + n.get(c, 0) for c in tok}) for n in nexts)


def test_the_guided_first_turn_marks_a_card_the_gems_pay_for_and_taking_them_works(page, site_url, console_errors):
    open_game(page)
    offer = page.get_by_role("region", name="New to Splendor?")
    assert offer.is_visible()
    page.get_by_role("radio", name="2 bots").check()
    page.get_by_role("radio", name="You", exact=True).check()
    offer.get_by_role("button", name="Play a guided game").click()
    page.get_by_role("region", name="Market").wait_for()
    settle(page)
    coach = page.get_by_role("region", name="Guide")
    assert coach.is_visible() and "Cheap cards first" in coach.inner_text()
    assert not (found := axe(page, site_url)), "the guided turn:\n" + "\n".join(found)
    game = splendor.replay(saved(page)["record"])
    assert game.players_count == 3 and game.current_player == 0
    # The marked card, read from its accessible name, is a level 1 card of this market.
    marked = page.get_by_role("region", name="Market").get_by_role("button", name=re.compile(GUIDE_MARK))
    assert marked.count() == 1
    label = marked.get_attribute("aria-label")
    card = next(c for row in game.market for c in row if c and label.startswith(c.describe() + GUIDE_MARK))
    assert card.level == 1
    # The marked gems, read from the supply's accessible names, are a legal take that pays for it soon.
    piles = page.get_by_role("region", name="Gem supply").get_by_role(
        "button", name=re.compile(r"The guide suggests taking (one|two)$"))
    marks = {}
    for pile in piles.all():
        name = pile.get_attribute("aria-label")
        marks[name.split(" ")[0].lower()] = 2 if name.endswith("two") else 1
    assert marks
    take = (Action.take_two(*marks) if 2 in marks.values() else Action.take(*[c for c in COLORS if c in marks]))
    assert game.why_illegal(take) is None
    assert pays_within_two_turns(game, card, take)
    # Taking them works.
    for color, n in marks.items():
        for _ in range(n):
            page.get_by_role("button", name=re.compile(rf"^{color.capitalize()} gems: ")).click()
    page.get_by_role("button", name=re.compile(r"^Take ")).click()
    settle(page)
    actions = saved(page)["record"]["actions"]
    assert actions[0] == str(take)
    assert len(actions) >= 3  # both bots answered
    # The guide follows on the next turn (the same card while it stays in reach), and the flag is remembered.
    assert storage_get(page, "splendor.guide.v1")["offered"] is True
    page.reload()
    wait_ready(page)
    settle(page)
    assert page.get_by_role("region", name="Guide").is_visible()
    page.get_by_role("button", name="Stop the guide").click()
    assert page.get_by_role("region", name="Guide").count() == 0
    page.get_by_role("button", name="New game").click()
    assert page.get_by_role("region", name="New to Splendor?").count() == 0  # never offered again
    assert console_errors == []


def test_on_a_phone_the_guide_stays_in_sight_and_nothing_hides_under_it(phone):
    page, errors = phone
    open_game(page)
    page.get_by_role("region", name="New to Splendor?").get_by_role("button", name="Play a guided game").tap()
    page.get_by_role("region", name="Market").wait_for()
    settle(page)
    coach = page.get_by_role("region", name="Guide")

    def in_sight():
        box = coach.bounding_box()  # relative to the viewport
        return box["y"] >= 0 and box["y"] + box["height"] <= 844 and box["height"] < 844 * 0.45

    assert in_sight()  # on the first screen, without scrolling
    # The marked gems are in sight too, and nothing covers them: the guide's box is part of the table.
    piles = page.get_by_role("region", name="Gem supply").get_by_role(
        "button", name=re.compile(r"The guide suggests taking (one|two)$"))
    assert piles.count() >= 1
    covered = """(el) => { const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !(top === el || el.contains(top)); }"""
    for i in range(piles.count()):
        box = piles.nth(i).bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844
        assert not piles.nth(i).evaluate(covered)
    piles.first.tap()
    assert in_sight()
    assert page.evaluate("() => scrollY") == 0  # nothing had to be scrolled to be tapped
    for name in ("Your move", "Your area", "Market"):
        box = page.get_by_role("region", name=name).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, name
    assert errors == []


# -- deal links --------------------------------------------------------------------------------------------------------
def test_a_deal_link_fills_the_new_game_screen_and_deals_the_same_cards(page, site_url, console_errors):
    open_game(page, "pace=0&seed=4711&players=3&bots=medium,hard&first=person&flavour=mint")
    note = page.locator("#link-note")
    assert "seed 4711, 3 players (bots: medium and hard), you start" in note.inner_text()
    assert "Ignored in the link: flavour=mint" in note.inner_text()
    assert page.get_by_role("radio", name="2 bots").is_checked()
    assert page.get_by_role("combobox", name="Bot 2").input_value() == "hard"
    assert page.get_by_role("radio", name="You", exact=True).is_checked()
    assert page.locator("#set-seed").input_value() == "4711"
    # The link was taken in: a reload would not ask again (the test settings stay).
    assert page.evaluate("() => location.search") == "?pace=0"
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("region", name="Market").wait_for()
    settle(page)
    record = saved(page)["record"]
    assert (record["seed"], record["players"], record["first_player"]) == (4711, 3, 0)
    engine = splendor.new_game(players=3, seed=4711)
    shown = [n for n in market_names(page) if n.startswith("Level ") and " card:" in n]
    expected = [c.describe() for row in reversed(engine.market) for c in row]
    assert len(shown) == 12 and all(s.startswith(e) for s, e in zip(shown, expected))
    # With this game in progress, another link asks first (its other answer is tested in test_web_learn.py).
    page.goto("/?pace=0&seed=99&players=2")
    wait_ready(page)
    choice = page.get_by_role("region", name="This link sets up a deal")
    assert "Seed 99, 2 players" in choice.inner_text()
    assert not (found := axe(page, site_url)), "a link's choice:\n" + "\n".join(found)
    assert saved(page)["record"]["seed"] == 4711  # nothing is overwritten while the person chooses
    choice.get_by_role("button", name="Continue the saved game").click()
    settle(page)
    assert saved(page)["record"]["seed"] == 4711 and page.get_by_role("region", name="Market").is_visible()
    assert console_errors == []


# -- the end screen and the player's record --------------------------------------------------------------------------
def near_end_save(seed=31):
    """A saved 2-player game against medium in its final round, at the person's last turn (game_driver's)."""
    return last_turn_save(seed, "medium", "test-near-end")


def test_the_record_counts_a_finished_game_once_and_the_end_screen_links_to_the_deal(page, base_url):
    # No clipboard here: the link is shown in a field to copy by hand.
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    save = near_end_save()
    seed = save["record"]["seed"]
    open_with_storage(page, {SAVE_KEY: json.dumps(save)})
    for _ in range(3):  # the last turn of the final round (with tokens to give back, a second step)
        if not play_turn(page):
            break
    settle(page)
    assert is_over(page)
    game = splendor.replay(saved(page)["record"])
    assert game.is_over
    record = storage_get(page, RECORD_KEY)
    row = record["games"]["2:medium"]
    assert row["played"] == 1 and row["won"] == (1 if 0 in game.winners else 0)
    assert row["best"] == game.scores[0]
    # The end screen's link to this deal.
    end = page.get_by_role("dialog")
    end.get_by_role("button", name="Copy a link to this deal").click()
    field = end.get_by_role("textbox", name=re.compile("copy this link"))
    link = field.input_value()
    assert link == f"{base_url.rstrip('/')}/?seed={seed}&players=2&bots=medium&first=bot"
    assert page.evaluate("() => document.activeElement.id") == "deal-url"
    assert not (found := axe(page, base_url)), "the end screen's link:\n" + "\n".join(found)
    # A reload of the end screen does not count the game again.
    page.reload()
    wait_ready(page)
    assert page.get_by_role("dialog").get_by_role("table", name="Final scores").is_visible()
    assert storage_get(page, RECORD_KEY)["games"]["2:medium"]["played"] == 1
    # The record on the new-game screen, with the device note and the download.
    page.get_by_role("dialog").get_by_role("button", name="New game").click()
    panel = page.get_by_role("region", name="Your record")
    assert "of 1" in panel.get_by_role("table").inner_text()
    assert "on this device only" in panel.inner_text()
    assert not (found := axe(page, base_url)), "the record:\n" + "\n".join(found)
    with page.expect_download() as download:
        panel.get_by_role("button", name="Download your record (JSON)").click()
    data = json.loads(open(download.value.path()).read())
    assert data["games"]["2:medium"]["played"] == 1
    # The link opens the same deal on the new-game screen.
    page.goto(link)
    wait_ready(page)
    assert page.locator("#set-seed").input_value() == str(seed)
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("region", name="Market").wait_for()
    assert saved(page)["record"]["seed"] == seed
    assert splendor.replay(saved(page)["record"]).market == splendor.new_game(players=2, seed=seed).market
    assert errors == []


def test_a_damaged_record_is_kept_aside_and_the_person_told(page, console_errors):
    damaged = '{"format": "splendor-player-record", "version": 1, "games": {"2:medium": 7}}'
    open_with_storage(page, {RECORD_KEY: damaged})
    alert = page.get_by_role("alert")
    assert "record of past games could not be read" in alert.inner_text()
    kept = page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('splendor.record.corrupt.'))")
    assert len(kept) == 1 and kept[0] in alert.inner_text()
    assert page.evaluate("(k) => localStorage.getItem(k)", kept[0]) == damaged
    assert page.evaluate("(k) => localStorage.getItem(k)", RECORD_KEY) is None
    # The page goes on: a game starts, and the next finished game begins a new record.
    start(page, opponents=1, starts="You")
    assert console_errors == []
