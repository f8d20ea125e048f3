"""PLACEHOLDER AI worker entry (infrastructure smoke test); the web engineer replaces it.

Runs in a Web Worker with its own Pyodide. It must stay DOM-free, so no cross-origin
isolation headers are needed. Exported functions take and return JSON text.
"""

import json
import sys


def ping(json_text):
    """Health check: echo the request; importing the package proves [files] reached the worker."""
    import splendor

    request = json.loads(json_text)
    return json.dumps(
        {
            "pong": "pong",
            "echo": request,
            "python": sys.version.split()[0],
            "splendor": getattr(splendor, "__version__", "?"),
        }
    )


__export__ = ["ping"]
