"""Playing by taps as a person does: Playwright taps only an element that is on the screen and the first thing under
the finger, so a control covered or cut fails the tap (tests/browser/test_coach_phone.py, test_puzzles.py)."""

import re

from game_driver import DEALT_JS

# A tap that Playwright cannot make as a person would (the element covered, off the screen, moving) fails here.
TAP_MS = 8_000


def tap(locator, how="tap"):
    """A tap (or, ``how="click"``, a click: a page without a touch screen)."""
    (locator.tap if how == "tap" else locator.click)(timeout=TAP_MS)


def hint(page):
    """Ask a hint; the move it advises (the action's text)."""
    tap(page.get_by_role("button", name="Hint", exact=True))
    page.locator("#hint-text").wait_for(timeout=30_000)
    return page.locator("#hint-text").get_attribute("data-action")


def open_card(page, card, how="tap"):
    """Tap a card (or deck) once it has landed, as a person waits for a card being dealt to land; its dialog opens
    (its title says which card: a tap gone astray opens another, and this says so)."""
    page.wait_for_function(DEALT_JS)
    tap(card, how)
    page.get_by_role("dialog").wait_for(timeout=TAP_MS)


def finish_dialog(page, name, how="tap"):
    """Press ``name`` (Buy or Reserve) in the open card's dialog, then Confirm when asked."""
    dialog = page.get_by_role("dialog")
    button = dialog.get_by_role("button", name=name, exact=True)
    assert button.count(), f"no {name} in the dialog that opened: {dialog.inner_text()[:200]!r}"
    tap(button, how)
    page.wait_for_function("() => !document.getElementById('dialog') || document.getElementById('confirm')")
    if dialog.count() and dialog.get_by_role("button", name="Confirm").count():
        tap(dialog.get_by_role("button", name="Confirm"), how)


def play(page, action, how="tap"):
    """Play ``action`` (as the engine writes it) by taps (``how="click"``: clicks)."""
    word, *rest = action.split()
    if word in ("take", "take2"):
        for color in rest * (2 if word == "take2" else 1):
            tap(page.locator(f"#pile-{color}"), how)
        tap(page.get_by_role("button", name=re.compile(r"^Take ")), how)
    elif word == "buy":
        open_card(page, page.locator(f'button[data-fly="card:{rest[0]}"]'), how)
        finish_dialog(page, "Buy", how)
    elif word == "reserve":
        blind = rest[0] == "deck"
        open_card(page, page.locator(f"#d{rest[1]}") if blind else page.locator(f'button[data-fly="card:{rest[0]}"]'),
                  how)
        finish_dialog(page, "Reserve the top card" if blind else "Reserve", how)
    elif word == "noble":
        tap(page.locator(f'button[data-act="noble"][data-code="{rest[0]}"]'), how)
        tap(page.get_by_role("button", name=re.compile(r"^Welcome the noble")), how)
    elif word == "pass":
        tap(page.get_by_role("button", name="Pass"), how)
    else:
        raise AssertionError(f"a hint this test does not play: {action}")
