#!/usr/bin/env python3
"""Assemble the deployable static site into ``site/`` (standard library only).

    python3 tools/build_site.py [--out DIR] [--no-npm] [--update-toml]

What lands in the site:
  index.html, pyscript.toml (+ a few optional root files), assets/**,
  every splendor/**/*.py and *.csv (the package, fetched by the browser interpreters),
  runtime/pyscript/  <- node_modules/@pyscript/core/dist/ (everything but source maps)
  runtime/pyodide/   <- the five Pyodide files PyScript needs
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
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "site"

ROOT_FILES = ["index.html", "pyscript.toml"]
OPTIONAL_ROOT_FILES = ["favicon.ico", "manifest.webmanifest", "robots.txt"]
PACKAGE = "splendor"
PACKAGE_SUFFIXES = {".py", ".csv"}
# Present in the package but not loaded by the browser interpreters, so not required in [files]:
# the command line and its commands (terminal play, benchmarks, soak, bot arena).
NOT_IN_BROWSER = {"splendor/__main__.py", "splendor/bench.py", "splendor/soak.py", "splendor/play.py",
                  "splendor/ai/arena.py"}
NOT_IN_BROWSER_DIRS = ("splendor/tests/",)
SKIP_DIR_NAMES = {"__pycache__", ".pytest_cache", ".hypothesis"}

PYSCRIPT_DIST = "node_modules/@pyscript/core/dist"
PYODIDE_DIR = "node_modules/pyodide"
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]
AXE_FILE = "node_modules/axe-core/axe.min.js"
LOCKED_PACKAGES = ["@pyscript/core", "pyodide", "axe-core"]

SW_TEMPLATE = ROOT / "tools" / "sw.template.js"
# Written by the build. Not precached: sw.js is the worker itself, the others are not for the page
# (Netlify does not even serve _headers).
GENERATED = {"sw.js", "precache.json", "_headers"}
# Site files the page never loads, left out of the service worker's precache (a first visit would
# download them for nothing): axe-core is for the accessibility tests only; PyScript's code editor
# (CodeMirror) and terminal (xterm.js) chunks load only for <script type="py-editor"> or a
# `terminal` attribute, which the game does not use (about 770 KB). If the page ever loads one,
# the service worker still caches it on first use, and tests/browser/test_pwa_offline.py fails
# until it is precached.
NOT_PRECACHED_PREFIXES = ("runtime/axe/",)
NOT_PRECACHED_PATTERN = re.compile(r"^runtime/pyscript/(?:codemirror|xterm)[^/]*$")
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
    if stamp.stat().st_mtime < lock.stat().st_mtime:
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
    """Repo-relative posix paths of every .py/.csv file of the package (site content)."""
    found = []
    for path in _walk(ROOT / PACKAGE):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix in PACKAGE_SUFFIXES and not rel.startswith(NOT_IN_BROWSER_DIRS):
            found.append(rel)
    return found


def browser_package_files() -> list[str]:
    """The package files the browser interpreters must receive through pyscript.toml [files]."""
    return [rel for rel in package_files() if rel not in NOT_IN_BROWSER]


def _normalize_url(url: str) -> str:
    while url.startswith("./"):
        url = url[2:]
    return url


def check_pyscript_files(toml_path: Path | None = None) -> list[str]:
    """Fail unless pyscript.toml's [files] names every package file and only existing files."""
    toml_path = toml_path or ROOT / "pyscript.toml"
    try:
        config = tomllib.loads(toml_path.read_text("utf-8"))
    except FileNotFoundError:
        raise BuildError(f"{toml_path.name} is missing") from None
    except tomllib.TOMLDecodeError as error:
        raise BuildError(f"{toml_path.name} is not valid TOML: {error}") from None
    files = config.get("files", {})
    if not isinstance(files, dict):
        raise BuildError(f"{toml_path.name}: [files] must be a table of source = destination")
    listed = {_normalize_url(source) for source in files}
    missing = [rel for rel in browser_package_files() if rel not in listed]
    if missing:
        lines = "\n".join(f'  "./{rel}" = "./{Path(rel).parent.as_posix()}/"' for rel in missing)
        raise BuildError(
            f"{toml_path.name} [files] does not list {len(missing)} package file(s) "
            f"the browser needs; add:\n{lines}\n"
            "(or run `python3 tools/build_site.py --update-toml` to add them)"
        )
    dangling = sorted(
        src for src in listed if "://" not in src and not (ROOT / src).is_file()
    )
    if dangling:
        raise BuildError(
            f"{toml_path.name} [files] names file(s) that do not exist: {', '.join(dangling)}"
        )
    return sorted(listed)


def update_pyscript_files(toml_path: Path | None = None) -> list[str]:
    """Add missing package files to [files] and drop entries whose local file is gone.

    Edits only the lines of the [files] table; returns the lines added or removed.
    """
    toml_path = toml_path or ROOT / "pyscript.toml"
    lines = toml_path.read_text("utf-8").splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "[files]")
    except StopIteration:
        lines += ["", "[files]"]
        start = len(lines) - 1
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")),
        len(lines),
    )
    changes = []
    kept = []
    listed = set()
    for line in lines[start + 1 : end]:
        key = line.split("=", 1)[0].strip().strip("\"'") if "=" in line else ""
        if key and "://" not in key and not (ROOT / _normalize_url(key)).is_file():
            changes.append(f"- {line.strip()}")
            continue
        if key:
            listed.add(_normalize_url(key))
        kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    for rel in browser_package_files():
        if rel not in listed:
            entry = f'"./{rel}" = "./{Path(rel).parent.as_posix()}/"'
            kept.append(entry)
            changes.append(f"+ {entry}")
    tail = lines[end:]
    new = lines[: start + 1] + kept + ([""] if tail else []) + tail
    if changes:
        toml_path.write_text("\n".join(new) + "\n", "utf-8")
    return changes


def site_sources() -> dict[str, Path]:
    """Map of site-relative path -> source file for everything copied into the site."""
    wanted: dict[str, Path] = {}
    for name in ROOT_FILES:
        if not (ROOT / name).is_file():
            raise BuildError(f"{name} is missing at the repository root")
        wanted[name] = ROOT / name
    for name in OPTIONAL_ROOT_FILES:
        if (ROOT / name).is_file():
            wanted[name] = ROOT / name
    assets = ROOT / "assets"
    if assets.is_dir():
        for path in _walk(assets):
            wanted[path.relative_to(ROOT).as_posix()] = path
    for rel in package_files():
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
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".tmp")
        shutil.copy2(src, tmp)
        os.replace(tmp, dest)
        copied += 1
    keep = set(wanted) | GENERATED
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
    for placeholder in ("__CACHE_NAME__", "__PRECACHE_ENTRIES__"):
        if placeholder not in template:
            raise BuildError(f"{SW_TEMPLATE.relative_to(ROOT)} lacks the {placeholder} marker")
    rels = precached(sorted(rels))
    if "index.html" not in rels:
        raise BuildError("index.html is not in the precache list")
    full_hash = site_hash(out, rels, template)
    cache = f"splendor-{full_hash[:12]}"
    revisions = {f"./{rel}": file_revision(out / rel) for rel in rels}
    revisions = {"./": revisions["./index.html"], **revisions}
    urls = list(revisions)
    entries = ",\n".join(f"  [{json.dumps(url)}, {json.dumps(rev)}]" for url, rev in revisions.items())
    script = template.replace("__CACHE_NAME__", cache).replace(
        "__PRECACHE_ENTRIES__", "[\n" + entries + "\n]"
    )
    _write_if_changed(out / "sw.js", script.encode("utf-8"))
    manifest = {"cache": cache, "hash": full_hash, "urls": urls, "revisions": revisions}
    _write_if_changed(out / "precache.json", (json.dumps(manifest, indent=2) + "\n").encode())
    return manifest


def write_netlify_headers(out: Path, rels: list[str]) -> None:
    """site/_headers: immutable caching for content-hashed files (see tools/netlify_headers.py)."""
    sys.path.insert(0, str(ROOT))
    from tools import netlify_headers

    extra = (ROOT / "_headers").read_text("utf-8") if (ROOT / "_headers").is_file() else ""
    text = netlify_headers.headers_file_text(rels, extra)
    _write_if_changed(out / netlify_headers.HEADERS_FILE, text.encode("utf-8"))


def build(out: Path = DEFAULT_OUT, allow_npm: bool = True, quiet: bool = False) -> dict:
    """Build the site into ``out``; return the precache manifest. Raises BuildError."""
    started = time.perf_counter()
    ensure_node_modules(allow_npm)
    check_pyscript_files()
    wanted = site_sources()
    out.mkdir(parents=True, exist_ok=True)
    copied, removed = sync_tree(out, wanted)
    manifest = write_service_worker(out, sorted(wanted))
    write_netlify_headers(out, sorted(wanted))
    if not quiet:
        log(
            f"{len(wanted)} files in {out} ({copied} copied, {removed} removed), "
            f"cache {manifest['cache']}, {time.perf_counter() - started:.2f}s"
        )
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (site/)")
    parser.add_argument(
        "--update-toml",
        action="store_true",
        help="first add missing package files to pyscript.toml [files] (and drop vanished ones)",
    )
    parser.add_argument(
        "--no-npm", action="store_true", help="fail instead of running npm ci when needed"
    )
    args = parser.parse_args(argv)
    if args.update_toml:
        for change in update_pyscript_files():
            log(f"pyscript.toml {change}")
    try:
        build(args.out.resolve(), allow_npm=not args.no_npm)
    except BuildError as error:
        log(f"error: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
