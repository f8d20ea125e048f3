"""Browser test fixtures (pytest-playwright driving Debian's chromium: its headless shell, and the full browser where
a test needs it).

Every test under tests/browser/ is marked ``browser``. Run only them with ``pytest -m browser``,
skip them with ``pytest -m "not browser"``.

Fixtures:
  site_dir        session: the site, freshly built into a temporary folder
  site_url        session: that site served on 127.0.0.1 (free port), e.g. "http://127.0.0.1:41234/"
  base_url        = site_url, so ``page.goto("/")`` opens the game
  context, page   a page of its own in a browser context shared by the tests of a process (warm, as on a person's
                  second visit), emptied of the test's pages and storage after it; ``phone`` the same at phone size,
                  ``touch_page(width, height)`` on a touch screen of any size
  request_log     every request of the test's context (page, workers, service worker), in order
  console_errors  console messages of type error and uncaught page errors (page and workers)
Helpers for tests live in browser_helpers.py (``from browser_helpers import wait_ready``).
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The repository (tools, splendor) and tests/ (engine_fixtures, shared with the CPython tests).
for _path in (ROOT, ROOT / "tests"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from tools.chromium import ARGS as CHROMIUM_ARGS, CHROMIUM, HEADLESS_SHELL, PHONE  # noqa: E402
from tools.serve import start_server  # noqa: E402



def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def site_dir(built_site) -> Path:
    """The site built once for the session (tests/conftest.py); tests that change files take ``site_copy``."""
    return built_site[0]


@pytest.fixture(scope="session")
def site_url(site_dir):
    server, url = start_server(site_dir)
    yield url
    server.stop()


@pytest.fixture(scope="session")
def base_url(site_url):
    return site_url


def _runnable(path) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _missing(path, package):
    message = f"{path} not found: apt-get install -y {package} (or `make test`)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


# V8 runs the tests' WebAssembly (Pyodide) on its baseline compiler only (Liftoff), without compiling it again with
# the optimizing compiler in the background: each page boots a fresh interpreter (two, with its bot worker) and
# lives a few seconds, and the optimizing compiler's background threads cost more than its faster code saves.
# Measured on 2026-12-02 (CPU of every process): five boots of the page and its worker, the renderers' background
# threads 1.3 s instead of 7.5 s; the game played by clicks to its end 28 s instead of 34 s; the whole suite 367-371 s
# instead of 404 s. Only the tests: the benchmarks and tools (tools/chromium.py ARGS) measure what a player's browser
# does, with V8's default tiers.
TEST_ONLY_ARGS = ["--js-flags=--liftoff-only"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """The browser tests run on Chromium's headless shell (``tools.chromium.HEADLESS_SHELL``: the same engine,
    about 15% less CPU a test); without it, on the full browser, with a warning (`make test` installs both).
    Both with ``TEST_ONLY_ARGS``."""
    args = list(browser_type_launch_args.get("args", [])) + CHROMIUM_ARGS + TEST_ONLY_ARGS
    if _runnable(HEADLESS_SHELL):
        return {**browser_type_launch_args, "executable_path": HEADLESS_SHELL, "args": args}
    # Without the shell the same tests run on the full browser: every test still runs, only slower.
    warnings.warn(f"{HEADLESS_SHELL} not found: the browser tests run on {CHROMIUM}, about 15% slower "
                  "(apt-get install -y chromium-headless-shell, or `make test`)", stacklevel=1)
    if not _runnable(CHROMIUM):
        _missing(CHROMIUM, "chromium")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": args}


@pytest.fixture(scope="session")
def full_chromium_launch_args(browser_type_launch_args):
    """Launch arguments of the full browser (``tools.chromium.CHROMIUM``), for the tests that need more than the
    headless shell has: Chromium offers installation (beforeinstallprompt) only in the full browser."""
    if not _runnable(CHROMIUM):
        _missing(CHROMIUM, "chromium")
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


# What a test's own page leaves behind in the shared context: every key it wrote in localStorage (the game's only
# storage; the service worker's caches stay, as they would for a person's next visit).
CLEAR_STORAGE_JS = "() => { localStorage.clear(); sessionStorage.clear(); }"


@pytest.fixture(scope="session")
def _shared_context(browser, browser_context_args):
    """The browser context of the tests that take ``page`` (or ``context``), one per test process. A page that
    boots in a context where the game was already loaded costs Chromium about half the CPU of one in a fresh context
    (3.2 s instead of 6.5 s, page and bot worker: its compiled code and the service worker's precache are warm), as
    for a person's second visit; each test still has a page of its own (its own Python, worker, sessionStorage and
    init scripts) and finds localStorage empty."""
    context = browser.new_context(**browser_context_args)
    yield context
    context.close()


def _own_page(context):
    """A new page in a shared context, for one test (the one before it must have closed its pages)."""
    assert not context.pages, "a page of an earlier test is still open"
    return context.new_page()


def _empty(context, site_url):
    """Close the test's pages and empty what they stored, keeping what a person's next visit would find warm."""
    for page in list(context.pages):
        page.close()
    cleaner = context.new_page()
    try:
        # a document of the site's origin that does not boot the game
        cleaner.goto(site_url + "assets/manifest.webmanifest")
        cleaner.evaluate(CLEAR_STORAGE_JS)
    finally:
        cleaner.close()
    context.clear_cookies()
    context.clear_permissions()


@pytest.fixture
def context(_shared_context, site_url):
    """Overrides pytest-playwright's: the shared context, emptied of the test's pages and storage after the test.
    Tests that need a context of their own (another size, offline, a fault server, a first visit's service worker)
    make one with ``browser.new_context``."""
    assert not _shared_context.pages, "a page of an earlier test is still open"
    yield _shared_context
    _empty(_shared_context, site_url)


@pytest.fixture
def request_log(context):
    """URLs of every request made in this test's browser context, workers included."""
    urls: list[str] = []

    def seen(request):
        urls.append(request.url)

    context.on("request", seen)
    yield urls
    context.remove_listener("request", seen)


@pytest.fixture
def console_errors(page) -> list[str]:
    """Console errors and uncaught exceptions of the page (worker console output included)."""
    errors: list[str] = []
    page.on(
        "console",
        lambda message: errors.append(f"console.{message.type}: {message.text}")
        if message.type == "error"
        else None,
    )
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    return errors


@pytest.fixture(scope="session")
def _shared_phone_context(browser, base_url):
    """As ``_shared_context``, at a phone's size: one per test process for the tests that take ``phone``."""
    context = browser.new_context(**PHONE, base_url=base_url)
    yield context
    context.close()


@pytest.fixture
def phone(_shared_phone_context, site_url):
    """(page, errors): a page of its own at a phone's size (``tools.chromium.PHONE``: 390x844, touch) and the
    uncaught errors it raises; its context is shared as ``context`` is, and emptied after the test."""
    page = _own_page(_shared_phone_context)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, errors
    _empty(_shared_phone_context, site_url)


@pytest.fixture(scope="session")
def _shared_touch_context(browser, base_url):
    """As ``_shared_context``, on a touch screen (a phone's or tablet's browser, device pixel ratio 1)."""
    context = browser.new_context(base_url=base_url, is_mobile=True, has_touch=True)
    yield context
    context.close()


@pytest.fixture
def touch_page(_shared_touch_context, site_url):
    """``touch_page(width, height)``: a page of its own on a touch screen of that size, in a context shared as
    ``context`` is and emptied after the test."""

    def make(width, height):
        page = _own_page(_shared_touch_context)
        page.set_viewport_size({"width": width, "height": height})
        return page

    yield make
    _empty(_shared_touch_context, site_url)
