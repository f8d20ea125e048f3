#!/usr/bin/env python3
"""Screenshots of the learning and sharing parts of the page, to look at them: the first visit's offer, the How to
play guide, the guided first turn and a later idea, a deal link's note and choice, the end screen's link, the record.

    .venv/bin/python tools/screenshots_learn.py [--out screenshots]

Like tools/screenshots.py: builds the site into a temporary folder, serves it, drives Debian's chromium at 1280x800
and at 390x844 by the page's accessible names. The PNGs (learn-*.png) are not committed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]

from playwright.sync_api import sync_playwright  # noqa: E402

from tools import build_site  # noqa: E402
from tools.chromium import ARGS, CHROMIUM, DESKTOP, PHONE  # noqa: E402
from tools.serve import start_server  # noqa: E402

SIZES = {"desk": DESKTOP, "phone": PHONE}
RECORD = {"format": "splendor-player-record", "version": 1, "counted": [],
          "games": {"2:medium": {"played": 7, "won": 4, "best": 19, "fastest": 24},
                    "3:medium": {"played": 2, "won": 1, "best": 16, "fastest": 29},
                    "2:hard": {"played": 3, "won": 0, "best": 13, "fastest": None},
                    "4:mixed": {"played": 1, "won": 0, "best": 9, "fastest": None}}}


def follow_guide_until_idea(page, gd, turns=8):
    """Do what the guide marks until it explains a new idea (after the first card is bought)."""
    for _ in range(turns):
        gd.settle(page)
        coach = page.locator("#coach")
        if coach.count() and "New:" in coach.inner_text():
            return True
        buy = page.get_by_role("button", name=re.compile(r"marked by the guide.*You can buy it$"))
        if buy.count():
            buy.click()
            gd.press_to_finish(page, buy, "Buy")
            continue
        piles = page.get_by_role("button", name=re.compile(r"The guide suggests taking (one|two)$"))
        if not piles.count():
            gd.play_turn(page)
            continue
        for pile in piles.all():
            for _ in range(2 if pile.get_attribute("aria-label").endswith("two") else 1):
                pile.click()
        page.get_by_role("button", name=re.compile(r"^Take ")).click()
    return False


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args(argv)
    import game_driver as gd
    from test_learn import near_end_save

    args.out.mkdir(parents=True, exist_ok=True)
    site = Path(tempfile.mkdtemp(prefix="splendor-shots-"))
    build_site.build(site, quiet=True)
    server, url = start_server(site)
    save = json.dumps(near_end_save())
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for tag, options in SIZES.items():
                context = browser.new_context(base_url=url, **options)
                context.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
                page = context.new_page()

                def shot(name, full=False):
                    path = args.out / f"learn-{tag}-{name}.png"
                    page.screenshot(path=str(path), full_page=full)
                    print(path)

                gd.open_game(page, "pace=0&seed=4711&players=3&bots=medium,hard&first=person&colour=red&seed=2")
                shot("1-offer-and-link-note")
                gd.open_game(page, "pace=0")
                shot("1-offer")
                page.get_by_role("button", name="Read how to play").click()
                shot("2-guide-goal")
                page.get_by_role("dialog").get_by_role("button", name="Buy").click()
                shot("2-guide-buy")
                page.get_by_role("dialog").get_by_role("button", name="The end").click()
                shot("2-guide-end")
                page.keyboard.press("Escape")
                page.get_by_role("radio", name="You", exact=True).check()
                page.get_by_role("button", name="Play a guided game").click()
                page.get_by_role("region", name="Market").wait_for()
                gd.settle(page)
                shot("3-guided-turn")
                shot("3-guided-turn-full", full=True)
                if follow_guide_until_idea(page, gd):
                    shot("4-guided-idea")
                    shot("4-guided-idea-full", full=True)
                page.goto("/?pace=0&seed=4711&players=2")
                gd.wait_ready(page)
                shot("5-link-choice")
                page.get_by_role("button", name="Set up the linked deal").click()
                shot("6-link-set-up")
                page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["splendor.record.v1", json.dumps(RECORD)])
                page.evaluate("([k, v]) => localStorage.setItem(k, v)", [gd.SAVE_KEY, save])
                page.goto("/?pace=0")
                gd.wait_ready(page)
                for _ in range(3):
                    if not gd.play_turn(page):
                        break
                gd.settle(page)
                page.get_by_role("button", name="Copy a link to this deal").click()
                shot("7-end-link")
                page.get_by_role("dialog").get_by_role("button", name="New game").click()
                page.get_by_role("region", name="Your record").scroll_into_view_if_needed()
                shot("8-record")
                shot("8-record-full", full=True)
                context.close()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
