#!/usr/bin/env python3
"""Does the game start and play in Firefox? A smoke check through Firefox's own Marionette protocol.

    python3 tools/firefox_smoke.py [--firefox /usr/bin/firefox-esr] [--screenshot out.png]

Playwright drives only its own patched Firefox build (its download is unreachable here), so this talks to Debian's
``firefox-esr`` (``apt-get install -y firefox-esr``) directly over Marionette (``--marionette``: length-prefixed
JSON on a local port; standard library only). It builds the site into a temporary folder, serves it, opens
``/?pace=0`` headless in a fresh profile and prints what it saw: the page ready (``body[data-ready]``), the
interpreter's bytecode state, a game started from the new-game screen, the person's move and the bot's answer
from its web worker, and uncaught errors. Exit status 0 when all of that worked.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import build_site  # noqa: E402
from tools.serve import start_server  # noqa: E402


class Marionette:
    def __init__(self, port: int, timeout: float = 60.0):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.25)
        self.buffer = b""
        self.next_id = 0
        self.hello = self._read()

    def _read(self):
        while b":" not in self.buffer:
            self.buffer += self._recv()
        size, _, rest = self.buffer.partition(b":")
        size = int(size)
        while len(rest) < size:
            rest += self._recv()
        self.buffer = rest[size:]
        return json.loads(rest[:size])

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("Firefox closed the Marionette connection")
        return chunk

    def call(self, command: str, params: dict | None = None):
        self.next_id += 1
        data = json.dumps([0, self.next_id, command, params or {}]).encode()
        self.sock.sendall(str(len(data)).encode() + b":" + data)
        while True:
            kind, msg_id, error, result = self._read()
            if kind == 1 and msg_id == self.next_id:
                if error:
                    raise RuntimeError(f"{command}: {error.get('error')}: {error.get('message')}")
                return result

    def script(self, body: str, asynchronous: bool = False, timeout_ms: int = 60_000):
        command = "WebDriver:ExecuteAsyncScript" if asynchronous else "WebDriver:ExecuteScript"
        return self.call(command, {"script": body, "args": [], "scriptTimeout": timeout_ms})["value"]

    def wait_for(self, expression: str, timeout: float = 120.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.script(f"return {expression};")
            if value:
                return value
            time.sleep(0.25)
        raise TimeoutError(f"waited {timeout:.0f} s for {expression}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ERRORS_JS = """
window.__smokeErrors = window.__smokeErrors || [];
if (!window.__smokeHooked) {
  window.__smokeHooked = true;
  addEventListener('error', (e) => window.__smokeErrors.push(String(e.message)));
  addEventListener('unhandledrejection', (e) => window.__smokeErrors.push(String(e.reason)));
}
return true;
"""
STATUS = "((document.getElementById('status') || {}).textContent || '')"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--firefox", default=shutil.which("firefox-esr") or shutil.which("firefox") or "firefox")
    parser.add_argument("--screenshot", type=Path, help="save a PNG of the table after the bot's answer")
    args = parser.parse_args(argv)
    if not shutil.which(args.firefox):
        print(f"firefox_smoke: {args.firefox} not found (apt-get install -y firefox-esr)", file=sys.stderr)
        return 2
    version = subprocess.run([args.firefox, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"browser: {version}")
    with tempfile.TemporaryDirectory(prefix="splendor-firefox-") as tmp:
        site = Path(tmp) / "site"
        build_site.build(site, quiet=True)
        server, url = start_server(site)
        port = free_port()
        profile = Path(tmp) / "profile"
        profile.mkdir()
        # Marionette's port comes from the profile's preferences.
        (profile / "user.js").write_text(f'user_pref("marionette.port", {port});\n')
        firefox = subprocess.Popen(
            [args.firefox, "--headless", "--marionette", "--no-remote", "--profile", str(profile)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
            env={**os.environ, "MOZ_HEADLESS": "1"},
        )
        ok = False
        try:
            m = Marionette(port)
            m.call("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}})
            m.call("WebDriver:SetWindowRect", {"width": 1280, "height": 900})
            started = time.monotonic()
            m.call("WebDriver:Navigate", {"url": url + "?pace=0"})
            m.script(ERRORS_JS)
            m.wait_for("document.body.dataset.ready === '1'")
            print(f"page ready (body[data-ready=1]) after {time.monotonic() - started:.1f} s")
            print(f"bytecode: {m.script('return document.body.dataset.bytecode || null;')}")
            m.script("""
                const radio = [...document.querySelectorAll('input[type=radio]')]
                    .find((r) => r.labels && [...r.labels].some((l) => l.textContent.trim() === 'You'));
                if (radio) radio.click();
                [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Start game').click();
                return true;""")
            m.wait_for(f"{STATUS}.startsWith('Your turn')", timeout=60)
            print(f"game started: {m.script(f'return {STATUS};')!r}")
            taken = None
            for color in ("white", "blue", "green", "red", "black"):  # each click renders the page again
                m.script(f"const b = document.getElementById('pile-{color}');"
                         f" if (b && b.getAttribute('aria-disabled') !== 'true') b.click(); return true;")
                taken = m.script("""
                    const take = [...document.querySelectorAll('button')]
                        .find((b) => /^Take /.test(b.textContent.trim()) && b.getAttribute('aria-disabled') !== 'true');
                    return take ? take.textContent.trim() : null;""")
                if taken and taken.count(",") + taken.count(" and ") >= 2:
                    break
            m.script("[...document.querySelectorAll('button')].find((b) => /^Take /.test(b.textContent.trim()))"
                     ".click(); return true;")
            print(f"the person's move: {taken!r}")
            started = time.monotonic()
            m.wait_for(f"!{STATUS}.startsWith('Your turn')", timeout=30)
            m.wait_for(f"{STATUS}.startsWith('Your turn') || {STATUS}.startsWith('Game over')", timeout=120)
            log = m.script("const l = document.querySelector('[aria-label=\"Game log\"]');"
                           " return l ? l.innerText : '';")
            bot_lines = [line.strip() for line in log.splitlines() if "Bot 1" in line]
            print(f"the bot answered after {time.monotonic() - started:.1f} s; the log says: {bot_lines[:1]}")
            worker = m.script("return !!document.querySelector('script[worker][name=\"ai\"]');")
            fallback = m.script("return document.body.innerText.includes('light bot');")
            print(f"bot worker created: {worker}; a light-bot fallback notice on the page: {fallback}")
            if args.screenshot:
                png = m.call("WebDriver:TakeScreenshot", {"full": False})["value"]
                args.screenshot.write_bytes(base64.b64decode(png))
                print(f"screenshot: {args.screenshot}")
            errors = m.script("return window.__smokeErrors;")
            print(f"uncaught errors: {errors}")
            ok = bool(taken) and bool(bot_lines) and not errors
        except Exception as error:  # report what failed, then clean up
            print(f"firefox_smoke: FAILED: {type(error).__name__}: {error}")
        finally:
            firefox.terminate()
            try:
                firefox.wait(10)
            except subprocess.TimeoutExpired:
                firefox.kill()
            server.stop()
    print("firefox_smoke: " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
