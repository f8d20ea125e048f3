"""Play without a pointer: arrow keys move through the market and the supply as grids, Tab stays inside an open
dialog, and focus goes back to what opened a dialog when it closes.

The decisions are pure functions on lists of element ids (tested under CPython): ``grid_target`` and
``trap_target``; the one Tab stop of each grid is marked on the page's new HTML by assets/patch.js from
``Keys.marks()``. ``Keys`` applies them to the page; it only calls DOM methods on the objects ``main.py`` passes in,
so this module imports nothing from the browser.

>>> rows = [["d3", "m30", "m31"], ["d2", None, "m21"]]
>>> grid_target(rows, "m30", "ArrowDown")      # the place below is empty: the nearest one in that row
'd2'
>>> grid_target(rows, "m31", "ArrowDown")
'm21'
>>> grid_target(rows, "d2", "ArrowRight")      # a gap in the row is stepped over
'm21'
>>> trap_target(["buy", "reserve", "close"], "close", shift=False)
'buy'
"""

import json

#: Arrow keys as (row step, column step); Home and End go to the ends of the row.
MOVES = {"ArrowLeft": (0, -1), "ArrowRight": (0, 1), "ArrowUp": (-1, 0), "ArrowDown": (1, 0)}
GRID_KEYS = set(MOVES) | {"Home", "End"}
FOCUSABLE = ('button, a[href], input:not([type="hidden"]), select, textarea, summary, '
             '[tabindex]:not([tabindex="-1"])')


def _where(rows, current):
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell is not None and cell == current:
                return r, c
    return None


def grid_target(rows, current, key):
    """The id that ``key`` moves focus to from ``current`` in a grid given as rows of ids (None for a place
    that cannot take focus, such as an empty market slot); None when the key does not move (an edge)."""
    at = _where(rows, current)
    if at is None:
        return None
    r, c = at
    if key in ("Home", "End"):
        cells = [x for x in rows[r] if x is not None]
        target = cells[0] if key == "Home" else cells[-1]
        return None if target == current else target
    if key not in MOVES:
        return None
    dr, dc = MOVES[key]
    if dc:
        k = c + dc
        while 0 <= k < len(rows[r]):
            if rows[r][k] is not None:
                return rows[r][k]
            k += dc
        return None
    k = r + dr
    while 0 <= k < len(rows):
        row = rows[k]
        if c < len(row) and row[c] is not None:
            return row[c]
        # The same column is empty there: the nearest place in that row, left first.
        for off in range(1, len(row) + 1):
            for cc in (c - off, c + off):
                if 0 <= cc < len(row) and row[cc] is not None:
                    return row[cc]
        k += dr
    return None


def trap_target(ids, current, shift):
    """Where Tab (``shift``: Shift+Tab) goes inside a dialog whose focusable elements are ``ids`` in order: the
    other end at either end, the first one when focus is outside; None to let the browser move normally."""
    if not ids:
        return None
    if current not in ids:
        return ids[-1] if shift else ids[0]
    if shift and current == ids[0]:
        return ids[-1]
    if not shift and current == ids[-1]:
        return ids[0]
    return None


try:
    from pyodide.ffi import jsnull as _JSNULL
except ImportError:  # CPython (the tests): there is no JS null
    _JSNULL = None


def _null(x):
    return x is None or x is _JSNULL


class Keys:
    """The page side: ``Keys(document, root)``; call ``after_render()`` after every render and ``on_key(event)``
    from the keydown listener (returns True when it handled the key)."""

    def __init__(self, document, root):
        self.document = document
        self.root = root
        self.remembered = {}  # grid name -> id of the element Tab stops at

    # -- grids --------------------------------------------------------------------------------------------------
    def _rows(self, grid):
        rows = list(grid.querySelectorAll("[data-grid-row]")) or [grid]
        out = []
        for row in rows:
            cells = []
            for el in row.children:
                tag = str(el.tagName).lower()
                cells.append(str(el.id) if tag == "button" and str(el.id or "") else None)
            out.append(cells)
        return out

    def marks(self):
        """What assets/patch.js needs to mark the new HTML for the keyboard (one Tab stop per grid: the element
        last moved to, else the first; everything behind an open dialog inert): the remembered element per grid."""
        return json.dumps(self.remembered)

    def fallback_focus(self):
        """The focused control went away with the move it made (Take, Return, Pass): the supply's tab stop takes
        the focus, so the next turn starts from the gems rather than from the top of the page."""
        el = self.root.querySelector('[data-grid="supply"] [tabindex="0"]')
        if not _null(el):
            el.focus()

    def remember(self, el):
        """Note a grid element the person used (clicked or moved to), so Tab comes back to it."""
        if _null(el):
            return
        grid = el.closest("[data-grid]")
        if not _null(grid) and str(el.id or ""):
            self.remembered[str(grid.dataset.grid)] = str(el.id)

    def _move_in_grid(self, event):
        target = event.target
        if _null(target) or _null(getattr(target, "closest", None)):
            return False
        grid = target.closest("[data-grid]")
        if _null(grid) or not self.root.contains(grid):
            return False
        to = grid_target(self._rows(grid), str(target.id or ""), str(event.key))
        if to is None:
            event.preventDefault()  # at an edge: stay (and do not scroll the page)
            return True
        el = self.document.getElementById(to)
        if _null(el):
            return False
        event.preventDefault()
        target.tabIndex = -1
        el.tabIndex = 0
        el.focus()
        self.remember(el)
        return True

    # -- dialogs -------------------------------------------------------------------------------------------------
    def _trap(self, event):
        dialog = self.root.querySelector('[role="dialog"]')
        if _null(dialog):
            return False
        els = [el for el in dialog.querySelectorAll(FOCUSABLE)
               if not bool(getattr(el, "disabled", False)) and int(el.tabIndex) >= 0]
        active = self.document.activeElement
        current = None
        for i, el in enumerate(els):
            if not _null(active) and el.isSameNode(active):
                current = i
        to = trap_target(list(range(len(els))), current, bool(event.shiftKey))
        if to is None:
            return False
        event.preventDefault()
        els[to].focus()
        return True

    def on_key(self, event):
        key = str(event.key)
        if event.altKey or event.ctrlKey or event.metaKey:
            return False
        if key == "Tab":
            return self._trap(event)
        if key in GRID_KEYS:
            return self._move_in_grid(event)
        return False
