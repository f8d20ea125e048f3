"""The examples in the docstrings of the engine and the package run as tests (they are the API's first examples)."""

import doctest
import importlib

import pytest

MODULES = ["splendor", "splendor.engine", "splendor.engine.cards", "splendor.engine.actions", "splendor.engine.game",
           "splendor.engine.state", "splendor.engine.invariants"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_public_modules_do_have_examples():
    attempted = sum(doctest.testmod(importlib.import_module(n), verbose=False).attempted for n in MODULES)
    assert attempted >= 25
