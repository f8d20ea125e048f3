"""splendor.web.bytecode under CPython: it tells a module imported from bytecode from one compiled from source."""

import importlib
import importlib.util
import py_compile
import sys

from splendor.web.bytecode import bytecode_state


def _import(tmp_path, name, compiled):
    source = tmp_path / f"{name}.py"
    source.write_text("VALUE = 42\n")
    if compiled:
        py_compile.compile(str(source), cfile=importlib.util.cache_from_source(str(source)), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def test_a_module_with_its_bytecode_is_compiled(tmp_path):
    assert bytecode_state(_import(tmp_path, "with_bytecode_mod", compiled=True)) == "compiled"


def test_a_module_without_bytecode_is_source(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert bytecode_state(_import(tmp_path, "without_bytecode_mod", compiled=False)) == "source"


def test_bytecode_of_another_python_counts_as_source(tmp_path):
    module = _import(tmp_path, "other_python_mod", compiled=True)
    with open(module.__spec__.cached, "r+b") as pyc:
        pyc.write(b"\x00\x00\r\n")  # another interpreter's magic number
    assert bytecode_state(module) == "source"
