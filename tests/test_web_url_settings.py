"""Every URL setting the page reads is known to the deal links, so a link that carries one (a test's or a
benchmark's) is never told to the person as "Ignored in the link". The settings are read from the page's source
(every ``param("...")`` and ``_seconds("...", ...)`` call in splendor/web), so a new one cannot be forgotten."""

import ast
from pathlib import Path

import pytest

from splendor.web.records import deal_link

WEB = Path(__file__).resolve().parent.parent / "splendor" / "web"
READERS = ("param", "_seconds")  # main.py's reader of the address's query, and its reader of a number of seconds


def settings_read_by_the_page():
    """{setting: [files]} for each string literal passed first to a reader of the query, in every file of the web
    package."""
    found = {}
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in READERS
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value, []).append(path.name)
    return found


def test_the_page_reads_the_settings_this_test_expects_to_find():
    # The scan itself works: it finds the settings main.py is known to read (else the test below checks nothing).
    read = settings_read_by_the_page()
    assert {"pace", "bot_budget", "worker", "bot_patience", "worker_boot", "test_worker_fault"} <= set(read), read


def test_every_setting_the_page_reads_is_known_to_the_deal_links():
    read = settings_read_by_the_page()
    known = set(deal_link.DEAL_PARAMS) | set(deal_link.QUIET_PARAMS)
    assert not set(read) - known, {name: read[name] for name in set(read) - known}
    assert not set(deal_link.QUIET_PARAMS) - set(read), "a quiet setting that the page no longer reads"


@pytest.mark.parametrize("name", sorted(set(deal_link.QUIET_PARAMS)))
def test_a_page_setting_in_a_link_is_not_called_ignored(name):
    assert deal_link.parse([(name, "1")]) is None  # alone: no deal in the address
    link = deal_link.parse([("seed", "4711"), (name, "1")])
    assert link.settings == {"seed": "4711"} and link.ignored == [] and link.ignored_words() == ""


def test_the_test_hooks_are_declared_apart_from_the_page_settings():
    assert "test_worker_fault" in deal_link.TEST_PARAMS and "test_worker_fault" not in deal_link.PAGE_PARAMS
    assert all(name.startswith("test_") for name in deal_link.TEST_PARAMS)
    assert not any(name.startswith("test_") for name in deal_link.PAGE_PARAMS)
    # A test hook stays out of the links the page writes (only the deal's own parameters go in).
    assert not set(deal_link.QUIET_PARAMS) & set(deal_link.DEAL_PARAMS)
