#!/usr/bin/env python3
"""Draw the app icon (a faceted gem) as SVG and render it to the PNGs the manifest names.

    .venv/bin/python tools/make_icons.py [--out assets/icons] [--svg]

Writes, into assets/icons/:
  icon-192.png, icon-512.png          purpose "any": the gem on a rounded square, transparent corners
  maskable-192.png, maskable-512.png  purpose "maskable": full-bleed background, the gem inside the
                                      central safe circle (radius 40 % of the size) so any mask shape
                                      (circle, squircle, teardrop) keeps the whole gem
  apple-touch-icon.png (180 px)       full-bleed and opaque: iOS rounds the corners itself
With --svg it also writes the three SVG sources next to them (for looking at; not used by the page).

Rendering uses Playwright with Debian's /usr/bin/chromium (the same browser as the tests); Pillow
(requirements-dev.txt) then stores each opaque icon as an 8-bit palette PNG (:func:`to_palette`): a
first visit downloads every icon (the service worker precaches them), and a palette holds the
drawing within 5 levels of a colour for under a quarter of the bytes (115 KB -> 24 KB for the
three). The PNGs are committed; run this again only when the drawing changes.
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.chromium import ARGS, CHROMIUM  # noqa: E402

DEFAULT_OUT = ROOT / "assets" / "icons"

# Matches <meta name="theme-color"> in index.html and the manifest's colours.
BACKGROUND_TOP = "#174046"
BACKGROUND_BOTTOM = "#0a1e21"

# The gem, drawn in a 100 x 100 box: a brilliant cut seen from the side. Crown (top) points on the
# table edge, girdle points across the widest line, and the pavilion's tip at the bottom.
T = [(28, 18), (50, 18), (72, 18)]
G = [(6, 38), (31, 38), (50, 38), (69, 38), (94, 38)]
TIP = (50, 90)
# Facets with their shade (light comes from the upper left), ruby red.
FACETS = [
    # crown: a zig-zag of triangles between the table edge and the girdle
    ((G[0], T[0], G[1]), "#ff8593"),
    ((T[0], T[1], G[1]), "#ffc2ca"),
    ((G[1], T[1], G[3]), "#ff6175"),
    ((T[1], T[2], G[3]), "#f23a55"),
    ((G[3], T[2], G[4]), "#c91f3b"),
    # pavilion: long facets meeting at the tip
    ((G[0], G[1], TIP), "#e8304c"),
    ((G[1], G[2], TIP), "#b5162f"),
    ((G[2], G[3], TIP), "#8f0d24"),
    ((G[3], G[4], TIP), "#6a0818"),
]
SPARKLE = "M19 6 L21 12 L27 14 L21 16 L19 22 L17 16 L11 14 L17 12 Z"


def _points(triangle) -> str:
    return " ".join(f"{x},{y}" for x, y in triangle)


def gem_group(scale: float, cx: float = 50, cy: float = 50) -> str:
    """The gem scaled by ``scale`` (1 = the 100-unit drawing) and centred on (cx, cy)."""
    # The drawing's own centre: x 50, y midway between the table (18) and the tip (90).
    ox, oy = 50, (18 + 90) / 2
    facets = "\n".join(
        f'    <polygon points="{_points(tri)}" fill="{shade}"/>' for tri, shade in FACETS
    )
    edges = (
        f'    <polygon points="{_points([G[0], T[0], T[2], G[4], TIP])}" fill="none" '
        'stroke="#2b0209" stroke-opacity=".55" stroke-width="1.6" stroke-linejoin="round"/>\n'
        f'    <polyline points="{_points(G)}" fill="none" stroke="#fff" stroke-opacity=".45" '
        'stroke-width=".9"/>'
    )
    return (
        f'  <g transform="translate({cx} {cy}) scale({scale}) translate({-ox} {-oy})">\n'
        f"{facets}\n{edges}\n"
        f'    <path d="{SPARKLE}" fill="#fff" opacity=".9"/>\n'
        "  </g>"
    )


GEM_SCALE = {"any": 0.80, "maskable": 0.66, "apple": 0.74}
SPARKLE_POINTS = [(19, 6), (27, 14), (19, 22), (11, 14)]


def outermost_radius(scale: float) -> float:
    """Largest distance from the icon's centre to a corner of the gem or the sparkle (0-100 units)."""
    ox, oy = 50, (18 + 90) / 2
    corners = [*T, *G, TIP, *SPARKLE_POINTS]
    return max(((x - ox) ** 2 + (y - oy) ** 2) ** 0.5 * scale for x, y in corners)


def icon_svg(kind: str) -> str:
    """SVG source for kind 'any', 'maskable' or 'apple' (all on a 100 x 100 viewBox)."""
    defs = (
        "  <defs>\n"
        '    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">\n'
        f'      <stop offset="0" stop-color="{BACKGROUND_TOP}"/>\n'
        f'      <stop offset="1" stop-color="{BACKGROUND_BOTTOM}"/>\n'
        "    </linearGradient>\n"
        '    <radialGradient id="glow" cx=".5" cy=".45" r=".5">\n'
        '      <stop offset="0" stop-color="#4fb3b0" stop-opacity=".45"/>\n'
        '      <stop offset="1" stop-color="#4fb3b0" stop-opacity="0"/>\n'
        "    </radialGradient>\n"
        "  </defs>"
    )
    if kind == "any":
        # Rounded square filling the box; the gem fills most of it.
        background = '  <rect x="2" y="2" width="96" height="96" rx="22" fill="url(#bg)"/>'
        glow = '  <circle cx="50" cy="50" r="42" fill="url(#glow)"/>'
        gem = gem_group(GEM_SCALE[kind])
    elif kind == "maskable":
        # Full bleed; the gem's corners stay inside the safe circle of radius 40.
        background = '  <rect width="100" height="100" fill="url(#bg)"/>'
        glow = '  <circle cx="50" cy="50" r="40" fill="url(#glow)"/>'
        gem = gem_group(GEM_SCALE[kind])
    elif kind == "apple":
        background = '  <rect width="100" height="100" fill="url(#bg)"/>'
        glow = '  <circle cx="50" cy="50" r="44" fill="url(#glow)"/>'
        gem = gem_group(GEM_SCALE[kind])
    else:
        raise ValueError(kind)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n'
        f"{defs}\n{background}\n{glow}\n{gem}\n</svg>\n"
    )


TARGETS = [
    ("icon-192.png", "any", 192),
    ("icon-512.png", "any", 512),
    ("maskable-192.png", "maskable", 192),
    ("maskable-512.png", "maskable", 512),
    ("apple-touch-icon.png", "apple", 180),
]


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; ValueError if it is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    return struct.unpack(">II", data[16:24])


def render(out: Path, write_svg: bool = False) -> list[Path]:
    from playwright.sync_api import sync_playwright

    # The maskable icon's safe zone is the centred circle of radius 40 % of the size.
    if outermost_radius(GEM_SCALE["maskable"]) > 40:
        raise ValueError("the maskable gem reaches outside the safe zone")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for name, kind, size in TARGETS:
                svg = icon_svg(kind)
                page = browser.new_page(viewport={"width": size, "height": size},
                                        device_scale_factor=1)
                page.set_content(
                    "<!doctype html><html><head><style>html,body{margin:0;background:transparent}"
                    f"svg{{display:block;width:{size}px;height:{size}px}}</style></head>"
                    f"<body>{svg}</body></html>"
                )
                data = page.screenshot(omit_background=(kind == "any"), type="png")
                page.close()
                if png_size(data) != (size, size):
                    raise RuntimeError(f"{name}: rendered {png_size(data)}, wanted {size}")
                (out / name).write_bytes(to_palette(data))
                written.append(out / name)
                if write_svg:
                    (out / f"{kind}.svg").write_text(svg, "utf-8")
        finally:
            browser.close()
    return written


def to_palette(data: bytes) -> bytes:
    """An opaque PNG ``data`` as an 8-bit palette PNG of its 256 most covering colours (no dithering:
    flat facets and a smooth background, every pixel within 5 levels of its colour). An icon with
    transparency (the "any" ones' rounded corners) is returned as it is: a palette that keeps its
    antialiased edge leaves too few colours for the background's glow, which then bands."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(data))
    if "A" in img.getbands() and img.getextrema()[3][0] < 255:
        return data
    q = img.convert("RGB").quantize(colors=256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    q.save(out, "PNG", optimize=True)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--svg", action="store_true", help="also write the SVG sources")
    args = parser.parse_args(argv)
    for path in render(args.out, args.svg):
        print(f"make_icons: wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
