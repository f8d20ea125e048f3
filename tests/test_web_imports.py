"""splendor/web has no import circles (issue 18): every import between its modules, at the top or inside a
function, read from the source, makes a graph without cycles."""

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "splendor" / "web"


def imports_of(path):
    """The splendor.web modules ``path`` imports (relative or absolute, anywhere in the file)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:  # from .x import y
                found.add(node.module.split(".")[0])
            elif node.level == 1:  # from . import x, y
                found.update(a.name for a in node.names)
            elif node.level == 0 and (node.module or "").startswith("splendor.web"):
                rest = node.module.split(".")[2:]
                found.update([rest[0]] if rest else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("splendor.web."):
                    found.add(a.name.split(".")[2])
    return {m for m in found if (WEB / f"{m}.py").exists()}


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
    graph = {p.stem: imports_of(p) for p in WEB.glob("*.py")}
    assert graph["view"] >= {"faces", "learn_view", "seats"}  # the reader sees the imports
    assert "controller" not in graph["records_io"] and "view" not in graph["guide"]
    assert cycles(graph) == []
