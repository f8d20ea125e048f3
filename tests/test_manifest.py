"""The web app manifest and its icons, under plain CPython (the browser's own parse is checked in
tests/browser/test_pwa_install.py)."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from urllib.parse import urljoin

import pytest

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "assets" / "manifest.webmanifest"
SITE = "https://example.org/"  # any deployment root
MANIFEST_URL = urljoin(SITE, "assets/manifest.webmanifest")


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def manifest() -> dict:
    return json.loads(MANIFEST.read_text("utf-8"))


def test_required_members(manifest):
    assert manifest["name"] == "Splendor"
    assert 0 < len(manifest["short_name"]) <= 12  # fits under a home-screen icon
    assert manifest["display"] == "standalone"
    for key in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-fA-F]{6}", manifest[key]), key


def test_start_url_scope_and_id_are_the_site_root(manifest):
    # Relative URLs in a manifest resolve against the manifest's own URL (it lives in assets/).
    assert urljoin(MANIFEST_URL, manifest["start_url"]) == SITE
    assert urljoin(MANIFEST_URL, manifest["scope"]) == SITE
    assert urljoin(MANIFEST_URL, manifest["id"]) == SITE


def test_icons_exist_with_the_declared_pixel_sizes(manifest):
    purposes = {}
    for icon in manifest["icons"]:
        path = (MANIFEST.parent / icon["src"]).resolve()
        assert path.is_file(), icon["src"]
        assert ROOT / "assets" in path.parents
        assert icon["type"] == "image/png"
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert png_size(path) == (width, height), icon["src"]
        for purpose in icon.get("purpose", "any").split():
            purposes.setdefault(purpose, set()).add(icon["sizes"])
    # 192 and 512 px, both as "any" and as "maskable".
    assert purposes == {"any": {"192x192", "512x512"}, "maskable": {"192x192", "512x512"}}


def test_maskable_icons_are_full_bleed_and_any_icons_have_transparent_corners():
    # A maskable icon is cropped by the platform's mask, so it must not rely on transparency; the
    # "any" icon has rounded, transparent corners. Reads the top-left pixel with zlib alone.
    import zlib

    def corner_alpha(path: Path) -> int:
        data = path.read_bytes()
        width, height = png_size(path)
        pos, idat, color_type = 8, b"", None
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            chunk = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                color_type = chunk[9]
            elif kind == b"IDAT":
                idat += chunk
            pos += 12 + length
        raw = zlib.decompress(idat)
        if color_type != 6:
            return 255  # no alpha channel: opaque
        # Row 0 starts with its filter byte, then RGBA (8 bits each). Every PNG filter leaves the
        # first pixel of the first row unchanged (its left and upper neighbours count as zero).
        return raw[1 + 3]

    icons = ROOT / "assets" / "icons"
    assert corner_alpha(icons / "maskable-512.png") == 255
    assert corner_alpha(icons / "maskable-192.png") == 255
    assert corner_alpha(icons / "apple-touch-icon.png") == 255
    assert corner_alpha(icons / "icon-512.png") == 0
    assert corner_alpha(icons / "icon-192.png") == 0


def test_index_html_links_manifest_touch_icon_and_matching_theme_color(manifest):
    html = (ROOT / "index.html").read_text("utf-8")
    assert re.search(r'<link rel="manifest" href="\./assets/manifest\.webmanifest">', html)
    touch = re.search(r'<link rel="apple-touch-icon" href="\./([^"]+)">', html)
    assert touch and png_size(ROOT / touch.group(1)) == (180, 180)
    assert re.search(r'<script src="\./assets/pwa\.js" defer></script>', html)
    assert re.search(r'<link rel="stylesheet" href="\./assets/pwa\.css">', html)
    theme = re.search(r'<meta name="theme-color" content="([^"]+)">', html)
    assert theme and theme.group(1).lower() == manifest["theme_color"].lower()
    # pwa.js registers the service worker; the page does not do it a second time.
    assert "serviceWorker.register" not in html


def test_icon_generator_keeps_the_maskable_gem_in_the_safe_zone():
    import sys

    sys.path.insert(0, str(ROOT))
    from tools import make_icons

    assert make_icons.outermost_radius(make_icons.GEM_SCALE["maskable"]) <= 40
    assert [t[0] for t in make_icons.TARGETS] == [
        "icon-192.png", "icon-512.png", "maskable-192.png", "maskable-512.png", "apple-touch-icon.png"
    ]


def test_opaque_icons_are_palette_pngs_within_five_levels_of_the_drawing():
    """A first visit downloads every icon: the opaque ones are stored as 8-bit palettes (a quarter of the bytes),
    which must keep every pixel within 5 levels of the rendering; an icon with transparency is kept as rendered."""
    import io

    Image = pytest.importorskip("PIL.Image")
    from tools import make_icons

    icons = ROOT / "assets" / "icons"
    for name in ("maskable-512.png", "maskable-192.png", "apple-touch-icon.png"):
        assert (icons / name).read_bytes()[25] == 3, name  # IHDR colour type 3: a palette
    # a rendering with a smooth gradient and flat shapes, as the icons have
    w = 256
    img = Image.new("RGB", (w, w))
    img.putdata([(20 + x // 8, 60 + y // 6, 70 + (x + y) // 12) if (x - 128) ** 2 + (y - 128) ** 2 > 2500
                 else (230, 40, 70) for y in range(w) for x in range(w)])
    buf = io.BytesIO()
    img.save(buf, "PNG")
    packed = make_icons.to_palette(buf.getvalue())
    back = Image.open(io.BytesIO(packed))
    assert back.mode == "P"
    a, b = img.load(), back.convert("RGB").load()
    assert max(abs(p - q) for y in range(w) for x in range(w) for p, q in zip(a[x, y], b[x, y])) <= 5
    clear = Image.new("RGBA", (16, 16), (10, 20, 30, 0))
    buf = io.BytesIO()
    clear.save(buf, "PNG")
    assert make_icons.to_palette(buf.getvalue()) == buf.getvalue()
