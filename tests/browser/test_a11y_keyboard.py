"""Keyboard-only play and what a screen reader hears: every action of a game by key presses (take gems, reserve,
return tokens, buy), the market and supply as arrow-key grids, dialogs that keep and give back the focus, and the
polite live region that says each bot's move and whose turn it is."""

from __future__ import annotations

import splendor
from a11y_helpers import axe
from game_driver import open_game, saved, settle
from keyboard_driver import (
    MARKET_JS,
    active,
    affordable,
    arrows_to,
    buy,
    focus_market_card,
    press_button,
    reserve,
    return_tokens,
    status,
    tab_to,
    take_three,
)

IN_DIALOG_JS = "() => !!document.activeElement.closest('[role=dialog]')"


def start_by_keyboard(page, seed):
    """The new-game screen by keys: the person starts (arrow keys in the radio group), a seed, Enter on Start."""
    tab_to(page, 'input[name="starts"]')
    for _ in range(3):
        if page.evaluate("() => document.querySelector('input[name=starts]:checked').value") == "person":
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.querySelector('input[name=starts]:checked').value") == "person"
    tab_to(page, "summary")
    page.keyboard.press("Enter")  # opens "More options"
    tab_to(page, "#set-seed")
    page.keyboard.type(str(seed))
    press_button(page, "#start")
    page.get_by_role("region", name="Market").wait_for()


def moves_by_person(record):
    """The kinds of the person's (seat 0) actions in a record."""
    game = splendor.Game(record["players"], record["seed"], record["first_player"], tuple(record["variants"]))
    kinds = []
    for text in record["actions"]:
        seat = game.current_player
        action = splendor.parse_action(game, text)
        if seat == 0:
            kinds.append(action.kind)
        game.apply(action)
    return kinds


def check_dialog_focus(page, opener):
    """The open dialog has the focus, Tab and Shift+Tab cycle inside it, the page behind is inert, and Escape
    closes it with the focus back on ``opener``."""
    assert page.evaluate(IN_DIALOG_JS)
    count = page.evaluate("() => document.querySelectorAll('[role=dialog] button').length")
    seen = set()
    for _ in range(count + 2):
        page.keyboard.press("Tab")
        assert page.evaluate(IN_DIALOG_JS), f"Tab left the dialog for {active(page)!r}"
        seen.add(active(page))
    assert len(seen) == count  # every button of the dialog is reached, and only those
    for _ in range(count + 2):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(IN_DIALOG_JS)
    assert page.evaluate("() => document.querySelector('main').inert && document.querySelector('header').inert")
    page.keyboard.press("Escape")
    page.get_by_role("dialog").wait_for(state="detached")
    assert active(page) == opener
    assert not page.evaluate("() => document.querySelector('main').inert")


def test_a_game_by_keyboard_only_takes_reserves_returns_and_buys(page, site_url, console_errors):
    open_game(page, "pace=0")
    start_by_keyboard(page, seed=4711)
    settle(page)

    # The market is one tab stop; arrows move through it like a grid, Home/End to the row's ends.
    tab_to(page, '[data-grid="market"] button')
    first = active(page)
    assert first == "d3"
    grid = page.evaluate(MARKET_JS)
    arrows_to(page, grid, "m12")
    page.keyboard.press("Home")
    assert active(page) == "d1"
    page.keyboard.press("End")
    assert active(page) == "m13"
    tabbable = page.evaluate("() => [...document.querySelectorAll('[data-grid=market] button')]"
                             ".filter(b => b.tabIndex === 0).map(b => b.id)")
    assert tabbable == ["m13"]

    # Enter opens the card's dialog; focus stays inside and comes back to the card.
    page.keyboard.press("Enter")
    page.get_by_role("dialog").wait_for()
    check_dialog_focus(page, "m13")

    # 1. Reserve a card (and take a gold), by keys.
    reserve(page, "m23")
    settle(page)
    assert active(page) == "m23"  # back on the place of the reserved card (a new card now)
    # The live region says the bot's move and that it is the person's turn again.
    said = page.locator("#announce").text_content()
    assert said.startswith("Bot 1 ") and said.endswith("Your turn."), said
    assert page.evaluate("() => document.getElementById('announce').getAttribute('aria-live')") == "polite"

    # 2. Take gems until the person must return some; then buy something.
    kinds = set()
    for _ in range(20):
        settle(page)
        text = status(page)
        if text.startswith("Game over"):
            break
        if "return tokens" in text:
            assert not (found := axe(page, site_url)), "\n".join(found)  # the return buttons too
            assert return_tokens(page) >= 1
        elif "return" in kinds and (card := affordable(page)):
            buy(page, card)
        elif not take_three(page):
            card = affordable(page)
            assert card, "no gem to take and nothing to buy"
            buy(page, card)
        settle(page)
        kinds = set(moves_by_person(saved(page)["record"]))
        if {"take", "reserve", "return", "buy"} <= kinds:
            break
    assert {"take", "reserve", "return", "buy"} <= kinds, kinds
    assert console_errors == []


def test_the_supply_is_a_grid_and_the_deck_dialog_returns_focus(page):
    open_game(page, "pace=0")
    start_by_keyboard(page, seed=99)
    settle(page)
    tab_to(page, '[data-grid="supply"] button')
    assert active(page) == "pile-white"
    page.keyboard.press("End")
    assert active(page) == "pile-gold"
    page.keyboard.press("ArrowRight")  # the edge: stays
    assert active(page) == "pile-gold"
    page.keyboard.press("Enter")  # gold cannot be taken: the page says why, in words
    assert "Gold cannot be taken" in page.locator("#message").text_content()
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    assert page.locator("#pile-white").get_attribute("aria-pressed") == "true"
    assert active(page) == "pile-white"  # focus survives the page being drawn again
    # Leave the supply and come back: Tab returns to the pile last used.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert active(page) == "pile-white"
    # A deck opens its dialog with Space, and Escape gives the focus back to the deck.
    focus_market_card(page, "d2")
    page.keyboard.press("Space")
    page.get_by_role("dialog", name="Level 2 deck").wait_for()
    check_dialog_focus(page, "d2")
