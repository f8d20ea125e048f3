"""The bot worker (a PyScript worker named "ai"): JSON text in, JSON text out, no DOM.

Created lazily by ``main.py`` after the page is usable. Only the observation of the seat to act crosses into
it, so a bot cannot see what its seat may not.
"""

import json
import os
import sys
import time

from splendor.web.botcall import answer, same_here
from splendor.web.bytecode import bytecode_state

try:  # import the bots now, while the page does not wait on this worker yet, not at the first move
    import splendor.ai.protocol  # noqa: F401
    import splendor.web.wasm_net  # noqa: F401  (the expert's network runs in the WebAssembly kernel here)
except ImportError:  # pragma: no cover - reported by the first answer instead
    pass


#: The site's address, from the page's first call (``ping``): the worker fetches the expert's model beside it.
SITE = {"base": None}
#: Where the site serves the expert's files (tools/build_site.py WORKER_FILES): out of the package zip, so the page
#: never downloads them; the worker fetches them when an expert first plays. The model (the linear value and the
#: prior of the tree search, 3 and 4 players) is needed; the network (2 players) is used when it can be read.
MODEL_PATH = "splendor/ai/expert_model.json"
NET_PATH = "splendor/ai/expert_net.json"


def _ensure_model(request_text):
    """Before the first move of a level that plays the expert's network or model, or a hint: fetch its model and
    network into this worker's copy of the package, where
    ``splendor.ai.learned`` and ``splendor.ai.expert`` read them. Synchronous requests, which a worker may make (the
    service worker answers them from its cache when offline); a model that cannot be fetched leaves the file missing
    and the expert's answer says why; a network that cannot be fetched leaves the expert on its tree search."""
    try:
        request = json.loads(request_text)
        # (the levels the page's own thread plays as they are need none of the expert's files; every other level
        # is the expert's network and search, made weaker or not, and a hint or a review is the expert's)
        light = same_here(request.get("level")) and request.get("mode") != "hint"
    except (ValueError, AttributeError):
        light = False  # the protocol answers what it cannot read; fetching first costs nothing more
    if light:
        return
    from splendor.ai import expert, learned
    if not SITE["base"]:
        return
    from pyodide.http import open_url  # Pyodide's own module: only in the browser

    for path, local, needed in ((MODEL_PATH, learned.MODEL_FILE, True), (NET_PATH, expert.NET_FILE, False)):
        if os.path.exists(local):
            continue
        try:
            text = open_url(SITE["base"] + path).read()
        except Exception:  # (OSError or a JavaScript error, by the browser)
            if needed:
                raise
            continue
        with open(local, "w", encoding="utf-8") as f:
            f.write(text)


def choose(request_text):
    """A bot's move (or a hint) for the request: see ``splendor.web.botcall`` and ``splendor.ai.protocol``."""
    fault = _test_fault(request_text)
    _ensure_model(request_text)
    if fault == "crash":
        raise RuntimeError("test hook: the bot helper crashed on purpose")
    if fault == "hang":
        _busy(30.0)  # the page stops this worker long before
    reply = answer(request_text)
    if fault == "stale":
        data = json.loads(reply)
        data["turn_id"] = "0:0:0"  # an answer for a position long gone
        reply = json.dumps(data)
    return reply


def review(request_text):
    """A piece of a finished game's review (``splendor.ai.review.review_json``: a few positions a call, so the page
    shows progress and a cancel leaves this worker free within one piece). It judges with the expert's model."""
    try:
        _ensure_model('"expert"')
    except Exception as exc:  # no model: the review says why
        return json.dumps({"error": f"the expert's model could not be loaded ({type(exc).__name__})"})
    from splendor.ai.review import review_json

    return review_json(request_text)


def _busy(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def _test_fault(request_text):
    """TEST HOOK: a request carrying ``"test_fault"`` (sent only when the page's address has
    ``test_worker_fault=...``, see main.py) makes this worker crash, hang or answer for an old position, so the
    browser tests can check that the page recovers (``ping`` takes ``"test_fault": "silent"``: a worker that starts but
never answers). Any other request is answered normally."""
    if '"test_fault"' not in request_text:
        return None
    try:
        fault = json.loads(request_text).get("test_fault")
    except (ValueError, AttributeError):
        return None
    return fault if fault in ("crash", "hang", "stale") else None


def ping(json_text):
    """Liveness check: the page's first call once the worker is up, and the tests'. Echoes the request."""
    request = json.loads(json_text)
    if isinstance(request.get("site"), str):
        SITE["base"] = request["site"]
    if request.get("test_fault") == "silent":  # TEST HOOK (see _test_fault): never answer the first call
        _busy(60.0)
    return json.dumps({"pong": "pong", "echo": request, "python": sys.version.split()[0],
                       "bytecode": bytecode_state()})


__export__ = ["choose", "ping", "review"]
