"""The player's rating on the page, at a phone's short screen (390x664) and a desktop's (1280x800): a finished game
against a bot moves it and the new-game screen shows it with the level it suggests for an even game and the step up
(one tap sets the bots); a game in which the person asked for a hint moves nothing and is said to be assisted; the
record's JSON download holds it; and all of it is there after a reload with the network gone.

The expected numbers come from the levels' measured ratings (``splendor/ai/ladder.json``, read through
``splendor.ai.ladder`` at test time, the file the site is built with) and ``splendor/web/records/rating.py``, the
page's own code, never from numbers written here."""

from __future__ import annotations

import json

import pytest
from a11y_helpers import axe
from browser_helpers import wait_ready
from game_driver import (SAVE_KEY, choose_level, is_over, last_turn_save, open_with_storage, play_turn, saved,
                         settle)
from pwa_helpers import GAME_QUERY, wait_controlled

import splendor
from splendor.ai import ladder
from splendor.web.records import rating as glicko
from splendor.web.table.seats import rated_label
from tools.chromium import PHONE
from tools.serve import start_server

RECORD_KEY = "splendor.record.v1"
SIZES = {
    "390x664": {**PHONE, "viewport": {"width": 390, "height": 664}},
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
}


def storage_get(page, key):
    text = page.evaluate("(k) => localStorage.getItem(k)", key)
    return json.loads(text) if text else None


def finish(page):
    """Play the person's last turn (with tokens to give back, a second step) to the end screen."""
    for _ in range(3):
        if not play_turn(page):
            break
    settle(page)
    assert is_over(page)


def to_the_new_game_screen(page):
    page.get_by_role("dialog").get_by_role("button", name="New game").click()
    return page.get_by_role("region", name="Your rating")


def rating_shown(panel, rating):
    """The rating's words the screen must show for ``rating`` (a rating.Rating), and the suggestions' buttons."""
    text = panel.inner_text()
    games = f"{rating.games} game{'' if rating.games == 1 else 's'}"
    assert f"{round(rating.rating)} ± {round(rating.rd)} · {games}" in " ".join(text.split()), text
    even, up = glicko.suggest(rating.rating)
    assert even is not None, "the ladder's levels have no ratings"
    assert panel.get_by_role("button", name=f"Even game: {rated_label(even)}").is_visible()
    if up:
        assert panel.get_by_role("button", name=f"Step up: {rated_label(up)}").is_visible()
    return even, up


def no_sideways_scroll(page):
    widths = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], widths


@pytest.mark.parametrize("size", list(SIZES))
def test_the_rating_moves_with_a_finished_game_not_with_an_assisted_one_and_stays_offline(browser, site_dir, size):
    assert ladder.ratings()["levels"], "splendor/ai/ladder.json (the levels' measured ratings) is missing"
    server, url = start_server(site_dir)  # its own server, so it can be stopped mid-test
    context = browser.new_context(base_url=url, **SIZES[size])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        # Before any game: how to get a rating.
        open_with_storage(page, {SAVE_KEY: json.dumps(last_turn_save(31, "hard", "test-rated"))}, GAME_QUERY)
        wait_controlled(page)  # the service worker in control and the bot worker up: offline later works
        settle(page)
        page.get_by_role("button", name="New game").click()
        panel = page.get_by_role("region", name="Your rating")
        assert "none yet" in panel.inner_text() and "without Hint or Undo" in panel.inner_text()
        no_sideways_scroll(page)
        page.get_by_role("button", name="Back to the game").click()

        # A game against a hard bot, played to its end: the rating moves once.
        finish(page)
        game = splendor.replay(saved(page)["record"])
        rated = glicko.Rating().after(glicko.game_results(game.winners, game.scores, 0, [None, "hard"]))
        assert rated.games == 1 and rated.rating != glicko.START
        stored = storage_get(page, RECORD_KEY)["rating"]
        assert stored["games"] == 1 and stored["rating"] == round(rated.rating, 1) and stored["assisted"] == 0
        panel = to_the_new_game_screen(page)
        even, up = rating_shown(panel, rated)
        no_sideways_scroll(page)
        assert not (found := axe(page, url)), "the new-game screen with a rating:\n" + "\n".join(found)
        # One tap sets the bot to the even game's level; the list shows each level with its rating.
        panel.get_by_role("button", name=f"Even game: {rated_label(even)}").click()
        bot = page.get_by_role("combobox", name="Bot 1")
        assert bot.input_value() == even
        assert bot.locator("option:checked").inner_text() == rated_label(even)
        if up:
            choose_level(page, "Bot 1", up)
            plays = page.locator(f"#plays-{up}").inner_text()  # how the chosen level plays
            assert plays.startswith(f"{ladder.find(up).label}: ") and len(plays) > 20

        # A game in which the person asks for a hint: assisted, and the rating does not move.
        page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                      [SAVE_KEY, json.dumps(last_turn_save(60, "medium", "test-assisted"))])
        page.reload()
        wait_ready(page)
        settle(page)
        page.get_by_role("button", name="Hint", exact=True).click()
        page.get_by_text("Hint: ", exact=False).first.wait_for()
        assert saved(page)["assisted"] == [0]  # kept in the save at once: a reload would not forget it
        finish(page)
        record = storage_get(page, RECORD_KEY)
        assert record["rating"] == stored | {"assisted": 1}
        assert sum(row["played"] for row in record["games"].values()) == 2  # counted in the record, not rated
        panel = to_the_new_game_screen(page)
        rating_shown(panel, rated)
        assert "1 game with Hint, Undo or the guide was not rated." in panel.inner_text()

        # The record's download holds the rating.
        with page.expect_download() as download:
            page.get_by_role("button", name="Download your record (JSON)").click()
        data = json.loads(open(download.value.path()).read())
        assert data["rating"] == record["rating"]
    finally:
        server.stop()

    # Offline: the reload comes from the service worker, and all of it is still there.
    context.set_offline(True)
    page.reload()
    wait_ready(page)
    settle(page)
    panel = to_the_new_game_screen(page)
    rating_shown(panel, rated)
    assert "1 game with Hint, Undo or the guide was not rated." in panel.inner_text()
    no_sideways_scroll(page)
    panel.get_by_role("button", name=f"Even game: {rated_label(even)}").click()
    assert page.get_by_role("combobox", name="Bot 1").input_value() == even
    with page.expect_download() as download:
        page.get_by_role("button", name="Download your record (JSON)").click()
    assert json.loads(open(download.value.path()).read())["rating"] == record["rating"]
    assert errors == []
    context.close()
