"""The bots (every module under splendor/ai) read the engine through its public names only: its properties, its
live read for their inner loops (``Game.player_list``, ``market_rows``...; docs/DEVELOPING.md, "The engine's API")
and its methods. No attribute the engine keeps private (``_players``, ``_market``, ``p._reserved``, ``phase_``...)
and no private function of the engine is read there, and the rules' numbers are imported, not written again."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "splendor" / "engine"
AI = ROOT / "splendor" / "ai"


def _private(name):
    return (name.startswith("_") and not name.endswith("__")) or name.endswith("_") and not name.startswith("_")


def engine_private_names():
    """Every private name the engine's classes keep or define: the attributes its methods set on ``self``, its
    ``__slots__``, its private methods and functions, and internal state named with a trailing underscore."""
    names = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                if isinstance(node.ctx, ast.Store) and _private(node.attr):
                    names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and _private(node.name):
                names.add(node.name)
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                      for t in node.targets):
                names.update(e.value for e in ast.walk(node.value)
                             if isinstance(e, ast.Constant) and isinstance(e.value, str) and _private(e.value))
    return names


def rules_constants():
    """The upper-case names that splendor/engine/rules.py and cards.py define (the rules' numbers, the colors)."""
    out = set()
    for name in ("rules.py", "cards.py"):
        for node in ast.parse((ENGINE / name).read_text("utf-8")).body:
            if isinstance(node, ast.Assign):
                out.update(t.id for t in node.targets if isinstance(t, ast.Name) and t.id.isupper())
    return out


def private_reads(source, private):
    """[(line, what)] of the engine's private names that ``source`` reads: attributes of anything but the module's
    own objects (``self``, ``cls``), and names imported from the engine."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in private:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append((node.lineno, "." + node.attr))
        elif isinstance(node, ast.ImportFrom) and "engine" in (node.module or ""):
            found += [(node.lineno, "import " + a.name) for a in node.names if _private(a.name)]
    return found


def restated(source, constants):
    """[(line, name)] of the rules' constants that ``source`` assigns at its top level."""
    return [(node.lineno, t.id) for node in ast.parse(source).body if isinstance(node, ast.Assign)
            for t in node.targets if isinstance(t, ast.Name) and t.id in constants]


def test_the_engine_private_names_are_found():
    names = engine_private_names()
    assert {"_players", "_market", "_supply", "_decks", "_nobles", "_reserved", "_open", "phase_",
            "_default_payment", "_history"} <= names
    assert "player_list" not in names and "tok" not in names and "phase" not in names
    assert {"WINNING_POINTS", "TOKEN_LIMIT", "RESERVE_LIMIT", "COLOR_INDEX"} <= rules_constants()


def test_every_ai_module_reads_only_the_engines_public_names():
    private, constants = engine_private_names(), rules_constants()
    modules = sorted(AI.rglob("*.py"))
    assert len(modules) >= 13
    found = []
    for path in modules:
        text = path.read_text("utf-8")
        rel = path.relative_to(ROOT)
        found += [f"{rel}:{line} reads {what}" for line, what in private_reads(text, private)]
        found += [f"{rel}:{line} restates {name}" for line, name in restated(text, constants)]
    assert found == [], "\n".join(found)


def test_the_check_catches_private_reads_imports_and_restated_constants():
    private, constants = engine_private_names(), rules_constants()
    source = ("from ..engine.game import _default_payment\nWINNING_POINTS = 15\n\n\ndef f(game, p):\n"
              "    points = [q.points for q in game._players]\n    return game.phase_, p._reserved, game.phase\n")
    assert sorted(private_reads(source, private)) == [(1, "import _default_payment"), (6, "._players"),
                                                      (7, "._reserved"), (7, ".phase_")]
    assert restated(source, constants) == [(2, "WINNING_POINTS")]
    # a class of the bots may keep fields of its own under any name
    assert private_reads("class B:\n    def f(self):\n        return self._players\n", private) == []
