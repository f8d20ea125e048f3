"""Helpers for the offline / installable-app browser tests (test_offline.py, test_pwa_*.py)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from browser_helpers import READY_TIMEOUT_MS, worker_state
from game_driver import log_text, play_turn, saved, settle

# Fast games: no pause between bot turns, small bot budgets (the bots still run in the worker).
GAME_QUERY = "pace=0&bot_budget=iterations:40"

CONTROLLED_JS = "() => !!navigator.serviceWorker.controller"


def precache(site_dir: Path) -> dict:
    return json.loads((site_dir / "precache.json").read_text())


def precache_paths(site_dir: Path) -> set[str]:
    """URL paths the service worker precaches: "/", "/index.html", "/runtime/..." ..."""
    return {"/" + url[2:] for url in precache(site_dir)["urls"]}


def wait_controlled(page, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait until the service worker has installed (precache complete), activated and claimed the page, and the
    bot worker has booted (its files fetched), so that stopping the server then cuts no request in flight."""
    page.wait_for_function(CONTROLLED_JS, timeout=timeout, polling=100)
    worker_state(page, timeout)


def record_requests(context, site_url: str) -> list[dict]:
    """Every request of the context from this site, as {path, by_sw, from_sw, url}, filled as they finish.

    by_sw: made by the service worker itself (its precache fetches); from_sw: answered by it.
    """
    origin = site_url.rstrip("/")
    seen: list[dict] = []

    def finished(request):
        if not request.url.startswith(origin):
            return
        response = request.response()
        seen.append({
            "url": request.url,
            "path": urlsplit(request.url).path,
            "by_sw": request.service_worker is not None,
            "from_sw": bool(response and response.from_service_worker),
            "status": response.status if response else None,
        })

    def failed(request):
        if request.url.startswith(origin):
            seen.append({
                "url": request.url,
                "path": urlsplit(request.url).path,
                "by_sw": request.service_worker is not None,
                "from_sw": False,
                "status": None,
                "failure": request.failure,
            })

    context.on("requestfinished", finished)
    context.on("requestfailed", failed)
    return seen


def page_paths(requests) -> set[str]:
    """Paths the page and its worker asked for (not the service worker's own precache fetches)."""
    return {r["path"] for r in requests if not r["by_sw"] and r["path"] != "/sw.js"}


def bot_moves(page) -> int:
    """How many moves of the (single) bot the game log shows."""
    return log_text(page).count("Bot 1 ")


def move_and_see_the_bot_answer(page, turn=play_turn) -> None:
    """The person makes a move (a turn may take two steps, e.g. returning tokens) and the bot answers."""
    before = bot_moves(page)
    for _ in range(3):
        played = len(saved(page)["record"]["actions"])
        assert turn(page), "the game is over"
        settle(page)
        assert len(saved(page)["record"]["actions"]) > played
        if bot_moves(page) > before:
            return
    raise AssertionError("the bot did not answer")


def tap_turn(page) -> bool:
    """One turn of the person with taps (phones): game_driver.play_turn's strategy. False when the game is over."""
    return play_turn(page, press="tap")
