#!/usr/bin/env python3
"""The game's memory: Chromium's renderer process of the page at 390x664 (a phone), after Start, with the bot
worker running (needs the .venv from `make test` and Debian's chromium; Linux, it reads /proc).

    .venv/bin/python tools/measure_memory.py [--runs 3] [--stdlib cut] [--baseline DIR] [--bots expert]

Builds the site into a temporary folder (``--stdlib``: tools/build_site.py's), serves it, and for each run opens
the game in a fresh browser (headless Chromium, V8's default tiers, as tools/chromium.py ARGS), starts a game against
one bot with the new-game screen's defaults, waits until its bot worker has answered and the service worker has
installed, lets it settle 3 s, and reads the renderer processes from Chromium itself (DevTools'
SystemInfo.getProcessInfo) and their memory from /proc: RSS (resident, shared pages included: the figure of record),
PSS and private (USS). The page's renderer is the one the page runs in (its Pyodide and its worker's, both threads of
that process). An empty page's renderer (about:blank) is measured once for reference: Chromium's own share (its
libraries count in RSS). ``--baseline DIR`` measures a site folder built elsewhere (an earlier commit) in the same runs,
alternating.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import build_site  # noqa: E402
from tools.chromium import ARGS, CHROMIUM  # noqa: E402
from tools.serve import start_server  # noqa: E402

PHONE_SMALL = {"viewport": {"width": 390, "height": 664}, "is_mobile": True, "has_touch": True,
               "device_scale_factor": 2}
READY_MS = 120_000


def memory_of(pid: int) -> dict[str, int]:
    """RSS, PSS and private memory of a process, in bytes (/proc/PID/smaps_rollup)."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[-1] == "kB":
            fields[name] = int(parts[0]) * 1024
    return {"rss": fields["Rss"], "pss": fields["Pss"],
            "private": fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)}


def renderer_pids(browser) -> list[int]:
    session = browser.new_browser_cdp_session()
    try:
        info = session.send("SystemInfo.getProcessInfo")["processInfo"]
    finally:
        session.detach()
    return [p["id"] for p in info if p["type"] == "renderer"]


def measure(playwright, url: str, bots: str | None = None) -> dict[str, int]:
    """The memory of the page's renderer after Start with the worker running (a fresh browser: nothing else);
    ``url`` "about:blank": of an empty page's renderer, for reference. ``bots``: the deal link's bots (a bot plays
    first, so a searching level has read its model and network by the time memory is read)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    try:
        context = browser.new_context(**PHONE_SMALL)
        page = context.new_page()
        if url == "about:blank":
            page.goto(url)
            time.sleep(3)
            return max((memory_of(pid) for pid in renderer_pids(browser)), key=lambda m: m["rss"])
        page.goto(url + "?pace=0" + (f"&bots={bots}&first=bot" if bots else ""))
        page.wait_for_selector('body[data-ready="1"]', state="attached", timeout=READY_MS)
        page.get_by_role("button", name="Start game").click()
        page.get_by_role("region", name="Market").wait_for(timeout=READY_MS)
        page.wait_for_function("() => document.body.dataset.worker === '1'", timeout=READY_MS)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        if bots:  # the bot's first move made in the worker
            page.wait_for_function("() => document.querySelector('.seat.mine.active') !== null", timeout=READY_MS)
        time.sleep(3)
        memories = {pid: memory_of(pid) for pid in renderer_pids(browser)}
        # The page's renderer holds two interpreters: by far the largest of the renderers (a spare one is empty).
        return max(memories.values(), key=lambda m: m["rss"])
    finally:
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stdlib", choices=build_site.STDLIB_CHOICES, default="cut")
    parser.add_argument("--baseline", type=Path, help="a built site folder measured beside this build")
    parser.add_argument("--bots", help="the bots of the game, as a deal link gives them (expert: its network loaded; "
                                       "default the new-game screen's)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="splendor-memory-") as tmp:
        site = Path(tmp) / "site"
        build_site.build(site, quiet=True, stdlib=args.stdlib)
        sites = {"game": site} | ({"baseline": args.baseline} if args.baseline else {})
        servers = {name: start_server(folder) for name, folder in sites.items()}
        results: dict[str, list[dict[str, int]]] = {name: [] for name in sites}
        try:
            with sync_playwright() as playwright:
                for run in range(args.runs):
                    for name in list(sites) if run % 2 == 0 else list(sites)[::-1]:
                        results[name].append(measure(playwright, servers[name][1], args.bots))
                        m = results[name][-1]
                        print(f"run {run + 1} {name:>8}: renderer RSS {m['rss'] / 1e6:.0f} MB, PSS "
                              f"{m['pss'] / 1e6:.0f} MB, private {m['private'] / 1e6:.0f} MB", flush=True)
        finally:
            for server, _ in servers.values():
                server.stop()
    with sync_playwright() as playwright:
        results["empty page"] = [measure(playwright, "about:blank")]
    for name, runs in results.items():
        med = {key: statistics.median(m[key] for m in runs) / 1e6 for key in ("rss", "pss", "private")}
        what = "for reference" if name == "empty page" else "390x664, after Start, worker running"
        print(f"{name} (median of {len(runs)}, {what}): renderer RSS {med['rss']:.0f} MB (target <= 300), "
              f"PSS {med['pss']:.0f} MB, private {med['private']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
