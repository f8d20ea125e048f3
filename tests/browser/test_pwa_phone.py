"""Phones: Playwright's Pixel 7 and iPhone 13 descriptors, driven by taps. A few turns online, then the
server is stopped and the phone goes offline: the game resumes and a few more turns are played, each
answered by the bot; every file comes from the service worker. iOS Safari shows the Add to Home Screen
steps (Android Chrome does not)."""

from __future__ import annotations

import pytest
from browser_helpers import READY_TIMEOUT_MS, wait_ready, worker_state
from game_driver import log_text, saved, settle
from pwa_helpers import (
    GAME_QUERY,
    move_and_see_the_bot_answer,
    page_paths,
    precache_paths,
    record_requests,
    tap_turn,
    wait_controlled,
)

from tools.serve import start_server


def no_sideways_scroll(page) -> bool:
    return page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("device", ["Pixel 7", "iPhone 13"])
def test_phone_plays_by_taps_online_then_offline(playwright, browser, site_dir, device):
    descriptor = dict(playwright.devices[device])
    descriptor.pop("default_browser_type", None)
    precached = precache_paths(site_dir)
    server, url = start_server(site_dir)
    context = browser.new_context(**descriptor, base_url=url)
    requests = record_requests(context, url)
    page = context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/?" + GAME_QUERY)
        wait_ready(page)
        ios_steps = page.get_by_role("region", name="Add to Home Screen")
        if device.startswith("iPhone"):
            assert "Add to Home Screen" in ios_steps.inner_text()
            ok = ios_steps.get_by_role("button", name="OK")
            assert ok.bounding_box()["height"] >= 44
            assert no_sideways_scroll(page)
            ok.tap()
            assert ios_steps.count() == 0
        else:
            assert ios_steps.count() == 0

        page.get_by_role("radio", name="1 bot").tap()
        page.get_by_role("radio", name="You", exact=True).tap()
        page.get_by_role("button", name="Start game").tap()
        page.get_by_role("region", name="Market").wait_for()
        for _ in range(2):
            assert tap_turn(page)
        settle(page)
        wait_controlled(page)
        before = (saved(page), log_text(page))
    finally:
        server.stop()

    try:
        context.set_offline(True)
        requests.clear()
        page.reload()
        wait_ready(page)
        settle(page)
        assert (saved(page), log_text(page)) == before
        if device.startswith("iPhone"):  # dismissed once: not shown again
            assert page.get_by_role("region", name="Add to Home Screen").count() == 0
        for _ in range(2):  # two more turns offline, each answered by the bot
            move_and_see_the_bot_answer(page, turn=tap_turn)
        assert worker_state(page) == "1"
        assert no_sideways_scroll(page)
        assert requests and all(r["from_sw"] and r["status"] == 200 for r in requests)
        assert page_paths(requests) - precached == set()
        assert errors == []
    finally:
        context.close()
