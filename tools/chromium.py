"""The one Chromium the tests and the tools drive: Debian's (``apt-get install -y chromium``; Playwright's own
download is unreachable here), and the flags it needs on these machines (no sandbox as root, no GPU, nothing that
reaches out to another host on its own). ``CHROMIUM_PATH`` points at another build."""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
#: Debian's headless shell of the same Chromium (``apt-get install -y chromium-headless-shell``: the same Blink and
#: V8, without the full browser's own windowing and UI layers; what Playwright itself runs for headless tests). The
#: browser tests run on it: about 15% less CPU a test than CHROMIUM, measured on the whole browser suite. The few
#: that need the full browser (Chromium offers installation only there) launch CHROMIUM. The tools use CHROMIUM.
HEADLESS_SHELL = os.environ.get("CHROMIUM_HEADLESS_SHELL_PATH", "/usr/bin/chromium-headless-shell")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

#: The two screen sizes the page is looked at and tested in (Playwright context options).
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
