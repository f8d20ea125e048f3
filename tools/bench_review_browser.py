#!/usr/bin/env python3
"""The game review's time in Chromium, as a person waits for it: from the tap on "Review this game" to the chart's
first points and to the whole review, the bot worker computing it piece by piece.

    .venv/bin/python tools/bench_review_browser.py [--players 2] [--throttle 4] [--shots FOLDER]

Builds the site into a temporary folder, serves it, opens it in Debian's chromium at 390x664 with a finished game in
its storage (the 60-turn 2-player game of ``tools/bench_review.py``, or at 3-4 players a game of the medium bot with
the person's seat playing a random move three times in ten) and prints both times. ``--throttle N`` slows the
processor N times through the DevTools protocol (``Emulation.setCPUThrottlingRate``), a phone's speed; the target
for a 2-player game is at most 20 s at 4 times, for a 4-player game of 100 moves 20 s unslowed. ``--shots`` keeps
screenshots of the review.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser"), str(ROOT / "tools")]

from playwright.sync_api import sync_playwright  # noqa: E402

import bench_review  # noqa: E402
import game_driver as gd  # noqa: E402
import splendor  # noqa: E402
from splendor.ai import get_bot  # noqa: E402
from tools import build_site  # noqa: E402
from tools.chromium import ARGS, CHROMIUM, PHONE  # noqa: E402
from tools.serve import start_server  # noqa: E402


def finished_game(players):
    if players == 2:
        return bench_review.sixty_turns()
    g = splendor.new_game(players=players, seed=12, first_player=0)
    medium, rng = get_bot("medium"), random.Random(4)
    while not g.is_over:
        seat = g.current_player
        if seat == 0 and g.phase == "action" and rng.random() < 0.3:
            g.apply(rng.choice(g.legal_actions()))
        else:
            g.apply(medium.choose(g.observation(seat), rng))
    return g.record()


def save_of(record):
    seats = [{"name": "You", "bot": None}] + [{"name": f"Bot {i}", "bot": "medium"}
                                              for i in range(1, record["players"])]
    return {"format": "splendor-save", "version": 1, "record": record, "seats": seats, "settings": {},
            "log": [{"n": 0, "seat": None, "text": "New game.", "why": "", "kind": "note"}]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--throttle", type=float, default=0)
    ap.add_argument("--shots", type=Path)
    args = ap.parse_args(argv)
    record = finished_game(args.players)
    site = Path(tempfile.mkdtemp(prefix="splendor-bench-"))
    build_site.build(site, quiet=True)
    server, url = start_server(site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(base_url=url, **{**PHONE, "viewport": {"width": 390, "height": 664}})
            page = context.new_page()
            gd.open_with_storage(page, {gd.SAVE_KEY: json.dumps(save_of(record))}, query="pace=0")
            if args.throttle:
                context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            started = time.monotonic()
            page.get_by_role("dialog").get_by_role("button", name="Review this game").click()
            page.locator("#rv-chart").wait_for(timeout=300_000)
            first = time.monotonic() - started
            page.get_by_role("region", name="Turning points").wait_for(timeout=600_000)
            whole = time.monotonic() - started
            turns = page.locator("#review-where").inner_text()
            if args.shots:
                args.shots.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.shots / f"review-{args.players}p.png"))
            browser.close()
    finally:
        server.shutdown()
    slowed = f", processor slowed {args.throttle:g} times" if args.throttle else ""
    print(f"Chromium at 390x664{slowed}: review of a {args.players}-player game ({turns.split()[-1]} turns): "
          f"first points in {first:.1f} s, whole in {whole:.1f} s"
          + (f" (100 moves at this pace: {100 * whole / int(turns.split()[-1]):.1f} s; the bar 20 s)"
             if args.players > 2 else ""))


if __name__ == "__main__":
    main()
