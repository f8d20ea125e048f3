#!/usr/bin/env python3
"""How soon the first bot move comes after Start, when a bot plays first, on a first visit.

    .venv/bin/python tools/bench_first_move.py [--runs 3] [--delays 0,1,3] [--level medium]

Each run opens the page in a fresh browser context (cold: empty HTTP cache, no service worker) at the default pace,
waits until the page is usable, waits ``delay`` more seconds (a person reading the new-game screen), chooses "a bot
starts" and presses Start, then times, in the page, from that click to the bot's move being on the board (the
status says it is your turn). Also prints how long the worker took to start and answer its first call
(``body[data-worker-boot-ms]``, from the page being usable) and whether it was up when Start was pressed.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tools import build_site  # noqa: E402
from tools.chromium import ARGS, CHROMIUM  # noqa: E402
from tools.serve import start_server  # noqa: E402

READY_MS = 120_000

START_AND_WAIT_JS = """async (level) => {
  const status = () => (document.getElementById('status') || {}).textContent || '';
  for (const el of document.querySelectorAll('[data-setting="starts"]')) el.checked = el.value === 'bot';
  const levels = document.querySelectorAll('[data-setting="level0"]');
  for (const el of levels) el.value = level;  // (the seat's list of levels)
  const up = document.body.dataset.worker === '1';
  const t0 = performance.now();
  document.getElementById('start').click();
  await new Promise((resolve) => {
    const check = () => status().startsWith('Your turn') ? resolve() : requestAnimationFrame(check);
    requestAnimationFrame(check);
  });
  return {seconds: (performance.now() - t0) / 1000, up};
}"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--delays", default="0,1,3", help="seconds between the page being usable and Start")
    parser.add_argument("--level", default="medium", choices=("easy", "medium", "hard"))
    args = parser.parse_args(argv)
    delays = [float(d) for d in args.delays.split(",")]

    site = Path(tempfile.mkdtemp(prefix="splendor-first-"))
    build_site.build(site, quiet=True)
    server, url = start_server(site)
    rows = {d: [] for d in delays}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for _ in range(args.runs):
                for delay in delays:
                    context = browser.new_context(viewport={"width": 1280, "height": 800})
                    page = context.new_page()
                    page.goto(url)
                    page.wait_for_selector('body[data-ready="1"]', state="attached", timeout=READY_MS)
                    page.wait_for_timeout(delay * 1000)
                    got = page.evaluate(START_AND_WAIT_JS, args.level)
                    page.wait_for_function("() => ['1', 'failed'].includes(document.body.dataset.worker)",
                                           timeout=READY_MS)
                    boot = page.evaluate("() => document.body.dataset.workerBootMs")
                    rows[delay].append((got["seconds"], got["up"], float(boot) / 1000 if boot else None))
                    context.close()
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(site, ignore_errors=True)

    print(f"first {args.level} bot move after Start, bot plays first, first visit; {args.runs} runs per delay")
    for delay, runs in rows.items():
        firsts = [r[0] for r in runs]
        boots = [r[2] for r in runs if r[2] is not None]
        up = sum(r[1] for r in runs)
        boot = f"; worker start {statistics.median(boots):.2f} s" if boots else ""
        print(f"Start {delay:g} s after usable: first move median {statistics.median(firsts):.2f} s "
              f"(max {max(firsts):.2f}); worker up at Start in {up}/{len(runs)}{boot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
