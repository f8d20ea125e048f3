"""Browser steps of the learning and sharing features (PyScript main thread only): the address's query, the
clipboard, a file download. The decisions are in learn.py (CPython-tested); this module only touches the browser.
"""

import js
from pyodide.ffi import jsnull


def query_pairs():
    """The page address's query as [(name, value), ...], in order."""
    params = js.URLSearchParams.new(js.location.search)
    return [(str(entry[0]), str(entry[1])) for entry in params.entries()]


def drop_params(names):
    """Take ``names`` out of the address bar (without a reload or a history entry), so that a reload does not ask
    about the same link again. The test settings (pace, bot_budget, worker) stay."""
    if not names:
        return
    url = js.URL.new(js.location.href)
    for name in set(names):
        url.searchParams.delete(name)
    try:
        js.history.replaceState(js.history.state, "", url.href)
    except Exception:  # a sandboxed frame may refuse: the link then simply stays in the address
        pass


def page_base():
    """The page's address without its query or fragment: the base of a deal link."""
    return str(js.location.origin) + str(js.location.pathname)


async def copy_text(text):
    """True when the clipboard took ``text``; False when the clipboard is unavailable or refused."""
    clipboard = getattr(js.navigator, "clipboard", None)
    if clipboard is None or clipboard is jsnull:
        return False
    try:
        await clipboard.writeText(text)
    except Exception:
        return False
    return True


