"""The linter (ruff, pinned in requirements-dev.txt, rules in ruff.toml) passes on splendor/, tests/ and tools/, and
its rule set does catch what it is there for: an unused import, an undefined name, a line past 120 columns."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args, cwd=ROOT):
    try:
        import ruff  # noqa: F401 (only to say how to install it when it is missing)
    except ImportError:
        raise AssertionError("ruff is not installed: .venv/bin/python -m pip install -r requirements-dev.txt") from None
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_code_passes_the_linter():
    done = ruff("check", "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_rule_set_catches_unused_imports_undefined_names_and_long_lines(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\n\ndef f():\n    return missing\n\n\nX = '" + "x" * 120 + "'\n")
    done = ruff("check", "--no-cache", "--config", str(ROOT / "ruff.toml"), "--output-format", "concise", str(bad),
                cwd=tmp_path)
    assert done.returncode == 1
    for rule in ("F401", "F821", "E501"):
        assert rule in done.stdout, done.stdout
