"""The static site build (tools/build_site.py), under plain CPython: no browser needed."""

import json
import re
from pathlib import Path

import pytest

from tools import build_site

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_HOSTS = {"localhost", "127.0.0.1", "www.w3.org"}
URL_RE = re.compile(r"\b(?:https?|wss?|ftp)://([^/\s\"'`<>)\]}\\]+)", re.IGNORECASE)
SCANNED_SUFFIXES = {".html", ".js", ".mjs", ".toml", ".json", ".py", ".css", ".webmanifest"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    manifest = build_site.build(out, quiet=True)
    return out, manifest


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
                   "runtime/pyscript/core.js"):
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


def test_package_files_are_copied(built):
    out, _ = built
    for rel in build_site.package_files():
        assert (out / rel).read_bytes() == (ROOT / rel).read_bytes()


def test_pyscript_toml_lists_every_package_file():
    listed = set(build_site.check_pyscript_files())
    for rel in build_site.browser_package_files():
        assert rel in listed


def test_missing_package_file_is_named(tmp_path):
    toml = (ROOT / "pyscript.toml").read_text()
    victim = build_site.browser_package_files()[-1]
    lines = [line for line in toml.splitlines() if not line.lstrip().startswith(f'"./{victim}"')]
    broken = tmp_path / "pyscript.toml"
    broken.write_text("\n".join(lines) + "\n")
    with pytest.raises(build_site.BuildError, match=re.escape(victim)):
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


def test_stale_files_are_removed(built):
    out, manifest = built
    stale = out / "splendor" / "gone.py"
    stale.write_text("x = 1\n")
    assert build_site.build(out, quiet=True) == manifest
    assert not stale.exists()
