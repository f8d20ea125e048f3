"""A new deploy while the game is open: the new service worker installs in the background, downloading
only the file that changed (the rest is copied from the previous cache), waits, and the page offers
"A new version is ready" with Reload. Reload activates it and resumes the same game from the new
version's files; the old cache is deleted. "Later" hides the offer until the next visit."""

from __future__ import annotations

import time

from browser_helpers import wait_ready
from game_driver import log_text, open_game, play_turn, saved, settle, start
from pwa_helpers import GAME_QUERY, move_and_see_the_bot_answer, wait_controlled

from tools import build_site
from tools.serve import start_server

CHANGED = "splendor/web/main.py"  # a plain file of the site (the other modules are in splendor.zip)
MARK = "\n# new version (test_pwa_update)\n"

CACHE_NAMES_JS = "async () => (await caches.keys()).filter((n) => n.startsWith('splendor-')).sort()"
FETCH_TEXT_JS = "async (url) => (await fetch(url)).text()"


def test_new_version_is_offered_and_reload_keeps_the_game(browser, site_copy):
    site = site_copy
    old = build_site.build(site, quiet=True)
    server, url = start_server(site)
    context = browser.new_context(base_url=url)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_game(page, GAME_QUERY)
        start(page, opponents=1, seed=31, starts="You")
        play_turn(page)
        settle(page)
        wait_controlled(page)
        assert page.evaluate(CACHE_NAMES_JS) == [old["cache"]]
        assert page.get_by_role("status", name="New version").count() == 0

        # Deploy: one file changes, so the build writes a new sw.js with a new cache name.
        with open(site / CHANGED, "a", encoding="utf-8") as f:
            f.write(MARK)
        new = build_site.write_service_worker(site, build_site.site_files())
        assert new["cache"] != old["cache"]
        server.transfers.clear()

        page.evaluate("async () => { await (await navigator.serviceWorker.ready).update(); }")
        offer = page.get_by_role("status", name="New version")
        offer.wait_for()
        assert "A new version of the game is ready" in offer.inner_text()
        # announced: it appears inside a polite live region that was on the page before it
        assert offer.locator("xpath=..").get_attribute("aria-live") == "polite"
        reload = offer.get_by_role("button", name="Reload")
        assert reload.bounding_box()["height"] >= 44

        # Installing the update downloaded the new sw.js and the one changed file, nothing else.
        downloaded = {path for path, status, size in server.transfers if status == 200}
        assert downloaded == {"/sw.js", "/" + CHANGED}, server.transfers
        assert page.evaluate(CACHE_NAMES_JS) == sorted([old["cache"], new["cache"]])
        assert not page.evaluate(FETCH_TEXT_JS, "./" + CHANGED).endswith(MARK)  # old version still

        # "Later" hides the offer; the new version keeps waiting and the next visit offers it again.
        offer.get_by_role("button", name="Later").click()
        assert offer.count() == 0
        page.reload()
        wait_ready(page)
        settle(page)
        offer.wait_for()
        reload = offer.get_by_role("button", name="Reload")

        before = (saved(page), log_text(page))
        # (the navigation's start is the page's answer; wait_ready then waits for the game, as long as it takes: a
        # reload under a new worker can pass the 90 s of a "load" wait on a busy machine)
        with page.expect_navigation(wait_until="commit"):
            reload.click()
        wait_ready(page)
        settle(page)
        assert (saved(page), log_text(page)) == before  # the same game, same turn
        assert page.evaluate(CACHE_NAMES_JS) == [new["cache"]]  # the old cache is gone
        assert page.evaluate(FETCH_TEXT_JS, "./" + CHANGED).endswith(MARK)  # new files served
        assert page.get_by_role("status", name="New version").count() == 0
        move_and_see_the_bot_answer(page)
        assert errors == []
    finally:
        context.close()
        server.stop()


CACHED_TEXT_JS = """async ([name, url]) => {
    const hit = await (await caches.open(name)).match(url);
    return hit ? hit.text() : null;
}"""


def test_install_never_caches_a_file_of_another_deploy(browser, site_copy):
    """A first install takes files from the HTTP cache without revalidating them. A host that lets
    browsers keep a file for an hour (here: the changed file) leaves the previous deploy's copy there;
    the install sees it does not match the build's hash and fetches it again, bypassing the cache."""
    site = site_copy
    build_site.build(site, quiet=True)
    rules = [("/" + CHANGED, {"Cache-Control": "max-age=3600"})]
    server, url = start_server(site, header_rules=rules)
    context = browser.new_context(base_url=url)
    page = context.new_page()
    try:
        open_game(page, GAME_QUERY)  # the HTTP cache now holds this deploy's files
        wait_controlled(page)
        page.evaluate("""async () => {
            for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
            for (const name of await caches.keys()) await caches.delete(name);
        }""")
        with open(site / CHANGED, "a", encoding="utf-8") as f:
            f.write(MARK)
        new = build_site.write_service_worker(site, build_site.site_files())
        server.transfers.clear()
        page.evaluate("""async () => {
            const registration = await navigator.serviceWorker.register("./sw.js");
            await registration.update();  // register() alone keeps the unregistered worker's script
        }""")
        # The install writes its record of revisions last, once every file is in.
        deadline = time.monotonic() + 60
        while not page.evaluate(CACHED_TEXT_JS, [new["cache"], url + "__precache-revisions__"]):
            assert time.monotonic() < deadline, "the new version did not install"
            page.wait_for_timeout(200)
        cached = page.evaluate(CACHED_TEXT_JS, [new["cache"], url + CHANGED])
        assert cached is not None and cached.endswith(MARK)
        # ... from the network, not from the HTTP cache's outdated copy
        assert ("/" + CHANGED, 200, len(cached.encode())) in server.transfers
    finally:
        context.close()
        server.stop()
