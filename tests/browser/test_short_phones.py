"""The steps of a turn on the shortest phones (390x664, an iPhone's visible area under its bars, and 360x640): the
guided game's words in full, tokens given back over 10, the Buy dialog, a hint and a noble that move nothing, and
market cards whose marks do not sit on each other. Measured by bounding boxes in Chromium."""

import json
import re

import pytest
from game_driver import SAVE_KEY, open_game, open_with_storage, play_turn, settle, start
from test_motion import noble_buy_save

import splendor
from splendor.web.botcall import answer
from splendor.web.controller import App
from splendor.web.records.storage import MemoryStorage

SHORT = {"390x664": (390, 664), "360x640": (360, 640)}
# Every piece has landed (assets/motion.js): a card being dealt is drawn where it flies from until then.
LANDED_JS = ("() => !document.querySelector('#fly-layer .fly') && "
             "!document.getAnimations().some((a) => String(a.id).startsWith('fly-'))")

TAKE_LABEL_JS = "() => document.getElementById('btn-take')?.getAttribute('aria-label') || ''"
BOX_JS = """(el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"""
MARKET_JS = """() => Object.fromEntries([...document.querySelectorAll('.market .card, .market .deck')].map((e) => {
  const r = e.getBoundingClientRect(); return [e.id, [r.left, r.top, r.width, r.height]]; }))"""
# On every market card: pairs of marks that overlap or touch (the badge and the bonus gem or the points: "−10" against
# a "5" read as "5-10"; a pip and its neighbour), and a price that is not plain: a pip of 0 or a struck number (a
# card shows what the person pays, and only that).
CLASH_JS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b, gap = 0) => a.left < b.right + gap - .5 && b.left < a.right + gap - .5
    && a.top < b.bottom - .5 && b.top < a.bottom - .5;
  const out = [];
  let badges = 0, lowered = 0;
  for (const card of document.querySelectorAll('.market .card')) {
    const name = card.getAttribute('aria-label').split(';')[0];
    const badge = card.querySelector('.badge');
    if (badge) {
      badges++;
      for (const sel of ['.card-top .bonus', '.card-top .pts', '.cost .pip']) {
        for (const e of card.querySelectorAll(sel))
          if (meet(box(badge), box(e), 2)) out.push(`${name}: the badge meets ${sel}`);
      }
    }
    for (const b of card.querySelectorAll('.cost .pip b')) if (b.dataset.t === '0') out.push(`${name}: a pip of 0`);
    if (card.querySelector('.was, s')) out.push(`${name}: a struck number`);
    lowered += card.querySelectorAll('.cost .pip.lowered').length;
  }
  return {badges, lowered, out};
}"""


def inside(box, width, height, slack=0.5):
    left, top, right, bottom = box
    return left >= -slack and top >= -slack and right <= width + slack and bottom <= height + slack


def meet(a, b):
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def box(locator):
    return locator.evaluate(BOX_JS)


def save_at(seed, stop, opponents=1):
    """A save of a game against medium bots at the person's turn once ``stop(app)`` holds; the person plays
    ``stop``'s move otherwise (``stop`` returns True to stop, or the action to play)."""
    app = App(MemoryStorage())
    app.act("start", {"seed": str(seed), "opponents": str(opponents), "starts": "person"})
    for _ in range(400):
        g = app.game
        assert not g.is_over
        if app.my_turn:
            move = stop(app)
            if move is True:
                return app.to_save()
            app._apply(move, 0)
        else:
            assert app.bot_reply(answer(json.dumps(app.bot_request()))) == "applied"
    raise AssertionError("no such position")


def takes_until_nine(app):
    """Take three gems each turn until 9 are held (then stop: the next take of three means giving two back)."""
    g = app.game
    if g.phase == "action" and g.players[0].token_count >= 9:
        return True
    takes = [a for a in g.legal_actions() if a.kind == "take" and len(a.colors) == 3]
    return takes[len(g.history) % len(takes)] if takes else g.legal_actions()[0]


def gold_buy(app):
    """Stop where a market card can be bought only with gold; take three (or reserve, for gold) meanwhile."""
    g = app.game
    if g.phase != "action":
        return g.legal_actions()[0]
    for row in g.market:
        for card in row:
            if card and g.can_afford(card, 0) and g.default_payment(card)["gold"]:
                return True
    return toward_gold(g)


def toward_gold(g):
    """Meanwhile: reserve a market card (for its gold) until one gold is held, else take three while 7 or fewer are
    held, else the first legal move."""
    p = g.players[0]
    if not p.tokens["gold"] and len(p.reserved) < 2 and g.supply["gold"]:
        return next(a for a in g.legal_actions() if a.kind == "reserve" and a.card is not None)
    takes = [a for a in g.legal_actions() if a.kind == "take" and len(a.colors) == 3]
    if takes and p.token_count <= 7:
        return takes[len(g.history) % len(takes)]
    return g.legal_actions()[0]


@pytest.mark.parametrize("size", [*SHORT, "844x390"])
def test_the_guide_shows_all_its_words_and_the_turn_stays_on_the_screen(touch_page, size):
    """The guide's box, on the shortest phones and held sideways, lies over the top of the market: all its words in
    sight, and off the opponents' strip (the bot's last move), the nobles, what it marks, the controls and your side;
    on the first turn and again once the bot has answered."""
    w, h = SHORT.get(size, (844, 390))
    page = touch_page(w, h)
    open_game(page)
    page.get_by_role("region", name="New to Splendor?").get_by_role("button", name="Play a guided game").tap()
    page.get_by_role("region", name="Market").wait_for()
    for turn in range(2):
        settle(page)
        page.wait_for_function(LANDED_JS)
        coach = page.get_by_role("region", name="Guide")
        # The box is as tall as its words (nothing scrolled away inside it) and all of it is on the screen.
        assert coach.evaluate("(e) => e.scrollHeight <= e.clientHeight + 1"), "the guide's words overflow its box"
        words = coach.locator("p").first
        assert box(words)[3] <= box(coach)[3] + 0.5 and box(words)[3] - box(words)[1] > 30  # lines, not a sliver
        assert inside(box(coach), w, h)
        # The turn's controls stay on the one screen, and nothing the guide marks is under its box, nor any player's
        # panel, nor the nobles.
        for name in ("Market", "Gem supply", "Your move", "Your area"):  # (within a pixel: the panels' edges)
            assert inside(box(page.get_by_role("region", name=name)), w, h, slack=1), name
        for name in ("Gem supply", "Your move", "Your area", "Nobles"):
            assert not meet(box(page.get_by_role("region", name=name)), box(coach)), (
                f"turn {turn}: the guide covers {name}")
        opponents = page.locator(".opponents > section")
        assert opponents.count() == 1
        assert not meet(box(opponents.first), box(coach)), f"turn {turn}: the guide covers the bot's panel"
        if size in SHORT:  # (its words in fewer words: over the level 3 cards only; issue 72: it hid level 2 too)
            for card in page.locator(".market .card[id^='m2'], .market .card[id^='m1']").all():
                assert not meet(box(card), box(coach)), f"turn {turn}: the guide covers {card.get_attribute('id')}"
        marked = page.locator(".card.guided, .pile.guided")
        assert marked.count() >= 2
        for i in range(marked.count()):
            assert not meet(box(marked.nth(i)), box(coach)), marked.nth(i).get_attribute("aria-label")
        assert page.evaluate("() => scrollY") == 0
        if turn == 0:  # take the gems it marks; the bot answers, and the guide's box comes back
            # by their ids, read first: a pile tapped may leave the marked ones, which would shift a list by position
            # and each tap's answer awaited before the next (a person sees a gem picked before picking the next); a
            # pile where the guide suggests taking two is tapped twice
            piles = [(p.get_attribute("id"), p.get_attribute("aria-label")) for p in page.locator(".pile.guided").all()]
            for pile_id, label in piles:
                for _ in range(2 if "suggests taking two" in label else 1):
                    before = page.evaluate(TAKE_LABEL_JS)
                    page.locator(f"#{pile_id}").tap()
                    page.wait_for_function(f"(b) => ({TAKE_LABEL_JS})() !== b", arg=before)
            page.get_by_role("button", name=re.compile(r"^Take ")).tap()
            page.get_by_role("region", name="Opponents").locator(".last-move").wait_for()
    # "Got it" puts the words away in one tap: every market card is uncovered, and what the guide marks stays marked.
    page.get_by_role("button", name=re.compile("^Got it")).tap()
    assert page.get_by_role("region", name="Guide").count() == 0
    assert page.locator(".card.guided, .pile.guided").count() >= 2
    hidden = page.evaluate("""() => [...document.querySelectorAll('.market .card')].filter((c) => {
      const r = c.getBoundingClientRect(), top = document.elementFromPoint(r.left + r.width / 2, r.top + 8);
      return !(top === c || c.contains(top)); }).map((c) => c.getAttribute('aria-label'))""")
    assert hidden == [], hidden


@pytest.mark.parametrize("size", list(SHORT))
def test_giving_tokens_back_keeps_the_return_button_the_tokens_and_the_bonuses_apart(touch_page, size):
    w, h = SHORT[size]
    page = touch_page(w, h)
    open_with_storage(page, {SAVE_KEY: json.dumps(save_at(5, takes_until_nine))})
    settle(page)
    piles = [b for b in page.get_by_role("region", name="Gem supply").get_by_role(
        "button", name=re.compile(r"^(White|Blue|Green|Red|Black) gems: [1-9]")).all()
        if b.get_attribute("aria-disabled") != "true"]
    for pile in piles[:3]:
        pile.tap()
    page.get_by_role("button", name=re.compile(r"^Take ")).tap()
    settle(page)
    assert "return tokens" in page.locator("#status").text_content()
    mine = page.get_by_role("region", name="Your area")
    button = page.get_by_role("region", name="Your move").get_by_role("button", name=re.compile(r"^Return"))
    assert not meet(box(button), box(mine)), "the Return button lies on your panel"
    tokens = [box(b) for b in mine.get_by_role("button", name=re.compile(r"^Return a \w+ token")).all()]
    assert len(tokens) >= 3
    for i, a in enumerate(tokens):
        assert a[2] - a[0] >= 43.5 and a[3] - a[1] >= 43.5, a
        assert inside(a, w, h)
        for b in tokens[i + 1:]:
            assert not meet(a, b), (a, b)
    bonuses = mine.locator(".holdings tbody tr").last
    assert bonuses.is_visible() and inside(box(bonuses), w, h), "the bonuses row is hidden or off the screen"
    assert inside(box(mine), w, h) and inside(box(button), w, h)
    # Giving two back works from there.
    for _ in range(2):
        mine.get_by_role("button", name=re.compile(r"^Return a \w+ token")).first.tap()
    button.tap()
    settle(page)
    assert "return tokens" not in page.locator("#status").text_content()


def test_the_buy_dialog_at_360_px_counts_the_gold_shows_everything_and_buys_in_two_taps(touch_page):
    page = touch_page(360, 640)
    save = save_at(9, gold_buy)
    assert not save["settings"]["confirm"]  # the default: no last check
    game = splendor.replay(save["record"])
    card = next(c for row in game.market for c in row
                if c and game.can_afford(c, 0) and game.default_payment(c)["gold"])
    open_with_storage(page, {SAVE_KEY: json.dumps(save)})
    settle(page)
    page.get_by_role("region", name="Market").get_by_role("button", name=re.compile(
        "^" + re.escape(card.describe()))).tap()
    dialog = page.get_by_role("dialog")
    frame = box(dialog)
    assert inside(frame, 360, 640)
    cut = dialog.evaluate("""(d) => { const f = d.getBoundingClientRect(); return [...d.querySelectorAll('*')]
        .filter((e) => e.getClientRects().length && !e.closest('.sr-only'))
        .filter((e) => { const r = e.getBoundingClientRect();
          return r.width && (r.left < f.left - .5 || r.right > f.right + .5 || r.right > innerWidth + .5); })
        .map((e) => e.tagName + ' ' + e.textContent.slice(0, 30)); }""")
    assert cut == [], cut
    # The gold the rows say is the gold the summary says.
    golds = sum(int(x) for x in dialog.locator("td.paid").evaluate_all("(l) => l.map((e) => e.dataset.gold)"))
    said = re.search(r"You pay .*?(\d+) gold\.", dialog.inner_text())
    paid = game.default_payment(card)["gold"]
    assert said and int(said.group(1)) == golds == paid >= 1
    assert dialog.locator("td.paid", has_text=f"{paid} gold").count() >= 1
    # Two taps: the card, then Buy.
    dialog.get_by_role("button", name="Buy", exact=True).tap()
    settle(page)
    assert page.get_by_role("dialog").count() == 0
    record = json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(SAVE_KEY)})"))["record"]
    assert record["actions"][len(save["record"]["actions"])].startswith(f"buy {card.code}")


def test_held_sideways_the_cards_marks_stay_apart_too(touch_page):
    page = touch_page(844, 390)
    save, _ = noble_buy_save()  # (a table with bonuses: lowered prices beside the badges)
    open_with_storage(page, {SAVE_KEY: json.dumps(save)})
    settle(page)
    clash = page.evaluate(CLASH_JS)
    assert clash["badges"] >= 8 and clash["lowered"] >= 4 and clash["out"] == [], clash["out"]


@pytest.mark.parametrize("size", list(SHORT))
def test_a_hint_and_a_noble_move_nothing_and_the_cards_marks_stay_apart(touch_page, size):
    w, h = SHORT[size]
    page = touch_page(w, h)
    open_game(page)
    page.get_by_role("button", name="No thanks").tap()
    page.get_by_role("radio", name="3 bots").check()
    page.get_by_role("radio", name="You", exact=True).check()
    page.get_by_role("button", name="Start game").tap()
    page.get_by_role("region", name="Market").wait_for()
    settle(page)
    before = page.evaluate(MARKET_JS)
    bar = page.get_by_role("region", name="Your move")
    bar_before = box(bar)
    page.get_by_role("button", name="Hint", exact=True).tap()
    page.locator("#hint-text").wait_for()
    page.wait_for_function(LANDED_JS)
    assert page.evaluate(MARKET_JS) == before and box(bar) == bar_before  # the move box did not grow
    text = box(page.locator("#hint-text"))
    assert text[1] >= bar_before[1] and text[3] <= bar_before[3] and text[2] <= bar_before[2]  # inside its border
    # The longest advice there is (a buy with two reasons, about 200 characters) keeps to the box's four lines too.
    page.evaluate("""() => {
      const p = document.getElementById('hint-text'), w = p.querySelector('.hint-weighed');
      p.textContent = 'Hint: ' + 'take white, blue and green toward the level 3 blue card '.repeat(5);
      p.append(w); }""")
    text = box(page.locator("#hint-text"))
    assert box(bar) == bar_before and text[3] <= bar_before[3], (box(bar), bar_before, text)
    clash = page.evaluate(CLASH_JS)
    assert clash["badges"] >= 8 and clash["out"] == [], clash["out"]
    # A noble won: the table stays where it was.
    save, card = noble_buy_save()
    page.close()  # (one page at a time in the shared context)
    other = touch_page(w, h)
    open_with_storage(other, {SAVE_KEY: json.dumps(save)})
    settle(other)
    before = other.evaluate(MARKET_JS)
    clash = other.evaluate(CLASH_JS)
    assert clash["out"] == [], clash["out"]
    assert clash["lowered"] >= 4  # (a table with bonuses: prices the bonuses lower, drawn plainly)
    other.get_by_role("region", name="Market").get_by_role("button", name=re.compile(
        "^" + re.escape(card.describe()))).tap()
    other.get_by_role("dialog").get_by_role("button", name="Buy", exact=True).tap()
    other.get_by_role("dialog").get_by_role("button", name="Confirm").tap()  # (this save asks to confirm)
    settle(other)
    other.wait_for_function(LANDED_JS)
    assert other.get_by_role("region", name="Your area").locator(".noble").count() == 1
    assert other.evaluate(MARKET_JS) == before


# Every cell of the Buy dialog's price table whose words spill out of it (into the next column or past the dialog).
SPILL_JS = """() => {
  const out = [];
  const dialog = document.getElementById('dialog').getBoundingClientRect();
  for (const cell of document.querySelectorAll('#dialog .price th, #dialog .price td')) {
    const c = cell.getBoundingClientRect();
    if (cell.scrollWidth > cell.clientWidth + 1)
      out.push(`${cell.textContent}: ${cell.scrollWidth} > ${cell.clientWidth}`);
    for (const e of cell.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width && (r.left < c.left - .5 || r.right > c.right + .5)) out.push(`${e.textContent} leaves its cell`);
    }
    if (c.right > dialog.right + .5) out.push(`${cell.textContent} leaves the dialog`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", list(SHORT))
def test_the_buy_dialog_keeps_its_words_in_their_columns(touch_page, size):
    """A card the bonuses lower but the person cannot buy yet: the bonus note stays in the price's column, and a
    color the bonuses pay entirely is said so ("You have 1 of 0" was shown)."""
    w, h = SHORT[size]
    page = touch_page(w, h)
    save, _ = noble_buy_save()
    open_with_storage(page, {SAVE_KEY: json.dumps(save)})
    settle(page)
    cards = page.get_by_role("region", name="Market").get_by_role(
        "button", name=re.compile(r"with your bonuses it costs (?!.*You can buy it$)"))
    assert cards.count() >= 2
    for i in range(2):
        cards.nth(i).tap()
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        assert dialog.locator(".price .was").count() >= 1  # (a bonus note to check)
        assert page.evaluate(SPILL_JS) == []
        assert not re.search(r"\b\d+ of 0\b", dialog.inner_text())
        assert inside(box(dialog), w, h)
        dialog.get_by_role("button", name="Close").tap()
        page.get_by_role("dialog").wait_for(state="detached")


# Every frame: the words a person needs that the page cuts (the status past its two lines, an opponent's last move
# or a noble's needs past their box), recorded with the status of the moment.
CUT_WORDS_JS = """() => {
  window.__cut = [];
  const check = () => {
    const status = document.querySelector('#status .status-text');
    const said = status ? status.textContent : '';
    if (status && status.scrollHeight > status.clientHeight + 1) window.__cut.push(`status: ${said}`);
    for (const el of document.querySelectorAll('.seat.opp .last-move, .nobles .noble, .seat.mine .won')) {
      if (el.scrollWidth > el.clientWidth + 1) window.__cut.push(`${el.className}: ${el.textContent} (${said})`);
    }
    const mine = document.querySelector('.seat.mine');
    if (mine) {
      const m = mine.getBoundingClientRect();
      for (const n of mine.querySelectorAll('.noble')) {
        const r = n.getBoundingClientRect();
        if (r.right > m.right + .5 || r.bottom > m.bottom + .5) window.__cut.push(`a noble outside your panel`);
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}"""


@pytest.mark.parametrize("size", ["360x640", "844x390"])
def test_a_whole_four_player_game_by_taps_cuts_no_words(touch_page, size):
    """A 4-player game played to its end by taps (the narrowest panels): at every frame the status says all it
    says in its two lines ("Your turn. Final round: this is you..." and "Game over. B..." were cut), each bot's
    last move fits its panel (drawn as a picture), and no noble's needs spill out of its tile."""
    w, h = SHORT.get(size, (844, 390))
    page = touch_page(w, h)
    open_game(page)
    page.get_by_role("button", name="No thanks").tap()
    start(page, opponents=3, seed=0, starts="You", levels=["Easy", "Easy", "Easy"])  # (nobles needing 3 colors)
    page.evaluate(CUT_WORDS_JS)
    turns = 0
    while play_turn(page, press="tap"):
        turns += 1
        assert turns < 200
        cut = page.evaluate("() => window.__cut.splice(0)")
        assert cut == [], cut[:5]
    settle(page)
    assert page.locator("#status").text_content().startswith("Game over")
    assert page.evaluate("() => window.__cut") == []
    assert page.get_by_role("dialog").count() == 1  # the results
    # The final table behind them: its status (beside the Results button) is whole too.
    page.get_by_role("button", name="See the board").tap()
    page.get_by_role("button", name="Results").wait_for()
    page.wait_for_timeout(100)
    assert page.evaluate("() => window.__cut") == []
    name = page.get_by_role("region", name="Your area").locator(".seat-head h2")
    assert name.evaluate("(e) => e.getClientRects().length === 1 && e.scrollHeight < 30"), "your name wraps"


def three_nobles_save():
    """A 2-player save at the person's turn once the person has won three nobles (seat 0 buys what it can, the
    other seat only takes, so the game lasts)."""
    import random

    for seed in range(3000):
        g = splendor.new_game(players=2, seed=seed, first_player=0)
        rng = random.Random(seed)
        while not g.is_over:
            if g.current_player == 0 and g.phase == "action" and len(g.players[0].nobles) >= 3:
                return {"format": "splendor-save", "version": 1, "record": g.record(),
                        "seats": [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": "easy"}], "log": []}
            actions = g.legal_actions()
            if g.current_player == 1:
                takes = [a for a in actions if a.kind in ("take", "take_two", "return")]
                g.apply(rng.choice(takes or actions))
            else:
                g.apply(rng.choice([a for a in actions if a.kind == "buy"] or actions))
    raise AssertionError("no position found")


@pytest.mark.parametrize("size", ["390x664", "844x390"])
def test_three_nobles_won_stay_inside_your_panel(touch_page, size):
    """The third noble tile spilled out of your panel (under it, off the screen): the nobles you win lie side by
    side inside it, and your panel stays on the screen."""
    w, h = SHORT.get(size, (844, 390))
    page = touch_page(w, h)
    open_with_storage(page, {SAVE_KEY: json.dumps(three_nobles_save())})
    settle(page)
    mine = page.get_by_role("region", name="Your area")
    nobles = mine.locator(".won .noble")
    assert nobles.count() == 3
    panel = box(mine)
    assert inside(panel, w, h)
    for i in range(3):
        tile = box(nobles.nth(i))
        assert (tile[0] >= panel[0] and tile[1] >= panel[1]
                and tile[2] <= panel[2] + 0.5 and tile[3] <= panel[3] + 0.5), (i, tile, panel)
        # its 3 points whole inside the tile, dark on its gold (issue 63: a faint "3" cut at the tile's corner)
        pts = nobles.nth(i).locator(".noble-pts")
        said = box(pts)
        assert tile[0] <= said[0] and tile[1] <= said[1] and said[2] <= tile[2] and said[3] <= tile[3], (said, tile)
        assert pts.evaluate("(e) => getComputedStyle(e).color") == "rgb(43, 29, 5)"
    reserved = [box(b) for b in mine.locator(".reserved .mini").all()]
    for i in range(3):
        for r in reserved:
            assert not meet(box(nobles.nth(i)), r), "a noble lies on your reserved cards"


TABLE_JS = """() => Object.fromEntries(['.opponents', '.nobles', '.market', '.supply', '.actionbar', '.seat.mine',
  '.topbar'].map((s) => {
    const r = document.querySelector(s).getBoundingClientRect(); return [s, [r.top, r.bottom]]; }))"""


@pytest.mark.parametrize("size", [*SHORT, "844x390"])
def test_the_table_does_not_move_while_tokens_go_over_ten_and_back(touch_page, size):
    """Picking gems that take the person over 10, and the step of giving tokens back: every part of the table keeps
    its place and height (the move box grew by a line, your side shrank by 5 px: the market jumped)."""
    w, h = SHORT.get(size, (844, 390))
    page = touch_page(w, h)
    open_with_storage(page, {SAVE_KEY: json.dumps(save_at(5, takes_until_nine))})
    settle(page)
    page.wait_for_function(LANDED_JS)
    start_boxes = page.evaluate(TABLE_JS)

    def same(where):
        now = page.evaluate(TABLE_JS)
        for key, (top, bottom) in start_boxes.items():
            assert abs(now[key][0] - top) < 0.6 and abs(now[key][1] - bottom) < 0.6, (
                where, key, now[key], (top, bottom))

    piles = [b for b in page.get_by_role("region", name="Gem supply").get_by_role(
        "button", name=re.compile(r"^(White|Blue|Green|Red|Black) gems: [1-9]")).all()
        if b.get_attribute("aria-disabled") != "true"]
    for i, pile in enumerate(piles[:3]):
        pile.tap()
        same(f"gem {i + 1} picked")
    assert "return" in page.get_by_role("region", name="Your move").inner_text()  # (over 10: it says so)
    page.get_by_role("button", name=re.compile(r"^Take ")).tap()
    settle(page)
    assert "return tokens" in page.locator("#status").text_content()
    same("the return step")
    assert inside([start_boxes[".seat.mine"][0], 0, w, start_boxes[".seat.mine"][1]], w, h)


@pytest.mark.parametrize("size", list(SHORT))
def test_a_refused_pick_is_said_in_the_move_box_over_nothing_else(touch_page, size):
    # A pile of 3 tapped twice: the refusal takes the prompt's place in the move box (issue 63: it was drawn across
    # your panel), the box keeps its height and your panel is where it was.
    w, h = SHORT[size]
    page = touch_page(w, h)
    open_game(page)
    start(page, opponents=1, seed=31, starts="A bot", levels=["Medium"])
    settle(page)
    bar = page.get_by_role("region", name="Your move")
    mine = page.get_by_role("region", name="Your area")
    bar_before, mine_before = box(bar), box(mine)
    pile = page.get_by_role("button", name=re.compile(r"^(White|Blue|Green|Red|Black) gems: 3")).first
    pile.tap()
    pile.tap()
    message = page.locator("#message")
    assert re.fullmatch(r"Two \w+ need 4 in the pile; it holds 3\.", message.inner_text())
    said = box(message)
    assert said[1] >= bar_before[1] and said[3] <= bar_before[3] and said[2] <= bar_before[2]  # inside the box
    assert box(bar) == bar_before and box(mine) == mine_before and not meet(said, box(mine))
    assert not page.locator(".actionbar > .prompt").is_visible()


def gold_choice(app):
    """Stop where you hold gold and a market card of three colors or more can be bought without it (the dialog offers
    a gold swap under every price row: the tallest buy dialog); reserve for gold, take three, meanwhile."""
    g = app.game
    if g.phase != "action":
        return g.legal_actions()[0]
    if g.players[0].tokens["gold"] and choice_card(g):
        return True
    return toward_gold(g)


def choice_card(g):
    return next((c for row in g.market for c in row if c and g.can_afford(c, 0) and not g.default_payment(c)["gold"]
                 and sum(1 for v in g.price(c, 0).values() if v) >= 3), None)


def late_four(app):
    """Stop at round 14 of a 4-player game: the opponents hold many cards (a tall detail dialog)."""
    g = app.game
    return True if g.round >= 14 and g.phase == "action" else MediumMove(app)


def MediumMove(app):  # noqa: N802 (reads as the move it is)
    from splendor.ai import get_bot
    import random
    g = app.game
    return get_bot("medium").choose(g.observation(0), random.Random(len(g.history)))


@pytest.mark.parametrize("size", list(SHORT))
def test_a_tall_dialog_opens_with_its_title_and_its_action_on_screen(touch_page, size):
    # Issue 63: the buy dialog with a gold swap under every price row put Buy below the screen, and an opponent's
    # tall detail dialog opened scrolled to its foot. A dialog opens at its top, its action buttons on screen.
    # Issue 72: that buy dialog's last row sat half under the pinned buttons until scrolled: it fits, unscrolled.
    w, h = SHORT[size]
    page = touch_page(w, h)
    save = save_at(1, gold_choice)
    card = choice_card(splendor.replay(save["record"]))
    open_with_storage(page, {SAVE_KEY: json.dumps(save)})
    settle(page)
    page.get_by_role("region", name="Market").get_by_role("button", name=re.compile(
        "^" + re.escape(card.describe()))).tap()
    dialog = page.get_by_role("dialog")
    assert dialog.locator(".swap .secondary").count() >= 3
    for part in (dialog.locator("#dlg-title"), dialog.get_by_role("button", name="Buy", exact=True),
                 dialog.get_by_role("button", name="Close")):
        assert inside(box(part), w, h), part
    assert dialog.evaluate("(d) => d.scrollHeight <= d.clientHeight + 1"), "the dialog scrolls"
    buttons = box(dialog.locator(".dialog-buttons"))
    for part in (dialog.locator(".swap-row").last, dialog.locator(".pay-line")):
        assert box(part)[3] <= buttons[1] + 0.5, "a row under the pinned buttons"
    # a swap, then Buy: the card is bought with the gold the rows say
    dialog.locator(".swap-row").first.get_by_role("button").tap()
    dialog.get_by_role("button", name="Buy", exact=True).tap()
    settle(page)
    assert page.get_by_role("dialog").count() == 0
    record = json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(SAVE_KEY)})"))["record"]
    assert record["actions"][len(save["record"]["actions"])].startswith(f"buy {card.code}")
    page.close()
    other = touch_page(w, h)
    open_with_storage(other, {SAVE_KEY: json.dumps(save_at(6, late_four, opponents=3))})
    settle(other)
    other.locator("#inspect-1").tap()
    dialog = other.get_by_role("dialog")
    assert dialog.evaluate("(d) => d.scrollHeight > d.clientHeight")  # taller than the screen: it scrolls
    assert dialog.evaluate("(d) => d.scrollTop") == 0
    assert inside(box(dialog.locator("#dlg-title")), w, h) and inside(box(dialog.get_by_role("button", name="Close")),
                                                                        w, h)


def test_a_thinking_bots_name_and_level_are_not_cut(touch_page):
    # Issue 63: the spinner of a thinking bot took its header's room, "Bot 1 Expert" cut to "Bot 1 Exp" at 360 px.
    page = touch_page(360, 640)
    open_game(page, "pace=0&bot_budget=3")  # (each bot thinks 3 s a move)
    start(page, opponents=3, seed=31, starts="A bot", levels=["Expert", "Expert", "Expert"])
    page.wait_for_function("() => document.querySelector('.seat.opp .spinner')")
    heads = page.locator(".seat.opp h2").evaluate_all(
        "(els) => els.map((e) => [e.textContent, e.scrollWidth, e.clientWidth, !!e.querySelector('.spinner')])")
    assert any(spins for *_, spins in heads)
    for text, wide, room, _ in heads:
        assert wide <= room, f"{text!r} is cut: {wide} px in {room}"
    spinner = page.evaluate("() => { const r = document.querySelector('.seat.opp .spinner').getBoundingClientRect(); "
                            "return [r.left, r.top, r.right, r.bottom]; }")
    middle = [(spinner[0] + spinner[2]) / 2, (spinner[1] + spinner[3]) / 2]  # (it turns: its box grows and shrinks)
    assert spinner[2] > spinner[0] and inside(middle + middle, 360, 640)


@pytest.mark.parametrize("size", ["1280x800", "390x664"])
def test_a_won_nobles_points_are_dark_on_its_gold_in_every_panel(touch_page, size):
    """The "3" of a won noble was the page's muted grey on the tile's tan at 1280x800, in the bot's panel and in yours
    beside the reserved cards (issue 72; the phone's own rule reached only your won nobles on phones)."""
    from game_driver import last_turn_save

    w, h = (int(x) for x in size.split("x"))
    page = touch_page(w, h)
    open_with_storage(page, {SAVE_KEY: json.dumps(last_turn_save(31, "hard", "won-nobles"))})
    settle(page)
    colors = page.evaluate("() => [...document.querySelectorAll('.seat .noble.small .noble-pts')]"
                           ".map((e) => [e.closest('.seat').className, getComputedStyle(e).color])")
    assert {c.split()[1] for c, _ in colors} == {"opp", "mine"}, colors  # a won noble in each panel
    assert all(color == "rgb(43, 29, 5)" for _, color in colors), colors


def test_held_sideways_a_thinking_bots_spinner_sits_inside_its_panel(touch_page):
    """Issue 72: in landscape the spinner lay over the bot panel's corner, half outside its border."""
    page = touch_page(844, 390)
    open_game(page, "pace=0&bot_budget=3")  # (each bot thinks 3 s a move)
    start(page, opponents=3, seed=31, starts="A bot", levels=["Expert", "Expert", "Expert"])
    page.wait_for_function("() => document.querySelector('.seat.opp .spinner')")
    spun = page.evaluate("""() => { const s = document.querySelector('.seat.opp .spinner');
      const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
      const h2 = s.closest('h2');
      return {spinner: box(s), panel: box(s.closest('.seat')), cut: h2.scrollWidth > h2.clientWidth}; }""")
    # (it turns: its box grows and shrinks about its middle; the middle and the least box stay inside the panel)
    left, top, right, bottom = spun["spinner"]
    mid = ((left + right) / 2, (top + bottom) / 2)
    pl, pt, pr, pb = spun["panel"]
    assert pl + 3 <= mid[0] - 5 and pt + 3 <= mid[1] - 5 and mid[0] + 5 <= pr and mid[1] + 5 <= pb, spun
    assert not spun["cut"]
