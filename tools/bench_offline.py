#!/usr/bin/env python3
"""Second-visit benchmark of the installable, offline game: time to a usable board with the service
worker warm, beside bare ``loadPyodide()`` pages with a warm HTTP cache (same run), and the bytes each
visit downloads. Bare A loads Pyodide as published (node_modules/pyodide); bare B the site's own runtime, whose
standard library the build compiled to bytecode (tools/compile_pyc.mjs).

    .venv/bin/python tools/bench_offline.py [--runs 5] [--plain-headers]

Builds the site into a temporary folder and serves it on 127.0.0.1 with the deployed headers
(netlify.toml + site/_headers: CSP, caching; --plain-headers: tools/serve.py's no-cache instead). A
second server serves a bare page (a module script that only runs ``loadPyodide()`` and ``1 + 1``) and
the same five Pyodide files, with the same headers. Each run, for each page, in alternating order:

  visit 1  a new browser profile (empty HTTP cache, no service worker). The game page: a game is
           started, then the run waits until the service worker has precached the site and controls
           the page, and the bot worker is up;
  visit 2  the browser is closed and started again on the same profile (a real second visit: disk
           cache and service worker, nothing in memory); the game resumes the saved game;
  visit 3  the same again: V8 keeps compiled WebAssembly only for a module compiled twice, so a
           returning player's usual start is this one.

Time to a usable board: from navigation start to the page's ``performance.mark("splendor-ready")``
(the board drawn with its controls listening); the bare page marks ``bare-ready`` after Python ran.
Bytes: the response bodies the server sent (status 200; a 304 sends none), which is what came over
the network; for the game's second visit also how many of the page's requests the service worker
answered. Compressed sizes (gzip -6, as a CDN would send them) are shown beside the raw ones.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tools import build_site  # noqa: E402
from tools.chromium import ARGS, CHROMIUM  # noqa: E402
from tools.serve import start_server  # noqa: E402

TIMEOUT_MS = 180_000
GAME_QUERY = "?pace=0&bot_budget=iterations:40"

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare loadPyodide()</title>
<link rel="icon" href="data:,"><script type="module" src="./bare.js"></script></head>
<body><p id="out">loading</p></body></html>
"""
BARE_JS = """import { loadPyodide } from "./runtime/pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: "./runtime/pyodide/" });
document.getElementById("out").textContent = "Python says " + pyodide.runPython("1 + 1");
performance.mark("bare-ready");
document.body.dataset.ready = "1";
"""
MARK_JS = "(name) => { const m = performance.getEntriesByName(name); return m.length ? m[0].startTime : null; }"
# Where the game's second visit spends its time: the runtime files arrive, then Pyodide and PyScript
# start (until main.py runs: the page's mark "splendor-main"), then the game's modules are imported and
# the board is drawn ("splendor-ready").
PHASES_JS = """() => {
  const end = (suffix) => {
    const e = performance.getEntriesByType("resource").find((r) => r.name.split("?")[0].endsWith(suffix));
    return e ? e.responseEnd : null;
  };
  const mark = (name) => { const m = performance.getEntriesByName(name); return m.length ? m[0].startTime : null; };
  return { wasm_arrived: end("/pyodide.asm.wasm"), main_started: mark("splendor-main"),
           board: mark("splendor-ready") };
}"""


def bare_site(runtime: Path, out: Path) -> Path:
    """A bare page with the Pyodide files of ``runtime``: the site's (standard library compiled to bytecode by the
    build) or node_modules/pyodide (Pyodide as published)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "index.html").write_text(BARE_HTML, "utf-8")
    (out / "bare.js").write_text(BARE_JS, "utf-8")
    target = out / "runtime" / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in build_site.PUBLISHED_PYODIDE_FILES:
        shutil.copy(runtime / name, target / name)
    return out


class Sizes:
    """Raw and gzip sizes of served files, computed once per path."""

    def __init__(self, roots: list[Path]):
        self.roots = roots
        self.gz: dict[str, int] = {}

    def gzip_size(self, path: str) -> int:
        if path not in self.gz:
            rel = path.split("?", 1)[0].lstrip("/") or "index.html"
            for root in self.roots:
                if (root / rel).is_file():
                    self.gz[path] = len(gzip.compress((root / rel).read_bytes(), 6))
                    break
            else:
                self.gz[path] = 0
        return self.gz[path]


def summarize(transfers, sizes: Sizes) -> dict:
    bodies = [(path, size) for path, status, size in transfers if status == 200]
    return {
        "requests": len(transfers),
        "downloads": len(bodies),
        "revalidated": sum(1 for _, status, _ in transfers if status == 304),
        "bytes": sum(size for _, size in bodies),
        "gzip": sum(sizes.gzip_size(path) for path, _ in bodies),
        "paths": sorted({path for path, _ in bodies}),
        "revalidated_paths": sorted({path for path, status, _ in transfers if status == 304}),
    }


def launch(pw, profile: Path):
    return pw.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=ARGS, viewport={"width": 1280, "height": 800}
    )


def game_run(pw, url: str, server, profile: Path, sizes: Sizes) -> dict:
    result = {}
    # visit 1: cold
    server.transfers.clear()
    context = launch(pw, profile)
    page = context.pages[0] if context.pages else context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url + GAME_QUERY)
    page.wait_for_selector('body[data-ready="1"]', state="attached")
    result["visit1_ready_ms"] = page.evaluate(MARK_JS, "splendor-ready")
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("region", name="Market").wait_for()
    page.wait_for_function("() => !!navigator.serviceWorker.controller", polling=100)
    page.wait_for_function("() => document.body.dataset.worker === '1'", polling=100)
    page.wait_for_timeout(500)  # let the last precache/worker requests finish
    context.close()
    result["visit1"] = summarize(list(server.transfers), sizes)

    # visits 2 and 3: the same profile, each in a new browser session
    for visit in (2, 3):
        server.transfers.clear()
        context = launch(pw, profile)
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        answered = {"sw": 0, "network": []}

        def on_response(response, answered=answered):
            if response.from_service_worker:
                answered["sw"] += 1
            else:
                answered["network"].append(response.url.replace(url, "/"))

        context.on("response", on_response)
        page.goto(url + GAME_QUERY)
        page.wait_for_selector('body[data-ready="1"]', state="attached")
        page.get_by_role("region", name="Market").wait_for()
        result[f"visit{visit}_board_ms"] = page.evaluate(MARK_JS, "splendor-ready")
        result[f"visit{visit}_phases"] = page.evaluate(PHASES_JS)
        page.wait_for_function("() => document.body.dataset.worker === '1'", polling=100)
        page.wait_for_timeout(500)
        context.close()
        result[f"visit{visit}"] = summarize(list(server.transfers), sizes)
        result[f"visit{visit}_answered"] = answered
    return result


def bare_run(pw, url: str, server, profile: Path, sizes: Sizes) -> dict:
    result = {}
    for visit in (1, 2, 3):
        server.transfers.clear()
        context = launch(pw, profile)
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.wait_for_selector('body[data-ready="1"]', state="attached")
        result[f"visit{visit}_ready_ms"] = page.evaluate(MARK_JS, "bare-ready")
        page.wait_for_timeout(300)
        context.close()
        result[f"visit{visit}"] = summarize(list(server.transfers), sizes)
    return result


def fmt_ms(values) -> str:
    values = [v for v in values if v is not None]
    return f"{statistics.median(values) / 1000:.2f} s ({min(values) / 1000:.2f}-{max(values) / 1000:.2f})"


def fmt_bytes(n: float) -> str:
    return f"{n / 1e6:.2f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--plain-headers", action="store_true",
                        help="serve with tools/serve.py's no-cache headers, not the deployed ones")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="bench-offline-"))
    try:
        site = work / "site"
        build_site.build(site, quiet=True)
        bare = bare_site(site / "runtime" / "pyodide", work / "bare")
        published = bare_site(ROOT / build_site.PYODIDE_DIR, work / "published")
        deployed = not args.plain_headers
        game_server, game_url = start_server(site, netlify_headers=deployed)
        bare_server, bare_url = start_server(bare, netlify_headers=deployed)
        pub_server, pub_url = start_server(published, netlify_headers=deployed)
        sizes = Sizes([site, bare])
        pub_sizes = Sizes([published])
        games, bares, pubs = [], [], []
        started = time.perf_counter()
        with sync_playwright() as pw:
            for run in range(args.runs):
                order = ["game", "bare", "published"] if run % 2 == 0 else ["published", "bare", "game"]
                for which in order:
                    profile = work / f"profile-{which}-{run}"
                    if which == "game":
                        games.append(game_run(pw, game_url, game_server, profile, sizes))
                    elif which == "bare":
                        bares.append(bare_run(pw, bare_url, bare_server, profile, sizes))
                    else:
                        pubs.append(bare_run(pw, pub_url, pub_server, profile, pub_sizes))
                    shutil.rmtree(profile, ignore_errors=True)
                print(f"run {run + 1}: visits 2/3: game {games[-1]['visit2_board_ms'] / 1000:.2f}/"
                      f"{games[-1]['visit3_board_ms'] / 1000:.2f} s, bare A "
                      f"{pubs[-1]['visit2_ready_ms'] / 1000:.2f}/{pubs[-1]['visit3_ready_ms'] / 1000:.2f} s, bare B "
                      f"{bares[-1]['visit2_ready_ms'] / 1000:.2f}/{bares[-1]['visit3_ready_ms'] / 1000:.2f} s",
                      file=sys.stderr)
        game_server.stop()
        bare_server.stop()
        pub_server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"bench_offline: {args.runs} runs, headers: {'deployed (netlify.toml)' if deployed else 'no-cache'}, "
          f"{time.perf_counter() - started:.0f} s, load average {os.getloadavg()[0]:.2f}")
    print()
    print("bare A: loadPyodide() of Pyodide as published (node_modules/pyodide, standard library as source); "
          "bare B: the same page on the site's own runtime (standard library compiled by the build)")
    print()
    print("| time to usable (median, range) | game (board) | bare A | bare B | game / A | game / B |")
    print("|---|---|---|---|---|---|")
    g1 = [r["visit1_ready_ms"] for r in games]
    a1 = [r["visit1_ready_ms"] for r in pubs]
    b1 = [r["visit1_ready_ms"] for r in bares]
    print(f"| first visit (cold) | {fmt_ms(g1)} | {fmt_ms(a1)} | {fmt_ms(b1)} | "
          f"{statistics.median(g1) / statistics.median(a1):.2f}x | "
          f"{statistics.median(g1) / statistics.median(b1):.2f}x |")
    for visit in (2, 3):
        g = [r[f"visit{visit}_board_ms"] for r in games]
        a = [r[f"visit{visit}_ready_ms"] for r in pubs]
        b = [r[f"visit{visit}_ready_ms"] for r in bares]
        print(f"| visit {visit} (warm) | {fmt_ms(g)} | {fmt_ms(a)} | {fmt_ms(b)} | "
              f"**{statistics.median(g) / statistics.median(a):.2f}x** | "
              f"**{statistics.median(g) / statistics.median(b):.2f}x** |")
    ratios = [g["visit2_board_ms"] / b["visit2_ready_ms"] for g, b in zip(games, pubs)]
    print(f"\nratio per run, visit 2, game / bare A: {', '.join(f'{r:.2f}' for r in ratios)} (target 1.1x)")
    ratios = [g["visit2_board_ms"] / b["visit2_ready_ms"] for g, b in zip(games, bares)]
    print(f"ratio per run, visit 2, game / bare B: {', '.join(f'{r:.2f}' for r in ratios)}")
    print()
    print("| bytes from the network (median) | game | bare A (as published) | bare B (site's runtime) |")
    print("|---|---|---|---|")
    for visit in (1, 2, 3):
        cells = []
        for rows in (games, pubs, bares):
            raw = statistics.median(r[f"visit{visit}"]["bytes"] for r in rows)
            gz = statistics.median(r[f"visit{visit}"]["gzip"] for r in rows)
            n = statistics.median(r[f"visit{visit}"]["downloads"] for r in rows)
            reval = statistics.median(r[f"visit{visit}"]["revalidated"] for r in rows)
            cells.append(f"{fmt_bytes(raw)} raw, {fmt_bytes(gz)} gzip; {n:.0f} downloads, {reval:.0f} 304s")
        print(f"| visit {visit} | {cells[0]} | {cells[1]} | {cells[2]} |")
    print()
    for visit in (2, 3):
        phases = [r[f"visit{visit}_phases"] for r in games
                  if r[f"visit{visit}_phases"]["main_started"] is not None]
        if not phases:
            continue
        wasm = statistics.median(p["wasm_arrived"] for p in phases)
        main_ = statistics.median(p["main_started"] for p in phases)
        board = statistics.median(p["board"] for p in phases)
        bare_ready = statistics.median(r[f"visit{visit}_ready_ms"] for r in bares)
        pub_ready = statistics.median(r[f"visit{visit}_ready_ms"] for r in pubs)
        print(f"game, visit {visit} (medians): runtime files in by {wasm / 1000:.2f} s; Pyodide + PyScript "
              f"started, main.py running at {main_ / 1000:.2f} s; game imported and board drawn at "
              f"{board / 1000:.2f} s (bare pages: Python ready at {pub_ready / 1000:.2f} s as published, "
              f"{bare_ready / 1000:.2f} s on the site's runtime)")
    answered = games[-1]["visit2_answered"]
    print()
    print(f"game, visit 2 (last run): {answered['sw']} responses from the service worker, "
          f"{len(answered['network'])} not ({', '.join(answered['network']) or 'none'}); "
          f"downloaded: {', '.join(games[-1]['visit2']['paths']) or 'nothing'}; revalidated (304): "
          f"{', '.join(games[-1]['visit2']['revalidated_paths']) or 'nothing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
