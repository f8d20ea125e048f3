#!/usr/bin/env python3
"""Which standard-library modules the site imports: an import trace of the page and its bot worker, on a site
that ships Pyodide's whole library (needs the .venv from `make test` and Debian's chromium).

    .venv/bin/python tools/trace_imports.py [--quick]

Builds the site with ``--stdlib full`` into a temporary folder and uses the game as a player does
(tests/browser/import_trace.py ``exercise``: a whole game against the expert and the hard bot, a hint, an undo, a
restore, the results, game files, a broken file, the guide, the guided game, a crashing worker; ``--quick`` skips
playing the first game to its end). Prints every module of Pyodide's library that the page or the worker imported,
and those the cut library (tools/stdlib_cut.py) would lack: add them to ``KEEP`` there.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "tests", ROOT / "tests" / "browser"):
    sys.path.insert(0, str(_path))

from tools import build_site, stdlib_cut  # noqa: E402
from tools.chromium import ARGS, CHROMIUM  # noqa: E402
from tools.serve import start_server  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="do not play the first game to its end")
    args = parser.parse_args(argv)

    from import_trace import exercise
    from playwright.sync_api import sync_playwright

    published = ROOT / build_site.PYODIDE_DIR / "python_stdlib.zip"
    with zipfile_names(published) as names:
        library = set(stdlib_cut.module_names(names))
    with tempfile.TemporaryDirectory(prefix="splendor-trace-") as tmp:
        site = Path(tmp) / "site"
        build_site.build(site, allow_npm=False, quiet=True, stdlib="full")
        server, url = start_server(site)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                found = exercise(browser, url, Path(tmp), whole_game=not args.quick)
                browser.close()
        finally:
            server.stop()
        files = {rel: (ROOT / rel).read_bytes()
                 for rel in build_site.browser_package_files() + list(build_site.SCRIPT_FILES) if rel.endswith(".py")}
        kept = stdlib_cut.kept_modules(published, files)
    used = set()
    for side, (loaded, looked_up) in sorted(found.items()):
        mine = {name for name in loaded | looked_up if name in library}
        print(f"{side}: {len(mine)} modules of Pyodide's library imported")
        used |= mine
    print(" ".join(sorted(used)))
    lacking = sorted(name for name in used - kept if not stdlib_cut._never(name))
    left_out = sorted(name for name in used - kept if stdlib_cut._never(name))
    print(f"the cut library lacks {len(lacking)}: {' '.join(lacking) or '-'}")
    print(f"left out on purpose (tools/stdlib_cut.py NEVER): {' '.join(left_out) or '-'}")
    return 1 if lacking else 0


class zipfile_names:
    def __init__(self, path):
        import zipfile

        self.archive = zipfile.ZipFile(path)

    def __enter__(self):
        return self.archive.namelist()

    def __exit__(self, *exc):
        self.archive.close()


if __name__ == "__main__":
    sys.exit(main())
