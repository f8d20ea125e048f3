"""The static site build (tools/build_site.py), under plain CPython: no browser needed."""

import json
import re
import shutil
import tomllib
import zipfile
from pathlib import Path

import pytest

from tools import build_site, stdlib_cut

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_HOSTS = {"localhost", "127.0.0.1", "www.w3.org"}
URL_RE = re.compile(r"\b(?:https?|wss?|ftp)://([^/\s\"'`<>)\]}\\]+)", re.IGNORECASE)
SCANNED_SUFFIXES = {".html", ".js", ".mjs", ".toml", ".json", ".py", ".css", ".webmanifest"}


@pytest.fixture
def built(built_site):
    """(folder, manifest) of the site built for this session (tests/conftest.py)."""
    return built_site


def site_files(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def test_precache_lists_exactly_the_site_files(built):
    out, manifest = built
    assert manifest == json.loads((out / "precache.json").read_text())
    urls = manifest["urls"]
    assert urls[0] == "./"
    assert len(urls) == len(set(urls))
    listed = [u[2:] for u in urls[1:]]
    for rel in listed:
        assert (out / rel).is_file(), f"precache names a missing file: {rel}"
    assert set(listed) == set(build_site.precached(site_files(out)))
    for needed in ("index.html", "pyscript.toml", "runtime/pyodide/pyodide.asm.wasm",
                   "runtime/pyodide/python_stdlib.zip", "runtime/pyscript/core.js", "splendor.zip",
                   "splendor/web/main.py", "splendor/web/worker.py"):
        assert needed in listed
    # never loaded by the page: not precached (the files are still in the site)
    for unused in ("sw.js", "precache.json", "_headers", "runtime/axe/axe.min.js",
                   "splendor/__main__.py"):
        assert unused not in listed
    assert (out / "runtime/axe/axe.min.js").is_file()
    assert not any(rel.endswith(".map") for rel in listed)


def test_service_worker_names_cache_and_list(built):
    out, manifest = built
    assert re.fullmatch(r"splendor-[0-9a-f]{12}", manifest["cache"])
    assert manifest["cache"] == "splendor-" + manifest["hash"][:12]
    sw = (out / "sw.js").read_text()
    assert f'"{manifest["cache"]}"' in sw
    assert "__PRECACHE_URLS__" not in sw and "__CACHE_NAME__" not in sw
    assert '"./runtime/pyodide/pyodide.asm.wasm"' in sw
    assert '"./sw.js"' not in sw


def hash_based_unchecked(pyc: bytes) -> bool:
    """A PEP 552 .pyc the import system uses without looking at the source (flags word = 0b01)."""
    return pyc[2:4] == b"\r\n" and int.from_bytes(pyc[4:8], "little") == 0b01


def test_package_zip_holds_every_module_as_bytecode_without_its_source(built):
    """splendor.zip: each module the browser imports as its bytecode alone, where the source would be (the import
    system loads a .pyc without source; nothing in the browser reads the source), and the data files."""
    out, manifest = built
    with zipfile.ZipFile(out / build_site.PACKAGE_ZIP) as archive:
        names = set(archive.namelist())
        modules = build_site.browser_package_files()
        assert {"splendor/__init__.py", "splendor/engine/game.py", "splendor/engine/cards.csv",
                "splendor/ai/search.py", "splendor/web/view.py"} <= set(modules)
        for rel in modules:
            if rel.endswith(".py"):
                assert rel not in names, rel
                pyc = rel[:-3] + ".pyc"
                assert pyc in names, pyc
                assert hash_based_unchecked(archive.read(pyc)), pyc
            else:
                assert archive.read(rel) == (ROOT / rel).read_bytes(), rel
        # nothing else: not the command line, not the two scripts PyScript fetches by address
        assert names == build_site.package_zip_names(modules)
        for absent in ("splendor/__main__.pyc", "splendor/web/main.pyc", "splendor/ai/expert_model.json",
                       "splendor/ai/expert_net.json", "splendor/ai/kernel.wat"):
            assert absent not in names
        assert "splendor/ai/kernel_wasm.py" in names or "splendor/ai/kernel_wasm.pyc" in names
        # the expert's model and network are plain files of the site, fetched by the worker, precached for offline
        for worker_file in ("splendor/ai/expert_model.json", "splendor/ai/expert_net.json"):
            assert (out / worker_file).read_bytes() == (ROOT / worker_file).read_bytes()
            assert "./" + worker_file in manifest["urls"]
        assert sorted(p.name for p in (out / "splendor/ai").glob("*.json")) == ["expert_model.json", "expert_net.json"]
        # the training package, whole: not one of its modules, whatever files it holds
        assert (ROOT / "splendor" / "training" / "train.py").exists()
        assert not [n for n in names if n.startswith("splendor/training/")]
        assert all(info.date_time == build_site.ZIP_DATE for info in archive.infolist())
        assert archive.comment.decode("ascii").startswith(build_site.compiler_key() + " ")
    for script in build_site.SCRIPT_FILES:
        assert (out / script).read_bytes() == (ROOT / script).read_bytes()
    assert not (out / "splendor" / "engine").exists()


def _browser_sources() -> dict[str, bytes]:
    return {rel: (ROOT / rel).read_bytes() for rel in build_site.browser_package_files() + list(build_site.SCRIPT_FILES)
            if rel.endswith(".py")}


def test_stdlib_is_the_published_one_cut_and_compiled(built):
    """The site's standard library: the modules tools/stdlib_cut.py keeps, each as bytecode (zipimport prefers
    name.pyc), the data files of the kept packages unchanged; not the rest of Pyodide's library."""
    out, _ = built
    published_zip = ROOT / build_site.PYODIDE_DIR / "python_stdlib.zip"
    kept = stdlib_cut.kept_modules(published_zip, _browser_sources())
    with zipfile.ZipFile(published_zip) as published, \
            zipfile.ZipFile(out / "runtime/pyodide/python_stdlib.zip") as shipped:
        source = set(published.namelist())
        names = set(shipped.namelist())
        assert len(stdlib_cut.module_names(list(source))) > 500
        modules = stdlib_cut.module_names(list(names))
        assert set(modules) == kept
        assert all(entry.endswith(".pyc") for entry in modules.values())
        for name in ("json/__init__.pyc", "asyncio/__init__.pyc", "html/entities.pyc", "random.pyc"):
            assert hash_based_unchecked(shipped.read(name)), name
        # what the page, the worker and PyScript import, and what the expert's network will
        for needed in ("json", "random", "heapq", "bisect", "base64", "struct", "functools", "asyncio", "pyodide.ffi",
                       "pyodide.http", "encodings.utf_8", "traceback", "tokenize", "urllib.parse", "html"):
            assert needed in modules, needed
        # what nothing the site runs imports, or only tries to
        for absent in ("unittest", "pydoc", "email", "http", "xml", "tkinter", "sqlite3", "doctest", "pdb",
                       "ssl", "lzma", "bz2", "statistics", "decimal"):
            assert absent not in modules, absent
        for name in names - set(modules.values()):
            assert name in source, name
            if not name.endswith("/"):
                assert shipped.read(name) == published.read(name), name
    assert 600_000 < (out / "runtime/pyodide/python_stdlib.zip").stat().st_size < 1_600_000


@pytest.mark.site  # reads Pyodide's library in node_modules
def test_a_module_the_package_imports_is_kept_with_what_it_imports():
    """A new ``import statistics`` in a module of the package needs no entry anywhere: the cut keeps it, the modules
    it imports when imported, and their packages; what it imports only inside a function is not kept."""
    published_zip = ROOT / build_site.PYODIDE_DIR / "python_stdlib.zip"
    before = stdlib_cut.kept_modules(published_zip, _browser_sources())
    review = b"import statistics\n\ndef later():\n    import pydoc\n    from email import message\n"
    after = stdlib_cut.kept_modules(published_zip, {**_browser_sources(), "splendor/ai/review.py": review})
    assert "statistics" not in before
    added = after - before
    assert {"statistics", "fractions", "numbers"} <= added  # statistics imports fractions, fractions numbers
    assert {"pydoc", "email", "email.message"} <= added  # the package's imports in functions count too
    assert not added & {"unittest", "doctest", "tkinter"}


def test_imports_read_from_source():
    source = b"""
import os.path, json
from . import sibling
from ..engine import game
from collections import abc as collections_abc
try:
    import lzma
except ImportError:
    lzma = None
try:
    x = 1
except ValueError:
    import logging
if sys.platform == "win32":
    import winreg
else:
    import termios
if __name__ == "__main__":
    import doctest
def later():
    import pydoc
class Kept:
    import textwrap
"""
    found = stdlib_cut.imported_names(source, "splendor.web.view", False)
    assert {"os", "os.path", "json", "splendor.web.sibling", "splendor.engine", "splendor.engine.game",
            "collections", "collections.abc", "lzma", "termios", "textwrap"} <= found
    assert not found & {"logging", "winreg", "doctest", "pydoc"}
    assert "pydoc" in stdlib_cut.imported_names(source, "splendor.web.view", False, module_level=False)
    assert stdlib_cut.imported_names(b"from . import x", "pkg", True) == {"pkg", "pkg.x"}


def test_a_missing_module_is_named_with_where_to_add_it():
    missing = stdlib_cut.missing({"statistics", "json", "_json", "js"}, {"statistics", "json"}, {"json"})
    assert missing == ["statistics"]
    message = stdlib_cut.missing_message(missing, "the bot worker")
    assert message.startswith('the bot worker imported "statistics"')
    assert 'add "statistics" to KEEP in tools/stdlib_cut.py' in message


@pytest.mark.site  # reads Pyodide's library in node_modules
def test_every_name_kept_or_left_out_is_a_module_of_the_library_or_built_in():
    """A misspelt name in KEEP or NEVER would silently keep or leave out nothing."""
    published_zip = ROOT / build_site.PYODIDE_DIR / "python_stdlib.zip"
    with zipfile.ZipFile(published_zip) as published:
        library = set(stdlib_cut.module_names(published.namelist()))
    built_in = {"array", "itertools", "math", "zlib"}  # in Pyodide's interpreter, as in CPython's
    assert not (set(stdlib_cut.KEEP) - library) - built_in
    assert set(stdlib_cut.NEVER) <= library
    assert not set(stdlib_cut.KEEP) & set(stdlib_cut.NEVER)


def test_first_visit_is_at_most_the_budget(built, capsys):
    """Issue 55: a first visit downloads at most 6.0 MB with gzip (every precached file once, gzip -6); the build
    prints the figure file by file."""
    out, manifest = built
    rows = build_site.first_visit(out, manifest)
    assert {path for path, _, _ in rows} == {url[2:] for url in manifest["urls"]} - {""}
    gz_total = sum(gz for _, _, gz in rows)
    assert gz_total <= build_site.FIRST_VISIT_BUDGET, build_site.first_visit_report(rows)
    by_path = {path: (raw, gz) for path, raw, gz in rows}
    assert by_path["runtime/pyodide/pyodide.asm.wasm"][1] > 3_000_000  # gzip really ran: wasm compresses
    assert 0.9 < by_path["runtime/pyodide/python_stdlib.zip"][1] / by_path["runtime/pyodide/python_stdlib.zip"][0]
    report = build_site.first_visit_report(rows)
    assert "runtime/pyodide/pyodide.asm.wasm" in report and f"{gz_total:,}" in report
    assert build_site.main(["--out", str(out), "--no-npm"]) == 0
    printed = capsys.readouterr().err
    assert f"{gz_total / 1e6:.2f} MB with gzip -6" in printed and "splendor.zip" in printed


def test_lock_file_keeps_pyodides_info_without_packages(built):
    out, _ = built
    published = json.loads((ROOT / build_site.PYODIDE_DIR / "pyodide-lock.json").read_text())
    shipped = json.loads((out / build_site.LOCK_SITE).read_text())
    assert published["packages"] and shipped == {"info": published["info"], "packages": {}}


def test_pyscript_toml_unpacks_the_package_zip():
    assert build_site.check_pyscript_files() == {"./splendor.zip": "./*"}


def test_pyscript_toml_listing_module_files_is_refused(tmp_path):
    toml = (ROOT / "pyscript.toml").read_text()
    broken = tmp_path / "pyscript.toml"
    broken.write_text(toml + '"./splendor/engine/game.py" = "./splendor/engine/"\n')
    with pytest.raises(build_site.BuildError, match="must be exactly"):
        build_site.check_pyscript_files(broken)
    broken.write_text(toml.replace('"./splendor.zip" = "./*"', '"./splendor.zip" = "./splendor/"'))
    with pytest.raises(build_site.BuildError, match="splendor.zip"):
        build_site.check_pyscript_files(broken)


def test_served_files_name_no_other_host(built):
    out, _ = built
    offenders = []
    for rel in site_files(out):
        path = out / rel
        if rel.startswith("runtime/") or path.suffix not in SCANNED_SUFFIXES:
            continue
        for match in URL_RE.finditer(path.read_text("utf-8", errors="replace")):
            host = match.group(1).rsplit("@", 1)[-1].split(":")[0].lower()
            if host not in ALLOWED_HOSTS:
                offenders.append(f"{rel}: {match.group(0)}")
    assert offenders == []


def test_build_is_idempotent(built):
    out, manifest = built
    before = {rel: (out / rel).stat().st_mtime_ns for rel in site_files(out)}
    assert build_site.build(out, quiet=True) == manifest
    after = {rel: (out / rel).stat().st_mtime_ns for rel in site_files(out)}
    assert after == before


def test_stale_files_are_removed(built, site_copy):
    out, manifest = site_copy, built[1]
    stale = out / "splendor" / "gone.py"
    stale.write_text("x = 1\n")
    assert build_site.build(out, quiet=True) == manifest
    assert not stale.exists()


def test_index_carries_pyscript_toml_inline(built):
    out, _ = built
    html = (out / "index.html").read_text()
    assert build_site.CONFIG_ATTRIBUTE not in html
    match = re.search(r'<script type="py" src="\./splendor/web/main\.py" config="([^"]*)"></script>', html)
    assert match, "the site's index.html lost its PyScript script"
    inline = match.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&amp;", "&")
    assert json.loads(inline) == tomllib.loads((ROOT / "pyscript.toml").read_text())
    # everything else is the repository's page
    assert html.replace(match.group(0), "") == (ROOT / "index.html").read_text().replace(
        f'<script type="py" src="./splendor/web/main.py" {build_site.CONFIG_ATTRIBUTE}></script>', "")


def test_package_zip_is_compiled_again_for_another_pyodide(built, monkeypatch, tmp_path):
    out = tmp_path / "site"
    shutil.copytree(built[0], out)
    assert not build_site.build_package_zip(out)  # current: kept as it is
    calls = []
    real_run = build_site.subprocess.run

    def counting_run(args, **kwargs):
        calls.append(args[2])
        return real_run(args, **kwargs)

    monkeypatch.setattr(build_site, "PACKAGE_CACHE_DIR", tmp_path / "cache")  # not the repository's cache
    monkeypatch.setattr(build_site.subprocess, "run", counting_run)
    monkeypatch.setattr(build_site, "compiler_key", lambda: "another-pyodide0")
    assert build_site.build_package_zip(out)
    assert calls == ["package"]
    with zipfile.ZipFile(out / build_site.PACKAGE_ZIP) as archive:
        assert archive.comment.startswith(b"another-pyodide0 ")  # the compiler, then the sources' digest
    # Another folder built from the same sources by the same Pyodide takes the compiled zip from the cache: node is
    # not started again, and the zip is the same.
    elsewhere = tmp_path / "elsewhere"
    assert build_site.build_package_zip(elsewhere)
    assert calls == ["package"]
    assert (elsewhere / build_site.PACKAGE_ZIP).read_bytes() == (out / build_site.PACKAGE_ZIP).read_bytes()
    # The same sources for another Pyodide are compiled again.
    monkeypatch.setattr(build_site, "compiler_key", lambda: "another-pyodide1")
    assert build_site.build_package_zip(elsewhere)
    assert calls == ["package", "package"]


def test_stdlib_only_compiles_the_standard_library_into_the_cache_and_builds_nothing(built, tmp_path, capsys):
    """`make` runs ``--stdlib-only`` right after npm ci (one of the installs): the compiled standard library is in the
    build's cache, where the build takes it from, and no site is written."""
    out = tmp_path / "site"
    assert build_site.main(["--stdlib-only", "--out", str(out)]) == 0
    said = capsys.readouterr()
    cached = build_site.compiled_stdlib()
    assert cached.is_file() and cached.relative_to(build_site.ROOT).as_posix() in said.out + said.err
    assert not out.exists()
    with zipfile.ZipFile(cached) as archive:
        names = archive.namelist()
    assert any(n.endswith(".pyc") for n in names) and not any(n.endswith(".py") for n in names)


def test_the_bots_binary_files_are_plain_precached_site_files(tmp_path):
    """A WebAssembly kernel or a network's weights under splendor/ai/ is served as it is and precached (the worker
    fetches it by address, offline too), whatever its name; a JSON model stays listed in WORKER_FILES."""
    for rel in ("splendor/ai/kernel.wasm", "splendor/ai/nets/weights.bin", "splendor/ai/model.py",
                "splendor/engine/other.bin"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"\0asm")
    found = build_site.worker_binary_files(tmp_path)
    assert found == ["splendor/ai/kernel.wasm", "splendor/ai/nets/weights.bin"]
    assert build_site.precached(found + ["assets/net.bin", "assets/kernel.wasm"]) == found + [
        "assets/net.bin", "assets/kernel.wasm"]


def test_npm_is_never_run_into_a_linked_node_modules(tmp_path, monkeypatch):
    """A git worktree whose node_modules links to another checkout's: a lock file newer than that folder (git wrote
    it with the worktree) is no reason to install, and a real one is reported, never installed through the link
    (npm ci would empty the other checkout's folder)."""
    other = tmp_path / "main" / "node_modules"
    for name in build_site.LOCKED_PACKAGES:
        (other / name).mkdir(parents=True)
        (other / name / "package.json").write_text(json.dumps({"version": "1.0.0"}))
    (other / ".package-lock.json").write_text("{}")
    tree = tmp_path / "worktree"
    tree.mkdir()
    (tree / "node_modules").symlink_to(other)
    lock = {"packages": {f"node_modules/{name}": {"version": "1.0.0"} for name in build_site.LOCKED_PACKAGES}}
    (tree / "package-lock.json").write_text(json.dumps(lock))  # newer than the linked folder's marker
    monkeypatch.setattr(build_site, "ROOT", tree)
    ran = []
    monkeypatch.setattr(build_site.subprocess, "run", lambda *a, **k: ran.append(a))
    assert build_site.npm_install_needed() is None
    build_site.ensure_node_modules(allow_npm=True)
    lock["packages"]["node_modules/pyodide"]["version"] = "2.0.0"
    (tree / "package-lock.json").write_text(json.dumps(lock))
    with pytest.raises(build_site.BuildError, match="links to .*run `npm ci` there"):
        build_site.ensure_node_modules(allow_npm=True)
    assert ran == [] and (other / "pyodide" / "package.json").is_file()
