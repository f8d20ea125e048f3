"""Moves are seen: tokens travel between the supply and a player, a bought card travels to its owner, the new card is
dealt from its deck, a noble travels to the player it visits (assets/motion.js, each animation counted in
splendorMotion.log), and at the default pace a bot's reply does not land in the frame of the person's move. With
reduced motion nothing flies and the bots do not wait. The cues each look different."""

from __future__ import annotations

import json
import random
import re

import splendor
from game_driver import SAVE_KEY, open_game, settle, start

QUERY = "bot_budget=iterations:40"  # the default pace (no pace=): bots' turns are paced
LOG_JS = "() => [...window.splendorMotion.log]"
# Everything the live region said and every moment banner shown, as they come (later words replace earlier ones).
HEARD_JS = """() => {
  window.__said = []; window.__banners = [];
  new MutationObserver(() => window.__said.push(document.getElementById('announce').textContent))
    .observe(document.getElementById('announce'), {childList: true, characterData: true, subtree: true});
  new MutationObserver(() => {
    const m = document.getElementById('moment'); if (m) window.__banners.push(m.textContent); })
    .observe(document.getElementById('app'), {childList: true, subtree: true});
}"""
RUNNING_JS = "() => document.getAnimations().filter(a => String(a.id).startsWith('fly-')).map(a => a.id)"


def noble_buy_save():
    """A saved 2-player game where the person (seat 0, to move) can buy a market card that brings a noble."""
    for seed in range(200):
        g = splendor.new_game(players=2, seed=seed, first_player=0)
        rng = random.Random(seed)
        while not g.is_over:
            actions = g.legal_actions()
            if g.current_player == 0 and g.phase == "action":
                for a in actions:
                    if a.kind == "buy" and a.card in g.market[a.card.level - 1] and g.deck_sizes[a.card.level - 1]:
                        before = len(g.players[0].nobles)
                        g.apply(a)
                        gets = len(g.players[0].nobles) > before
                        g.undo()
                        if gets:
                            save = {"format": "splendor-save", "version": 1, "record": g.record(),
                                    "seats": [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": "easy"}],
                                    "settings": {"confirm": True}, "log": []}
                            return save, a.card
            buys = [a for a in actions if a.kind == "buy"]
            g.apply(rng.choice(buys or actions))
    raise AssertionError("no position found")


def take_three(page):
    piles = [b for b in page.get_by_role("region", name="Gem supply").get_by_role(
        "button", name=re.compile(r"^(White|Blue|Green|Red|Black) gems: [1-9]")).all()
        if b.get_attribute("aria-disabled") != "true"]
    for pile in piles[:3]:
        pile.click()
    page.get_by_role("button", name=re.compile(r"^Take ")).click()


def test_tokens_fly_and_a_bot_reply_waits_for_the_person_move_to_be_seen(page):
    open_game(page, QUERY)
    start(page, opponents=1, starts="You", seed=8)
    settle(page)
    page.wait_for_function("() => document.body.dataset.worker === '1'")  # a bot answering at its fastest
    page.evaluate("""() => { window.__started = [];
      const animate = Element.prototype.animate;  // every animation started, whoever starts it
      Element.prototype.animate = function (...args) {
        window.__started.push(this.className); return animate.apply(this, args); };
    }""")
    take_three(page)
    started = page.evaluate("() => window.__started")
    assert sum("fly-tokens" in c for c in started) == 3, started  # elements did animate
    assert page.evaluate(LOG_JS).count("tokens") == 3  # three gems travel from the supply to the person
    settle(page)
    marks = page.evaluate("() => performance.getEntriesByName('splendor-move').map(e => e.startTime)")
    assert len(marks) >= 2
    gap = marks[-1] - marks[-2]  # the person's move, then the bot's reply
    assert gap >= 500, f"the bot's reply came {gap:.0f} ms after the person's move"
    assert page.evaluate(LOG_JS).count("tokens") > 3  # the bot's own move travels too


# Each frame for two seconds: [the page still drawn as before the move (body[data-answering]), token flights running,
# the move's controls faded].
# Each frame's (answering, tokens flying, controls faded), from now until three frames after the page is redrawn
# (answering seen, then over) - however long a loaded machine takes - or 10 s; window.__framesDone then.
FRAMES_JS = """() => {
  window.__frames = [];
  window.__framesDone = false;
  const t0 = performance.now();
  let seen = false, after = 0;
  const step = (t) => {
    const answering = !!document.body.dataset.answering;
    window.__frames.push([answering,
      document.getAnimations().filter(a => a.id === 'fly-tokens' && a.playState === 'running').length,
      !!document.querySelector('.actionbar.committing')]);
    if (answering) seen = true; else if (seen) after += 1;
    if (after < 3 && t - t0 < 10000) requestAnimationFrame(step); else window.__framesDone = true;
  };
  requestAnimationFrame(step);
}"""
COUNTS_JS = ("() => ['white', 'blue', 'green', 'red', 'black']"
             ".map(c => document.querySelector('#pile-' + c + ' .count').textContent)")


def test_a_move_flies_at_once_and_the_page_settles_when_its_pieces_land(page):
    """The tap on Take is answered in its own frame (the tokens fly, the move's controls fade) before the page is
    redrawn; at the default pace the page is redrawn once the tokens have landed, with ?pace=0 in the next frame."""
    for query in (QUERY, "pace=0&" + QUERY):
        if query != QUERY:
            page.evaluate("() => localStorage.clear()")  # a new game, not the last one resumed
        open_game(page, query)
        start(page, opponents=1, starts="You", seed=8)
        settle(page)
        before = page.evaluate(COUNTS_JS)
        flown = page.evaluate(LOG_JS).count("tokens")
        page.evaluate(FRAMES_JS)
        take_three(page)
        if query == QUERY:  # right after the tap: three tokens flew, the table not redrawn (the piles as they were)
            assert page.evaluate("() => document.body.dataset.answering") == "1"
            assert page.evaluate(LOG_JS).count("tokens") == flown + 3
            assert page.evaluate(COUNTS_JS) == before
        page.wait_for_function("() => !document.body.dataset.answering", timeout=5000)
        assert page.locator(".committing").count() == 0
        assert page.evaluate(COUNTS_JS) != before  # redrawn: three piles hold one fewer
        page.wait_for_function("() => window.__framesDone", timeout=12000)
        frames = page.evaluate("() => window.__frames")
        frames = frames[next(i for i, (answering, _, _) in enumerate(frames) if answering):]  # from the Take on
        drawn = next(i for i, (answering, _, _) in enumerate(frames) if not answering)
        assert any(flying for _, flying, _ in frames[:drawn]), frames[:drawn + 2]  # they flew before the redraw
        if query == QUERY:  # redrawn after the tokens landed, not while they flew; the controls faded meanwhile
            assert frames[drawn][1] == 0 and frames[drawn - 1][1] == 0, frames[:drawn + 2]
            assert any(faded for _, _, faded in frames[:drawn]), frames[:drawn + 2]
        else:  # redrawn while they fly
            assert frames[drawn][1] > 0, frames[:drawn + 2]
        settle(page)  # the bot's reply in and saved before the next round clears the storage


def test_a_bot_reply_is_drawn_only_after_the_person_move_is(page):
    """A short pace that is over before the person's tokens land (a slow machine's case at the default pace): the
    bot's reply waits for the page to be redrawn into the person's move, not drawn first and redrawn over mid-flight."""
    open_game(page, "pace=0.2&" + QUERY)
    start(page, opponents=1, starts="You", seed=8)
    settle(page)
    page.wait_for_function("() => document.body.dataset.worker === '1'")  # a bot answering at its fastest
    page.evaluate("""() => { window.__drawn = [];
      new MutationObserver(() => { if (!document.body.dataset.answering) window.__drawn.push(performance.now()); })
        .observe(document.body, {attributes: true, attributeFilter: ['data-answering']});
    }""")
    moves = page.evaluate("() => performance.getEntriesByName('splendor-move').length")
    take_three(page)
    settle(page)
    marks = page.evaluate("() => performance.getEntriesByName('splendor-move').map(e => e.startTime)")[moves:]
    drawn = page.evaluate("() => window.__drawn")
    assert len(marks) == 2 and len(drawn) == 1, (marks, drawn)  # the person's move, the bot's; one redraw into it
    assert marks[0] < drawn[0] < marks[1], (marks, drawn)


def test_a_bought_card_travels_a_new_one_is_dealt_and_the_noble_travels(page):
    save, card = noble_buy_save()
    page.add_init_script(f"localStorage.setItem({json.dumps(SAVE_KEY)}, {json.dumps(json.dumps(save))})")
    open_game(page, "pace=0&" + QUERY)
    settle(page)
    page.get_by_role("region", name="Market").get_by_role(
        "button", name=re.compile("^" + re.escape(card.describe()))).click()
    page.get_by_role("dialog").get_by_role("button", name="Buy", exact=True).click()
    page.evaluate(HEARD_JS)
    page.get_by_role("dialog").get_by_role("button", name="Confirm").click()
    settle(page)  # the card and the noble fly at once; the new card is dealt once the page is redrawn
    kinds = page.evaluate(LOG_JS)
    for kind in ("card", "deal", "noble"):
        assert kind in kinds, kinds
    # The noble's visit is said: on the table and in the live region.
    assert any("noble visits you" in b for b in page.evaluate("() => window.__banners"))
    assert any("noble visits you" in t for t in page.evaluate("() => window.__said"))


def test_with_reduced_motion_nothing_flies_and_bots_do_not_wait(page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(reduced_motion="reduce")  # as the system asks before the page opens
    open_game(page, QUERY)
    start(page, opponents=1, starts="You", seed=8)
    settle(page)
    take_three(page)
    settle(page)
    assert page.evaluate(LOG_JS) == []
    assert page.evaluate(RUNNING_JS) == []


CUES_JS = """() => {
  const cs = (sel, prop) => { const el = document.querySelector(sel); return el ? getComputedStyle(el)[prop] : null; };
  return {
    turn: cs('.seat.active', 'borderTopColor'),
    can_buy: cs('.card.affordable', 'borderTopColor'),
    selection: cs('.pile.picked', 'borderTopColor'),
    primary: cs('.actionbar .primary:not([aria-disabled])', 'backgroundColor'),
    hint: cs('.hinted', 'outlineColor'),
  };
}"""


def test_each_cue_looks_different(page):
    open_game(page, "pace=0&" + QUERY)
    start(page, opponents=1, starts="You", seed=4711)
    settle(page)
    page.get_by_role("button", name="Hint").click()
    page.get_by_text(re.compile(r"^Hint: ")).wait_for()
    # Pick a gem the hint does not point at, so each cue is on its own element: the take is not ready yet.
    piles = page.locator(".pile:not(.hinted):not([aria-disabled='true'])")
    piles.first.click()
    cues = page.evaluate(CUES_JS)
    take = page.locator("#btn-take")
    assert take.get_attribute("aria-disabled") == "true"
    disabled = take.evaluate("(el) => getComputedStyle(el).backgroundColor")
    for _ in range(2):
        page.locator(".pile:not(.picked):not([aria-disabled='true'])").first.click()
    assert take.get_attribute("aria-disabled") is None
    cues["primary"] = take.evaluate("(el) => getComputedStyle(el).backgroundColor")
    found = {k: v for k, v in cues.items() if v}
    assert {"turn", "selection", "hint", "primary"} <= set(found), cues
    assert len(set(found.values())) == len(found), f"two cues share a colour: {found}"
    assert disabled != cues["primary"]  # a disabled main button does not look like an enabled one
