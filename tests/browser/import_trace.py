"""Which modules the page's interpreter and its bot worker import: an import trace through PyScript's own hooks.

``trace_imports(context)`` rewrites the game page in a browser context so that before the page's main.py and
before the worker's worker.py run, PyScript runs a few lines of Python (``hooks.main.codeBeforeRun``,
``hooks.worker.codeBeforeRun``) that note every import the import system looks up (the audit event "import", whether
it is found or not) and expose ``globalThis.splendorImports()``. ``imports_of(page)`` reads them from the page and
its workers: {"page": (loaded, looked up), "worker": (...)}, where loaded is ``sys.modules`` (the start of Pyodide and
PyScript included) and looked up every name searched since the hook (a failed ``try: import`` too).

Used by tests/browser/test_stdlib_cut.py and tools/trace_imports.py.
"""

from __future__ import annotations

HOOK_PY = r'''
import sys as _splendor_sys
if not hasattr(_splendor_sys, "_splendor_looked_up"):  # once, whether PyScript runs the sync or the async hook
    import js as _splendor_js
    from pyodide.ffi import create_proxy as _splendor_proxy
    _splendor_sys._splendor_looked_up = []
    def _splendor_audit(event, args, looked_up=_splendor_sys._splendor_looked_up):
        if event == "import":
            looked_up.append(args[0])
    _splendor_sys.addaudithook(_splendor_audit)
    _splendor_js.globalThis.splendorImports = _splendor_proxy(lambda: "\n".join(
        ["loaded " + name for name in list(_splendor_sys.modules)]
        + ["looked_up " + name for name in _splendor_sys._splendor_looked_up]))
'''

CORE_TAG = '<script type="module" src="./runtime/pyscript/core.js"></script>'
# Runs before PyScript reads its hooks: a module script ahead of core.js, which imports it (PyScript's documented way).
HOOK_TAG = """<script type="module">
import { hooks } from "./runtime/pyscript/core.js";
for (const side of [hooks.main, hooks.worker]) {
  side.codeBeforeRun.add(%s);
  side.codeBeforeRunAsync.add(%s);
}
</script>
"""

READ_JS = "() => globalThis.splendorImports ? globalThis.splendorImports() : null"


def traced_page(html: str) -> str:
    """The game page's HTML with the trace's hook ahead of PyScript."""
    import json

    if html.count(CORE_TAG) != 1:
        raise AssertionError(f"index.html no longer loads PyScript as {CORE_TAG}: update tests/browser/import_trace.py")
    code = json.dumps(HOOK_PY)
    return html.replace(CORE_TAG, HOOK_TAG % (code, code) + CORE_TAG)


def trace_imports(context) -> None:
    """Trace the imports of every game page this context opens from now on (and of their workers). The context must
    block service workers (``browser.new_context(service_workers="block")``): the page's HTML is rewritten on its way
    in, which a service worker's cache would bypass."""

    def rewrite(route):
        response = route.fetch()
        route.fulfill(response=response, body=traced_page(response.text()))

    context.route(lambda url: url.split("?")[0].split("#")[0].endswith(("/", "/index.html")), rewrite)


def _parse(text: str) -> tuple[set[str], set[str]]:
    loaded, looked_up = set(), set()
    for line in text.splitlines():
        kind, _, name = line.partition(" ")
        (loaded if kind == "loaded" else looked_up).add(name)
    return loaded, looked_up


def imports_of(page) -> dict[str, tuple[set[str], set[str]]]:
    """{"page": (loaded, looked_up)} and, once the bot worker runs, "worker": the same for it."""
    found = {}
    text = page.evaluate(READ_JS)
    if text is None:
        raise AssertionError("the page has no import trace: was trace_imports(context) called before it opened?")
    found["page"] = _parse(text)
    for worker in page.workers:
        text = worker.evaluate(READ_JS)
        if text is not None:
            loaded, looked_up = _parse(text)
            if "worker" in found:
                loaded |= found["worker"][0]
                looked_up |= found["worker"][1]
            found["worker"] = (loaded, looked_up)
    return found


def _union(found: dict, more: dict) -> None:
    for side, (loaded, looked_up) in more.items():
        have = found.setdefault(side, (set(), set()))
        have[0].update(loaded)
        have[1].update(looked_up)


def exercise(browser, base_url: str, workdir, whole_game: bool = False,
             errors: list[str] | None = None) -> dict[str, tuple[set[str], set[str]]]:
    """Use the game as a player does, in traced browser contexts, and return what the page and its worker imported
    ({"page": (loaded, looked_up), "worker": ...}, over every page opened): a game against the expert and the hard bot
    with a hint, an undo and a download; its restore by a reload; the end of a game, its results and its file; a game
    file opened and a broken one refused; the guide and the guided game; a worker that crashes. ``whole_game``:
    play the first game to its end as well (minutes). ``errors`` collects the pages' uncaught errors and console
    errors (their workers' included)."""
    from game_driver import is_over, near_end_save, open_game, open_save, play_turn, settle, start

    found: dict = {}
    query = "pace=0&bot_budget=0.3"

    def context(save=None):
        made = browser.new_context(base_url=base_url, service_workers="block", accept_downloads=True)
        trace_imports(made)
        if errors is not None:
            made.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            made.on("weberror", lambda error: errors.append(str(error.error)))
        if save is not None:
            open_save(made, save)
        return made

    def download(page, where):
        with page.expect_download() as info:
            where.get_by_role("button", name="Download this game (JSON)").click()
        path = workdir / info.value.suggested_filename
        info.value.save_as(path)
        return path

    # A game against the expert and the hard bot: moves, a hint, an undo, the file; then a reload restores it.
    first = context()
    page = first.new_page()
    open_game(page, query)
    start(page, opponents=2, starts="You", seed=4711, levels=["Expert", "Hard"])
    for _ in range(2):
        play_turn(page)
    settle(page)
    game_file = download(page, page.locator("#export-game").locator(".."))
    page.get_by_role("button", name="Hint").click()
    settle(page)
    play_turn(page)
    settle(page)
    page.get_by_role("button", name="Undo").click()
    settle(page)
    if whole_game:
        while play_turn(page):
            pass
        assert is_over(page)
    _union(found, imports_of(page))
    page.reload()
    settle(page)
    play_turn(page)
    settle(page)
    _union(found, imports_of(page))
    first.close()

    # The end of a game: the last moves, the results, the file of a finished game, another game.
    ending = context(near_end_save(points=10))
    page = ending.new_page()
    open_game(page, query)
    while play_turn(page):
        pass
    page.get_by_role("table", name="Final scores").wait_for()
    download(page, page.get_by_role("dialog"))
    page.get_by_role("button", name="See the board").click()
    page.get_by_role("button", name="Results").click()
    page.get_by_role("button", name="Play again").click()
    page.get_by_role("region", name="Market").wait_for()
    settle(page)
    _union(found, imports_of(page))
    ending.close()

    # A game file opened in a fresh browser, then one that breaks the rules; the guide and the guided game.
    fresh = context()
    page = fresh.new_page()
    open_game(page, query)
    chooser = page.get_by_label("Choose a game file (.json)")
    chooser.set_input_files(str(game_file))
    page.get_by_role("region", name="Market").wait_for()
    settle(page)
    play_turn(page)
    settle(page)
    broken = workdir / "broken.json"
    broken.write_text(game_file.read_text("utf-8").replace('"take', '"buy'), "utf-8")
    page.get_by_role("button", name="New game").click()
    page.get_by_label("Choose a game file (.json)").set_input_files(str(broken))
    page.get_by_role("alert").first.wait_for()
    page.get_by_role("button", name="How to play").first.click()
    page.get_by_role("dialog", name="How to play").get_by_role("button", name="Close").click()
    _union(found, imports_of(page))
    fresh.close()
    guided = context()
    page = guided.new_page()
    open_game(page, query)
    page.get_by_role("region", name="New to Splendor?").get_by_role("button", name="Play a guided game").click()
    page.get_by_role("region", name="Market").wait_for()
    _union(found, imports_of(page))
    guided.close()

    # A worker that crashes: its error on the way out, the light bot on the page.
    crash = context()
    page = crash.new_page()
    open_game(page, query + "&test_worker_fault=crash")
    start(page, opponents=1, starts="You", seed=77)
    page.wait_for_selector('body[data-worker="1"]', state="attached")
    play_turn(page)
    settle(page)
    _union(found, imports_of(page))
    crash.close()
    return found
