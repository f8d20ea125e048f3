"""Fixtures shared by the CPython tests and the browser tests (tests/browser/conftest.py builds on them).

  built_site   session: (folder, precache manifest) of the site, built by tools/build_site.py into a temporary
               folder of this test process (read-only: tests that change files take ``site_copy``)
  site_copy    a private copy of that site, built and current, that the test may change

Tests marked ``slow`` (pytest.ini) are moved to the front of the run, so that xdist's workers share them out.

Building needs node and node_modules (the build compiles Python with the shipped Pyodide), so every test that uses
``built_site`` (directly or through ``site_copy``, ``site_dir``, ``site_url``, ``base_url``...) is marked ``site``
here: ``make check`` (``-m "not browser and not site"``) runs the rest with neither.

The site is built once per run: under pytest-xdist the first worker builds it into a folder the workers share (a
file lock makes the others wait) and each worker then takes its own copy. A copy keeps the files' times, so the
build run on it finds everything current (no second compile) and only checks it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import build_site  # noqa: E402

try:  # the expert's network with numpy, as the command line runs it (make test installs numpy), else plain Python
    import splendor.training.netnumpy  # noqa: E402, F401
except ImportError:
    pass

SITE_FIXTURE = "built_site"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SITE_FIXTURE in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.site)
    # Tests marked slow first, then the browser tests (7-30 s each), then the many short CPython tests: pytest-xdist
    # hands tests out in this order, so the longest run side by side from the start and the short ones fill the
    # end, instead of a long test ending the run on one worker while the other waits.
    items.sort(key=lambda item: (item.get_closest_marker("slow") is None, "browser" not in Path(str(item.path)).parts))


def _copy_site(source: Path, dest: Path) -> dict:
    shutil.copytree(source, dest, dirs_exist_ok=True)  # copy2: modification times kept
    return build_site.build(dest, quiet=True)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> tuple[Path, dict]:
    base = tmp_path_factory.getbasetemp()
    shared_root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    shared = shared_root / "site-shared"
    with open(shared_root / "site-shared.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_site.build(shared, quiet=True)  # the first caller builds; the others find it current
        out = tmp_path_factory.mktemp("site")
        shutil.copytree(shared, out, dirs_exist_ok=True)
    return out, build_site.build(out, quiet=True)


@pytest.fixture
def site_copy(built_site, tmp_path) -> Path:
    out = tmp_path / "site"
    _copy_site(built_site[0], out)
    return out
