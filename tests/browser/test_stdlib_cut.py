"""The site's cut standard library (tools/stdlib_cut.py) holds every module the page and its bot worker import:
the game is used as a player does (tests/browser/import_trace.py ``exercise``: moves against the expert and the hard
bot, a hint, an undo, a restore, the end of a game and its results, game files, a broken file, the guide, the guided
game, a crashing worker) with every import traced, and each module the page or the worker looked up that Pyodide's
library has must be in the site's library. A module imported inside a function of the standard library, or by name at
run time, is found only this way: the failure names it and where to add it."""

from __future__ import annotations

import re
import zipfile

import pytest
from import_trace import exercise

from tools import build_site, stdlib_cut


def library_modules(path) -> set[str]:
    with zipfile.ZipFile(path) as archive:
        return set(stdlib_cut.module_names(archive.namelist()))


@pytest.mark.slow  # several games and pages: started first (tests/conftest.py)
def test_every_module_the_page_and_the_worker_import_is_in_the_cut_library(browser, site_dir, site_url, tmp_path):
    full = library_modules(build_site.ROOT / build_site.PYODIDE_DIR / "python_stdlib.zip")
    shipped = library_modules(site_dir / build_site.STDLIB_SITE)
    errors: list[str] = []
    try:
        found = exercise(browser, site_url, tmp_path, errors=errors)
    except Exception:
        # A module the start needs stops the page or the worker before the trace can be read: name it.
        said = "\n".join(errors)
        lacking = sorted(set(re.findall(r"No module named '([\w.]+)'", said)) | {
            "encodings." + name.lower().replace("-", "_") for name in re.findall(r"unknown encoding: ([\w-]+)", said)})
        if lacking:
            pytest.fail(stdlib_cut.missing_message(lacking, "the page or the bot worker"))
        raise
    assert not [e for e in errors if "No module named" in e or "unknown encoding" in e], errors
    assert set(found) == {"page", "worker"}, "the trace did not reach the bot worker"
    for side, (loaded, looked_up) in found.items():
        assert {"json", "random", "splendor.engine.game", "splendor.ai.protocol"} <= loaded, side
        wanted = {name for name in loaded | looked_up if not stdlib_cut._never(name)}
        lacking = stdlib_cut.missing(wanted, full, shipped)
        where = "the page" if side == "page" else "the bot worker"
        assert lacking == [], stdlib_cut.missing_message(lacking, where)
    # The page's own modules came from the package, and the game ran: the worker imported its bots.
    assert "splendor.web.controller" in found["page"][0]
    assert "splendor.ai.expert" in found["worker"][0]
