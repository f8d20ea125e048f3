"""The HTML view (escaping, accessible names) and saving (round trip, damaged saves kept aside, full storage)."""

import json
import re

from splendor.engine import card_from_code
from splendor.web import view
from splendor.web.controller import App
from splendor.web.records.storage import SAVE_KEY, MemoryStorage
from hidden_words import assert_not_shown

EVIL = "<img src=x onerror=alert(1)>"


def started(storage=None, **settings):
    app = App(storage if storage is not None else MemoryStorage())
    data = {"seed": "7", "starts": "person"}
    data.update(settings)
    app.act("start", data)
    return app


def labels(html):
    return re.findall(r'aria-label="([^"]*)"', html)


def test_a_name_with_markup_is_shown_as_text():
    app = started(name=EVIL)
    assert app.seats[0]["name"] == EVIL
    html = view.render(app)
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    app.act("new-game", {})
    html = view.render(app)
    assert "<img" not in html and "&lt;img" in html  # the form's value is escaped too


def test_markup_in_a_saved_log_and_bot_sentence_is_escaped():
    app = started()
    req = app.bot_request() or None
    assert req is None  # the person starts
    for c in ("white", "blue", "green"):
        app.act("gem", {"color": c})
    app.act("take", {})
    req = app.bot_request()
    app.bot_reply({"turn_id": req["turn_id"], "action": "take red black white", "explanation": EVIL})
    html = view.render(app)
    assert EVIL not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_every_card_and_control_has_a_spoken_name():
    app = started()
    html = view.render(app)
    names = labels(html)
    g = app.game
    for row in g.market:
        for card in row:
            assert any(n.startswith(card.describe()) for n in names), card
    assert "White gems: 4 left" in names and "Gold: 5 left. Gold comes only with a reservation" in names
    assert any(n.startswith("Level 1 deck: 36 cards left") for n in names)
    for nb in g.nobles:
        assert any(n.startswith(nb.describe()) for n in names)
    # every button has a name: text content or aria-label
    for button in re.findall(r"<button[^>]*>.*?</button>", html, flags=re.S):
        text = re.sub(r"<[^>]+>", "", button).strip()
        assert "aria-label=" in button or text, button


def test_card_dialog_shows_buy_and_reserve_with_the_price():
    app = started()
    app.act("card", {"where": "market", "level": "1", "slot": "0"})
    html = view.render(app)
    assert 'role="dialog"' in html and ">Buy</button>" in html and ">Reserve</button>" in html
    assert "Price after your bonuses" in html and ">Price</th>" in html


def test_affordable_cards_stand_out_and_say_so():
    app = started()
    card = app.game.market[0][0]
    p = app.game._players[0]
    for i, n in enumerate(card.cost_t):
        app.game._supply[i] -= n
        p.tok[i] += n
    html = view.render(app)
    assert f'{card.describe()}. You can buy it' in html
    assert re.search(r'class="card bonus-\w+ affordable', html)


def test_opponents_blind_reservations_are_backs_with_the_level():
    app = started(starts="bot")
    req = app.bot_request()
    app.bot_reply({"turn_id": req["turn_id"], "action": "reserve deck 2"})
    html = view.render(app)
    hidden = app.game.players[1].reserved[0]
    assert "Hidden level 2 card" in html
    assert_not_shown(html, hidden, "the table")  # neither its code nor its words


def test_end_screen_shows_the_engine_scores():
    app = started()
    g = app.game
    g.phase_ = "over"
    html = view.render(app)
    assert 'id="end"' in html and "Final scores" in html
    assert str(g.seed) in html


def test_save_and_load_round_trip_same_position_and_log():
    store = MemoryStorage()
    app = started(store)
    for c in ("white", "blue", "green"):
        app.act("gem", {"color": c})
    app.act("take", {})
    req = app.bot_request()
    app.bot_reply({"turn_id": req["turn_id"], "action": "take red black white", "explanation": "takes gems"})
    again = App(store)
    assert again.load() is True
    assert again.game.to_dict() == app.game.to_dict()
    assert again.log == app.log and again.seats == app.seats
    assert again.can_undo()  # the history is rebuilt by replaying the record
    again.act("undo", {})
    assert len(again.game.history) == 0


def damaged_saves():
    good = started(MemoryStorage())
    record = good.to_save()
    wrong_version = dict(record, version=99)
    bad_action = json.loads(json.dumps(record))
    bad_action["record"]["actions"] = ["take gold gold gold"]
    wrong_shape = {"format": "splendor-save", "version": 1, "record": [1, 2]}
    return {
        "truncated": json.dumps(record)[:50],
        "not json": "hello",
        "wrong shape": json.dumps(wrong_shape),
        "wrong version": json.dumps(wrong_version),
        "illegal action": json.dumps(bad_action),
        "list": "[]",
    }


def test_damaged_saves_are_kept_aside_and_explained():
    for why, raw in damaged_saves().items():
        store = MemoryStorage({SAVE_KEY: raw})
        app = App(store, clock=lambda: 1_800_000_000.0)
        assert app.load() is False, why
        kept = [k for k in store.data if k.startswith("splendor.save.corrupt.")]
        assert len(kept) == 1 and store.data[kept[0]] == raw, why
        assert SAVE_KEY not in store.data
        assert app.screen == "setup"
        text = app.notices[0]["text"]
        assert "could not be read" in text and kept[0] in text, why
        html = view.render(app)
        assert 'role="alert"' in html and 'data-act="start"' in html
        app.act("start", {})  # and a new game starts and saves
        assert SAVE_KEY in store.data and store.data[kept[0]] == raw


def test_full_storage_is_told_once_and_play_goes_on():
    store = MemoryStorage(quota=100)
    app = started(store)
    assert app.game is not None and app.notices and "cannot be saved" in app.notices[0]["text"]
    for c in ("white", "blue", "green"):
        app.act("gem", {"color": c})
    app.act("take", {})
    assert len(app.game.history) == 1 and len(app.notices) == 1


def test_unavailable_storage_does_not_stop_the_page():
    app = App(MemoryStorage(broken=True))
    assert app.load() is False
    assert "cannot be read" in app.notices[0]["text"]
    app.act("start", {})
    assert app.game is not None


def test_quarantine_failure_keeps_the_save_in_place_and_never_overwrites_it():
    raw = "{broken"
    store = MemoryStorage({SAVE_KEY: raw}, quota=len(SAVE_KEY) + len(raw) + 5)
    app = App(store)
    app.load()
    assert store.data[SAVE_KEY] == raw and "left where it was" in app.notices[0]["text"]
    app.act("start", {})
    assert store.data[SAVE_KEY] == raw


def test_card_faces_show_the_price_plainly():
    """A market card shows what the person pays: the lowered numbers alone, no struck printed number, no pip of 0
    for a color the bonuses cover, and "Free" when they cover it all."""
    card = card_from_code("2G2:4w2u1k")
    html = view.card_face(card, {"white": 1, "blue": 2, "green": 0, "red": 0, "black": 0})
    assert "pip-white lowered" in html and 'data-t="1"' in html and "pip-blue\"" in html
    assert "pip-black" not in html and 'data-t="0"' not in html and "<s " not in html and "was" not in html
    free = view.card_face(card, {c: 0 for c in ("white", "blue", "green", "red", "black")})
    assert 'data-t="Free"' in free and "pip-" not in free
    printed = view.card_face(card)  # (the dialog's big card: the printed cost)
    assert all(f'pip-{c}' in printed for c in ("white", "blue", "black"))


def test_a_buy_is_two_taps_by_default_and_the_dialog_counts_the_gold_it_pays():
    app = App(MemoryStorage())
    app.act("start", {"seed": "7", "opponents": "1", "starts": "person"})  # the new-game screen's defaults
    assert app.settings["confirm"] is False
    g = app.game
    card = g.market[0][0]
    p = g._players[0]
    short_color = next(i for i, n in enumerate(card.cost_t) if n)
    for i, n in enumerate(card.cost_t[:5]):  # one token short of the price in one color: gold pays it
        p.tok[i] = n - (i == short_color)
        g._supply[i] -= p.tok[i]
    p.tok[5], g._supply[5] = 1, g._supply[5] - 1
    app.act("card", {"where": "market", "level": "1", "slot": "0"})
    html = view.render(app)
    golds = [int(n) for n in re.findall(r'class="paid" data-gold="(\d+)"', html)]
    assert sum(golds) == app.buy_payment(card)["gold"] == 1  # the rows' gold is the summary's gold
    assert re.search(r"You pay [^<]*and 1 gold\.", html) and "1 gold</td>" in html
    assert ">Printed<" not in html and ">Bonus<" not in html  # one compact table: gem, price, what you pay
    app.act("buy", {})
    assert card in g.players[0].cards and app.selected is None  # two taps: the card, then Buy


def _covered_and_short(app):
    """A market card the person cannot afford, one of whose colors their bonuses pay entirely."""
    g = app.game
    for row in g.market:
        for card in row:
            if card is None or g.can_afford(card, 0):
                continue
            price = g.price(card, 0)
            if any(card.cost[c] and not price[c] for c in price):
                return card
    return None


def test_the_buy_dialog_never_says_you_have_some_of_nothing():
    """A color the bonuses pay entirely: the dialog says so, not "You have 1 of 0"; the bonus note names the printed
    number and the bonus in words that can wrap inside their column."""
    import random

    import splendor

    for seed in range(40):
        g = splendor.new_game(players=2, seed=seed, first_player=0)
        rng = random.Random(seed)
        app = None
        while not g.is_over and len(g.history) < 80:
            if g.current_player == 0 and g.phase == "action" and g.players[0].cards:
                save = {"format": "splendor-save", "version": 1, "record": g.record(),
                        "seats": [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": "easy"}], "log": []}
                candidate = App(MemoryStorage({SAVE_KEY: json.dumps(save)}))
                assert candidate.load()
                if _covered_and_short(candidate):
                    app = candidate
                    break
            actions = g.legal_actions()
            g.apply(rng.choice([a for a in actions if a.kind == "buy"] or actions))
        if app is not None:
            break
    assert app is not None, "no position found"
    card = _covered_and_short(app)
    level, slot = next((lv + 1, i) for lv, row in enumerate(app.game.market) for i, c in enumerate(row) if c == card)
    app.act("card", {"where": "market", "level": str(level), "slot": str(slot)})
    html = view.render(app)
    assert re.search(r"\d+ of 0<", html) is None, "a dialog row says 'N of 0'"
    assert "nothing: your bonuses pay it" in html
    assert re.search(r'class="was">printed \d, bonus −\d</small>', html)
