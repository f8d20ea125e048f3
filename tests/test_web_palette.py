"""Colour is never the only cue: the gem palette stays apart in greyscale and under protanopia, deuteranopia and
tritanopia (simulated with Machado, Oliveira & Fernandes 2009 at full severity), every gem has its own shape, and
every gem shape drawn on the page carries its letter (or names its color in words)."""

import itertools
import math
import re
import xml.dom.minidom
from html.parser import HTMLParser
from pathlib import Path

from splendor.engine import TOKEN_COLORS
from splendor.web import view
from splendor.web.table import words
from splendor.web.controller import App
from splendor.web.records.storage import MemoryStorage

ROOT = Path(__file__).resolve().parent.parent
SPRITE = ROOT / "assets" / "gems.svg"
STYLE = ROOT / "assets" / "style.css"

# Linear-RGB simulation matrices, severity 1.0 (Machado et al. 2009, as used by Chromium's DevTools emulation).
DEFICIENCIES = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
# CIE76 distances (CIELAB, D65). About 2.3 is a just-noticeable difference; two gems side by side at 12 or more are
# plainly different shades of grey, and at 20 or more plainly different colours.
MIN_GREY = 12.0
MIN_DEFICIENT = 20.0


def to_linear(c):
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb_linear):
    r, g, b = rgb_linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def seen(hex_color, how):
    rgb = [to_linear(int(hex_color[i:i + 2], 16)) for i in (1, 3, 5)]
    if how == "greyscale":
        y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
        rgb = [y, y, y]
    elif how in DEFICIENCIES:
        m = DEFICIENCIES[how]
        rgb = [min(1.0, max(0.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3)]
    return lab(rgb)


def sprite_symbols():
    doc = xml.dom.minidom.parse(str(SPRITE))
    return {s.getAttribute("id"): s for s in doc.getElementsByTagName("symbol")}


def sprite_palette():
    """Each gem's body colour: the fill of the first shape of its symbol."""
    out = {}
    for sid, symbol in sprite_symbols().items():
        first = next(n for n in symbol.childNodes if n.nodeType == n.ELEMENT_NODE)
        out[sid.removeprefix("gem-")] = first.getAttribute("fill").lower()
    return out


def css_palette():
    text = STYLE.read_text("utf-8")
    return {c: m.group(1).lower() for c in TOKEN_COLORS
            if (m := re.search(rf"--{c}:\s*(#[0-9a-fA-F]{{6}})\s*;", text))}


def closest_pairs(palette, how):
    points = {c: seen(v, how) for c, v in palette.items()}
    return sorted((math.dist(points[a], points[b]), a, b) for a, b in itertools.combinations(points, 2))


def test_the_stylesheet_and_the_gem_sprite_share_one_palette():
    sprite = sprite_palette()
    assert set(sprite) == set(TOKEN_COLORS)
    assert css_palette() == sprite


def test_palette_pairs_stay_apart_in_greyscale_and_under_each_deficiency():
    palette = sprite_palette()
    for how, least in [("normal", MIN_DEFICIENT), ("greyscale", MIN_GREY), ("protanopia", MIN_DEFICIENT),
                       ("deuteranopia", MIN_DEFICIENT), ("tritanopia", MIN_DEFICIENT)]:
        d, a, b = closest_pairs(palette, how)[0]
        assert d >= least, f"{how}: {a} and {b} are only {d:.1f} apart (need {least})"


def test_the_check_would_catch_the_classic_red_green_confusion():
    """The old palette had red and green at the same lightness: greyscale and protanopia must flag it."""
    old = dict(sprite_palette(), red="#dc2626", green="#15803d", blue="#1d4ed8")
    grey = closest_pairs(old, "greyscale")[0]
    assert grey[0] < MIN_GREY and {grey[1], grey[2]} == {"green", "red"}
    assert closest_pairs(old, "protanopia")[0][0] < MIN_DEFICIENT


def test_each_gem_has_its_own_shape():
    shapes = {}
    for sid, symbol in sprite_symbols().items():
        first = next(n for n in symbol.childNodes if n.nodeType == n.ELEMENT_NODE)
        shapes[sid] = (first.tagName, first.getAttribute("d") or first.getAttribute("r"))
    assert len(set(shapes.values())) == len(shapes) == 6, shapes


class GemParents(HTMLParser):
    """For every gem drawn (an <svg class="gem gem-x">), the text of the element around it."""

    VOID = {"br", "img", "input", "col", "hr", "meta", "link", "use"}

    def __init__(self):
        super().__init__()
        self.stack = []  # [tag, attrs, text parts, gem colors drawn directly inside]
        self.found = []  # (color, text of the parent, parent tag and class)

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        # Text drawn by the stylesheet from data-t (view.drawn) is shown like any other text.
        self.stack.append([tag, dict(attrs), [dict(attrs)["data-t"]] if dict(attrs).get("data-t") else [], []])
        cls = dict(attrs).get("class") or ""
        m = re.search(r"\bgem-(\w+)", cls)
        if tag == "svg" and m and len(self.stack) > 1:
            self.stack[-2][3].append(m.group(1))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.stack:
            t, attrs, text, gems = self.stack.pop()
            if self.stack:
                self.stack[-1][2].extend(text)
            for color in gems:
                self.found.append((color, " ".join(text), f"{t}.{attrs.get('class', '')}"))
            if t == tag:
                break

    def handle_data(self, data):
        if self.stack:
            self.stack[-1][2].append(data)


def gems_and_their_text(html):
    parser = GemParents()
    parser.feed(html)
    parser.close()
    return parser.found


def test_every_gem_shape_on_the_table_and_in_dialogs_carries_its_letter():
    app = App(MemoryStorage())
    app.act("start", {"seed": "7", "starts": "person", "opponents": "3"})
    g = app.game
    # Give the person a reserved card, some bonuses and tokens, so every kind of gem is drawn.
    g.apply(f"reserve {g.market[0][0].code}")
    html = view.render(app)
    app.act("card", {"where": "market", "level": "2", "slot": "1"})
    html += view.render(app)
    app.act("close", {})
    app.act("card", {"where": "reserved", "index": "0"})
    html += view.render(app)
    found = gems_and_their_text(html)
    kinds = {where for _, _, where in found}
    assert {"span.pip pip-white", "span.lg lg-white bonus", "button.pile pile-white"} & kinds, kinds
    assert len(found) > 100
    for color, text, where in found:
        if where.startswith("h1") or where.startswith("h2"):  # the logo beside the title
            continue
        letter = words.LETTERS[color]
        assert re.search(rf"\b{letter}\b", text) or color in text.lower(), (color, text, where)


def test_costs_show_letters_next_to_numbers():
    html = view.pip("red", 3)
    assert '<b data-t="3"' in html and '<i class="pl" data-t="R"' in html and "gem-red" in html
    found = gems_and_their_text(html)
    assert found == [("red", "3 R", "span.pip pip-red")]
