#!/usr/bin/env python3
"""Screenshots of the game page for looking at it: new game, mid-game, a card dialog, a 4-player table, the end.

    .venv/bin/python tools/screenshots.py [--out screenshots] [--new-game]

``--new-game``: only the new-game screen, as a first visit sees it and with a record that holds a rating (a made-up
one, for the picture), three seats of which one is a person.

Builds the site into a temporary folder, serves it locally and drives Debian's chromium at 1280x800, at
390x844 (phone) and at 390x664 (short), by the same accessible names as the browser tests. The PNGs are not committed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]

from playwright.sync_api import sync_playwright  # noqa: E402

from tools import build_site  # noqa: E402
from tools.chromium import ARGS, CHROMIUM, DESKTOP, PHONE  # noqa: E402
from tools.serve import start_server  # noqa: E402

# the phone: 390x844, and 390x664 (what a phone browser shows of it under its bars); the one-screen table is tested
# at four more sizes (tests/browser/test_layout_sizes.py)
SIZES = {"desk": DESKTOP, "phone": PHONE, "short": {**PHONE, "viewport": {"width": 390, "height": 664}}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--docs", action="store_true", help="also write docs/screenshot-desktop.jpg and -phone.jpg")
    parser.add_argument("--new-game", action="store_true", help="only the new-game screen (first visit, rated)")
    args = parser.parse_args(argv)
    import game_driver as gd

    args.out.mkdir(parents=True, exist_ok=True)
    site = Path(tempfile.mkdtemp(prefix="splendor-shots-"))
    build_site.build(site, quiet=True)
    server, url = start_server(site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for tag, options in SIZES.items():
                context = browser.new_context(base_url=url, **options)
                page = context.new_page()

                def settled():
                    """No move in flight (assets/motion.js): the pictures show the table at rest."""
                    page.wait_for_function("() => !document.querySelector('#fly-layer .fly') && !document"
                                           ".getAnimations().some(a => String(a.id).startsWith('fly-'))")

                def shot(name, full=False):
                    settled()
                    path = args.out / f"{tag}-{name}.png"
                    page.screenshot(path=str(path), full_page=full)
                    print(path)

                gd.open_game(page, "pace=0")
                shot("1-new-game")
                if args.new_game:
                    rated_new_game(page, shot)
                    context.close()
                    continue
                gd.start(page, opponents=1, seed=31, starts="You", levels=["Medium"])
                for _ in range(9):
                    gd.play_turn(page)
                gd.settle(page)
                shot("2-mid-game")
                if args.docs and tag in ("desk", "phone"):  # the README's pictures (JPEG keeps them small)
                    settled()
                    name = f"screenshot-{'desktop' if tag == 'desk' else 'phone'}.jpg"
                    page.screenshot(path=str(ROOT / "docs" / name), type="jpeg", quality=80)
                shot("2-mid-game-full", full=True)
                market = page.get_by_role("region", name="Market")
                market.get_by_role("button", name=gd.re.compile(r"^Level 2 card")).first.click()
                shot("3-card-dialog")
                page.keyboard.press("Escape")
                while gd.play_turn(page):
                    pass
                shot("4-end")
                page.get_by_role("dialog").get_by_role("button", name="New game").click()
                gd.start(page, opponents=3, seed=5, starts="A bot", levels=["Easy", "Medium", "Hard"])
                gd.settle(page)
                shot("5-four-players")
                shot("5-four-players-full", full=True)
                context.close()
            browser.close()
    finally:
        server.stop()


#: A record with a rating in it (made up for the picture: the page reads it as any record).
RATED_RECORD = {"format": "splendor-player-record", "version": 1, "counted": ["shot"],
                "games": {"2:hard": {"played": 14, "won": 8, "best": 19, "fastest": 22},
                          "3:mixed": {"played": 9, "won": 3, "best": 17, "fastest": 25}},
                "rating": {"rating": 1143.2, "rd": 78.4, "vol": 0.06, "games": 23, "assisted": 2, "change": 14.6}}


def rated_new_game(page, shot):
    """The new-game screen with a rating, the even game and the step up, three seats (a person, two bots of other
    levels), and How to play's page about the levels."""
    import json

    import game_driver as gd

    from splendor.ai.ladder import NAMES

    page.evaluate("(r) => { localStorage.setItem('splendor.record.v1', r); "
                  "localStorage.setItem('splendor.guide.v1', JSON.stringify({offered: true})); }",
                  json.dumps(RATED_RECORD))
    page.reload()
    gd.wait_ready(page)
    page.get_by_role("radio", name="3 bots").check()
    shot("1-new-game-rated")
    gd.choose_level(page, "Bot 1", "person")
    gd.choose_level(page, "Bot 1", NAMES[-2])  # the level under the expert, and the weakest
    gd.choose_level(page, "Bot 2", NAMES[0])
    shot("1-new-game-mixed")
    shot("1-new-game-mixed-full", full=True)
    page.get_by_role("button", name="How to play").click()
    page.get_by_role("dialog").get_by_role("button", name="Levels").click()
    shot("1-how-to-play-levels")


if __name__ == "__main__":
    sys.exit(main())
