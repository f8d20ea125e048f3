"""splendor/web has no import circles (issue 18): every import between its modules, at the top or inside a
function, read from the source, makes a graph without cycles."""

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "splendor" / "web"


def _name(path):
    """A module's dotted name under splendor.web ("view", "table.seats")."""
    return ".".join(path.relative_to(WEB).with_suffix("").parts)


def imports_of(path):
    """The splendor.web modules ``path`` imports (relative or absolute, anywhere in the file), by dotted name."""
    package = list(path.relative_to(WEB).parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # from .x import y, from ..table import words
                up = node.level - 1
                if up > len(package):
                    continue  # above splendor.web (the engine, the bots)
                base = package[: len(package) - up]
            elif (node.module or "").startswith("splendor.web"):
                base = []
            else:
                continue
            module = (node.module or "").split(".") if node.module else []
            if not node.level:
                module = module[2:]
            target = ".".join(base + module)
            found.add(target)
            found.update(f"{target}.{a.name}" if target else a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("splendor.web."):
                    found.add(a.name[len("splendor.web."):])
    return {m for m in found if (WEB / (m.replace(".", "/") + ".py")).exists()}


def cycles(graph):
    out, state, stack = [], {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                out.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return out


def test_the_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_web_has_no_import_circles():
    graph = {_name(p): imports_of(p) for p in WEB.rglob("*.py")}
    assert graph["view"] >= {"table.faces", "learn.learn_view", "table.seats"}  # the reader sees the imports
    assert "learn.learn" not in graph["view"]  # the package learn/ is not its module learn.py
    assert graph["learn.learn_view"] >= {"learn.guide", "records.player_record", "table.seats"}
    assert "controller" not in graph["records.records_io"] and "view" not in graph["learn.guide"]
    assert cycles(graph) == []
