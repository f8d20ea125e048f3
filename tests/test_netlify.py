"""netlify.toml and the generated site/_headers, parsed under plain CPython: the build command, the
Content-Security-Policy (only this site; what the runtime needs and nothing else), caching (never for the
page, the service worker and the manifest; immutable only for content-hashed files) and content types.
tests/browser/test_pwa_csp.py boots the game under these very headers."""

from __future__ import annotations

import re
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from tools import build_site
from tools.netlify_headers import (
    HASHED_CHUNK,
    IMMUTABLE,
    csp_directives,
    headers_for,
    immutable_paths,
    inline_script_hashes,
    rule_regex,
    site_rules,
)
from tools.serve import start_server

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "netlify.toml").read_text("utf-8"))
NEVER_CACHED = ["/", "/index.html", "/sw.js", "/precache.json", "/assets/manifest.webmanifest"]
# Every source expression the policy may use; anything else (a host, a scheme such as https:,
# 'unsafe-inline', *) fails the test.
ALLOWED_SOURCES = {
    "default-src": {"'self'"},
    "script-src": {"'self'", "'wasm-unsafe-eval'", "'unsafe-eval'"},  # plus the inline script hashes
    "worker-src": {"'self'", "blob:"},
    "connect-src": {"'self'"},
    "img-src": {"'self'", "data:"},
    "style-src": {"'self'"},
    "font-src": {"'self'"},
    "manifest-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'none'", "'self'"},
    "form-action": {"'none'", "'self'"},
    "frame-ancestors": {"'none'"},
}


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site[0]


@pytest.fixture(scope="module")
def rules(site):
    return site_rules(site)


def site_paths(site: Path) -> list[str]:
    return ["/"] + sorted("/" + p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


def csp(rules, path="/"):
    return csp_directives(headers_for(path, rules)["Content-Security-Policy"])


def test_build_installs_the_locked_runtime_and_publishes_the_built_site():
    build = CONFIG["build"]
    assert build["publish"] == "site"
    steps = [step.strip() for step in build["command"].split("&&")]
    assert steps[0].startswith("npm ci")  # exactly the versions of package-lock.json
    assert steps[-1].startswith("python3 tools/build_site.py")
    assert (ROOT / "package-lock.json").is_file()
    assert build_site.DEFAULT_OUT.name == build["publish"]


def test_every_path_gets_the_same_csp_and_no_header_twice(site, rules):
    # headers_for raises when two matching rules set one header (Netlify would send both values).
    policies = {headers_for(path, rules)["Content-Security-Policy"] for path in site_paths(site)}
    assert len(policies) == 1


def test_csp_allows_only_this_site(rules):
    directives = csp(rules)
    assert set(directives) == set(ALLOWED_SOURCES), "a directive was added or dropped: review"
    for name, sources in directives.items():
        allowed = ALLOWED_SOURCES[name]
        if name == "script-src":
            extra = {s for s in sources if s not in allowed}
            assert all(re.fullmatch(r"'sha256-[A-Za-z0-9+/]{43}='", s) for s in extra), extra
        else:
            assert set(sources) <= allowed, (name, sources)
        assert sources, name
    assert directives["default-src"] == ["'self'"]
    for name in ("object-src", "frame-ancestors"):
        assert directives[name] == ["'none'"]
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'wasm-unsafe-eval'" in directives["script-src"]  # Pyodide compiles WebAssembly


def test_csp_allows_exactly_the_inline_scripts_of_index_html(rules):
    wanted = inline_script_hashes((ROOT / "index.html").read_text("utf-8"))
    hashes = [s for s in csp(rules)["script-src"] if s.startswith("'sha256-")]
    missing = [h for h in wanted if h not in hashes]
    assert not missing, (
        "index.html has an inline script the CSP would block: add to script-src in netlify.toml "
        + " ".join(missing)
    )
    assert sorted(hashes) == sorted(wanted), "netlify.toml allows a hash of a script index.html no longer has"


def test_inline_script_hashes_follow_the_csp_definition():
    import base64
    import hashlib

    html = '<script>a()</script><script type="py">x</script><script src="s.js"></script>' \
           '<script type="module">\n b()\n</script>'

    def expected(text):  # CSP: base64 of the SHA-256 of the exact text between the tags
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    # type="py" is not run by the browser and src= scripts are not inline: both are left out.
    assert inline_script_hashes(html) == [expected("a()"), expected("\n b()\n")]


def test_rendered_pages_have_no_inline_event_handlers():
    # The CSP has no 'unsafe-inline' (nor 'unsafe-hashes'): an onclick="..." attribute would not run.
    from splendor.web import view
    from splendor.web.controller import App
    from splendor.web.records.storage import MemoryStorage

    app = App(MemoryStorage())
    pages = [view.render(app)]
    app.act("start", {"seed": "7", "starts": "person"})
    pages.append(view.render(app))
    pages.append((ROOT / "index.html").read_text("utf-8"))
    for html in pages:
        handlers = re.findall(r"<[^>]*\s(on[a-z]+)\s*=", html)
        assert handlers == [], handlers
        assert "javascript:" not in html


@pytest.mark.parametrize("path", NEVER_CACHED)
def test_page_worker_and_manifest_are_never_cached(rules, path):
    cache = headers_for(path, rules)["Cache-Control"]
    assert "no-cache" in cache or "max-age=0" in cache
    assert "immutable" not in cache


def test_types_for_wasm_mjs_and_manifest(site, rules):
    for path in site_paths(site):
        kind = headers_for(path, rules).get("Content-Type", "")
        if path.endswith(".wasm"):
            assert kind == "application/wasm", path
        elif path.endswith(".mjs"):
            assert kind.startswith("text/javascript"), path
        elif path.endswith(".webmanifest"):
            assert kind.startswith("application/manifest+json"), path


def test_only_content_hashed_chunks_are_immutable(site, rules):
    immutable = [p for p in site_paths(site) if headers_for(p, rules)["Cache-Control"] == IMMUTABLE]
    rels = [p[1:] for p in site_paths(site)[1:]]
    assert immutable == ["/" + rel for rel in immutable_paths(rels)]
    assert len(immutable) >= 10  # PyScript 0.7.31 ships about twenty hashed chunks
    for rel in immutable_paths(rels):
        assert HASHED_CHUNK.match(rel)
    # Same names from one release to the next: revalidated, never immutable.
    for path in ["/runtime/pyscript/core.js", "/runtime/pyscript/core.css",
                 "/runtime/pyscript/service-worker.js", "/runtime/pyscript/storage.js",
                 "/runtime/pyodide/pyodide.mjs", "/runtime/pyodide/pyodide.asm.wasm",
                 "/pyscript.toml", "/splendor.zip", "/splendor/web/main.py", "/assets/style.css"]:
        assert (site / path[1:]).is_file(), path
        assert headers_for(path, rules)["Cache-Control"] == "public, max-age=0, must-revalidate"


def test_headers_file_is_not_served_or_precached(site):
    assert (site / "_headers").is_file()
    assert "./_headers" not in build_site.write_service_worker(site, build_site.precached(
        sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())))["urls"]


@pytest.mark.parametrize("pattern, path, matches", [
    ("/*", "/", True),
    ("/*", "/runtime/pyodide/pyodide.asm.wasm", True),
    ("/", "/", True),
    ("/", "/index.html", False),
    ("/index.html", "/index.html", True),
    ("/sw.js", "/sw.json", False),
    ("/runtime/pyodide/*.wasm", "/runtime/pyodide/pyodide.asm.wasm", True),
    ("/runtime/pyodide/*.wasm", "/runtime/pyodide/pyodide.mjs", False),
    ("/runtime/*.mjs", "/runtime/pyodide/pyodide.asm.mjs", True),
    ("/runtime/*.mjs", "/runtime/pyscript/core.js", False),
    ("/assets/:name", "/assets/style.css", True),
    ("/assets/:name", "/assets/icons/icon-192.png", False),
])
def test_netlify_path_patterns(pattern, path, matches):
    assert bool(rule_regex(pattern).match(path)) is matches


def test_local_server_sends_the_deployed_headers(site, rules):
    server, url = start_server(site, netlify_headers=True)
    hashed = immutable_paths([p[1:] for p in site_paths(site)])[0]
    try:
        for path in ["/", "/sw.js", "/runtime/pyodide/pyodide.mjs", "/runtime/pyscript/core.js",
                     "/" + hashed, "/assets/manifest.webmanifest"]:
            count = len(server.transfers) + 1
            with urllib.request.urlopen(url + path.lstrip("/")) as response:
                sent = response.headers  # case-insensitive
                body = response.read()
            for name, value in headers_for(path, rules).items():
                assert sent.get(name) == value, (path, name)
            deadline = time.monotonic() + 5  # the server logs the transfer just after the last byte
            while len(server.transfers) < count and time.monotonic() < deadline:
                time.sleep(0.01)
            assert server.transfers[count - 1] == (path, 200, len(body))
    finally:
        server.stop()
