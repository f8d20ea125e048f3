#!/usr/bin/env python3
"""The game's memory: Chromium's renderer process of the page at 390x664 (a phone), after Start, with the bot
worker running (needs the .venv from `make test` and Debian's chromium; Linux, it reads /proc).

    .venv/bin/python tools/measure_memory.py [--runs 3] [--stdlib cut] [--baseline DIR] [--bots expert]
                                             [--driver cdp|playwright]

Builds the site into a temporary folder (``--stdlib``: tools/build_site.py's), serves it, and for each run opens
the game in a fresh browser (headless Chromium, V8's default tiers, as tools/chromium.py ARGS), starts a game against
one bot with the new-game screen's defaults, waits until its bot worker has answered and the service worker has
installed, lets it settle 3 s, and reads the renderer processes from Chromium itself (DevTools'
SystemInfo.getProcessInfo) and their memory from /proc: RSS (resident, shared pages included: the figure of record),
PSS and private (USS). The page's renderer is the one the page runs in (its Pyodide and its worker's, both threads of
that process, and the service worker's thread). An empty page's renderer (about:blank) is measured once for
reference: Chromium's own share (its libraries count in RSS). ``--baseline DIR`` measures a site folder built
elsewhere (an earlier commit) in the same runs, alternating.

The browser is driven as a player's is not watched: through a bare DevTools pipe (``--driver cdp``, the default)
that only evaluates scripts in the page and never enables the Network domain. Playwright (``--driver playwright``,
how the figures were measured up to docs/DEPLOY.md's "Memory") enables it in the page and in each worker, and
Chromium then keeps a copy of every response body for DevTools, binary ones in base64: Pyodide's 9.6 MB .wasm
becomes 12.8 MB, held once by the page, once by the bot worker and once by the service worker, about 45 MB in all
that a player's renderer never holds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import statistics
import subprocess
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


class Pipe:
    """A bare DevTools connection to a Chromium it starts (``--remote-debugging-pipe``: JSON messages ending in a
    NUL byte, the browser reading fd 3 and writing fd 4): commands and their answers, events ignored."""

    def __init__(self, profile: str):
        to_browser, self._write = os.pipe()
        self._read, from_browser = os.pipe()

        def fds():  # the child's fds 3 and 4 (dup2 leaves them open across exec)
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self.process = subprocess.Popen(
            [CHROMIUM, *ARGS, "--headless", "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False,
            preexec_fn=fds)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._id = 0

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        end = time.monotonic() + READY_MS / 1000
        while True:
            while b"\0" not in self._buffer:
                if not select.select([self._read], [], [], max(0.0, end - time.monotonic()))[0]:
                    raise TimeoutError(f"Chromium did not answer {method} (its renderer crashed?)")
                chunk = os.read(self._read, 1 << 16)
                if not chunk:
                    raise RuntimeError(f"Chromium closed the DevTools pipe during {method}")
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\0")
            answer = json.loads(raw)
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._write)
        os.close(self._read)


def measure_cdp(url: str, bots: str | None = None) -> dict[str, int]:
    """As :func:`measure`, driven through :class:`Pipe`: the page's scripts press Start and tell when the game is
    ready; the page's renderer keeps no DevTools copies of what it fetched."""
    with tempfile.TemporaryDirectory(prefix="splendor-memory-profile-") as profile:
        pipe = Pipe(profile)
        try:
            target = next(t["targetId"] for t in pipe.send("Target.getTargets")["targetInfos"] if t["type"] == "page")
            session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

            def evaluate(expression: str, wait: bool = False):
                result = pipe.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                        "awaitPromise": wait}, session)
                if "exceptionDetails" in result:
                    raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
                return result["result"].get("value")

            def until(expression: str) -> None:
                end = time.monotonic() + READY_MS / 1000
                while not evaluate(expression):
                    if time.monotonic() > end:
                        raise TimeoutError(f"the page never had {expression}")
                    time.sleep(0.1)

            if url != "about:blank":
                size = PHONE_SMALL["viewport"]
                pipe.send("Emulation.setDeviceMetricsOverride",
                          {"width": size["width"], "height": size["height"], "mobile": PHONE_SMALL["is_mobile"],
                           "deviceScaleFactor": PHONE_SMALL["device_scale_factor"]}, session)
                pipe.send("Emulation.setTouchEmulationEnabled", {"enabled": PHONE_SMALL["has_touch"]}, session)
                pipe.send("Page.navigate", {"url": url + "?pace=0" + (f"&bots={bots}&first=bot" if bots else "")},
                          session)
                until("document.body !== null && document.body.dataset.ready === '1'")
                evaluate("document.getElementById('start').click()")
                until("document.querySelector('section.market') !== null")
                until("document.body.dataset.worker === '1'")
                evaluate("navigator.serviceWorker.ready.then(() => true)", wait=True)
                if bots:  # the bot's first move made in the worker
                    until("document.querySelector('.seat.mine.active') !== null")
            time.sleep(3)
            info = pipe.send("SystemInfo.getProcessInfo")["processInfo"]
            memories = [memory_of(p["id"]) for p in info if p["type"] == "renderer"]
            return max(memories, key=lambda m: m["rss"])
        finally:
            pipe.close()


@contextlib.contextmanager
def driver(name: str):
    """``measure_one(url, bots=None)``: one run's memory, the browser driven by ``name`` ("cdp" or "playwright")."""
    if name == "cdp":
        def measure_one(url: str, bots: str | None = None) -> dict[str, int]:
            try:
                return measure_cdp(url, bots)
            except (RuntimeError, TimeoutError) as exc:  # a renderer that died compiling Pyodide: once more
                print(f"(a run failed: {exc}; once more)", flush=True)
                return measure_cdp(url, bots)

        yield measure_one
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield lambda url, bots=None: measure(playwright, url, bots)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stdlib", choices=build_site.STDLIB_CHOICES, default="cut")
    parser.add_argument("--baseline", type=Path, help="a built site folder measured beside this build")
    parser.add_argument("--driver", choices=("cdp", "playwright"), default="cdp",
                        help="how the browser is driven: a bare DevTools pipe (default), or Playwright, whose "
                             "network capture keeps copies of every fetched body in the renderer")
    parser.add_argument("--bots", help="the bots of the game, as a deal link gives them (expert: its network loaded; "
                                       "default the new-game screen's)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="splendor-memory-") as tmp:
        site = Path(tmp) / "site"
        build_site.build(site, quiet=True, stdlib=args.stdlib)
        sites = {"game": site} | ({"baseline": args.baseline} if args.baseline else {})
        servers = {name: start_server(folder) for name, folder in sites.items()}
        results: dict[str, list[dict[str, int]]] = {name: [] for name in sites}
        try:
            with driver(args.driver) as measure_one:
                for run in range(args.runs):
                    for name in list(sites) if run % 2 == 0 else list(sites)[::-1]:
                        results[name].append(measure_one(servers[name][1], args.bots))
                        m = results[name][-1]
                        print(f"run {run + 1} {name:>8}: renderer RSS {m['rss'] / 1e6:.0f} MB, PSS "
                              f"{m['pss'] / 1e6:.0f} MB, private {m['private'] / 1e6:.0f} MB", flush=True)
                results["empty page"] = [measure_one("about:blank")]
        finally:
            for server, _ in servers.values():
                server.stop()
    for name, runs in results.items():
        med = {key: statistics.median(m[key] for m in runs) / 1e6 for key in ("rss", "pss", "private")}
        what = "for reference" if name == "empty page" else "390x664, after Start, worker running"
        print(f"{name} (median of {len(runs)}, {what}): renderer RSS {med['rss']:.0f} MB (target <= 300), "
              f"PSS {med['pss']:.0f} MB, private {med['private']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
