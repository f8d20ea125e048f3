"""Drive the game page with the keyboard only (page.keyboard.press / type): the tests read the page to decide,
but every action is a key press."""

from __future__ import annotations

import re

from game_driver import settle

ACTIVE_JS = "() => { const a = document.activeElement; return a && a !== document.body ? (a.id || '') : '' }"
MARKET_JS = """() => [...document.querySelectorAll('[data-grid="market"] [data-grid-row]')].map(
    row => [...row.children].map(el => el.tagName === 'BUTTON' ? el.id : null))"""


def active(page) -> str:
    return page.evaluate(ACTIVE_JS)


def tab_to(page, selector: str, limit: int = 60, shift: bool = False) -> str:
    """Press Tab until the focused element matches ``selector``; its id. Fails after ``limit`` presses."""
    key = "Shift+Tab" if shift else "Tab"
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return active(page)
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached {selector} (at {active(page)!r})")


def arrows_to(page, grid_rows, target: str) -> None:
    """From the focused cell of a grid, press arrows to reach ``target`` (rows of ids as the page draws them)."""
    def where(x):
        for r, row in enumerate(grid_rows):
            if x in row:
                return r, row.index(x)
        raise AssertionError(f"{x!r} is not in the grid {grid_rows}")

    for _ in range(20):
        here = active(page)
        if here == target:
            return
        (r, c), (tr, tc) = where(here), where(target)
        if r != tr:
            page.keyboard.press("ArrowDown" if tr > r else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if tc > c else "ArrowLeft")
    raise AssertionError(f"arrows never reached {target} (at {active(page)!r})")


def focus_market_card(page, card_id: str) -> None:
    tab_to(page, '[data-grid="market"] button')
    arrows_to(page, page.evaluate(MARKET_JS), card_id)


def pick_gems(page, colors) -> None:
    """Toggle the supply piles of ``colors`` with Space, moving between them with the arrows."""
    tab_to(page, '[data-grid="supply"] button')
    row = [["pile-white", "pile-blue", "pile-green", "pile-red", "pile-black", "pile-gold"]]
    for color in colors:
        arrows_to(page, row, f"pile-{color}")
        page.keyboard.press("Space")


def confirm_if_asked(page) -> None:
    """The move is made, or the page asks to confirm it ("Confirm each move", off by default): then confirm it."""
    page.wait_for_function("() => !document.getElementById('dialog') || document.getElementById('confirm')")
    if page.locator("#confirm").count():
        press_button(page, "#confirm")


def press_button(page, selector: str) -> None:
    tab_to(page, selector)
    page.keyboard.press("Enter")


def status(page) -> str:
    return page.locator("#status").text_content()


def take_three(page) -> bool:
    """Take up to three colors that the supply still has; False when no pile can be taken."""
    counts = page.evaluate("""() => Object.fromEntries(['white','blue','green','red','black'].map(
        c => [c, Number(document.querySelector('#pile-' + c + ' .count').textContent)]))""")
    colors = [c for c, n in counts.items() if n > 0][:3]
    if not colors:
        return False
    pick_gems(page, colors)
    take = page.locator("#btn-take")
    if take.get_attribute("aria-disabled") == "true":
        return False
    press_button(page, "#btn-take")
    return True


def return_tokens(page) -> int:
    """In the return phase: return tokens with Enter on the token buttons, then confirm. How many."""
    prompt = page.get_by_role("region", name="Your move").text_content()
    need = int(re.search(r"tap (\d+) tokens? of yours", prompt).group(1))
    for _ in range(need):
        tab_to(page, "button.ret")
        page.keyboard.press("Enter")
    press_button(page, "#btn-give-back")
    return need


def affordable(page):
    """The id of a card the person can buy now (market or reserved), or None."""
    return page.evaluate("""() => {
        const b = [...document.querySelectorAll('button[aria-label$="You can buy it"]')];
        return b.length ? b[0].id : null }""")


def buy(page, card_id: str) -> None:
    if card_id.startswith("m"):
        focus_market_card(page, card_id)
    else:
        tab_to(page, f"#{card_id}")
    page.keyboard.press("Enter")
    page.get_by_role("dialog").wait_for()
    press_button(page, "#buy")
    confirm_if_asked(page)


def reserve(page, card_id: str) -> None:
    focus_market_card(page, card_id)
    page.keyboard.press("Enter")
    page.get_by_role("dialog").wait_for()
    press_button(page, "#reserve")
    confirm_if_asked(page)


def turn_done(page) -> None:
    settle(page)
