"""The bot worker (a PyScript worker named "ai"): JSON text in, JSON text out, no DOM.

Created lazily by ``main.py`` after the page is usable. Only the observation of the seat to act crosses into
it, so a bot cannot see what its seat may not.
"""

import json
import sys
import time

from splendor.web.botcall import answer
from splendor.web.bytecode import bytecode_state

try:  # import the bots now, while the page does not wait on this worker yet, not at the first move
    import splendor.ai.protocol  # noqa: F401
except ImportError:  # pragma: no cover - reported by the first answer instead
    pass


def choose(request_text):
    """A bot's move (or a hint) for the request: see ``splendor.web.botcall`` and ``splendor.ai.protocol``."""
    fault = _test_fault(request_text)
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
    if request.get("test_fault") == "silent":  # TEST HOOK (see _test_fault): never answer the first call
        _busy(60.0)
    return json.dumps({"pong": "pong", "echo": request, "python": sys.version.split()[0],
                       "bytecode": bytecode_state()})


__export__ = ["choose", "ping"]
