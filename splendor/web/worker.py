"""The bot worker (a PyScript worker named "ai"): JSON text in, JSON text out, no DOM.

Created lazily by ``main.py`` after the page is usable. Only the observation of the seat to act crosses into
it, so a bot cannot see what its seat may not.
"""

import json
import sys

from splendor.web.botcall import answer

try:  # import the bots now, while the page does not wait on this worker yet, not at the first move
    import splendor.ai.protocol  # noqa: F401
except ImportError:  # pragma: no cover - reported by the first answer instead
    pass


def choose(request_text):
    """A bot's move (or a hint) for the request: see ``splendor.web.botcall`` and ``splendor.ai.protocol``."""
    return answer(request_text)


def ping(json_text):
    """Liveness check for tests: echoes the request."""
    request = json.loads(json_text)
    return json.dumps({"pong": "pong", "echo": request, "python": sys.version.split()[0]})


__export__ = ["choose", "ping"]
