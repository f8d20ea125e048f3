"""Keyboard play decisions (splendor/web/table/keyboard.py): moving in the market and supply grids, Tab kept inside a
dialog, the one tab stop of a grid; and the view's grid markers that the page's key handler reads."""

import re

from splendor.web import view
from splendor.web.controller import App
from splendor.web.table.keyboard import grid_target, trap_target
from splendor.web.records.storage import MemoryStorage

# The market as the page draws it: level 3 on top; a deck then four places per row (None: an empty place).
MARKET = [["d3", "m30", "m31", "m32", "m33"],
          ["d2", "m20", None, "m22", "m23"],
          ["d1", "m10", "m11", "m12", "m13"]]


def test_arrows_move_one_place_and_stop_at_the_edges():
    assert grid_target(MARKET, "m30", "ArrowRight") == "m31"
    assert grid_target(MARKET, "m30", "ArrowLeft") == "d3"
    assert grid_target(MARKET, "d3", "ArrowLeft") is None
    assert grid_target(MARKET, "m33", "ArrowRight") is None
    assert grid_target(MARKET, "m30", "ArrowDown") == "m20"
    assert grid_target(MARKET, "m10", "ArrowUp") == "m20"
    assert grid_target(MARKET, "d3", "ArrowUp") is None
    assert grid_target(MARKET, "d1", "ArrowDown") is None


def test_empty_places_are_stepped_over():
    assert grid_target(MARKET, "m20", "ArrowRight") == "m22"
    assert grid_target(MARKET, "m22", "ArrowLeft") == "m20"
    # Straight below m31 is empty: the nearest place in that row (left first).
    assert grid_target(MARKET, "m31", "ArrowDown") == "m20"
    assert grid_target(MARKET, "m11", "ArrowUp") == "m20"
    # A whole row without a place there is crossed.
    assert grid_target([["a"], [None], ["c"]], "a", "ArrowDown") == "c"


def test_home_and_end_go_to_the_ends_of_the_row():
    assert grid_target(MARKET, "m12", "Home") == "d1"
    assert grid_target(MARKET, "m20", "End") == "m23"
    assert grid_target(MARKET, "m23", "End") is None


def test_other_keys_and_unknown_elements_do_not_move():
    assert grid_target(MARKET, "m12", "Enter") is None
    assert grid_target(MARKET, "nowhere", "ArrowRight") is None


def test_tab_wraps_inside_a_dialog():
    ids = ["buy", "reserve", "close"]
    assert trap_target(ids, "close", shift=False) == "buy"
    assert trap_target(ids, "buy", shift=True) == "close"
    assert trap_target(ids, "reserve", shift=False) is None  # the browser moves on normally
    assert trap_target(ids, "reserve", shift=True) is None
    assert trap_target(ids, "outside", shift=False) == "buy"  # focus outside the dialog comes back into it
    assert trap_target(ids, "outside", shift=True) == "close"
    assert trap_target(["only"], "only", shift=False) == "only"
    assert trap_target([], "x", shift=False) is None


def grid_rows(html, grid):
    """The ids of a grid's rows as the page's key handler sees them: [data-grid-row] children (or the grid)."""
    start = html.index(f'data-grid="{grid}"')
    section = html[start:html.index("</section>", start)]
    rows = re.split(r"data-grid-row", section)[1:] or [section]
    out = []
    for row in rows:
        out.append(re.findall(r'<(?:button|div)[^>]*class="(?:card|deck|pile)[^"]*"(?: id="(\w[\w-]*)")?', row))
    return out


def test_the_view_marks_the_market_and_supply_as_grids():
    app = App(MemoryStorage())
    app.act("start", {"seed": "7", "starts": "person"})
    html = view.render(app)
    market = grid_rows(html, "market")
    assert [len(r) for r in market] == [5, 5, 5]
    assert market[0][0] == "d3" and market[2][0] == "d1"
    assert all(re.fullmatch(r"m\d\d", x) for row in market for x in row[1:])
    supply = grid_rows(html, "supply")
    assert supply == [["pile-white", "pile-blue", "pile-green", "pile-red", "pile-black", "pile-gold"]]
    # An empty market place is a hole in the grid: it has no id, and the arrows step over it.
    g = app.game
    g._market[1][1] = None
    rows = grid_rows(view.render(app), "market")
    assert rows[1][2] == "" and grid_target([[x or None for x in r] for r in rows], "m20", "ArrowRight") == "m22"
