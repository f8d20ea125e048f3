#!/usr/bin/env python3
"""Measure page start-up in headless Debian chromium (needs the .venv from `make test`).

    .venv/bin/python tools/measure_startup.py [--runs 5] [--no-build]

For each run a fresh browser context (empty HTTP cache, no service worker: a cold start)
opens the site and records, from navigation start:
  ready   body[data-ready="1"] (main interpreter ran)
  worker  the named worker "ai" answered ping()
then reloads the same page once (warm: HTTP cache and service worker filled).
Prints each run and the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import build_site  # noqa: E402
from tools.chromium import ARGS, CHROMIUM  # noqa: E402
from tools.serve import start_server  # noqa: E402

PING_JS = """async () => {
    const script = document.querySelector('script[worker][name="ai"]');
    await script.xworker.ready;
    return await script.xworker.sync.ping(JSON.stringify({}));
}"""
TIMEOUT_MS = 120_000


def load(page, url: str, reload: bool = False) -> tuple[float, float]:
    start = time.perf_counter()
    if reload:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector('body[data-ready="1"]', state="attached", timeout=TIMEOUT_MS)
    ready = time.perf_counter() - start
    page.wait_for_selector('script[worker][name="ai"]', state="attached", timeout=TIMEOUT_MS)
    json.loads(page.evaluate(PING_JS))
    worker = time.perf_counter() - start
    return ready, worker


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    site = ROOT / "site"
    if not args.no_build:
        build_site.build(site)
    server, url = start_server(site)
    cold, warm = [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=args.chromium, args=ARGS
            )
            for run in range(args.runs):
                context = browser.new_context()
                page = context.new_page()
                cold.append(load(page, url))
                # Let the service worker finish precaching before the warm reload.
                page.evaluate("navigator.serviceWorker.ready.then(() => true)")
                warm.append(load(page, url, reload=True))
                context.close()
                print(
                    f"run {run + 1}: cold ready {cold[-1][0]:.2f}s worker {cold[-1][1]:.2f}s"
                    f" | warm ready {warm[-1][0]:.2f}s worker {warm[-1][1]:.2f}s",
                    flush=True,
                )
            browser.close()
    finally:
        server.stop()

    def median(values, index):
        return statistics.median(v[index] for v in values)

    print(
        f"median of {args.runs}: cold ready {median(cold, 0):.2f}s, worker {median(cold, 1):.2f}s;"
        f" warm ready {median(warm, 0):.2f}s, worker {median(warm, 1):.2f}s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
