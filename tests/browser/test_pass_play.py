"""Pass and play (issue 20) in the browser: two people and a bot at one phone, by taps.

A near-end save is made under CPython with the page's own controller (Ana and Ben each hold a card reserved blind,
and the device is being passed to Ana); the page resumes it and the game is played to its end by taps at 390x844.
At every hand-over and every turn the other person's hidden reserved cards must not be in the page (DOM, attributes
or accessible text: their codes and their words), nor in the "see all" dialog of each other player, opened on each
person's first turn; a reload in the middle of a hand-over shows the hand-over again; undo is offered to the
person who just played until the next person takes the device, and then it is off with the reason; the end
screen's scores are the engine's replay of the saved record.
"""

from __future__ import annotations

import json
import random
import re

import pytest

import splendor
from browser_helpers import wait_ready
from hidden_words import assert_not_shown
from game_driver import SAVE_KEY, SETTLED_JS as GAME_SETTLED_JS, open_game, open_with_storage, play_turn, saved
from splendor.engine import Action
from splendor.web.botcall import answer
from splendor.web.controller import App
from splendor.web.records.storage import MemoryStorage

QUERY = "pace=0&bot_budget=iterations:20"
PEOPLE = {0: "Ana", 1: "Ben"}
# Settled as game_driver says, or the hand-over screen is up (once the last move has been drawn).
SETTLED_JS = f"""() => (!document.body.dataset.answering && !!document.getElementById('pass-ok'))
  || ({GAME_SETTLED_JS})()"""


def near_end_save():
    """A saved game: Ana, Ben (people) and an easy bot; both people hold a blind reserve; a player has 9+ points;
    the device is being passed to Ana."""
    for seed in range(1, 60):
        store = MemoryStorage()
        app = App(store)
        app.act("start", {"name": "Ana", "opponents": "2", "level0": "person", "pname0": "Ben", "level1": "easy",
                          "starts": "person", "seed": str(seed)})
        rng = random.Random(seed)
        blind = set()
        while not app.game.is_over:
            g = app.game
            if app.handover is not None:
                if app.handover == 0 and blind == {0, 1} and max(g.scores) >= 9:
                    return json.loads(store.get(SAVE_KEY))
                app.act("pass-ok")
            elif app.bot_to_move() is not None:
                req = app.bot_request()
                assert app.bot_reply(answer(json.dumps(req))) == "applied"
            else:
                seat = g.current_player
                acts = g.legal_actions()
                if g.phase == "action" and seat not in blind and Action.reserve(level=1) in acts:
                    app._commit([Action.reserve(level=1)])
                    blind.add(seat)
                    continue
                buys = [a for a in acts if a.kind == "buy"]
                app._commit([rng.choice(buys or acts)])
    raise AssertionError("no near-end position found")


def hidden_cards(record, seat):
    """(code, spoken name) of ``seat``'s reserved cards hidden from the others."""
    g = splendor.replay(record)
    p = g.players[seat]
    return [(c.code, c.describe()) for c, hidden in zip(p.reserved, p.reserved_hidden) if hidden]


def see_all_of_the_others(page, record, viewer):
    """Open the "see all" dialog of each other player (people and bot) and check it holds no hidden card of
    anyone but ``viewer``; close it again. Returns how many dialogs were checked."""
    checked = 0
    for seat in range(3):
        if seat == viewer:
            continue
        page.locator(f"#inspect-{seat}").click()
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        assert dialog.get_by_role("heading", level=2).inner_text().startswith(
            PEOPLE.get(seat, "Bot")), dialog.inner_text()
        assert_hidden_from(page, record, viewer)
        dialog.get_by_role("button", name="Close").click()
        dialog.wait_for(state="detached")
        checked += 1
    return checked


def page_text(page):
    """Everything of the page a person or a screen reader could get at: the DOM (attributes included) and the
    accessibility tree's text."""
    return page.content() + "\n" + page.locator("body").aria_snapshot()


def assert_hidden_from(page, record, viewer):
    """No hidden reserved card of any person but ``viewer`` (None: of anyone) is in the page."""
    text = page_text(page)
    for seat in PEOPLE:
        if seat == viewer:
            continue
        for code, said in hidden_cards(record, seat):
            assert_not_shown(text, code, f"the page ({PEOPLE[seat]}'s hidden {said})")  # its code and its words


def settle(page):
    page.wait_for_function(SETTLED_JS, timeout=60_000)


@pytest.mark.slow  # a whole game: started first (tests/conftest.py)
def test_two_people_and_a_bot_play_to_the_end_by_taps(phone):
    page, errors = phone
    save = near_end_save()
    open_with_storage(page, {SAVE_KEY: json.dumps(save)}, QUERY)
    handovers = reloads = turns = undos = 0
    inspected = {}  # person: "see all" dialogs of the others checked on their turns
    checked_undo_off = False
    own_seen = 0
    assert hidden_cards(save["record"], 0) and hidden_cards(save["record"], 1)  # both hold a card reserved blind
    while True:
        settle(page)
        record = saved(page)["record"]
        if page.locator("#pass-ok").count():
            name = re.match(r"Pass to (\w+)", page.get_by_role("heading", level=2).first.inner_text()).group(1)
            seat = {v: k for k, v in PEOPLE.items()}[name]
            handovers += 1
            assert page.get_by_role("region", name="Market").count() == 0  # no table behind the screen
            assert_hidden_from(page, record, None)
            assert name in page.locator("#announce").text_content()  # the live region says it
            assert page.evaluate("() => document.activeElement.id") == "pass-ok"  # keyboard: focus on its button
            if reloads == 0:
                page.reload()
                wait_ready(page)
                reloads += 1
                assert page.get_by_role("heading", name=f"Pass to {name}").is_visible()
                assert page.get_by_role("region", name="Market").count() == 0
                assert_hidden_from(page, record, None)
            undo = page.get_by_role("button", name=re.compile(r": undo your last turn$"))
            if undo.count() and undos == 0:
                # Before the next person takes the device, the one who played may take the turn back.
                who = undo.inner_text().split(":")[0]
                undo.tap()
                undos += 1
                page.wait_for_function(SETTLED_JS)
                assert page.locator("#status").inner_text().startswith(f"Your turn, {who}")
                assert "took back their last turn" in page.get_by_role("region", name="Game log").inner_text()
                continue
            page.keyboard.press("Enter")  # the focused button: "I am Ana: show my turn"
            page.locator("#status").wait_for()
            if not checked_undo_off:
                # The table is now this person's: nothing of the turns before the hand-over can be undone.
                button = page.get_by_role("button", name="Undo")
                assert button.get_attribute("aria-disabled") == "true"
                assert button.get_attribute("title").startswith(("Undo is off", f"{name} has no turn"))
                checked_undo_off = True
            continue
        status = page.locator("#status").inner_text()
        if status.startswith("Game over"):
            break
        name = re.match(r"Your turn, (\w+)", status).group(1)
        seat = {v: k for k, v in PEOPLE.items()}[name]
        assert_hidden_from(page, record, seat)
        if seat not in inspected:  # each person's first turn: both other players' dialogs
            inspected[seat] = see_all_of_the_others(page, record, seat)
        mine = hidden_cards(record, seat)
        text = page_text(page)
        for code, said in mine:  # the person's own hidden cards, face up on their own turn (the check can see them)
            assert page.get_by_role("button", name=re.compile(re.escape("Your reserved card: " + said))).count()
            assert code in text and said in text
            own_seen += 1
        play_turn(page)
        turns += 1
        assert turns < 80, "the game does not end"
    record = saved(page)["record"]
    engine = splendor.replay(record)
    assert engine.is_over
    rows = page.get_by_role("dialog").get_by_role("table", name="Final scores").get_by_role("row").all()[1:]
    shown = {r.get_by_role("rowheader").inner_text(): int(r.locator("td.total").inner_text()) for r in rows}
    names = [s["name"] for s in saved(page)["seats"]]
    assert shown == {names[i]: engine.scores[i] for i in range(3)}
    assert handovers >= 3 and reloads == 1 and undos == 1 and own_seen >= 2, (handovers, reloads, undos, own_seen)
    assert inspected == {0: 2, 1: 2}, inspected  # each person opened both other players' dialogs
    assert not errors, errors


def test_setup_with_people_is_refused_in_words_then_starts_at_a_hand_over(page, site_url):
    """The new-game screen: a seat made a Person gets a name field; bad names are refused in words; the game opens
    on the hand-over screen (announced, focused, no table), and axe finds nothing serious on either screen."""
    from a11y_helpers import axe

    open_game(page, QUERY)
    assert page.get_by_role("radio", name="1 bot").is_checked()  # solo against a bot: the default, unchanged
    page.get_by_role("combobox", name="Bot 1").select_option("person")
    page.get_by_role("textbox", name="Player 2's name").wait_for()
    assert page.get_by_role("radio", name="1 opponent").is_checked()
    assert page.get_by_role("radio", name="Player 1", exact=True).count() == 1  # who starts: no "You" among people
    page.get_by_text("More options").click()
    assert page.get_by_text("No hand-over screen").is_visible()
    assert not (found := axe(page, site_url)), "new-game screen with a person:\n" + "\n".join(found)
    page.get_by_role("button", name="Start game").click()
    assert page.get_by_role("status").filter(has_text="Several people play: type the first player's name in "
                                                      "“Player 1's name”").count()  # the field the screen shows
    page.get_by_role("textbox", name="Player 1's name").fill("Ana")
    page.get_by_role("textbox", name="Player 2's name").fill(" ana ")
    page.get_by_role("button", name="Start game").click()
    assert page.get_by_role("status").filter(has_text="Two players are called “ana”").count()
    page.get_by_role("textbox", name="Player 2's name").fill("Ben")
    # The seats are named as the table will name them: who starts is "Ana", the second seat "Ben".
    page.get_by_role("radio", name="Ana", exact=True).check()
    page.get_by_role("group", name="Ben", exact=True).wait_for()
    assert page.get_by_role("combobox", name="Ben", exact=True).input_value() == "person"
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("heading", name="Pass to Ana").wait_for()
    assert page.get_by_role("region", name="Market").count() == 0
    assert page.evaluate("() => document.activeElement.id") == "pass-ok"
    assert "Pass the device to Ana" in page.locator("#announce").text_content()
    assert not (found := axe(page, site_url)), "hand-over screen:\n" + "\n".join(found)
    page.keyboard.press("Enter")
    assert page.locator("#status").inner_text().startswith("Your turn, Ana")
