"""The moments of a game, seen as they happen at the default pace (issue 44): each bot's move shown on its own with
the status naming that bot, the last move landed and the final table held before the results open, banners that
never cover the panel of the player they are about and that say what the status says, and, in pass and play, a
bot's move seen before the hand-over screen covers the table.

Every test records each painted frame (FRAMES_JS): the pieces in flight (assets/motion.js, "fly-*" animations), the
status, whether the results or the hand-over screen are up, and the moment's banner; the assertions are on that
order of events, not on times."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from game_driver import SAVE_KEY, open_game, open_with_storage, play_turn, press_on, saved, settle, start
from test_motion import noble_buy_save
from test_pass_play import SETTLED_JS as PASS_SETTLED_JS, near_end_save as pass_play_save

import splendor
from splendor.web.botcall import answer
from splendor.web.controller import App
from splendor.web.table import words
from splendor.web.records.storage import MemoryStorage

QUERY = "bot_budget=iterations:40"  # the default pace (no pace=): each bot's move is shown on its own
PHONE = {"width": 390, "height": 664}
# ``about``: the seat a banner is about (its panel's box is recorded with the banner's); every player's panel is
# recorded too (``seatBoxes``): a banner covers none of them.
FRAMES_JS = """(about) => {
  window.__frames = [];
  window.__recording = true;
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const step = () => {
    const m = document.getElementById('moment');
    window.__frames.push({
      flying: document.getAnimations().filter((a) => String(a.id).startsWith('fly-') && a.playState === 'running')
        .length,
      status: (document.getElementById('status') || {}).textContent || '',
      end: !!document.getElementById('end'),
      pass: !!document.getElementById('pass-ok'),
      moment: m ? m.querySelector('p').textContent : '',
      momentBox: box(m),
      seatBox: m && about !== null ? box(document.getElementById('seat-' + about)) : null,
      seatBoxes: m ? [...document.querySelectorAll('section.seat')].map(box) : [],
    });
    if (window.__recording) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}"""


def frames(page):
    page.evaluate("() => { window.__recording = false; }")
    return page.evaluate("() => window.__frames")


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# -- the end -----------------------------------------------------------------------------------------------------------
def test_the_last_move_lands_and_the_final_table_is_held_before_the_results(page):
    from game_driver import near_end_save

    page.set_viewport_size(PHONE)
    save = near_end_save(points=11)
    open_with_storage(page, {SAVE_KEY: json.dumps(save)}, QUERY)
    settle(page)
    page.evaluate(FRAMES_JS, None)
    while play_turn(page):
        pass
    seen = frames(page)
    first_end = next(i for i, f in enumerate(seen) if f["end"])
    before = seen[:first_end]
    last_flight = max(i for i, f in enumerate(before) if f["flying"])
    # The last move's pieces flew with the status naming that move (not yet the results) ...
    assert not before[last_flight]["status"].startswith("Game over"), before[last_flight]
    assert re.match(r"^(You|Bot 1) ", before[last_flight]["status"]), before[last_flight]
    # ... they landed, and then the final table was shown, the status saying who won, before the results opened.
    held = [f for f in before[last_flight + 1:] if f["status"].startswith("Game over")]
    assert held and not any(f["flying"] for f in held), before[last_flight:]
    assert not any(f["flying"] for f in seen[first_end:first_end + 1])
    # No banner repeats the results.
    assert not any(f["moment"].startswith("Game over") for f in seen), {f["moment"] for f in seen}
    # The results: the winner named, each player's points and what made them.
    record = saved(page)["record"]
    game = splendor.replay(record)
    dialog = page.get_by_role("dialog")
    winner = "You win!" if game.winners == (0,) else ("Bot 1 wins" if game.winners == (1,) else "Shared victory")
    assert dialog.get_by_role("heading").inner_text().startswith(winner)
    made = dialog.get_by_role("list", name="What made the points").get_by_role("listitem").all_inner_texts()
    assert len(made) == 2, made
    for seat, name in ((0, "You"), (1, "Bot 1")):
        p = game.players[seat]
        line = next(t for t in made if t.startswith(name + " "))
        from_cards = sum(c.points for c in p.cards)
        if from_cards:
            assert f"{from_cards} point" in line, line
        if p.nobles:
            assert f"{3 * len(p.nobles)} from {len(p.nobles)} noble" in line, line
    # A person who won sees gems burst (still, with reduced motion); a bot's win has no party.
    assert (page.locator("#end .celebrate").count() == 1) == (0 in game.winners)


# -- bots one by one ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [PHONE, {"width": 360, "height": 640}])
def test_four_players_each_bot_move_is_named_while_it_flies_and_readable_after(page, size):
    page.set_viewport_size(size)
    open_game(page, QUERY)
    page.evaluate(FRAMES_JS, None)
    start(page, opponents=3, starts="A bot", levels=["Easy", "Medium", "Hard"])
    settle(page)
    seen = frames(page)
    flying = [f["status"] for f in seen if f["flying"]]
    assert flying, "no piece flew"
    # While a bot's pieces fly, the status names that bot and its move: never the next player, nor "thinking".
    for status in flying:
        assert re.match(r"^Bot [123] (took|bought|reserved|returned|welcome)", status), status
    movers = []
    for status in flying:
        name = status[:5]
        if not movers or movers[-1] != name:
            movers.append(name)
    assert movers == ["Bot 1", "Bot 2", "Bot 3"], movers  # one at a time, in the order of play
    log = saved(page)["log"]  # the page's own words for each move: "Bot 2 took two red."
    for seat, level in ((1, "Easy"), (2, "Medium"), (3, "Hard")):
        head = page.locator(f"#seat-{seat} .seat-head")
        assert level in head.inner_text(), head.inner_text()  # the level is on the panel (visible text) ...
        whole = head.locator("h2 small").evaluate(  # ... and not cut off by the end of the name's line
            "(el) => el.getBoundingClientRect().right <= el.closest('h2').getBoundingClientRect().right + 0.5")
        assert whole, f"Bot {seat}'s level is cut: {head.inner_text()!r}"
        said = [e["text"] for e in log if e["seat"] == seat and e["kind"] == "move"][-1].removeprefix(f"Bot {seat} ")
        press_on(page.locator(f"#inspect-{seat}"))  # one tap on the panel
        last = page.get_by_role("dialog").locator("#inspect-last")
        assert last.inner_text() == "Last move: " + said[:1].upper() + said[1:], (last.inner_text(), said)
        fits = last.evaluate(
            "(el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= innerWidth")
        assert fits, "the last move is cut"
        page.get_by_role("dialog").get_by_role("button", name="Close").click()
        page.get_by_role("dialog").wait_for(state="detached")


# -- banners -----------------------------------------------------------------------------------------------------------
def final_round_save():
    """A saved 2-player game at the bot's turn (the bot, a medium one, started), where the bot's move brings it to
    15 points: the final round begins, and you still play once."""
    for seed in range(1, 80):
        app = App(MemoryStorage())
        app.act("start", {"seed": str(seed), "opponents": "1", "starts": "bot", "level0": "medium"})
        while not app.game.is_over:
            g = app.game
            bot = app.bot_to_move() is not None
            request = app.bot_request() if bot else app.bot_request(seat=0, level="medium")
            if not bot:
                app.hint_waiting = None
                del request["mode"]  # the medium bot's own move for the person (as game_driver.played_save)
            action = splendor.parse_action(g, json.loads(answer(json.dumps(request)))["action"])
            if bot and g.phase == "action":
                g.apply(action)
                final = g.final_round and not g.is_over
                g.undo()
                if final:
                    app.awaiting = None
                    return app.to_save()
            if bot:
                assert app.bot_reply({"turn_id": request["turn_id"], "action": str(action)}) == "applied"
            else:
                app._apply(action, 0)
    raise AssertionError("no position found")


@pytest.mark.parametrize("size", [PHONE, {"width": 844, "height": 390}, {"width": 1280, "height": 800}])
def test_the_final_round_banner_leaves_the_bots_panel_free_and_says_what_the_status_says(page, size):
    page.set_viewport_size(size)
    open_with_storage(page, {SAVE_KEY: json.dumps(final_round_save())}, QUERY)
    page.evaluate(FRAMES_JS, 1)  # the bot's panel
    page.locator("#moment").filter(has_text="Final round").wait_for()
    settle(page)
    seen = [f for f in frames(page) if f["moment"] and f["seatBox"]]
    assert seen and all(f["moment"].startswith("Bot 1 has") for f in seen)
    for f in seen:
        assert not any(overlaps(f["momentBox"], b) for b in f["seatBoxes"]), (size, f)
    banner = page.locator("#moment").inner_text()
    status = page.locator("#status").inner_text()
    assert "Final round: this is your last turn." in banner and "your last (final round)" in status, (banner, status)


# Each painted frame while a bot's move starts the final round: the banner (shown or waiting), the points on the
# bot's panel, the status's words and whether its two lines hold them, and the title's "Final round" flag.
FINAL_FRAMES_JS = """() => {
  window.__frames = [];
  window.__recording = true;
  const step = () => {
    const m = document.getElementById('moment'), text = document.querySelector('#status .status-text');
    const flag = document.querySelector('.topbar .final-flag');
    const seen = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    window.__frames.push({
      banner: seen(m) ? m.querySelector('p').textContent : '',
      points: (document.querySelector('#seat-1 .prestige') || {}).textContent || '',
      status: text ? text.textContent : '',
      whole: text ? text.scrollHeight <= text.clientHeight + 1 : true,
      flag: seen(flag) && flag.getBoundingClientRect().top >= 0,
    });
    if (window.__recording) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}"""


@pytest.mark.parametrize("size", [PHONE, {"width": 360, "height": 640}])
def test_on_a_phone_the_final_round_is_said_whole_and_its_banner_waits_for_the_panels_points(page, size):
    """The bot's move that starts the final round: its banner ("Bot 1 has 15 points") comes in when the card that
    brings them has landed on its panel, and while the status names the move, "Final round" is in sight in the
    title's place and the status's two lines hold the move whole."""
    page.set_viewport_size(size)
    open_with_storage(page, {SAVE_KEY: json.dumps(final_round_save())}, QUERY)
    page.evaluate(FINAL_FRAMES_JS)
    page.locator("#moment").filter(has_text="Final round").wait_for()
    settle(page)
    page.wait_for_function("() => !document.querySelector('#moment.waiting')")
    page.wait_for_timeout(100)
    seen = frames(page)
    shown = [f for f in seen if f["banner"].startswith("Bot 1 has")]
    assert shown, "the banner was never seen"
    for f in shown:  # "Bot 1 has 15 points" beside a panel that says 15
        said = re.match(r"Bot 1 has (\d+) points", f["banner"]).group(1)
        assert f["points"].startswith(said), f
    moving = [f for f in seen if f["status"].startswith("Bot 1 ")]
    assert moving and any("Final round" in f["status"] for f in moving), {f["status"] for f in seen}
    for f in moving:
        if "Final round" in f["status"]:
            assert f["whole"] and f["flag"], f
    assert all(f["flag"] for f in seen[-3:])  # (and on the person's last turn)
    # The longest of a bot's moves said in a status (a reserve or a buy of a level 3 white card) fits there too.
    longest = max((words.short_move(a, "Bot 3") for a in every_kind_of_move()), key=len)
    whole = page.evaluate("""(t) => { const e = document.querySelector('#status .status-text');
      e.textContent = t; return e.scrollHeight <= e.clientHeight + 1; }""", longest)
    assert whole, longest


def every_kind_of_move():
    """A move of every kind on every card, color and deck (for the longest words said of one)."""
    from splendor.engine import CARDS, COLORS, Action
    yield from (Action.take(*c) for c in itertools.combinations(COLORS, 3))
    yield from (Action.take_two(c) for c in COLORS)
    yield from (Action.reserve(level=level) for level in (1, 2, 3))
    for card in CARDS:
        yield Action.reserve(card)
        yield Action.buy(card, (0,) * 6)


def test_the_noble_banner_covers_no_players_panel(page):
    """On a phone, "A noble visits you" lies over the market: off your panel and off the opponent's strip."""
    save, card = noble_buy_save()
    page.set_viewport_size(PHONE)
    page.add_init_script(f"localStorage.setItem({json.dumps(SAVE_KEY)}, {json.dumps(json.dumps(save))})")
    open_game(page, QUERY)
    settle(page)
    page.get_by_role("region", name="Market").get_by_role(
        "button", name=re.compile("^" + re.escape(card.describe()))).click()
    page.get_by_role("dialog").get_by_role("button", name="Buy", exact=True).click()
    page.evaluate(FRAMES_JS, 0)  # your panel
    page.get_by_role("dialog").get_by_role("button", name="Confirm").click()
    page.locator("#moment").filter(has_text="noble visits you").wait_for()
    settle(page)
    seen = [f for f in frames(page) if f["moment"] and f["seatBox"]]
    assert seen and all(len(f["seatBoxes"]) == 2 for f in seen)
    for f in seen:
        assert not any(overlaps(f["momentBox"], b) for b in f["seatBoxes"]), f


# -- pass and play -----------------------------------------------------------------------------------------------------
def test_pass_and_play_the_bots_move_is_played_for_the_person_who_takes_the_device(page):
    """Ben plays, a bot is next, then Ana: the hand-over screen comes at once (the bot's move is not played while
    Ben still holds the phone), and once Ana has taken it the bot's move is played on her table as any move is
    shown: its pieces fly and the status names the bot; then it is her turn."""
    page.set_viewport_size(PHONE)
    open_with_storage(page, {SAVE_KEY: json.dumps(pass_play_save())}, QUERY)
    for _ in range(2):  # Ana, then Ben, each takes the device and plays
        page.wait_for_function(PASS_SETTLED_JS, timeout=60_000)
        page.locator("#pass-ok").click()
        play_turn(page)
    page.evaluate(FRAMES_JS, None)
    page.wait_for_function(PASS_SETTLED_JS, timeout=60_000)  # Ben's move drawn; the device goes to Ana
    assert page.locator("#pass-ok").count() == 1
    moves = len(saved(page)["record"]["actions"])
    page.locator("#pass-ok").click()
    settle(page)  # the bot's move, seen by Ana; then her turn
    assert page.locator("#status").text_content().startswith("Your turn, Ana")
    assert len(saved(page)["record"]["actions"]) == moves + 1
    seen = frames(page)
    first_pass = next(i for i, f in enumerate(seen) if f["pass"])
    last_pass = max(i for i, f in enumerate(seen) if f["pass"])
    assert not any(f["status"].startswith("Bot 1 ") for f in seen[:last_pass]), (
        "the bot played before Ana had the device")
    bot_flying = [f for f in seen[last_pass + 1:] if f["flying"] and f["status"].startswith("Bot 1 ")]
    assert first_pass <= last_pass and bot_flying, "the bot's move was not played on Ana's table"


# -- a bot gives tokens back ------------------------------------------------------------------------------------------
def bot_return_save():
    """A saved 2-player game at the easy bot's turn, where its move is a take that leaves it 12 tokens or more: it
    must give 2 or more back."""
    for seed in range(1, 200):
        app = App(MemoryStorage())
        app.act("start", {"seed": str(seed), "opponents": "1", "starts": "person", "level0": "easy"})
        while not app.game.is_over and len(app.game.history) < 120:
            g = app.game
            if app.my_turn:  # the person takes three (or gives back the first of theirs)
                legal = g.legal_actions()
                takes = [a for a in legal if a.kind == "take" and len(a.colors) == 3]
                app._apply(takes[len(g.history) % len(takes)] if g.phase == "action" and takes else legal[0], 0)
                continue
            request = app.bot_request()
            reply = json.loads(answer(json.dumps(request)))
            action = splendor.parse_action(g, reply["action"])
            taken = (len(action.colors) * (2 if action.kind == "take_two" else 1)
                     if action.kind.startswith("take") else 0)
            if g.players[1].token_count + taken >= 12:
                app.awaiting = None
                return app.to_save()
            assert app.bot_reply(json.dumps(reply)) == "applied"
    raise AssertionError("no position found")


BOT_TOKENS_JS = """() => {
  window.__counts = [];
  const step = () => {
    const cell = document.querySelector('#seat-1 .holdings tbody th b.count');
    const n = cell ? Number(cell.textContent) : null;
    if (window.__counts[window.__counts.length - 1] !== n) window.__counts.push(n);
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}"""


def test_a_bot_gives_its_tokens_back_in_one_motion(page):
    """A bot over 10 tokens gives back all it must at once, after its take was seen: its count goes from the take's
    to 10 in one redraw (one at a time, each a whole pace, made a 4-player round last up to 8 s)."""
    page.set_viewport_size(PHONE)
    save = bot_return_save()
    open_with_storage(page, {SAVE_KEY: json.dumps(save)}, QUERY)
    page.evaluate(BOT_TOKENS_JS)
    settle(page)
    record = saved(page)["record"]["actions"][len(save["record"]["actions"]):]
    returns = [a for a in record if a.startswith("return ")]
    assert len(returns) >= 2, record  # (the bot's take left it 12 or more)
    counts = [n for n in page.evaluate("() => window.__counts") if n is not None]
    peak = max(counts)
    assert peak >= 12 and counts[counts.index(peak):] == [peak, 10], counts
    log = page.get_by_role("region", name="Game log").inner_text()
    assert re.search(r"Bot 1 returned .+ to keep 10 tokens\.", log), log


def test_the_bot_speed_changes_during_a_game(page):
    """The table's Bot speed switch (in the log's head) sets the pace of the bots' moves from the next move on, and
    the page keeps it (reloaded)."""
    page.set_viewport_size(PHONE)
    open_game(page, QUERY)
    start(page, opponents=1, seed=3, starts="You")
    settle(page)
    assert page.evaluate("() => document.body.dataset.pace") == "1.3"
    speed = page.get_by_role("group", name="Bot speed")
    speed.get_by_role("button", name="Fast").click()
    page.wait_for_function("() => document.body.dataset.pace === '0.6'")
    assert speed.get_by_role("button", name="Fast").get_attribute("aria-pressed") == "true"
    play_turn(page)
    settle(page)
    page.reload()
    page.get_by_role("region", name="Market").wait_for()
    assert page.get_by_role("group", name="Bot speed").get_by_role("button", name="Fast").get_attribute(
        "aria-pressed") == "true"
    assert page.evaluate("() => document.body.dataset.pace") == "0.6"


def test_while_bots_play_their_speed_is_in_the_move_box(page):
    """Waiting for three bots on a phone, the move box (where a person looks then) offers the bots' speed; a tap
    makes the next moves faster, and the box keeps its height."""
    page.set_viewport_size(PHONE)
    open_game(page, "bot_budget=iterations:400")  # (bots that take a moment: the box is seen while they play)
    start(page, opponents=3, seed=3, starts="You")
    settle(page)
    bar = page.get_by_role("region", name="Your move")
    height = bar.bounding_box()["height"]
    assert bar.get_by_role("group", name="Bot speed").count() == 0  # (your turn: your move's controls)
    play_turn(page)
    speed = bar.get_by_role("group", name="Bot speed")
    speed.wait_for()
    assert bar.bounding_box()["height"] == height
    speed.get_by_role("button", name="Fast").click()
    page.wait_for_function("() => document.body.dataset.pace === '0.6'")
    settle(page)
    log_speed = page.get_by_role("region", name="Game log").get_by_role("group", name="Bot speed")
    assert log_speed.get_by_role("button", name="Fast").get_attribute("aria-pressed") == "true"


# -- a bot's points come with its card ---------------------------------------------------------------------------------
def bot_buys_points_save():
    """A saved 2-player game at the easy bot's turn, where its move is a buy that scores."""
    for seed in range(1, 200):
        app = App(MemoryStorage())
        app.act("start", {"seed": str(seed), "opponents": "1", "starts": "person", "level0": "easy"})
        while not app.game.is_over and len(app.game.history) < 150:
            g = app.game
            if app.my_turn:
                legal = g.legal_actions()
                app._apply(next((a for a in legal if a.kind == "buy"), legal[0]), 0)
                continue
            reply = json.loads(answer(json.dumps(app.bot_request())))
            action = splendor.parse_action(g, reply["action"])
            if action.kind == "buy" and action.card.points:
                app.awaiting = None
                return app.to_save()
            assert app.bot_reply(json.dumps(reply)) == "applied"
    raise AssertionError("no position found")


POINTS_JS = """() => {
  window.__pts = [];
  const step = () => {
    const el = document.querySelector('#seat-1 .prestige');
    const flights = document.getAnimations().filter((a) => a.id === 'fly-card' && a.playState === 'running');
    window.__pts.push({pts: el ? el.firstChild.nodeValue : null,
                       early: flights.some((a) => a.currentTime !== null && a.currentTime < 250)});
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}"""


def test_a_bots_points_change_when_its_card_lands(page):
    """The bot's score stays as it was while the card it bought flies to its panel (it jumped at once, before
    the card was seen arriving), and shows the new points once it has landed."""
    page.set_viewport_size(PHONE)
    save = bot_buys_points_save()
    before = splendor.replay(save["record"]).players[1].points
    # the sampler starts with each document, before the page's scripts: the bot may move as soon as the page is up
    page.add_init_script(f"({POINTS_JS})()")
    open_with_storage(page, {SAVE_KEY: json.dumps(save)}, QUERY)
    settle(page)
    after = splendor.replay(saved(page)["record"]).players[1].points
    assert after > before
    seen = page.evaluate("() => window.__pts")
    flying = [f for f in seen if f["early"]]
    assert flying and all(f["pts"] == str(before) for f in flying), flying
    assert seen[-1]["pts"] == str(after)
