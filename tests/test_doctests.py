"""The ``>>>`` examples in the package's docstrings run as tests (they are the API's first examples), and every
example under splendor/ is run: a module with examples that is not in MODULES, or an example that doctest does not
find where it is written (a comment, a nested function's docstring), fails ``test_every_example_is_run``."""

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "splendor"

MODULES = [
    "splendor",
    "splendor.ai",
    "splendor.ai.coach",
    "splendor.ai.encoding",
    "splendor.ai.explain",
    "splendor.ai.ladder",
    "splendor.ai.review",
    "splendor.ai.netfile",
    "splendor.ai.puct",
    "splendor.ai.weakened",
    "splendor.engine.actions",
    "splendor.engine.cards",
    "splendor.engine.game",
    "splendor.engine.invariants",
    "splendor.training.ladder",
    "splendor.training.netdata",
    "splendor.web.controller",
    "splendor.web.learn.guide",
    "splendor.web.learn.tutorial",
    "splendor.web.records.deal_link",
    "splendor.web.records.finished",
    "splendor.web.records.player_record",
    "splendor.web.records.rating",
    "splendor.web.puzzles.daily",
    "splendor.web.puzzles.pool",
    "splendor.web.records.records_io",
    "splendor.web.records.storage",
    "splendor.web.table.faces",
    "splendor.web.table.keyboard",
    "splendor.web.table.pass_play",
    "splendor.web.table.seats",
    "splendor.web.table.words",
    "splendor.web.view",
]

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
PROMPT = re.compile(r"^\s*>>>(?: |$)", re.M)


def _prompts_in_sources():
    """{dotted module name: number of ``>>>`` prompt lines in its source} of the modules under splendor/ that have
    any."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        count = len(PROMPT.findall(path.read_text("utf-8")))
        if count:
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = count
    return out


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False, report=False)
    assert result.attempted, f"{name} is listed but has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_every_example_is_run():
    written = _prompts_in_sources()
    assert set(written) - set(MODULES) == set(), "modules with >>> examples that no doctest run collects"
    assert set(MODULES) - set(written) == set(), "modules listed without any >>> example"
    for name, count in written.items():
        found = sum(len(t.examples) for t in doctest.DocTestFinder().find(importlib.import_module(name)))
        assert found == count, f"{name}: {count} >>> lines in the source, {found} found by doctest"


def test_the_check_finds_examples_out_of_reach(tmp_path, monkeypatch):
    """The count that test_every_example_is_run compares: an example in a nested function's docstring is written
    but not found."""
    source = ('def f():\n    """\n    >>> 1\n    1\n    """\n'
              '    def g():\n        """\n        >>> 2\n        2\n        """\n')
    (tmp_path / "doctest_probe.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("doctest_probe")
    written = len(PROMPT.findall(source))
    assert (written, sum(len(t.examples) for t in doctest.DocTestFinder().find(module))) == (2, 1)
