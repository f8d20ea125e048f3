"""The package's import graph, read from the source (every import statement, those inside functions too): no module
imports itself back through others, and what the page runs never reaches training or numpy."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "splendor"


def _modules():
    """{dotted module name: path} of every module under splendor/ (a package by its ``__init__``)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name, path, modules):
    """[(imported dotted name, line)] of the module ``name``: absolute ``splendor...`` and relative imports, resolved
    to the modules of the package (``from .x import y`` names the module ``x.y`` when y is one, else ``x``)."""
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub if sub in modules else target, node.lineno))
    return [(t, line) for t, line in found if t in modules]


def _graph():
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}, modules


def _cycles(graph):
    """The strongly connected components of more than one module, or of one module importing itself (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w, _ in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or any(t == v for t, _ in graph[v]):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_reads_relative_imports_and_imports_inside_functions():
    graph, modules = _graph()
    assert "splendor.engine.game" in modules and "splendor.training.train" in modules
    # game.py imports state.py at the top; __main__ imports its commands inside a function
    assert "splendor.engine.state" in {t for t, _ in graph["splendor.engine.game"]}
    assert {"splendor.training.train", "splendor.training.arena"} <= {t for t, _ in graph["splendor.__main__"]}
    # a cycle is found where there is one
    assert _cycles({"a": [("b", 1)], "b": [("a", 1)], "c": [("a", 1)]}) == [["a", "b"]]
    assert _cycles({"a": [("a", 1)]}) == [["a"]]


def test_no_module_of_the_package_imports_itself_back():
    graph, _ = _graph()
    cycles = _cycles(graph)
    detail = []
    for comp in cycles:
        for v in comp:
            detail += sorted({f"{v} imports {t} (line {line})" for t, line in graph[v] if t in comp})
    assert not cycles, "import circles:\n" + "\n".join(detail)


def _reached(graph, start):
    seen, todo = set(), [start]
    while todo:
        v = todo.pop()
        if v not in seen:
            seen.add(v)
            todo += [t for t, _ in graph[v]]
    return seen


def test_what_the_page_runs_never_imports_training_or_numpy():
    graph, modules = _graph()
    runtime = [m for m in modules if m.startswith(("splendor.engine", "splendor.ai", "splendor.web"))]
    for m in runtime:
        training = sorted(t for t in _reached(graph, m) if t.startswith("splendor.training"))
        assert not training, f"{m} reaches {training}"
    for m in runtime:
        for node in ast.walk(ast.parse(modules[m].read_text("utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            assert not [n for n in names if n.split(".")[0] == "numpy"], f"{m} imports numpy (line {node.lineno})"


def test_the_search_tests_leave_training_to_its_own_files():
    """The training commands (train, train_tables, selfplay and their common part) are tested in
    tests/test_training_*.py; the bots' tests (tests/test_ai_*.py) may play games through the arena, nothing more."""
    training = {"splendor.training.train", "splendor.training.train_tables", "splendor.training.selfplay",
                "splendor.training.common"}
    found = []
    for path in sorted((ROOT / "tests").glob("test_ai_*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            found += [f"{path.name}:{node.lineno} {n}" for n in names if n in training]
    assert found == []
    assert len(list((ROOT / "tests").glob("test_training_*.py"))) >= 4
