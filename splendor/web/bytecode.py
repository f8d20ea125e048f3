"""Whether the browser's interpreter imported the package from bytecode (standard library only).

tools/build_site.py ships splendor.zip with each module's bytecode compiled by the site's own Pyodide; if that
ever stopped matching (another Pyodide, a broken build), Python would silently compile from source again and every
start would be slower. The page shows the answer as ``<body data-bytecode>`` and the worker in its ``ping``, so
the browser tests catch it.
"""

import importlib.util


def bytecode_state(module=None):
    """'compiled' when ``module`` (default: the engine's game module) has a bytecode file for this interpreter
    (its magic number) where the import system looks for it, else 'source'."""
    if module is None:
        from splendor.engine import game as module
    try:
        with open(module.__spec__.cached, "rb") as pyc:
            return "compiled" if pyc.read(4) == importlib.util.MAGIC_NUMBER else "source"
    except (OSError, TypeError, AttributeError):
        return "source"
