#!/usr/bin/env python3
"""Assemble the deployable static site into ``site/`` (standard library only).

    python3 tools/build_site.py [--out DIR] [--no-npm]

What lands in the site:
  index.html         <- the repository's, with pyscript.toml written into its <script type="py"> as inline
                        JSON (config="./pyscript.toml" -> config="{...}"): PyScript then neither fetches the
                        toml nor its TOML parser before starting Pyodide (0.14 s of a cold start)
  pyscript.toml (+ a few optional root files), assets/**,
  splendor.zip       <- the package as the browser interpreters load it (pyscript.toml [files] unpacks it):
                        every module of splendor/ the browser uses as bytecode compiled by the shipped Pyodide
                        itself (tools/compile_pyc.mjs under node), so neither the page nor the bot worker compiles
                        the package at each start, without its source (135 KB with gzip: nothing reads it; a
                        traceback names the file and line), and the *.csv and *.json it reads
  splendor/web/main.py, splendor/web/worker.py  <- the two scripts PyScript fetches by address
  runtime/pyscript/  <- node_modules/@pyscript/core/dist/ (everything but source maps)
  runtime/pyodide/   <- the five Pyodide files PyScript needs; python_stdlib.zip cut to the modules the site
                        imports (tools/stdlib_cut.py: KEEP and what the package imports) and compiled to
                        bytecode by that Pyodide (once per version, cached in node_modules/.cache): Pyodide 314
                        publishes all of it as source, and compiling it was most of every start
  runtime/axe/       <- axe-core (accessibility tests only)
  sw.js              <- generated from tools/sw.template.js: precaches every file the page needs
  precache.json      <- {"cache": ..., "hash": ..., "urls": [...], "revisions": {...}} for tests
  _headers           <- Netlify headers: immutable caching for PyScript's content-hashed chunks
                        (tools/netlify_headers.py; a root _headers file is prepended)

The build is incremental and idempotent: unchanged files are not copied again and files that no
longer belong to the site are removed. It runs ``npm ci`` first when node_modules is missing, is
older than package-lock.json, or holds other versions than the lock names.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools import stdlib_cut  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "site"

ROOT_FILES = ["index.html", "pyscript.toml"]
OPTIONAL_ROOT_FILES = ["favicon.ico", "manifest.webmanifest", "robots.txt"]
PACKAGE = "splendor"
PACKAGE_SUFFIXES = {".py", ".csv", ".json"}
# Present in the package but not loaded by the browser interpreters, so not in splendor.zip:
# the command line and its commands (terminal play, benchmarks, soak).
NOT_IN_BROWSER = {"splendor/__main__.py", "splendor/bench.py", "splendor/soak.py", "splendor/play.py"}
# Whole packages left out: training and measuring the bots (the fits, the arena) never run in the page.
NOT_IN_BROWSER_DIRS = ("splendor/tests/", "splendor/training/")
SKIP_DIR_NAMES = {"__pycache__", ".pytest_cache", ".hypothesis"}
# The scripts PyScript fetches by address (index.html's <script type="py" src> and the worker's src): plain
# files in the site. Everything else the browser imports comes from the zip.
SCRIPT_FILES = ("splendor/web/main.py", "splendor/web/worker.py")
# Plain files that only the bot worker fetches, by address, when it first needs them: the expert's model (its
# value and policy) and its network (docs/NETWORK.md). Out of the zip, so the page's first paint never downloads
# them; precached like every site file, so the expert plays offline.
WORKER_FILES = ("splendor/ai/expert_model.json", "splendor/ai/expert_net.json")
# Binary files of the bots (a WebAssembly kernel, a network's weights) under these folders are plain site files too,
# precached, whatever their name: the worker fetches them by address (never in the zip, which holds only what the
# import system reads).
WORKER_FILE_DIRS = ("splendor/ai/",)
WORKER_FILE_SUFFIXES = (".wasm", ".bin")


def worker_binary_files(root: Path | None = None) -> list[str]:
    """The bots' binary files the site serves as they are (``WORKER_FILE_SUFFIXES`` under ``WORKER_FILE_DIRS``)."""
    root = root or ROOT
    found = []
    for folder in WORKER_FILE_DIRS:
        for path in _walk(root / folder):
            if path.suffix in WORKER_FILE_SUFFIXES:
                found.append(path.relative_to(root).as_posix())
    return found


PACKAGE_ZIP = "splendor.zip"
PYSCRIPT_FILES = {"./" + PACKAGE_ZIP: "./*"}  # pyscript.toml [files]: unpack the zip into the working folder
COMPILE_PYC = ROOT / "tools" / "compile_pyc.mjs"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed entry dates: the same sources give the same zip, byte for byte

PYSCRIPT_DIST = "node_modules/@pyscript/core/dist"
PYODIDE_DIR = "node_modules/pyodide"
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
]
# python_stdlib.zip goes to the site cut and compiled (site_stdlib), pyodide-lock.json without its packages
# (write_lock_file).
# Pyodide's files as published on npm, for the benchmarks' bare pages (tools/bench_page.py, bench_offline.py).
PUBLISHED_PYODIDE_FILES = PYODIDE_FILES + ["pyodide-lock.json", "python_stdlib.zip"]
LOCK_SITE = "runtime/pyodide/pyodide-lock.json"
STDLIB_CACHE = "node_modules/.cache/splendor-build"
COMPILED_STDLIB_PREFIX = "stdlib-compiled-"  # the whole library compiled, once per Pyodide and compiler script
AXE_FILE = "node_modules/axe-core/axe.min.js"
LOCKED_PACKAGES = ["@pyscript/core", "pyodide", "axe-core"]

STDLIB_SITE = "runtime/pyodide/python_stdlib.zip"
# Which standard library the site ships (--stdlib): "cut" (the default: tools/stdlib_cut.py) compiled to bytecode,
# "full" every module compiled (as before the cut; tools/trace_imports.py traces with it), "cut-source" the cut
# modules as Pyodide publishes them, source (for measuring what the bytecode saves at start).
STDLIB_CHOICES = ("cut", "full", "cut-source")
STDLIB_CUT_SCRIPT = ROOT / "tools" / "stdlib_cut.py"
STDLIB_CUT_KEEP = 3  # cut libraries kept in the cache (one per set of kept modules)

SW_TEMPLATE = ROOT / "tools" / "sw.template.js"
# Written by the build. Not precached: sw.js is the worker itself, the others are not for the page
# (Netlify does not even serve _headers).
GENERATED = {"sw.js", "precache.json", "_headers"}
# Written by the build and precached like any site file.
BUILT = {PACKAGE_ZIP, "index.html", STDLIB_SITE, LOCK_SITE}
CONFIG_ATTRIBUTE = 'config="./pyscript.toml"'  # in the repository's index.html; the site's has the JSON instead
# Site files the page never loads, left out of the service worker's precache (a first visit would
# download them for nothing): axe-core is for the accessibility tests only; of PyScript's chunks, the code
# editor's (CodeMirror: codemirror*, index-*) and the terminal's (xterm*) load only for
# <script type="py-editor"> or a `terminal` attribute, which the game does not use (about 770 KB); its zip
# reader (zip-*, 160 KB: Pyodide unpacks splendor.zip itself), TOML parser (toml-*: the build writes the
# config as JSON), MicroPython (mpy-*), pyodide_graph-*, storage.js and its service-worker.js load only for
# features the game does not use (checked: the requests of a game, page and worker, tools/trace_imports.py).
# If the page ever loads one, the service worker still caches it on first use, and
# tests/browser/test_offline.py fails until it is precached.
NOT_PRECACHED_PREFIXES = ("runtime/axe/",)
# Site files the page loads only when asked, not part of a first visit: the service worker keeps each once used, and
# an update brings along the ones a person had (sw.template.js keepLazy). The puzzle pool loads the first time
# puzzles are opened.
LAZY_FILES = ("assets/puzzles.jsonl",)
NOT_PRECACHED_PATTERN = re.compile(
    r"^runtime/pyscript/(?:codemirror|xterm|index-|zip-|toml-|mpy-|pyodide_graph-|storage\.js$|service-worker\.js$)"
    r"[^/]*$")
REVISION_CHARS = 16  # hex characters of a file's SHA-256 the service worker checks


class BuildError(Exception):
    """A problem the developer must fix; the message says what and where."""


def log(message: str) -> None:
    print(f"build_site: {message}", file=sys.stderr)


# --- npm -------------------------------------------------------------------------------------


def _installed_version(name: str) -> str | None:
    try:
        data = json.loads((ROOT / "node_modules" / name / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data.get("version")


def npm_install_needed() -> str | None:
    """Why ``npm ci`` must run, or None when node_modules matches package-lock.json."""
    lock = ROOT / "package-lock.json"
    modules = ROOT / "node_modules"
    if not modules.is_dir():
        return "node_modules is missing"
    marker = modules / ".package-lock.json"  # npm rewrites it on every install
    stamp = marker if marker.exists() else modules
    # Another checkout's node_modules (a git worktree links to it) is as old as that checkout's lock, not this one's,
    # which git wrote when it made the worktree: only the versions below tell.
    if not modules.is_symlink() and stamp.stat().st_mtime < lock.stat().st_mtime:
        return "node_modules is older than package-lock.json"
    packages = json.loads(lock.read_text("utf-8")).get("packages", {})
    for name in LOCKED_PACKAGES:
        wanted = packages.get(f"node_modules/{name}", {}).get("version")
        have = _installed_version(name)
        if wanted != have:
            return f"{name} is {have}, package-lock.json wants {wanted}"
    return None


def ensure_node_modules(allow_npm: bool = True) -> None:
    reason = npm_install_needed()
    if reason is None:
        return
    if not allow_npm:
        raise BuildError(f"{reason}; run `npm ci` in {ROOT}")
    modules = ROOT / "node_modules"
    if modules.is_symlink():  # npm ci would empty the other checkout's folder that the link points to
        raise BuildError(f"{reason}, and node_modules links to {os.readlink(modules)}: run `npm ci` there")
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(f"{reason}, and npm is not installed (apt-get install -y npm)")
    log(f"{reason}: running npm ci")
    result = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, stdin=subprocess.DEVNULL
    )
    if result.returncode != 0:
        raise BuildError(f"npm ci failed with exit code {result.returncode}")
    (ROOT / "node_modules" / ".package-lock.json").touch(exist_ok=True)


# --- collecting the files --------------------------------------------------------------------


def _walk(base: Path):
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIR_NAMES)
        for filename in sorted(filenames):
            yield Path(dirpath) / filename


def package_files() -> list[str]:
    """Repo-relative posix paths of every .py/.csv/.json file of the package (site content)."""
    found = []
    for path in _walk(ROOT / PACKAGE):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix in PACKAGE_SUFFIXES and not rel.startswith(NOT_IN_BROWSER_DIRS):
            found.append(rel)
    return found


def browser_package_files() -> list[str]:
    """The package files the browser interpreters import (the contents of splendor.zip, with bytecode)."""
    return [rel for rel in package_files()
            if rel not in NOT_IN_BROWSER and rel not in SCRIPT_FILES and rel not in WORKER_FILES]


def check_pyscript_files(toml_path: Path | None = None) -> dict:
    """Fail unless pyscript.toml's [files] is exactly the package zip unpacked in place."""
    toml_path = toml_path or ROOT / "pyscript.toml"
    try:
        config = tomllib.loads(toml_path.read_text("utf-8"))
    except FileNotFoundError:
        raise BuildError(f"{toml_path.name} is missing") from None
    except tomllib.TOMLDecodeError as error:
        raise BuildError(f"{toml_path.name} is not valid TOML: {error}") from None
    files = config.get("files")
    if files != PYSCRIPT_FILES:
        wanted = "\n".join(f'"{k}" = "{v}"' for k, v in PYSCRIPT_FILES.items())
        raise BuildError(
            f"{toml_path.name} [files] must be exactly\n[files]\n{wanted}\n(the build packs every module the "
            f"browser imports into {PACKAGE_ZIP}; a module added under splendor/ needs no entry), not {files!r}"
        )
    return files


# --- the package zip ---------------------------------------------------------------------------


def compiler_key() -> str:
    """What the bytecode depends on: the shipped Pyodide (its library and lock file) and the compiler script."""
    digest = hashlib.sha256()
    for path in (ROOT / PYODIDE_DIR / "python_stdlib.zip", ROOT / PYODIDE_DIR / "pyodide-lock.json", COMPILE_PYC):
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _sources_digest(sources: dict[str, bytes], key: str) -> str:
    digest = hashlib.sha256(key.encode("ascii"))
    for rel in sorted(sources):
        digest.update(rel.encode("utf-8") + b"\0" + hashlib.sha256(sources[rel]).digest())
    return digest.hexdigest()


def package_zip_names(sources) -> set[str]:
    """The entries of splendor.zip for these package files: each module as its bytecode alone, where its source
    would be (splendor/engine/game.pyc: the import system loads a .pyc without source), the data files as they are."""
    return {rel[:-3] + ".pyc" if rel.endswith(".py") else rel for rel in sources}


def _zip_is_current(path: Path, sources: dict[str, bytes], key: str) -> bool:
    """True when the zip at path was compiled by this Pyodide from exactly these sources (its comment is ``key`` and
    the sources' digest) and holds each module's bytecode and the data files."""
    try:
        with zipfile.ZipFile(path) as archive:
            if archive.comment != f"{key} {_sources_digest(sources, key)}".encode("ascii"):
                return False
            if set(archive.namelist()) != package_zip_names(sources):
                return False
            return all(archive.read(rel) == data for rel, data in sources.items() if not rel.endswith(".py"))
    except (OSError, zipfile.BadZipFile, KeyError):
        return False


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is needed to compile Python for Pyodide (apt-get install -y nodejs)")
    return node


def compiled_stdlib() -> Path:
    """Pyodide's python_stdlib.zip with every module as bytecode, without docstrings (tools/compile_pyc.mjs stdlib),
    made once per Pyodide version and compiler script and kept in node_modules/.cache (a fresh ``npm ci`` starts
    over). The site ships a cut of it (``site_stdlib``)."""
    key = compiler_key()
    cache = ROOT / STDLIB_CACHE
    target = cache / f"{COMPILED_STDLIB_PREFIX}{key}.zip"
    if target.is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    partial = cache / f"partial-{os.getpid()}.zip"
    result = subprocess.run(
        [_node(), str(COMPILE_PYC), "stdlib", str(ROOT / PYODIDE_DIR), str(partial)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )
    if result.returncode != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        raise BuildError(f"compiling Pyodide's standard library failed:\n{result.stderr.strip()}")
    os.chmod(partial, 0o644)
    os.replace(partial, target)
    for old in cache.glob(f"{COMPILED_STDLIB_PREFIX}*.zip"):
        if old != target:
            old.unlink(missing_ok=True)
    return target


def site_stdlib(kind: str = "cut") -> Path:
    """The standard library the site ships (``STDLIB_CHOICES``), as a file in the build's cache. The cut one is
    made once per Pyodide, tools/stdlib_cut.py and package sources (the package's imports choose modules)."""
    if kind not in STDLIB_CHOICES:
        raise BuildError(f"--stdlib must be one of {', '.join(STDLIB_CHOICES)}, not {kind!r}")
    compiled = compiled_stdlib()
    if kind == "full":
        return compiled
    scripts = [rel for rel in browser_package_files() + list(SCRIPT_FILES) if rel.endswith(".py")]
    sources = {rel: (ROOT / rel).read_bytes() for rel in scripts}
    digest = hashlib.sha256(f"{compiler_key()}\0{kind}\0".encode("ascii") + STDLIB_CUT_SCRIPT.read_bytes())
    for rel in sorted(sources):
        digest.update(rel.encode("utf-8") + b"\0" + hashlib.sha256(sources[rel]).digest())
    target = ROOT / STDLIB_CACHE / f"stdlib-{kind}-{digest.hexdigest()[:24]}.zip"
    if target.is_file():
        return target
    published = ROOT / PYODIDE_DIR / "python_stdlib.zip"
    kept = stdlib_cut.kept_modules(published, sources)
    data = stdlib_cut.cut(compiled if kind == "cut" else published, kept)
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    partial.write_bytes(data)
    os.replace(partial, target)
    same_kind = re.compile(rf"stdlib-{re.escape(kind)}-[0-9a-f]{{24}}\.zip")  # not the compiled library
    kept_files = sorted((path for path in target.parent.iterdir() if same_kind.fullmatch(path.name)),
                        key=lambda path: path.stat().st_mtime, reverse=True)
    for old in kept_files[STDLIB_CUT_KEEP:]:
        old.unlink(missing_ok=True)
    return target


def write_lock_file(out: Path) -> None:
    """site/runtime/pyodide/pyodide-lock.json: Pyodide's, without its list of packages (114 KB, 26 KB with gzip).
    Pyodide reads the file at every start, but only a package to install looks in the list, and the site installs
    none (pyscript.toml names no packages; none of them is a part of the standard library)."""
    lock = json.loads((ROOT / PYODIDE_DIR / "pyodide-lock.json").read_text("utf-8"))
    unvendored = [name for name, package in lock.get("packages", {}).items()
                  if package.get("package_type") == "cpython_module"]
    if unvendored:
        raise BuildError(f"Pyodide's lock file names parts of the standard library as packages ({unvendored}): "
                         "keep them in write_lock_file (tools/build_site.py)")
    lock["packages"] = {}
    _write_if_changed(out / LOCK_SITE, (json.dumps(lock, separators=(",", ":"), sort_keys=True) + "\n").encode())


def write_index(out: Path) -> None:
    """site/index.html: the repository's, with pyscript.toml inlined as the script's JSON config."""
    html = (ROOT / "index.html").read_text("utf-8")
    if html.count(CONFIG_ATTRIBUTE) != 1:
        raise BuildError(f"index.html must have exactly one {CONFIG_ATTRIBUTE} (the build inlines pyscript.toml there)")
    config = tomllib.loads((ROOT / "pyscript.toml").read_text("utf-8"))
    inline = json.dumps(config, separators=(",", ":"), sort_keys=True)
    inline = inline.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    _write_if_changed(out / "index.html", html.replace(CONFIG_ATTRIBUTE, f'config="{inline}"').encode("utf-8"))


# Compiled package zips kept beside the compiled standard library, by content: a build into another folder (the test
# session's, a clean site/) copies one instead of starting node and Pyodide again (about 4 s).
PACKAGE_CACHE_KEEP = 4
PACKAGE_CACHE_DIR = ROOT / STDLIB_CACHE


def _package_cache_path(sources: dict[str, bytes], key: str) -> Path:
    return PACKAGE_CACHE_DIR / f"package-{_sources_digest(sources, key)[:24]}.zip"


def _copy_atomically(source: Path, target: Path) -> None:
    """Copy with its modification time (``_same_file`` compares it), through a temporary name: a reader sees the old
    file or the new one, never half of it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    shutil.copy2(source, partial)
    os.replace(partial, target)


def build_package_zip(out: Path) -> bool:
    """Write out/splendor.zip (Pyodide bytecode, without the sources, and the data files) unless it is current.
    Returns True when written."""
    sources = {rel: (ROOT / rel).read_bytes() for rel in browser_package_files()}
    target = out / PACKAGE_ZIP
    key = compiler_key()
    if _zip_is_current(target, sources, key):
        return False
    cached = _package_cache_path(sources, key)
    if _zip_is_current(cached, sources, key):  # compiled before, by this Pyodide, from exactly these sources
        _copy_atomically(cached, target)
        return True
    node = _node()
    modules = [rel for rel in sources if rel.endswith(".py")]
    with tempfile.TemporaryDirectory(prefix="splendor-pyc-") as tmp:
        result = subprocess.run(
            [node, str(COMPILE_PYC), "package", str(ROOT / PYODIDE_DIR), str(ROOT), tmp, *modules],
            capture_output=True, text=True, stdin=subprocess.DEVNULL,
        )
        if result.returncode != 0:
            raise BuildError(f"compiling the package with Pyodide failed:\n{result.stderr.strip()}")
        try:
            tag = json.loads(result.stdout.strip().splitlines()[-1])["tag"]
        except (ValueError, IndexError, KeyError):
            raise BuildError(f"tools/compile_pyc.mjs answered {result.stdout!r}") from None
        entries = {rel: data for rel, data in sources.items() if not rel.endswith(".py")}
        for rel in modules:
            pyc = importlib.util.cache_from_source(rel).replace(sys.implementation.cache_tag, tag)
            entries[rel[:-3] + ".pyc"] = (Path(tmp) / pyc).read_bytes()
    out.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".tmp")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        # which Pyodide compiled it, from which sources: another one means compiling again
        archive.comment = f"{key} {_sources_digest(sources, key)}".encode("ascii")
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, entries[name])
    os.replace(partial, target)
    try:  # kept for the next build elsewhere; a cache that cannot be written only costs the next build its time
        _copy_atomically(target, cached)
        kept = sorted(cached.parent.glob("package-*.zip"), key=lambda path: path.stat().st_mtime, reverse=True)
        for old in kept[PACKAGE_CACHE_KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
    return True


def site_sources() -> dict[str, Path]:
    """Map of site-relative path -> source file for everything copied into the site."""
    wanted: dict[str, Path] = {}
    for name in ROOT_FILES:
        if not (ROOT / name).is_file():
            raise BuildError(f"{name} is missing at the repository root")
        if name not in BUILT:
            wanted[name] = ROOT / name
    for name in OPTIONAL_ROOT_FILES:
        if (ROOT / name).is_file():
            wanted[name] = ROOT / name
    assets = ROOT / "assets"
    if assets.is_dir():
        for path in _walk(assets):
            wanted[path.relative_to(ROOT).as_posix()] = path
    for rel in SCRIPT_FILES + WORKER_FILES + tuple(worker_binary_files()):
        wanted[rel] = ROOT / rel

    dist = ROOT / PYSCRIPT_DIST
    for path in _walk(dist):
        if not path.name.endswith(".map"):
            wanted["runtime/pyscript/" + path.relative_to(dist).as_posix()] = path
    for name in PYODIDE_FILES:
        wanted["runtime/pyodide/" + name] = ROOT / PYODIDE_DIR / name
    wanted["runtime/axe/axe.min.js"] = ROOT / AXE_FILE
    for rel, src in wanted.items():
        if not src.is_file():
            raise BuildError(f"{src.relative_to(ROOT)} is missing (needed for site/{rel})")
    return wanted


def site_files() -> list[str]:
    """Every site-relative path the build produces and precaches from: the copied files and the built ones."""
    return sorted(set(site_sources()) | BUILT)


# --- writing ---------------------------------------------------------------------------------


def _same_file(src: Path, dest: Path) -> bool:
    try:
        a, b = src.stat(), dest.stat()
    except FileNotFoundError:
        return False
    return a.st_size == b.st_size and int(a.st_mtime) == int(b.st_mtime)


def _write_if_changed(dest: Path, data: bytes) -> None:
    try:
        if dest.read_bytes() == data:
            return
    except FileNotFoundError:
        pass
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, dest)


def sync_tree(out: Path, wanted: dict[str, Path]) -> tuple[int, int]:
    """Copy changed files into out and delete what does not belong. Returns (copied, removed)."""
    copied = removed = 0
    for rel, src in wanted.items():
        dest = out / rel
        if _same_file(src, dest):
            continue
        _copy_atomically(src, dest)
        copied += 1
    keep = set(wanted) | GENERATED | BUILT
    for path in list(_walk(out)) if out.is_dir() else []:
        rel = path.relative_to(out).as_posix()
        if rel not in keep:
            path.unlink()
            removed += 1
    for dirpath, dirnames, filenames in os.walk(out, topdown=False):
        if Path(dirpath) != out and not dirnames and not filenames:
            try:
                os.rmdir(dirpath)
            except OSError:
                pass
    return copied, removed


def precached(rels: list[str]) -> list[str]:
    """The site files the service worker precaches (every file the page and its worker may load)."""
    return [
        rel
        for rel in rels
        if rel not in GENERATED
        and rel not in NOT_IN_BROWSER
        and not rel.startswith(NOT_PRECACHED_PREFIXES)
        and rel not in LAZY_FILES
        and not NOT_PRECACHED_PATTERN.match(rel)
    ]


def file_revision(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:REVISION_CHARS]


def site_hash(out: Path, rels: list[str], template: str = "") -> str:
    digest = hashlib.sha256(template.encode("utf-8") + b"\0")
    for rel in rels:
        digest.update(rel.encode("utf-8") + b"\0")
        digest.update((out / rel).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def write_service_worker(out: Path, rels: list[str]) -> dict:
    """Write sw.js and precache.json for the files of ``out``; return the precache manifest.

    The cache name hashes every precached file and the template, so any change gives a new
    service worker with a new cache. Each entry carries its file's revision (start of its SHA-256):
    the worker checks downloads against it and copies unchanged files from the previous cache.
    """
    template = SW_TEMPLATE.read_text("utf-8")
    for placeholder in ("__CACHE_NAME__", "__PRECACHE_ENTRIES__", "__LAZY_ENTRIES__"):
        if placeholder not in template:
            raise BuildError(f"{SW_TEMPLATE.relative_to(ROOT)} lacks the {placeholder} marker")
    rels = precached(sorted(rels))
    if "index.html" not in rels:
        raise BuildError("index.html is not in the precache list")
    lazy_rels = [rel for rel in LAZY_FILES if (out / rel).is_file()]
    full_hash = site_hash(out, rels + lazy_rels, template)  # (a new pool is a new version too)
    cache = f"splendor-{full_hash[:12]}"
    revisions = {f"./{rel}": file_revision(out / rel) for rel in rels}
    revisions = {"./": revisions["./index.html"], **revisions}
    urls = list(revisions)
    entries = ",\n".join(f"  [{json.dumps(url)}, {json.dumps(rev)}]" for url, rev in revisions.items())
    lazy = ",\n".join(f"  [{json.dumps('./' + rel)}, {json.dumps(file_revision(out / rel))}]"
                      for rel in lazy_rels)
    script = template.replace("__CACHE_NAME__", cache).replace(
        "__PRECACHE_ENTRIES__", "[\n" + entries + "\n]"
    ).replace("__LAZY_ENTRIES__", "[\n" + lazy + "\n]")
    _write_if_changed(out / "sw.js", script.encode("utf-8"))
    manifest = {"cache": cache, "hash": full_hash, "urls": urls, "revisions": revisions}
    _write_if_changed(out / "precache.json", (json.dumps(manifest, indent=2) + "\n").encode())
    return manifest


GZIP_LEVEL = 6  # what the first visit's figure counts: each file as `gzip -6` compresses it
FIRST_VISIT_BUDGET = 6_000_000  # bytes with gzip (issue 55); tests/test_site_build.py holds the site to it
GZIP_SIZES = ROOT / STDLIB_CACHE / "gzip-sizes.json"  # revision -> size with gzip, so a build gzips only new files


def first_visit(out: Path, manifest: dict) -> list[tuple[str, int, int]]:
    """What a first visit downloads: each precached file once ("./" is index.html), as (path, bytes, bytes with
    gzip -6), largest first with gzip."""
    try:
        known = json.loads(GZIP_SIZES.read_text("utf-8"))
    except (OSError, ValueError):
        known = {}
    rows, fresh = [], {}
    for url, revision in manifest["revisions"].items():
        if url == "./":
            continue
        data = (out / url[2:]).read_bytes()
        key = f"{revision}:{len(data)}"
        if key not in known:
            known[key] = fresh[key] = len(gzip.compress(data, GZIP_LEVEL, mtime=0))
        rows.append((url[2:], len(data), known[key]))
    if fresh:
        try:
            kept = dict(list(known.items())[-2000:])
            _write_if_changed(GZIP_SIZES, json.dumps(kept).encode("utf-8"))
        except OSError:
            pass
    return sorted(rows, key=lambda row: (-row[2], row[0]))


def first_visit_report(rows: list[tuple[str, int, int]]) -> str:
    """The first visit's bytes, file by file and in all, raw and with gzip (what the build prints)."""
    lines = [f"{'with gzip':>10} {'raw':>10}  first visit: every precached file once"]
    lines += [f"{gz:>10,} {raw:>10,}  {path}" for path, raw, gz in rows]
    raw_total, gz_total = sum(row[1] for row in rows), sum(row[2] for row in rows)
    lines.append(f"{gz_total:>10,} {raw_total:>10,}  in all, {len(rows)} files: {raw_total / 1e6:.2f} MB raw, "
                 f"{gz_total / 1e6:.2f} MB with gzip -{GZIP_LEVEL} (budget {FIRST_VISIT_BUDGET / 1e6:.1f} MB)")
    return "\n".join(lines)


def write_netlify_headers(out: Path, rels: list[str]) -> None:
    """site/_headers: immutable caching for content-hashed files (see tools/netlify_headers.py)."""
    sys.path.insert(0, str(ROOT))
    from tools import netlify_headers

    extra = (ROOT / "_headers").read_text("utf-8") if (ROOT / "_headers").is_file() else ""
    text = netlify_headers.headers_file_text(rels, extra)
    _write_if_changed(out / netlify_headers.HEADERS_FILE, text.encode("utf-8"))


def build(out: Path = DEFAULT_OUT, allow_npm: bool = True, quiet: bool = False, stdlib: str = "cut") -> dict:
    """Build the site into ``out``; return the precache manifest. Raises BuildError."""
    started = time.perf_counter()
    ensure_node_modules(allow_npm)
    check_pyscript_files()
    wanted = site_sources()
    out.mkdir(parents=True, exist_ok=True)
    copied, removed = sync_tree(out, wanted)
    library = site_stdlib(stdlib)
    if not _same_file(library, out / STDLIB_SITE):
        _copy_atomically(library, out / STDLIB_SITE)
        copied += 1
    if build_package_zip(out):
        copied += 1
    write_index(out)
    write_lock_file(out)
    files = site_files()
    manifest = write_service_worker(out, files)
    write_netlify_headers(out, files)
    if not quiet:
        print(first_visit_report(first_visit(out, manifest)), file=sys.stderr)
        log(
            f"{len(files)} files in {out} ({copied} copied, {removed} removed), "
            f"cache {manifest['cache']}, {time.perf_counter() - started:.2f}s"
        )
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (site/)")
    parser.add_argument(
        "--no-npm", action="store_true", help="fail instead of running npm ci when needed"
    )
    parser.add_argument(
        "--stdlib", choices=STDLIB_CHOICES, default="cut",
        help="the standard library shipped: cut to what the site imports (default), full, or cut as source")
    parser.add_argument(
        "--stdlib-only", action="store_true",
        help="only compile Pyodide's standard library into the build's cache (once per Pyodide version; "
             "`make` does it right after npm ci, as part of the installs)")
    args = parser.parse_args(argv)
    try:
        if args.stdlib_only:
            started = time.perf_counter()
            log(f"standard library compiled: {compiled_stdlib().relative_to(ROOT)}, "
                f"{time.perf_counter() - started:.2f}s")
            return 0
        build(args.out.resolve(), allow_npm=not args.no_npm, stdlib=args.stdlib)
    except BuildError as error:
        log(f"error: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
