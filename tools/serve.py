#!/usr/bin/env python3
"""Build the site and serve ``site/`` on 127.0.0.1 (standard library only).

    python3 tools/serve.py [--port 8000] [--no-build] [--dir site] [--netlify-headers]

Serves correct MIME types for .mjs/.wasm/.webmanifest and ``Cache-Control: no-cache``, so the
browser revalidates every file (cheap 304s) and a rebuilt site is picked up on reload.
With --netlify-headers it sends instead exactly the headers Netlify would (netlify.toml's
[[headers]] plus the generated site/_headers, see tools/netlify_headers.py): the
Content-Security-Policy, the caching rules and the types of the deployed site.

From tests::

    from tools.serve import start_server
    server, url = start_server(site_dir)   # threaded, free port, returns at once
    ...
    server.stop()

``start_server(site_dir, netlify_headers=True)`` serves with the deployed headers;
``server.transfers`` lists (path, status, body bytes) of every GET answered, for byte counts.
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SITE = ROOT / "site"
HOST = "127.0.0.1"

EXTRA_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json",
    ".toml": "application/toml",
    ".py": "text/x-python",
    ".csv": "text/csv",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
}


class SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **EXTRA_TYPES}
    quiet = True
    header_rules = None  # Netlify header rules (tools/netlify_headers.py), or None for no-cache
    transfers = None  # list shared with the server: (path, status, body bytes)
    faults = None  # faults(path, nth request of that path) -> (status, body) to send instead, or None
    fault_counts: dict = {}
    fault_lock = threading.Lock()

    def _rule_headers(self) -> dict:
        if self.header_rules is None:
            return {"Cache-Control": "no-cache"}
        from tools.netlify_headers import headers_for

        return headers_for(self.path.split("?", 1)[0], self.header_rules)

    def send_response(self, code, message=None):
        self._status = code
        self._extra = self._rule_headers()
        super().send_response(code, message)

    def send_header(self, keyword, value):
        if keyword.lower() == "content-type":
            given = {k.lower(): v for k, v in getattr(self, "_extra", {}).items()}
            value = given.get("content-type", value)
        super().send_header(keyword, value)

    def end_headers(self):
        for name, value in getattr(self, "_extra", {"Cache-Control": "no-cache"}).items():
            if name.lower() != "content-type":
                super().send_header(name, value)
        super().end_headers()

    def do_GET(self):
        self._status = None
        if self.faults is not None and self._fault():
            return
        body = self.send_head()
        sent = 0
        if body:
            try:
                while chunk := body.read(64 * 1024):
                    self.wfile.write(chunk)
                    sent += len(chunk)
            finally:
                body.close()
        if self.transfers is not None:
            self.transfers.append((self.path, self._status, sent))

    def _fault(self) -> bool:
        """Answer from the server's fault table instead of the file, when it says so (tests of broken deploys)."""
        path = self.path.split("?", 1)[0]
        with self.fault_lock:
            count = self.fault_counts[path] = self.fault_counts.get(path, 0) + 1
        answer = self.faults(path, count)
        if answer is None:
            return False
        status, body = answer
        self.send_response(status)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if self.transfers is not None:
            self.transfers.append((self.path, status, len(body)))
        return True

    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        site_dir: Path,
        port: int = 0,
        host: str = HOST,
        quiet: bool = True,
        netlify_headers: bool = False,
        header_rules: list | None = None,
        faults=None,
    ):
        self.transfers: list[tuple[str, int | None, int]] = []
        rules = header_rules
        if netlify_headers and rules is None:
            if str(ROOT) not in sys.path:
                sys.path.insert(0, str(ROOT))
            from tools.netlify_headers import site_rules

            rules = site_rules(site_dir)
        handler = type(
            "Handler",
            (SiteHandler,),
            {"quiet": quiet, "header_rules": rules, "transfers": self.transfers,
             "faults": staticmethod(faults) if faults is not None else None,
             "fault_counts": {}, "fault_lock": threading.Lock()},
        )
        super().__init__((host, port), functools.partial(handler, directory=str(site_dir)))
        self.site_dir = site_dir
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> "SiteServer":
        self._thread = threading.Thread(target=self.serve_forever, name="site-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


def start_server(
    site_dir: Path | str = DEFAULT_SITE,
    port: int = 0,
    quiet: bool = True,
    netlify_headers: bool = False,
    header_rules: list | None = None,
    faults=None,
) -> tuple[SiteServer, str]:
    """Serve site_dir on 127.0.0.1 in a background thread (port 0: a free one).

    netlify_headers: send the deployed site's headers (CSP, caching) instead of no-cache;
    header_rules: other rules in the same form (tools/netlify_headers.py), e.g. a changed CSP;
    faults: for tests of a broken deploy, ``faults(path, n)`` is called for the n-th GET of each path (1, 2, ...)
    and returns (status, body) to send instead of the file, or None to send the file.
    Returns (server, url); call server.stop() to end it.
    """
    site_dir = Path(site_dir).resolve()
    if not (site_dir / "index.html").is_file():
        raise FileNotFoundError(f"{site_dir} has no index.html: build the site first")
    server = SiteServer(
        site_dir, port=port, quiet=quiet, netlify_headers=netlify_headers, header_rules=header_rules, faults=faults
    ).start()
    return server, server.url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build and serve the static site locally.")
    parser.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (8000)")
    parser.add_argument("--no-build", action="store_true", help="serve site/ as it is")
    parser.add_argument("--dir", type=Path, default=DEFAULT_SITE, help="folder to serve (site/)")
    parser.add_argument(
        "--netlify-headers",
        action="store_true",
        help="send the headers of netlify.toml and site/_headers (CSP, caching), as deployed",
    )
    args = parser.parse_args(argv)

    site_dir = args.dir.resolve()
    if not args.no_build:
        sys.path.insert(0, str(ROOT))
        from tools import build_site

        try:
            build_site.build(site_dir)
        except build_site.BuildError as error:
            print(f"build_site: error: {error}", file=sys.stderr)
            return 1
    if not (site_dir / "index.html").is_file():
        print(f"serve: {site_dir} has no index.html: build it first", file=sys.stderr)
        return 1
    server = SiteServer(
        site_dir, port=args.port, quiet=False, netlify_headers=args.netlify_headers
    )
    print(f"Serving {site_dir} at {server.url} (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
