"""The page's state machine under CPython: clicks become the right actions, illegal choices are refused with a
reason, undo, bots' answers, saving and loading."""

import json
import random

import pytest

import splendor
from splendor.engine import COLORS, Action, card_from_code
from splendor.web import view
from splendor.web.controller import LEVELS, App
from splendor.web.table import words
from splendor.web.records import records_io
from splendor.web.records.storage import SAVE_KEY, MemoryStorage


def started(seed=11, opponents=1, starts="person", variants=(), confirm=True, storage=None):
    app = App(storage if storage is not None else MemoryStorage())
    app.act("start", {"seed": str(seed), "opponents": str(opponents), "starts": starts, "confirm": confirm,
                      **{v: True for v in variants}})
    return app


def first_legal_bot(app):
    """Answer the bot request with its first legal action (a stand-in bot for these tests)."""
    req = app.bot_request()
    assert req is not None
    game = splendor.Game.from_dict  # noqa: F841  (the observation alone must be enough)
    obs = req["observation"]
    assert obs["seat"] == app.game.current_player
    action = app.game.legal_actions()[0]
    return app.bot_reply({"turn_id": req["turn_id"], "action": str(action), "explanation": "takes what it can"})


def test_start_uses_the_settings():
    app = started(seed=4711, opponents=3, starts="person", variants=("noble_veto",))
    g = app.game
    assert (g.players_count, g.seed, g.current_player, g.phase) == (4, 4711, 0, "veto")
    assert [s["bot"] for s in app.seats] == [None, "medium", "medium", "medium"]
    assert app.game.market == splendor.new_game(4, seed=4711, first_player=0, variants=("noble_veto",)).market


def test_bad_seed_is_refused_in_words():
    app = App(MemoryStorage())
    app.act("start", {"seed": "12ab"})
    assert app.game is None and app.screen == "setup"
    assert "whole number" in app.message


def test_three_gems_become_a_take():
    app = started()
    for c in ("red", "white", "blue"):
        app.act("gem", {"color": c})
    assert app.pick_action() == Action.take("white", "blue", "red")
    assert app.pick_problem() is None
    app.act("take", {})
    assert app.game.history[-1] == Action.take("white", "blue", "red")
    assert app.game.players[0].tokens["red"] == 1
    assert app.picked == []
    assert app.log[-1]["text"] == "You took white, blue and red."


def test_illegal_gem_choices_are_refused_with_a_reason():
    app = started()
    app.act("gem", {"color": "gold"})
    assert "Gold cannot be taken" in app.message and app.picked == []
    for c in ("white", "blue", "green"):
        app.act("gem", {"color": c})
    app.act("gem", {"color": "red"})
    assert app.message == "Take at most three gems of different colors."
    assert app.picked == ["white", "blue", "green"]
    app.act("clear", {})
    app.act("gem", {"color": "white"})
    app.act("gem", {"color": "white"})  # 4 in the pile of a 2-player game: two of one color
    assert app.picked == ["white", "white"] and app.pick_action() == Action.take_two("white")
    app.act("gem", {"color": "blue"})
    assert "whole action" in app.message and app.picked == ["white", "white"]
    app.act("clear", {})
    app.act("gem", {"color": "blue"})
    assert app.pick_problem() == "Pick 2 more colors, or blue again."  # 4 in the pile: a pair is open too
    app.act("take", {})  # refused: not a legal take yet
    assert len(app.game.history) == 0 and "Pick 2 more" in app.message


def test_two_of_a_color_needs_four_in_the_pile():
    app = started()
    app.game._supply[0] = 3  # white pile down to 3 (as after earlier takes)
    app.game._players[1].tok[0] = 1
    app.act("gem", {"color": "white"})
    app.act("gem", {"color": "white"})
    # The refused pair keeps the first pick (it is a legal start of a take of three); its chip puts it back.
    assert app.picked == ["white"] and app.message == "Two white need 4 in the pile; it holds 3."
    assert app.pick_problem() == "Pick 2 more colors."  # no pair from a pile of 3
    assert 'data-act="unpick" data-color="white"' in view.render(app)
    app.act("unpick", {"color": "white"})
    assert app.picked == [] and app.message == ""


def test_gems_refused_when_not_your_turn():
    app = started(starts="bot")
    app.act("gem", {"color": "white"})
    assert app.picked == [] and "Bot 1's turn" in app.message


def buy_position():
    """Seat 0 to act, able to afford 1K0:1w1u1g1r only with a gold (holds white, blue, green, gold)."""
    app = started(seed=3)
    g = app.game
    card = None
    for lv, row in enumerate(g.market):
        for slot, c in enumerate(row):
            if c.level == 1 and sum(1 for n in c.cost_t if n) >= 2:
                card, where = c, (lv + 1, slot)
                break
        if card:
            break
    need = list(card.cost_t)
    # Give seat 0 exactly the price minus one token of the first color it needs, plus a gold.
    first = next(i for i, n in enumerate(need) if n)
    p = g._players[0]
    for i, n in enumerate(need):
        take = n - (1 if i == first else 0)
        g._supply[i] -= take
        p.tok[i] += take
    g._supply[5] -= 2
    p.tok[5] += 2
    return app, card, where, first


def test_card_dialog_price_breakdown_and_gold_instead_of_a_color():
    app, card, (level, slot), first = buy_position()
    app.act("card", {"where": "market", "level": str(level), "slot": str(slot)})
    assert app.selected_card() == card
    pay = app.buy_payment(card)
    color = splendor.COLORS[first]
    assert pay["gold"] == 1 and pay[color] == card.cost[color] - 1
    other = next(c for c in splendor.COLORS if c != color and card.cost[c])
    app.act("gold", {"color": other, "step": "1"})  # spend the second gold instead of one token of ``other``
    pay2 = app.buy_payment(card)
    assert pay2["gold"] == 2 and pay2[other] == pay[other] - 1
    app.act("gold", {"color": other, "step": "1"})  # no third gold
    assert "No spare gold" in app.message
    app.act("buy", {})
    assert app.confirming == [Action.buy(card, pay2)]
    assert len(app.game.history) == 0  # not final before Confirm
    app.act("confirm", {})
    assert app.game.history[-1] == Action.buy(card, pay2)
    assert card in app.game.players[0].cards
    assert app.selected is None
    assert "paying" in app.log[-1]["text"] and "2 gold" in app.log[-1]["text"]


def test_price_after_bonuses():
    app = started(seed=5)
    g = app.game
    card = card_from_code("2G2:4w2u1k")
    g._players[0].bon[0] = 3  # three white bonuses
    assert g.price(card, 0)["white"] == 1
    from splendor.web.view import card_label

    label = card_label(app, card)
    assert label.startswith("Level 2 card: green bonus, 2 points, costs 4 white, 2 blue, 1 black")
    assert "with your bonuses it costs 1 white, 2 blue and 1 black" in label


def test_cannot_buy_what_you_cannot_afford():
    app = started(seed=8)
    app.act("card", {"where": "market", "level": "3", "slot": "0"})
    assert app.buy_problem(app.selected_card()).endswith("short.")
    app.act("buy", {})
    assert app.confirming is None and len(app.game.history) == 0


def test_reserve_from_market_and_blind_without_confirm():
    app = started(seed=9, confirm=False)
    card = app.game.market[1][2]
    app.act("card", {"where": "market", "level": "2", "slot": "2"})
    app.act("reserve", {})
    assert app.game.history[-1] == Action.reserve(card)
    assert app.game.players[0].tokens["gold"] == 1
    first_legal_bot(app)
    app.act("card", {"where": "deck", "level": "3"})
    app.act("reserve", {})
    assert app.game.history[-1] == Action.reserve(level=3)
    assert app.game.players[0].reserved_hidden == (False, True)


def test_return_tokens_when_over_ten():
    app = started(seed=2)
    g = app.game
    p = g._players[0]
    for i in range(5):  # 9 tokens in hand: two of each of four colors and one black
        k = 2 if i < 4 else 1
        g._supply[i] -= k
        p.tok[i] += k
    for c in ("white", "blue", "red"):
        app.act("gem", {"color": c})
    app.act("take", {})
    assert g.phase == "return" and app.return_needed() == 2
    app.act("gem", {"color": "green"})  # in the return phase, a token tap stages a return
    app.act("return", {"color": "red"})
    app.act("return", {"color": "blue"})
    assert "Return exactly 2 tokens" in app.message and app.returning == ["green", "red"]
    app.act("unreturn", {"color": "red"})
    app.act("return", {"color": "black"})
    app.act("give-back", {})
    assert p.token_count == 10 and g.current_player == 1
    assert [str(a) for a in g.history[-2:]] == ["return green", "return black"]


def test_noble_choice_when_two_qualify():
    app = started(seed=21)
    g = app.game
    n1, n2 = g.nobles[0], g.nobles[1]
    p = g._players[0]
    for i in range(5):
        p.bon[i] = max(n1.req_t[i], n2.req_t[i])
    for c in ("white", "blue", "green"):
        app.act("gem", {"color": c})
    app.act("take", {})
    assert g.phase == "noble"
    # a hint marks the noble it names, as it marks a card (it named one and marked none: issue 72)
    app.act("hint", {})
    req = app.hint_request()
    assert app.hint_reply({"turn_id": req["turn_id"], "action": f"noble {n1.code}", "explanation": ""}) == "applied"
    html = view.render(app)
    # on a phone the hint is one line (four pushed Welcome under your panel at 360x640: issue 72)
    assert app.hint["short"] == "Hint: welcome the marked noble."
    assert "lab-short" in html.split('id="hint-text"')[1][:400]
    assert f'class="noble choosable hinted" id="n-{n1.code}"' in html
    assert f'class="noble choosable" id="n-{n2.code}"' in html
    app.act("noble", {"code": n2.code})
    assert app.staged == Action.choose_noble(n2)
    app.act("confirm", {})
    assert n2 in g.players[0].nobles


def test_undo_restores_the_exact_earlier_state_and_notes_a_blind_reserve():
    app = started(seed=13)
    before = app.game.to_dict()
    app.act("card", {"where": "deck", "level": "2"})
    app.act("reserve", {})
    app.act("confirm", {})
    assert first_legal_bot(app) == "applied"
    assert app.can_undo()
    app.act("undo", {})
    assert app.game.to_dict() == before
    assert any("blind reserve" in e["text"] and "undo was used" in e["text"] for e in app.log)
    assert not any(e["kind"] == "move" for e in app.log)
    saved = json.loads(app.slot.read())
    assert saved["record"]["actions"] == []


def test_undo_not_offered_before_your_first_turn():
    app = started(starts="bot")
    assert not app.can_undo()
    app.act("undo", {})
    assert "no turn of yours" in app.message


def test_stale_bot_answer_is_dropped():
    app = started(starts="bot")
    req = app.bot_request()
    assert app.bot_reply({"turn_id": "nope", "action": "pass"}) == "stale"
    assert app.bot_reply({"turn_id": req["turn_id"], "action": "take white white white"}).startswith("error")
    assert len(app.game.history) == 0
    action = app.game.legal_actions()[0]
    assert app.bot_reply({"turn_id": req["turn_id"], "action": str(action)}) == "applied"
    assert app.bot_reply({"turn_id": req["turn_id"], "action": str(action)}) == "stale"  # answered already


def test_bot_move_is_logged_with_its_sentence_and_highlighted():
    app = started(starts="bot")
    req = app.bot_request()
    assert req["level"] == "medium" and req["observation"]["seat"] == 1
    app.bot_reply({"turn_id": req["turn_id"], "action": "take white blue green",
                   "explanation": "takes white, blue and green toward a card"})
    entry = app.log[-1]
    assert entry["seat"] == 1 and entry["text"] == "Bot 1 took white, blue and green."
    assert entry["why"] == "takes white, blue and green toward a card"
    assert app.flash["seat"] == 1 and app.flash["colors"] == ["white", "blue", "green"]


def test_a_whole_game_with_the_real_bots_ends_with_the_engine_scores():
    from splendor.web.botcall import answer

    app = started(seed=99)
    rng = random.Random(5)
    for _ in range(1000):
        if app.game.is_over:
            break
        if app.bot_to_move() is not None:
            assert app.bot_reply(answer(json.dumps(app.bot_request()))) == "applied"
            continue
        g = app.game
        a = rng.choice(g.legal_actions())
        app._commit([a])
    assert app.game.is_over
    replayed = splendor.replay(json.loads(app.slot.read())["record"])
    assert replayed.scores == app.game.scores and replayed.winners == app.game.winners
    assert "The game is over" in app.log[-1]["text"]


def test_play_again_and_new_game_screen():
    app = started()
    app.act("new-game", {})
    assert app.screen == "setup" and app.game is not None
    app.act("back", {})
    assert app.screen == "game"
    app.act("again", {})
    assert app.screen == "game" and app.game.seed == 11  # the settings' seed deals the same cards


def test_hint_request_and_reply():
    app = started()
    app.act("hint", {})
    req = app.hint_request()
    assert req["mode"] == "hint" and req["observation"]["seat"] == 0
    app.hint_reply({"turn_id": req["turn_id"], "action": "take white blue green",
                    "explanation": "takes white, blue and green toward the level 2 red card"})
    # One sentence: the bot's reason said as advice, not "Hint: Take ... takes ... toward ...".
    assert app.hint["text"] == "Hint: take white, blue and green toward the level 2 red card."
    assert app.hint["colors"] == ["white", "blue", "green"]
    assert "Hint: take white" in view.render(app) and "takes" not in view.render(app).split("hint-text")[1][:200]
    app.act("hint", {})
    req = app.hint_request()
    app.hint_reply({"turn_id": req["turn_id"], "action": "take white blue green", "explanation": ""})
    assert app.hint["text"] == "Hint: Take white, blue and green."  # no reason given: the move alone
    assert app.awaiting is None  # a hint is not a bot's turn


def test_a_hint_to_reserve_a_marked_card_names_it_without_its_cost_on_phones():
    """The move box of a phone holds four lines: the card the table marks is named there without its printed cost
    (the whole sentence stays for screen readers and wider screens)."""
    app = started(seed=7)
    card = app.game.market[1][0]
    cost = words.join_words(f"{n} {c}" for c, n in zip(COLORS, card.cost_t) if n)
    said = f"reserves the level {card.level} {card.bonus} card costing {cost} and takes 1 gold: it secures the card"
    app.act("hint", {})
    req = app.hint_request()
    reply = {"turn_id": req["turn_id"], "action": f"reserve {card.code}", "explanation": said}
    assert app.hint_reply(reply) == "applied"
    named = f"the level {card.level} {card.bonus} card"
    whole = f"Hint: reserve {named} costing {cost} and take 1 gold: it secures the card."
    short = f"Hint: reserve {named} and take 1 gold: it secures the card."
    assert (app.hint["text"], app.hint["short"]) == (whole, short)
    html = view.render(app)
    assert (f'<span class="lab-long">{whole}</span><span class="lab-short" aria-hidden="true">{short}</span>'
            in html), html.split("hint-text")[1][:400]
    # a take names no marked card: one sentence, as it was
    app.act("hint", {})
    req = app.hint_request()
    app.hint_reply({"turn_id": req["turn_id"], "action": "take white blue green",
                    "explanation": f"takes white, blue and green toward {named} costing {cost}"})
    assert app.hint["short"] == app.hint["text"] and "lab-short" not in view.render(app).split("hint-text")[1][:300]


def test_a_hint_names_the_moves_the_expert_weighed_with_their_chances():
    app = started()
    app.act("hint", {})
    req = app.hint_request()
    assert req["level"] == "expert"
    reply = {"turn_id": req["turn_id"], "action": "take white blue green", "explanation": "",
             "weighed": [{"action": "take white blue green", "chance": 0.534},
                         {"action": "take2 red", "chance": 0.451}, {"action": "take white blue red", "chance": 0.49}]}
    assert app.hint_reply(reply) == "applied"
    assert app.hint["weighed"] == {"chance": 0.534, "others": [("take white, blue and red", 0.49),
                                                                ("take two red", 0.451)]}
    assert ('<span class="hint-weighed" id="hint-weighed">Chance to win: 53%<span class=hint-others>; also weighed: '
            'take white, blue and red 49%, take two red 45%</span>.</span>') in view.render(app)
    # a list that does not start with the hinted move, or holds a move that is not legal, is left out
    for bad in ([{"action": "take2 red", "chance": 0.5}], [{"action": "take white blue green", "chance": 0.5},
                                                          {"action": "buy 9.9", "chance": 0.4}],
                [{"action": "take white blue green", "chance": 7}], "junk"):
        app.act("hint", {})
        req = app.hint_request()
        assert app.hint_reply({**reply, "turn_id": req["turn_id"], "weighed": bad}) == "applied"
        assert app.hint["weighed"] is None and "hint-weighed" not in view.render(app)


def test_two_weighed_moves_that_would_read_the_same_are_told_apart_by_price():
    """'reserve a level 2 blue card (2 points)' twice, for two different cards (issue 72): the list says each one's
    price; a move alone of its kind keeps its short words."""
    for seed in range(1, 300):  # a deal with two market cards of one level, color and points
        app = started(seed=seed)
        cards = [c for row in app.game.market for c in row if c is not None]
        twins = [(a, b) for i, a in enumerate(cards) for b in cards[i + 1:]
                 if (a.level, a.bonus, a.points) == (b.level, b.bonus, b.points)]
        if twins:
            break
    a, b = twins[0]
    app.act("hint", {})
    req = app.hint_request()
    reply = {"turn_id": req["turn_id"], "action": "take white blue green", "explanation": "",
             "weighed": [{"action": "take white blue green", "chance": 0.5},
                         {"action": f"reserve {a.code}", "chance": 0.45},
                         {"action": f"reserve {b.code}", "chance": 0.4}]}
    assert app.hint_reply(reply) == "applied"
    others = [text for text, _ in app.hint["weighed"]["others"]]
    assert len(set(others)) == 2 and all(" costing " in text for text in others), others
    assert app.hint["weighed"]["chance"] == 0.5


@pytest.mark.parametrize("players", [3, 4])
def test_more_players_rotate_through_the_bots(players):
    app = started(opponents=players - 1)
    for c in ("white", "blue", "green"):
        app.act("gem", {"color": c})
    app.act("take", {})
    seats = []
    while app.bot_to_move() is not None:
        seats.append(app.bot_to_move())
        assert first_legal_bot(app) == "applied"
    assert seats == list(range(1, players)) and app.my_turn


def test_noble_veto_by_taps_then_bots():
    app = started(seed=17, opponents=2, variants=("noble_veto",))
    g = app.game
    assert g.phase == "veto" and len(g.nobles) == 7
    target = g.nobles[3]
    app.act("gem", {"color": "white"})
    assert "remove a noble" in app.message
    app.act("noble", {"code": target.code})
    assert app.staged == Action.veto(target) and len(g.nobles) == 7
    app.act("confirm", {})
    assert target not in g.nobles and g.current_player == 1
    while app.bot_to_move() is not None:
        first_legal_bot(app)
    assert g.phase == "action" and len(g.nobles) == 4 and app.my_turn
    assert "removed the noble" in app.log[-3]["text"]


def test_rotating_series_plays_every_game_and_the_end_screen_sums_them():
    from splendor.web import view
    from splendor.web.botcall import answer

    app = started(seed=23, variants=("rotating_series",))
    for _ in range(2000):
        if app.game.is_over:
            break
        if app.bot_to_move() is not None:
            assert app.bot_reply(answer(json.dumps(app.bot_request()))) == "applied"
        else:
            app._commit([app.game.legal_actions()[0]])
    g = app.game
    assert g.is_over and g.game_index == 1
    assert any(e["text"].startswith("Game 1 of 2 is over") for e in app.log)
    html = view.render(app)
    assert ">Game 1</th>" in html and ">Game 2</th>" in html and ">Total</th>" in html
    assert ">Game 3</th>" not in html
    for seat in range(2):
        assert f"<b>{g.series_scores[seat]}</b>" in html
    assert g.series_scores == tuple(sum(r[s] for r in g.series_results) for s in range(2))


def test_a_dialog_closes_when_a_bot_takes_its_card():
    app = started(starts="bot")
    card = app.game.market[0][1]
    app.act("card", {"where": "market", "level": "1", "slot": "1"})
    assert app.selected_card() == card
    req = app.bot_request()
    app.bot_reply({"turn_id": req["turn_id"], "action": f"reserve {card.code}"})
    assert app.selected is None and "left the market" in app.message


def test_the_fallback_note_is_shown_with_a_way_to_put_it_away():
    from splendor.web import view

    app = started()
    app.fallback_note = "Bots now think on this page's own thread, at a lighter level: a test."
    html = view.render(app)
    assert 'role="note"' in html and "lighter level" in html and 'data-act="dismiss-fallback"' in html
    app.act("dismiss-fallback", {})
    assert app.fallback_note == ""
    assert "lighter level" not in view.render(app)


@pytest.mark.parametrize("level", LEVELS)
def test_every_ladder_level_is_offered_asked_saved_and_stood_in_for(level):
    """The new-game screen offers every level of the ladder for each bot (with its rating when the ladder has one); a
    game against it asks the worker for that level, keeps it through a save, a game file, a deal link and the
    record, and without the worker the page's light bot stands in with a hand-written level that does not search:
    easy below medium, medium from medium up."""
    from splendor.ai import ladder
    from splendor.web import botcall
    from splendor.web.records import deal_link, player_record
    from splendor.web.table import seats

    assert LEVELS == ladder.NAMES
    storage = MemoryStorage()
    app = App(storage)
    app.act("setting", {"name": "opponents", "value": "3"})
    html = view.render(app)
    rating = seats.level_rating(level)
    label = ladder.find(level).label + ("" if rating is None else f" · {rating}")
    for i in range(3):
        select = html[html.index(f'<select class="level-pick" id="set-level{i}" data-setting="level{i}"'):]
        select = select[:select.index("</select>")]
        assert f'<option value="{level}">{label}</option>' in select or level == "medium"
    app.act("setting", {"name": "level1", "value": level})
    html = view.render(app)
    assert f'<option value="{level}" selected>{label}</option>' in html
    notes = html[html.index('<ul class="level-plays">'):]
    notes = notes[:notes.index("</ul>")].replace("&#x27;", "'")
    assert f'<li id="plays-{level}"><b>{ladder.find(level).label}</b>: {seats.plays_words(level)}</li>' in notes
    assert notes.count("<li") == (1 if level == "medium" else 2)  # each level chosen, once (medium: the default)
    assert f'id="set-level1" data-setting="level1" aria-labelledby="seat1-legend" aria-describedby="plays-{level}"' \
        in html
    app.act("start", {"seed": "9", "opponents": "2", "level0": level, "starts": "bot", "confirm": True})
    assert [s["bot"] for s in app.seats] == [None, level, level]
    req = app.bot_request()
    assert req["level"] == level and app.seats[req["observation"]["seat"]]["bot"] == level
    again = App(storage)  # the saved game, reloaded
    assert again.load() is True and again.seats == app.seats
    other = App(MemoryStorage())  # the game file, opened elsewhere
    records_io.import_game(other, records_io.export_game(app)[1])
    assert other.seats == app.seats
    light = "easy" if ladder.NAMES.index(level) < ladder.NAMES.index("medium") else "medium"
    assert botcall.LIGHT[level] == light and botcall.same_here(level) == (level in ("easy", "medium"))
    answer = json.loads(botcall.answer(json.dumps(req), light=True))
    assert answer["stats"]["level"] == light and answer["action"]
    assert deal_link.parse([("bots", level)]).settings["levels"][0] == level
    assert player_record.bucket_of(app.seats[:2]) == f"2:{level}"


def test_saves_files_links_and_records_of_the_four_old_levels_still_read():
    """The levels of earlier versions (easy, medium, hard, expert) are names of the ladder: a save, a game file, a
    deal link and a record that name them read as before."""
    from splendor.web.records import deal_link, player_record

    old = ["easy", "hard", "expert"]
    game = splendor.new_game(players=4, seed=3)
    seats_ = [{"name": "You", "bot": None}] + [{"name": f"Bot {i + 1}", "bot": lv} for i, lv in enumerate(old)]
    storage = MemoryStorage()
    storage.set(SAVE_KEY, json.dumps(
        {"format": "splendor-save", "version": 1, "record": game.record(), "seats": seats_,
         "settings": {"opponents": 3, "levels": old}, "log": []}))
    app = App(storage)
    assert app.load() is True and [s["bot"] for s in app.seats] == [None] + old
    assert app.settings["levels"] == old
    file_text = json.dumps({"format": "splendor-game", "version": 1, "players": seats_, "record": game.record()})
    assert [s["bot"] for s in records_io.read_game_file(file_text)[1]] == [None] + old
    assert deal_link.parse([("bots", "easy,hard,expert")]).settings["levels"] == old
    rec = {"format": "splendor-player-record", "version": 1, "counted": ["g1"],
           "games": {f"2:{lv}": {"played": 2, "won": 1, "best": 15, "fastest": 20} for lv in old + ["medium"]}}
    record = player_record.PlayerRecord(MemoryStorage())
    record.storage.set(player_record.RECORD_KEY, json.dumps(rec))
    assert record.load() is None and [lv for lv, _ in record.table()] == ["easy", "medium", "hard", "expert"]


def test_a_hint_while_giving_tokens_back_is_for_the_tokens_still_to_choose():
    """The hint's position has the returns already staged made: asked after staging both greens, it is asked about
    a hand without green; staging another token drops a hint given before; with every token chosen there is nothing
    to ask."""
    app = started(seed=2)
    g = app.game
    p = g._players[0]
    for i, k in enumerate((2, 2, 2, 2, 1)):  # 9 tokens in hand: two each of white, blue, green, red, one black
        g._supply[i] -= k
        p.tok[i] += k
    for c in ("white", "blue", "green"):
        app.act("gem", {"color": c})
    app.act("take", {})
    assert g.phase == "return" and app.return_needed() == 2 and p.tokens["green"] == 3
    app.act("return", {"color": "green"})
    app.act("hint", {})
    request = app.hint_request()
    asked = request["observation"]["tableaus"][0]["tokens"]
    assert asked["green"] == 2 and sum(asked.values()) == 11 and p.tokens["green"] == 3  # (the game untouched)
    reply = {"turn_id": request["turn_id"], "action": "return green", "explanation": "returns a green token"}
    assert app.hint_reply(dict(reply)) == "applied" and app.hint["action"] == "return green"
    app.act("return", {"color": "green"})  # the staged returns changed: the hint given for them goes
    assert app.hint is None
    app.act("hint", {})  # both tokens chosen: nothing to ask
    assert app.message.startswith("Your tokens to give back are chosen")
    app.act("unreturn", {"color": "green"})
    app.act("hint", {})
    request = app.hint_request()
    app.act("return", {"color": "red"})  # staged while the hint was thought over: its answer is stale
    assert app.hint_reply(dict(reply, turn_id=request["turn_id"])) == "stale" and app.hint is None
