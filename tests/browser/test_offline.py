"""The generated service worker precaches the whole site: with the server gone and the browser
offline, a reload still boots Python and the AI worker."""

import json

from browser_helpers import READY_TIMEOUT_MS, ping_worker, wait_ready

from tools.serve import start_server

CACHED_COUNT_JS = """async (name) => {
    await navigator.serviceWorker.ready;
    const cache = await caches.open(name);
    return (await cache.keys()).length;
}"""


def test_reload_offline_after_first_visit(new_context, site_dir):
    manifest = json.loads((site_dir / "precache.json").read_text())
    server, url = start_server(site_dir)  # own server, so it can be stopped mid-test
    context = new_context()
    page = context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(url)
        wait_ready(page)
        assert ping_worker(page, {"n": 1})["pong"] == "pong"
        page.wait_for_function(
            "async () => !!(await navigator.serviceWorker.ready).active", polling=100
        )
        assert page.evaluate(CACHED_COUNT_JS, manifest["cache"]) == len(manifest["urls"])
    finally:
        server.stop()

    context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert page.evaluate("!!navigator.serviceWorker.controller")
    assert ping_worker(page, {"n": 2})["echo"] == {"n": 2}
    assert errors == []
