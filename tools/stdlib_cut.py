"""The standard library the site ships: Pyodide's, cut to the modules the page, its bot worker and PyScript import
(standard library only; tools/build_site.py calls it).

Pyodide publishes about 600 modules (2.5 MB of source with gzip, 4.5 MB once compiled to bytecode); the game runs a
few dozen of them. The site's ``runtime/pyodide/python_stdlib.zip`` holds only:

1. ``KEEP`` below: the modules found by an import trace of the running site (Pyodide's and PyScript's start, the page
   and the worker through whole games, a review, restored saves, game files, the guide and the tutorial, a worker
   that crashes; ``tools/trace_imports.py``), and a few kept on purpose for code to come;
2. every standard-library module that a module of the package the browser loads imports (read from its source, the
   imports inside functions too): a new ``import statistics`` under ``splendor/`` needs no entry here;
3. what those import in turn when they are imported (their imports at module level, read from Pyodide's own source,
   each package with its ``__init__``), and the data files of each kept package.

What a module imports only inside a function, or by name at run time, is found by the trace alone: when the page or
the worker needs a module the cut library lacks, ``tests/browser/test_stdlib_cut.py`` fails and names the module to
add to ``KEEP`` (a missing module breaks the page at that moment, or silently changes what a ``try: import``
falls back to). ``python3 tools/stdlib_cut.py`` prints what is kept and its size.
"""

from __future__ import annotations

import ast
import io
import sys
import zipfile
from pathlib import Path

#: Standard-library modules the site keeps beyond what the package imports by name (2.) and their module-level
#: imports (3.): one list, the only one to edit. Add a module here when the page or the worker imports it at run
#: time and the cut library lacks it (tests/browser/test_stdlib_cut.py names it). A package keeps its ``__init__``
#: and data files; a submodule is named with dots ("encodings.utf_8").
KEEP = [
    # Found by the import trace (tools/trace_imports.py, 2026-12-05): Pyodide's and PyScript's start, the page and
    # the bot worker through the game, its files, the guide and a crashing worker.
    "__future__", "_collections_abc", "_colorize", "_opcode_metadata", "_py_warnings", "_pyodide", "_pyodide._base",
    "_pyodide._core_docs", "_pyodide._future_helper", "_pyodide._importhook", "_pyodide.docs_argspec",
    "_pyodide.docstring", "_pyodide.jsbind", "_sitebuiltins", "_weakrefset", "abc", "annotationlib", "ast",
    "asyncio", "asyncio.base_events", "asyncio.base_futures", "asyncio.base_subprocess", "asyncio.base_tasks",
    "asyncio.constants", "asyncio.coroutines", "asyncio.events", "asyncio.exceptions", "asyncio.format_helpers",
    "asyncio.futures", "asyncio.graph", "asyncio.locks", "asyncio.log", "asyncio.mixins", "asyncio.protocols",
    "asyncio.queues", "asyncio.runners", "asyncio.selector_events", "asyncio.sslproto", "asyncio.staggered",
    "asyncio.streams", "asyncio.subprocess", "asyncio.taskgroups", "asyncio.tasks", "asyncio.threads",
    "asyncio.timeouts", "asyncio.transports", "asyncio.trsock", "asyncio.unix_events", "base64", "bisect", "codecs",
    "codeop", "collections", "concurrent", "concurrent.futures", "concurrent.futures._base", "contextlib",
    "contextvars", "copy", "copyreg", "csv", "dataclasses", "dis", "encodings", "encodings.aliases",
    "encodings.cp437", "encodings.utf_8", "enum", "fnmatch", "functools", "genericpath", "glob", "heapq", "html",
    "html.entities", "importlib", "importlib._abc", "importlib.abc", "importlib.machinery", "importlib.util",
    "inspect", "io", "ipaddress", "json", "json.decoder", "json.encoder", "json.scanner", "keyword", "linecache",
    "locale", "logging", "ntpath", "opcode", "operator", "os", "pathlib", "pathlib._os", "posixpath", "pyodide",
    "pyodide._package_loader", "pyodide._state", "pyodide.code", "pyodide.common", "pyodide.ffi", "pyodide.http",
    "pyodide.http._exceptions", "pyodide.http._pyfetch", "pyodide.http.pyxhr", "pyodide.webloop", "random", "re",
    "re._casefix", "re._compiler", "re._constants", "re._parser", "reprlib", "selectors", "shutil", "signal",
    "site", "socket", "stat", "string", "struct", "subprocess", "tempfile", "textwrap", "threading", "token",
    "tokenize", "traceback", "types", "typing", "urllib", "urllib.parse", "warnings", "weakref", "zipfile",
    "zipfile._path", "zipfile._path.glob",
    # Kept ahead of the code that will import them: the expert's network (splendor/ai), which the package's own
    # imports would bring in anyway once written (array, itertools, math and zlib are built into Pyodide's
    # interpreter: listed for the record, nothing to ship).
    "array", "base64", "bisect", "functools", "heapq", "itertools", "json", "math", "random", "struct", "zlib",
    # The codecs a text file or a stream may name besides UTF-8 (a few hundred bytes each).
    "encodings.ascii", "encodings.latin_1", "encodings.utf_8_sig",
]

#: Left out even when something imports them at module level (each with what it contains): nothing the site runs
#: reaches them. Their importers only try them (``try: import ssl`` / ``except ImportError: ssl = None``) and work
#: without them, or the interpreter has them built in.
NEVER = (
    "ssl",  # TLS sockets (asyncio tries it): the page never opens a socket
    "bz2", "lzma", "compression",  # zipfile's and shutil's optional compressions: the zips PyScript unpacks deflate
    "importlib._bootstrap", "importlib._bootstrap_external", "zipimport",  # frozen into the interpreter, which uses
                                                                           # those
    "_ssl",  # ssl's helper
    "_pyrepl",  # the interactive prompt (pyodide.console tries it)
)

SOURCE_SUFFIXES = (".py", ".pyc")


def module_names(names: list[str]) -> dict[str, str]:
    """Module name -> zip entry, for the entries of a library zip ("json/__init__.pyc" is "json")."""
    modules = {}
    for entry in names:
        if not entry.endswith(SOURCE_SUFFIXES):
            continue
        stem = entry.rsplit(".", 1)[0]
        parts = stem.split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts and all(part.isidentifier() for part in parts):
            modules[".".join(parts)] = entry
    return modules


def _is_package(entry: str) -> bool:
    return entry.rsplit("/", 1)[-1].startswith("__init__.")


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str | None:
    if not node.level:
        return node.module
    parts = module.split(".") if is_package else module.split(".")[:-1]
    if node.level > 1:
        parts = parts[: len(parts) - node.level + 1] if node.level - 1 <= len(parts) else []
    if not parts:
        return None
    return ".".join(parts + ([node.module] if node.module else []))


def _source(node: ast.AST) -> str:
    return ast.unparse(node).replace("'", '"')


# Conditions at module level whose value in Pyodide is known: only the branch it runs is read.
_TRUE = {"sys.platform == \"emscripten\"", "os.name == \"posix\"", "sys.platform != \"win32\"",
         "os.name != \"nt\"", "sys.platform != \"darwin\""}
_FALSE = {"__name__ == \"__main__\"", "TYPE_CHECKING", "typing.TYPE_CHECKING", "sys.platform == \"win32\"",
          "os.name == \"nt\"", "sys.platform == \"darwin\"", "_mswindows", "sys.platform.startswith(\"win\")",
          "sys.platform in (\"win32\", \"cygwin\")", "sys.platform in {\"win32\", \"cygwin\"}"}


def _branch_in_pyodide(test: ast.AST) -> bool | None:
    text = _source(test)
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    names = _source(handler.type)
    return "ImportError" in names or "ModuleNotFoundError" in names or "Exception" in names


def imported_names(source: bytes | str, module: str = "", is_package: bool = False,
                   module_level: bool = True) -> set[str]:
    """Every module name ``source`` imports: ``import a.b`` gives a and a.b, ``from a import b`` gives a and a.b
    (b may be a submodule; the caller keeps only names that are modules). ``module_level``: only the imports that
    run when the module is imported (not those inside functions)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    found: set[str] = set()

    def add(name: str | None) -> None:
        if name:
            parts = name.split(".")
            found.update(".".join(parts[: i + 1]) for i in range(len(parts)))

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if module_level and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if module_level and isinstance(child, ast.If):
                taken = _branch_in_pyodide(child.test)
                if taken is not None:  # only the branch Pyodide runs
                    for statement in child.body if taken else child.orelse:
                        visit(ast.Module(body=[statement], type_ignores=[]))
                    continue
            if module_level and isinstance(child, ast.ExceptHandler) and not _catches_import_error(child):
                continue  # an error's handler (logging a failure), not a fallback import
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name)
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(module, is_package, child)
                add(base)
                if base:
                    for alias in child.names:
                        if alias.name != "*":
                            found.add(f"{base}.{alias.name}")
            visit(child)

    visit(tree)
    return found


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _never(name: str) -> bool:
    return any(name == left or name.startswith(left + ".") for left in NEVER)


def closure(roots, sources: dict[str, tuple[bytes, bool]]) -> set[str]:
    """The modules of ``sources`` (name -> (source, is_package)) that importing ``roots`` imports: each root, its
    parent packages, and recursively what each imports at module level. Names that are not modules of ``sources``
    (built-in modules, a name imported from a module) are dropped."""
    kept: set[str] = set()
    todo = [name for root in roots for name in _parents(root)]
    while todo:
        name = todo.pop()
        if name in kept or name not in sources or _never(name):
            continue
        kept.add(name)
        source, is_package = sources[name]
        for found in imported_names(source, name, is_package):
            todo.extend(p for p in _parents(found) if p not in kept)
    return kept


def read_sources(source_zip: Path) -> dict[str, tuple[bytes, bool]]:
    """Module name -> (source, is_package) of Pyodide's published library (python_stdlib.zip, as source)."""
    with zipfile.ZipFile(source_zip) as archive:
        modules = module_names(archive.namelist())
        return {name: (archive.read(entry), _is_package(entry)) for name, entry in modules.items()
                if entry.endswith(".py")}


def package_imports(files: dict[str, bytes]) -> set[str]:
    """Every module name imported anywhere in ``files`` (path -> source of the package's .py files the browser
    loads), inside functions too."""
    found: set[str] = set()
    for rel, source in files.items():
        module = rel[:-3].replace("/", ".")
        is_package = module.endswith(".__init__")
        if is_package:
            module = module[: -len(".__init__")]
        found |= imported_names(source, module, is_package, module_level=False)
    return found


def kept_modules(source_zip: Path, package_files: dict[str, bytes], keep=None) -> set[str]:
    """The modules the cut library holds: the closure of ``keep`` (default ``KEEP``) and of the package's imports."""
    sources = read_sources(source_zip)
    roots = set(KEEP if keep is None else keep) | package_imports(package_files)
    return closure(sorted(roots), sources)


def _entry_module(entry: str, packages: set[str]) -> str | None:
    """The kept package a data file belongs to (its nearest package folder), or None for a file at the top."""
    parts = entry.split("/")[:-1]
    while parts:
        name = ".".join(parts)
        if name in packages:
            return name
        parts.pop()
    return None


def cut(compiled_zip: Path, kept: set[str]) -> bytes:
    """The bytes of ``compiled_zip`` (the library compiled to bytecode) holding only the ``kept`` modules and the
    data files of kept packages; entries keep their order, dates and compression, so the same input gives the same
    bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(compiled_zip) as source, zipfile.ZipFile(out, "w") as target:
        modules = module_names(source.namelist())
        by_entry = {entry: name for name, entry in modules.items()}
        packages = {name for name, entry in modules.items() if _is_package(entry)}
        for info in source.infolist():
            name = by_entry.get(info.filename)
            if name is None:
                folder = info.filename.rstrip("/").replace("/", ".") if info.is_dir() else None
                if folder not in kept and _entry_module(info.filename, packages) not in kept:
                    continue
            elif name not in kept:
                continue
            target.writestr(info, source.read(info), compress_type=info.compress_type, compresslevel=9)
    return out.getvalue()


def missing(traced: set[str], full: set[str], cut_modules: set[str]) -> list[str]:
    """The traced imports that Pyodide's library has and the cut one lacks, sorted (what to add to ``KEEP``)."""
    return sorted(name for name in traced if name in full and name not in cut_modules)


def missing_message(names: list[str], where: str) -> str:
    keep = ", ".join(f'"{name}"' for name in names)
    return (f"{where} imported {keep}, which the site's cut standard library lacks: add {keep} to KEEP in "
            f"tools/stdlib_cut.py (what is imported inside a function or by name at run time is found only by "
            f"the trace)")


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from tools import build_site

    files = {rel: (root / rel).read_bytes()
             for rel in build_site.browser_package_files() + list(build_site.SCRIPT_FILES) if rel.endswith(".py")}
    kept = kept_modules(root / build_site.PYODIDE_DIR / "python_stdlib.zip", files)
    compiled = build_site.compiled_stdlib()
    data = cut(compiled, kept)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        sizes = {info.filename: info.compress_size for info in archive.infolist()}
    for name in sorted(kept):
        print(name)
    print(f"{len(kept)} modules, {len(sizes)} entries, {len(data):,} bytes (compiled library: "
          f"{compiled.stat().st_size:,})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
