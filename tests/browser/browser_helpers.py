"""Helpers for browser tests: ``from browser_helpers import wait_ready, non_local``."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
# Pyodide boots in a few seconds here, but a loaded 2-core CI machine can be much slower.
READY_TIMEOUT_MS = 90_000


def non_local(urls) -> list[str]:
    """The URLs that leave this machine (blob: and data: URLs stay local)."""
    found = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme in {"blob", "data", "about"}:
            continue
        if parts.hostname not in LOCAL_HOSTS:
            found.append(url)
    return found


def wait_ready(page, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait until the main interpreter has run (body[data-ready="1"])."""
    page.wait_for_selector('body[data-ready="1"]', state="attached", timeout=timeout)


PING_WORKER_JS = """async (payload) => {
    const script = document.querySelector('script[worker][name="ai"]');
    const worker = script.xworker;
    await worker.ready;
    return await worker.sync.ping(payload);
}"""


def worker_state(page, timeout: float = READY_TIMEOUT_MS) -> str:
    """The bot worker's state once its boot has ended: "1" (up and answering) or "failed".

    A level that does not search plays a first move on the page itself while the worker starts (a person who
    moves at once may see that move before the worker is up), so a test that means "the worker came up" waits
    for the boot to end instead of reading the flag right after a bot move."""
    page.wait_for_function("() => ['1', 'failed'].includes(document.body.dataset.worker)", timeout=timeout,
                           polling=100)
    return page.evaluate("() => document.body.dataset.worker")


def ping_worker(page, payload: dict) -> dict:
    """Call ping(json_text) exported by the PyScript worker named "ai" (waits for it)."""
    page.wait_for_selector('script[worker][name="ai"]', state="attached", timeout=READY_TIMEOUT_MS)
    return json.loads(page.evaluate(PING_WORKER_JS, json.dumps(payload)))
