"""Answer a bot request (JSON text in, JSON text out): what the worker runs, and the page's fallback.

Requests and answers follow ``splendor.ai.protocol``: ``{"turn_id", "observation", "level", "seed", "budget"?,
"mode"?}`` in (``"mode": "hint"`` asks what the expert would play for the person), ``{"turn_id", "action",
"explanation", "stats"}`` or ``{"turn_id", "error"}`` out. When the page must play without its worker, ``light=True``
replaces a searching level by a heuristic one so the page's own thread stays responsive.
"""

import json

from ..ai.ladder import NAMES
from ..ai.protocol import handle_json

#: What the page's thread plays instead of each level when the worker cannot: the expert's network and search are
#: too slow for it, so only the hand-written levels run there. The ladder's levels below medium play easy, medium and
#: every level above it play medium (random plays random).
LIGHT = {"random": "random", **{name: "easy" if i < NAMES.index("medium") else "medium"
                                for i, name in enumerate(NAMES)}}


def same_here(level):
    """Whether ``level`` plays exactly the same on the page's thread as in the worker (it does not search)."""
    return LIGHT.get(level) == level


def light_level(request_text):
    """The level the page's thread plays for ``request_text`` ("" for a request that cannot be read)."""
    try:
        return LIGHT.get(json.loads(request_text).get("level"), "medium")
    except (ValueError, AttributeError):
        return ""


def answer(request_text, light=False):
    """The protocol's answer to ``request_text`` (a move, or a hint when the request says ``"mode": "hint"``)."""
    if light:
        try:
            request = json.loads(request_text)
            request["level"] = LIGHT.get(request.get("level"), "medium")
            request.pop("budget", None)
            if request.get("mode") == "hint":
                request["budget"] = {"iterations": 1}
                request["light"] = True  # (the hint of the light level: the expert's search is the worker's)
            request_text = json.dumps(request)
        except (ValueError, AttributeError):
            pass  # the protocol itself answers a malformed request with an error
    return handle_json(request_text)
