"""Installable: Chromium parses the manifest without error, finds the site installable and fires
beforeinstallprompt; the page then offers Install (and only then), which calls the browser's prompt;
"Not now" is remembered. Storage persistence is asked for once, at the person's first tap or key.

A persistent profile of the full browser is used: Chromium never offers installation in an incognito context
or in its headless shell."""

from __future__ import annotations

import pytest
from browser_helpers import READY_TIMEOUT_MS, wait_ready
from pwa_helpers import wait_controlled

INSTRUMENT = """
window.__bip = 0; window.__prompts = 0; window.__persistCalls = 0;
addEventListener("beforeinstallprompt", () => { window.__bip += 1; });
if (window.BeforeInstallPromptEvent) {
  // Headless Chromium cannot show the real prompt: count the call and answer "dismissed".
  BeforeInstallPromptEvent.prototype.prompt = async function () { window.__prompts += 1; };
  Object.defineProperty(BeforeInstallPromptEvent.prototype, "userChoice", {
    get() { return Promise.resolve({ outcome: "dismissed", platform: "web" }); },
  });
}
if (window.StorageManager) {
  const persist = StorageManager.prototype.persist;
  StorageManager.prototype.persist = function () { window.__persistCalls += 1; return persist.call(this); };
}
"""
DISMISSED_KEY = "splendor.pwa.installDismissedAt"


@pytest.fixture
def app_context(browser_type, full_chromium_launch_args, tmp_path, site_url):
    context = browser_type.launch_persistent_context(
        tmp_path / "profile", **full_chromium_launch_args, base_url=site_url,
        viewport={"width": 1280, "height": 800},
    )
    context.add_init_script(INSTRUMENT)
    yield context
    context.close()


def test_manifest_install_offer_and_persistent_storage(app_context, site_url):
    page = app_context.pages[0] if app_context.pages else app_context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto("/?pace=0")
    wait_ready(page)
    wait_controlled(page)

    cdp = app_context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == site_url + "assets/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = manifest["manifest"]
    assert parsed["startUrl"] == parsed["scope"] == parsed["id"] == site_url
    assert parsed["display"] == "kStandalone"
    assert {icon["sizes"] for icon in parsed["icons"]} == {"192x192", "512x512"}
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

    # The browser offered installation, so the page shows its Install offer.
    offer = page.get_by_role("region", name="Install the game")
    offer.wait_for()
    assert page.evaluate("() => window.__bip") >= 1
    install = offer.get_by_role("button", name="Install")
    assert install.bounding_box()["height"] >= 44
    assert offer.get_by_role("button", name="Not now").is_visible()
    # Persistent storage: not asked before the person acts, then exactly once.
    assert page.evaluate("() => window.__persistCalls") == 0
    install.click()
    assert offer.count() == 0
    assert page.evaluate("() => window.__prompts") == 1
    page.wait_for_function("() => document.documentElement.dataset.storagePersisted !== undefined")
    page.get_by_role("radio", name="2 bots").click()
    page.keyboard.press("Tab")
    assert page.evaluate("() => window.__persistCalls") == 1
    # The prompt was dismissed: no new offer on the next visits for a while.
    assert page.evaluate(f"() => localStorage.getItem('{DISMISSED_KEY}')")
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => window.__bip >= 1")
    assert offer.count() == 0

    # "Not now" is remembered the same way.
    page.evaluate(f"() => localStorage.removeItem('{DISMISSED_KEY}')")
    page.reload()
    wait_ready(page)
    offer.get_by_role("button", name="Not now").click()
    assert offer.count() == 0
    assert page.evaluate(f"() => localStorage.getItem('{DISMISSED_KEY}')")
    assert errors == []
