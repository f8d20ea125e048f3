"""Drive the game page as a person would: by the accessible names of its controls (no CSS classes).

Used by the browser tests and by tools that take screenshots.
"""

from __future__ import annotations

import json
import random
import re

from browser_helpers import READY_TIMEOUT_MS, wait_ready
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import splendor
from splendor import ai

SAVE_KEY = "splendor.save.v1"
# The turn is settled when it is the person's turn or the game is over (no bot thinking), and the person's last move
# has been drawn (while its pieces fly, the page still shows the table before it: body[data-answering], main.py
# answer_first); at the end, once the results are open (the final table is held a moment before: body[data-ending]).
SETTLED_JS = """() => {
  const s = document.getElementById('status');
  if (!s || document.body.dataset.answering || document.body.dataset.ending) return false;
  const t = s.textContent;
  return t.startsWith('Your turn') || t.startsWith('Game over');
}"""


def open_game(page, query="pace=0"):
    page.set_default_timeout(READY_TIMEOUT_MS)
    page.goto("/?" + query)
    wait_ready(page)


def open_with_storage(page, items, query="pace=0"):
    """Put ``items`` in the site's localStorage before the game's first start (an init script of this page that runs
    once: a reload keeps what the page stored since), then open the game."""
    page.add_init_script(
        "if (!sessionStorage.getItem('test.seeded')) { sessionStorage.setItem('test.seeded', '1'); "
        f"for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v); }}")
    open_game(page, query)


def start(page, opponents=1, seed=None, starts="You", name=None, levels=None):
    """From the new-game screen: choose the opponents, who starts, optionally a seed and a name; start. ``levels``:
    each bot's level by its name or label ("hard", "Hard"), chosen in the seat's list."""
    page.get_by_role("radio", name=f"{opponents} bot" + ("s" if opponents > 1 else "")).check()
    for i, level in enumerate(levels or []):
        choose_level(page, f"Bot {i + 1}", level)
    page.get_by_role("radio", name=starts, exact=True).check()
    if seed is not None or name is not None:
        page.get_by_text("More options").click()
        if seed is not None:
            page.get_by_role("textbox", name=re.compile("^Seed")).fill(str(seed))
        if name is not None:
            page.get_by_role("textbox", name="Your name").fill(name)
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("region", name="Market").wait_for()


def choose_level(page, seat, level):
    """Choose ``level`` (a level's name or label, or "person") in the list of the seat whose legend is ``seat``
    ("Bot 1", "Player 2")."""
    page.get_by_role("combobox", name=seat, exact=True).select_option(level.lower())


def settle(page, timeout=60_000):
    page.wait_for_function(SETTLED_JS, timeout=timeout)


def is_over(page):
    return page.evaluate("() => document.getElementById('status').textContent.startsWith('Game over')")


def _enabled(locator):
    """The matches of ``locator`` that are not aria-disabled (read in one call: one locator query, not one a match)."""
    flags = locator.evaluate_all("(els) => els.map((el) => el.getAttribute('aria-disabled') !== 'true')")
    return [locator.nth(i) for i, enabled in enumerate(flags) if enabled]


# A new market card is dealt by moving the card itself from its deck (assets/motion.js, "fly-deal"); the flying
# copies of tokens, cards and nobles let taps through.
DEALT_JS = "() => !document.getAnimations().some((a) => a.id === 'fly-deal' && a.playState === 'running')"


def press_on(locator, press="click"):
    """Tap (``press="tap"``) or click where ``locator``'s element is, as a person does: at once, wherever it is
    drawn. Playwright's own checks before a tap (the element visible, enabled, still for two frames, not covered)
    cost about 65 ms a tap, more than the page's own answer; the page is settled (``settle``) and cards have landed
    (``open_card``) before the driver taps, and a tap that lands on something else shows as the next step's
    failure. Playwright still waits for the element to exist, and would scroll to it: the layout tests catch that."""
    getattr(locator, press)(force=True)


def open_card(page, cards, press="click"):
    """Tap the first of ``cards`` and wait for its dialog. A card is tapped once it has landed, as a person would
    (Playwright's tap on a card still moving retries by scrolling the page to other alignments). A tap that lands
    while the page redraws (the bots' last move drawn just after the status said it is your turn, on a loaded
    machine) can be lost, as a person's would: then tap once more, as a person would."""
    page.wait_for_function(DEALT_JS, timeout=READY_TIMEOUT_MS)
    for attempt in range(2):
        press_on(cards.first, press)
        try:
            page.get_by_role("dialog").wait_for(timeout=5_000 if attempt == 0 else READY_TIMEOUT_MS)
            return
        except PlaywrightTimeout:
            if attempt:
                raise


#: The dialog's move is made (it closed) or asks to be confirmed ("Confirm each move", off by default).
MADE_OR_ASKED_JS = "() => !document.getElementById('dialog') || document.getElementById('confirm')"


def press_to_finish(page, cards, name, press="click"):
    """Tap ``name`` (Buy or Reserve) in the dialog of the first of ``cards``, and Confirm when the page asks."""
    dialog = page.get_by_role("dialog")
    for attempt in range(2):
        if not dialog.count():
            open_card(page, cards, press)
        press_on(dialog.get_by_role("button", name=name, exact=True), press)
        try:
            page.wait_for_function(MADE_OR_ASKED_JS, timeout=5_000 if attempt == 0 else READY_TIMEOUT_MS)
            break
        except PlaywrightTimeout:
            if attempt:
                raise
    if dialog.count() and dialog.get_by_role("button", name="Confirm").count():
        press_on(dialog.get_by_role("button", name="Confirm"), press)


def play_turn(page, press="click"):
    """Play one turn of the person by clicks (``press="tap"``: by taps, on a touch screen), with a simple strategy:
    buy what can be bought, else take gems, else reserve, else pass. Returns False when the game is over."""

    def act(locator):
        press_on(locator, press)

    settle(page)
    if is_over(page):
        return False
    status = page.locator("#status").text_content()
    if "return tokens" in status:
        prompt = page.get_by_role("region", name="Your move").text_content()
        need = int(re.search(r"tap (\d+) tokens? of yours", prompt).group(1))
        for _ in range(need):
            act(page.get_by_role("button", name=re.compile(r"^Return a \w+ token \(you hold")).first)
        act(page.get_by_role("button", name=re.compile(r"^Return \d")))
        return True
    if "choose a noble" in status:
        act(page.get_by_role("button", name=re.compile(r"^Welcome: ")).first)
        act(page.get_by_role("button", name=re.compile(r"^Welcome the noble")))
        return True
    if "remove a noble" in status:
        act(page.get_by_role("button", name=re.compile(r"^Remove: ")).first)
        act(page.get_by_role("button", name=re.compile(r"^Remove the noble")))
        return True
    buyable = page.get_by_role("button", name=re.compile(r"You can buy it$"))
    if buyable.count():
        press_to_finish(page, buyable, "Buy", press)
        return True
    piles = _enabled(page.get_by_role("button", name=re.compile(r"^(White|Blue|Green|Red|Black) gems: [1-9]")))
    if piles:
        for pile in piles[:3]:
            act(pile)
        take = page.get_by_role("button", name=re.compile(r"^Take "))
        if take.get_attribute("aria-disabled") != "true":
            act(take)
            return True
        act(page.get_by_role("button", name="Clear"))
    cards = page.get_by_role("region", name="Market").get_by_role("button", name=re.compile(r"^Level \d card"))
    if cards.count():
        open_card(page, cards, press)
        reserve = page.get_by_role("dialog").get_by_role("button", name="Reserve", exact=True)
        if reserve.get_attribute("aria-disabled") != "true":
            press_to_finish(page, cards, "Reserve", press)
            return True
        act(page.get_by_role("dialog").get_by_role("button", name="Close"))
    act(page.get_by_role("button", name="Pass"))
    return True


def saved(page):
    text = page.evaluate(f"() => localStorage.getItem({json.dumps(SAVE_KEY)})")
    return json.loads(text) if text else None


def log_text(page):
    return page.get_by_role("region", name="Game log").inner_text()


def market_names(page):
    market = page.get_by_role("region", name="Market")
    return [b.get_attribute("aria-label") for b in market.get_by_role("button").all()]


def near_end_save(seed=2024, points=10):
    """A 2-player save (you against a medium bot) at your turn, once a player has ``points``: both seats played by
    the medium bot under CPython, through the page's own controller."""
    return played_save(seed, lambda g: max(p.points for p in g.players) >= points)


def mid_game_save(opponents=1, seed=31, rounds=6):
    """A save at your turn after ``rounds`` rounds against ``opponents`` medium bots (every seat played by the medium
    bot under CPython): cards, tokens and nobles' progress on every panel, as in the middle of a game."""
    return played_save(seed, lambda g: len(g.history) >= rounds * g.n, opponents)


def played_save(seed, stop, opponents=1):
    """A save of a game against ``opponents`` medium bots, at your turn (the action phase) once ``stop(game)`` holds:
    every seat played by the medium bot under CPython, through the page's own controller."""
    from splendor.web.botcall import answer
    from splendor.web.controller import App
    from splendor.web.records.storage import MemoryStorage

    app = App(MemoryStorage())
    app.act("start", {"seed": str(seed), "opponents": str(opponents), "starts": "person", "confirm": True})
    while True:
        g = app.game
        assert not g.is_over
        if app.my_turn and g.phase == "action" and stop(g):
            return app.to_save()
        if app.my_turn:
            request = app.bot_request(seat=0, level="medium")  # asked as a hint: the person's seat
            app.hint_waiting = None
            del request["mode"]  # a hint is the hard bot on a clock; the medium bot's own move is deterministic
            reply = json.loads(answer(json.dumps(request)))
            app._apply(splendor.parse_action(g, reply["action"]), 0)
            app.save()
        else:
            request = app.bot_request()
            assert app.bot_reply(answer(json.dumps(request))) == "applied"


def open_save(context, save):
    """The context's pages open on ``save`` (put in localStorage before the page runs, once: a reload keeps what
    the page saved since)."""
    context.add_init_script(
        f"if (!localStorage.getItem({json.dumps(SAVE_KEY)})) "
        f"localStorage.setItem({json.dumps(SAVE_KEY)}, {json.dumps(json.dumps(save))});")


def last_turn_save(seed, level, game_id):
    """A saved 2-player game against a ``level`` bot in its final round, at the person's last turn (seat 0, the last
    seat of each round): any move of theirs ends the game. Both seats played by the medium bot under CPython, from
    the first seed from ``seed`` on where the bot reaches 15 first."""
    bot = ai.get_bot("medium")
    for seed in range(seed, seed + 50):
        game = splendor.new_game(players=2, seed=seed, first_player=1)
        while not game.is_over and not (game.final_round and game.current_player == 0 and game.phase == "action"):
            game.apply(bot.choose(game.observation(game.current_player), random.Random(len(game.history))))
        if not game.is_over:
            break
    return {"format": "splendor-save", "version": 1, "record": game.record(),
            "seats": [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": level}],
            "settings": {"opponents": 1, "levels": [level, "medium", "medium"], "starts": "bot"},
            "log": [], "id": game_id}
