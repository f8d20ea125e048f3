"""Pass and play (issue 20): seat settings, the hand-over states, undo rules, saves, links, files and the record."""

import json
import random
import re

import pytest

import splendor
from splendor.engine import Action
from splendor.web.records import deal_link, records_io
from splendor.web import view
from splendor.web.botcall import answer
from splendor.web.controller import App
from splendor.web.table.seats import SeatProblem, check_seats, seats_from_settings
from splendor.web.records.storage import SAVE_KEY, MemoryStorage
from hidden_words import assert_not_shown, assert_shown


def settings(name="Ana", kinds=("person", "medium"), names=("Ben", "", "")):
    return {"name": name, "opponents": len(kinds), "levels": list(kinds) + ["medium"] * (3 - len(kinds)),
            "names": list(names)}


def three(storage=None, seed=5, starts="person", variants=(), **extra):
    """Ana (seat 0), Ben (seat 1), Bot 1 (seat 2, easy)."""
    app = App(storage or MemoryStorage())
    data = {"name": "Ana", "opponents": "2", "level0": "person", "pname0": "Ben", "level1": "easy",
            "starts": starts, "seed": str(seed)}
    for v in variants:
        data[v] = True
    data.update(extra)
    app.act("start", data)
    assert app.screen == "game", app.message
    return app


def legal_take(app):
    g = app.game
    for a in g.legal_actions():
        if a.kind == "take" and len(a.colors) == 3:
            return a
    return g.legal_actions()[0]


def play_person(app):
    """The person to play makes a legal move through the controller (returns/nobles included)."""
    g = app.game
    seat = g.current_player
    assert app.person == seat and app.my_turn
    a = legal_take(app) if g.phase == "action" else g.legal_actions()[0]
    app._commit([a])
    return a


def play_bot(app):
    req = app.bot_request()
    assert req is not None
    assert app.bot_reply(answer(json.dumps(req))) == "applied"


# -- seat settings -------------------------------------------------------------------------------------------------
def test_solo_default_is_unchanged():
    assert seats_from_settings(settings(name="You", kinds=("medium",))) == [
        {"name": "You", "bot": None}, {"name": "Bot 1", "bot": "medium"}]
    app = App(MemoryStorage())
    app.act("start", {})
    assert app.solo and app.seats[1]["bot"] == "medium" and app.handover is None


def test_any_mix_of_people_and_bots():
    seats = seats_from_settings(settings(kinds=("hard", "person", "easy"), names=("", "Cy", "")))
    assert seats == [{"name": "Ana", "bot": None}, {"name": "Bot 1", "bot": "hard"},
                     {"name": "Cy", "bot": None}, {"name": "Bot 2", "bot": "easy"}]
    assert len(seats_from_settings(settings(kinds=("person",) * 3, names=("B", "C", "D")))) == 4


@pytest.mark.parametrize("s, words", [
    (settings(names=("", "", "")), "Player 2 is a person without a name"),
    (settings(names=("  ", "", "")), "Player 2 is a person without a name"),
    (settings(names=(" ana ", "", "")), "Two players are called “ana”"),
    (settings(name="You"), "Several people play: type the first player's name in “Player 1's name”"),
    (settings(name=""), "Several people play: type the first player's name"),
    ({**settings(), "opponents": 4}, "Choose 1 to 3 opponents"),
])
def test_bad_seat_settings_are_refused_in_words(s, words):
    with pytest.raises(SeatProblem, match=re.escape(words)):
        seats_from_settings(s)


@pytest.mark.parametrize("seats, words", [
    ([{"name": "Bot 1", "bot": "easy"}, {"name": "Bot 2", "bot": "hard"}], "Nobody plays: at least one seat"),
    ([{"name": "A", "bot": None}] * 5, "5 players is too many"),
    ([{"name": "A", "bot": None}], "A game needs 2 to 4 players"),
    ([{"name": "A", "bot": None}, {"name": "a", "bot": None}], "Two players are called “a”"),
    ([{"name": "A", "bot": None}, {"name": "", "bot": None}], "Player 2 is a person without a name"),
    ([{"name": "A", "bot": None}, {"name": "B", "bot": "genius"}], "unknown level"),
])
def test_bad_seat_lists_are_refused_in_words(seats, words):
    with pytest.raises(SeatProblem, match=re.escape(words)):
        check_seats(seats)


def test_start_refuses_in_words_and_keeps_the_setup():
    app = App(MemoryStorage())
    app.act("start", {"name": "Ana", "level0": "person", "pname0": "ana"})
    assert app.screen == "setup" and app.game is None
    assert app.message.startswith("Two players are called")
    app.act("start", {"starts": "bot", "pname0": "Ben"})
    assert app.message.startswith("No bot plays in this game")
    app.act("start", {"starts": "person"})
    assert app.screen == "game" and [s["name"] for s in app.seats] == ["Ana", "Ben"]


def test_setup_screen_offers_person_beside_the_levels():
    app = App(MemoryStorage())
    html = view.render(app)
    assert 'value="person"' in html and "set-pname0" not in html and ">1 bot<" in html
    assert "Your name" in html and "No hand-over screen" not in html
    app.act("setting", {"name": "level0", "value": "person"})
    html = view.render(app)
    assert 'id="set-pname0"' in html and "Player 1's name" in html and ">1 opponent<" in html
    assert '<legend id="seat0-legend">Player 2</legend>' in html and "No hand-over screen" in html
    assert '<option value="person" selected>' in html and 'class="level-plays"' not in html  # (bots' words)


# -- the hand-over states -------------------------------------------------------------------------------------------
def test_hand_over_between_people_and_not_for_bots():
    app = three(starts="person")
    assert not app.solo
    assert app.handover == 0  # the device goes to Ana first
    html = view.render(app)
    assert "Pass to Ana" in html and 'id="pass-ok"' in html and "Market" not in html
    app.act("pass-ok")
    assert app.handover is None and app.person == 0 and app.my_turn
    assert "Your turn, Ana" in view.render(app)
    play_person(app)
    assert app.handover == 1 and not app.my_turn and app.person == 0
    assert app.bot_to_move() is None
    app.act("pass-ok")
    assert app.person == 1 and app.my_turn
    play_person(app)
    # A bot is next, then Ana: the device goes to Ana now, and the bot plays once she has it.
    assert app.handover == 0 and app.bot_to_move() is None
    app.act("pass-ok")
    assert app.person == 0 and app.bot_to_move() == 2 and not app.my_turn
    play_bot(app)
    assert app.handover is None and app.my_turn and app.person == 0


def test_the_bots_moves_between_two_people_are_played_for_the_one_who_takes_the_device():
    """The bot's move is not played while Ben still holds the device (the moment before the hand-over), but after
    Ana has taken it: she sees it played on her table, as any move is shown (status, pieces, last move)."""
    app = three(starts="person")
    app.paced = True  # as on the page (main.py): each move is seen before what follows it
    app.act("pass-ok")
    play_person(app)  # Ana
    app.act("pass-ok")
    play_person(app)  # Ben; the bot is next, then Ana
    assert app.handover == 0 and app.bot_to_move() is None  # nothing is played behind the hand-over screen
    html = view.render(app)
    assert "Pass to Ana" in html and "Market" not in html
    app.act("pass-ok")
    moves = len(app.game.history)
    play_bot(app)
    assert len(app.game.history) == moves + 1 and app.person == 0
    html = view.render(app)  # Ana, who now holds the device, sees the bot's move on the table
    assert "Pass to" not in html and "Market" in html
    assert view.status_text(app).startswith("Bot 1 took")
    assert app.last_moves()[2].startswith("Took")


def test_log_uses_names_not_you_when_several_people_play():
    app = three()
    app.act("pass-ok")
    play_person(app)
    texts = [e["text"] for e in app.log]
    assert texts[1] == "Ana starts." and texts[2].startswith("Ana took ")
    assert not any(t.startswith("You ") for t in texts)


def hidden_reserve(app):
    """The person to play reserves the top level-1 card blind; returns its code."""
    app._commit([Action.reserve(level=1)])
    seat = app.game.players[app.pass_play.viewer]
    return seat.reserved[-1].code


def test_hidden_reserve_is_seen_only_by_its_owner_on_their_own_turn():
    app = three()
    app.act("pass-ok")
    code = hidden_reserve(app)
    html = view.render(app)  # the hand-over screen: nothing of the table
    assert app.handover == 1 and "Market" not in html
    assert_not_shown(html, code, "the hand-over screen")  # neither its code nor its words
    app.act("pass-ok")
    html = view.render(app)  # Ben's table: Ana's card is a back
    assert "Hidden level 1 card" in html
    assert_not_shown(html, code, "Ben's table")
    app.act("inspect", {"seat": 0})
    assert_not_shown(view.render(app), code, "Ana's see-all dialog on Ben's turn")
    app.act("close")
    play_person(app)  # Ben; the bot plays once Ana has the device
    assert app.handover == 0
    assert_not_shown(view.render(app), code, "the hand-over screen")
    app.act("pass-ok")
    assert code in view.render(app)  # Ana's table: her card face up (the bot plays on it)
    play_bot(app)
    assert_shown(view.render(app), code, "Ana's table")


def test_open_reservations_may_skip_the_hand_over():
    app = three(variants=("open_reservations",), skip_pass=True)
    assert app.handover is None and app.my_turn and app.person == 0
    play_person(app)
    assert app.handover is None and app.person == 1 and app.my_turn
    # Without the open-reservations variant the option does nothing: hidden cards need the screen.
    app = three(skip_pass=True)
    assert app.handover == 0


# -- undo -----------------------------------------------------------------------------------------------------------
def test_undo_only_the_current_persons_turn_and_never_after_a_hand_over():
    app = three()
    app.act("pass-ok")
    play_person(app)  # Ana
    assert app.handover == 1
    assert app.can_undo()  # Ana still holds the device: the hand-over screen offers her undo
    assert "Ana: undo your last turn" in view.render(app)
    app.act("undo")
    assert len(app.game.history) == 0 and app.handover is None and app.my_turn and app.person == 0
    assert app.log[-1]["text"] == "Ana took back their last turn."
    play_person(app)
    app.act("pass-ok")  # Ben saw the table: Ana's turn stays played
    assert app.person == 1 and not app.can_undo()
    assert app.undo_off_words() == "Ben has no turn to undo yet."
    play_person(app)  # Ben; the bot is next, then Ana: the device goes to Ana (the bot plays on her table)
    assert app.handover == 0 and app.can_undo()  # Ben still holds the device: his turn may go
    assert "Ben: undo your last turn" in view.render(app) and "Ana: undo" not in view.render(app)
    app.act("pass-ok")
    play_bot(app)
    assert not app.can_undo()
    assert app.undo_off_words().startswith("Undo is off: the table has been passed on since Ana's last turn")
    html = view.render(app)
    assert 'title="Undo is off: the table has been passed on' in html
    app.act("undo")
    assert app.message.startswith("Undo is off")
    n = len(app.game.history)
    play_person(app)  # Ana again, a bot after Ben
    play_person_after = len(app.game.history)
    assert play_person_after == n + 1 and app.can_undo()


def test_undo_before_the_hand_over_takes_back_the_persons_turn():
    storage = MemoryStorage()
    app = App(storage)
    app.act("start", {"name": "Ana", "opponents": "2", "level0": "easy", "level1": "person", "pname1": "Cy",
                      "starts": "person", "seed": "9"})
    app.act("pass-ok")
    play_person(app)  # Ana, then Bot 1 (seat 1), then Cy: the device goes to Cy before the bot plays
    assert app.handover == 2 and app.bot_to_move() is None and app.can_undo()
    app.act("undo")
    assert len(app.game.history) == 0 and app.person == 0 and app.my_turn
    play_person(app)
    app.act("pass-ok")  # Cy takes the device; the bot plays on Cy's table; Ana's turn stays played
    assert app.person == 2 and app.bot_to_move() == 1
    play_bot(app)
    assert app.my_turn and app.person == 2 and not app.can_undo()


# -- hints ----------------------------------------------------------------------------------------------------------
def test_hint_helps_the_person_whose_turn_it_is():
    app = three()
    app.act("pass-ok")
    play_person(app)
    app.act("hint")
    assert app.message.startswith("Pass the device to Ben")
    app.act("pass-ok")
    app.act("hint")
    req = app.hint_request()
    assert req["observation"] == app.game.observation(1)


# -- saves ----------------------------------------------------------------------------------------------------------
def test_reload_in_the_middle_of_a_hand_over_shows_the_hand_over():
    storage = MemoryStorage()
    app = three(storage)
    app.act("pass-ok")
    code = hidden_reserve(app)
    assert app.handover == 1
    again = App(storage)
    assert again.load()
    assert again.handover == 1 and again.pass_play.viewer == 0
    html = view.render(again)
    assert "Pass to Ben" in html
    assert_not_shown(html, code, "the hand-over screen after a reload")
    assert again.can_undo()  # Ana had not passed the device yet
    again.act("pass-ok")
    third = App(storage)
    assert third.load() and third.handover is None and third.person == 1 and not third.can_undo()
    assert_not_shown(view.render(third), code, "Ben's table after a reload")


def test_an_older_save_still_loads():
    storage = MemoryStorage()
    g = splendor.new_game(players=3, seed=4, first_player=0)
    g.apply(g.legal_actions()[0])
    old = {"format": "splendor-save", "version": 1, "record": g.record(),
           "seats": [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": "easy"}, {"name": "Bot 2", "bot": "hard"}],
           "settings": {"name": "You", "opponents": 2, "levels": ["easy", "hard", "medium"], "starts": "person",
                        "variants": [], "seed": "4", "confirm": True, "guided": False},
           "log": [{"n": 0, "seat": None, "text": "New game: 3 players.", "why": "", "kind": "note"}]}
    storage.set(SAVE_KEY, json.dumps(old))
    app = App(storage)
    assert app.load()
    assert app.solo and app.person == 0 and app.handover is None and app.bot_to_move() == 1
    assert app.settings["names"] == ["", "", ""] and app.settings["levels"][:2] == ["easy", "hard"]


@pytest.mark.parametrize("change, words", [
    (lambda d: [s.__setitem__("bot", "easy") for s in d["seats"]], "at least one seat must be a person"),
    (lambda d: d["pass"].__setitem__("pending", 2), "not a person of the game"),
    (lambda d: d["pass"].__setitem__("since", 99), "does not fit the game"),
    (lambda d: d["seats"][1].__setitem__("name", "ANA"), "two players are called"),
])
def test_a_damaged_pass_and_play_save_is_refused_in_words(change, words):
    storage = MemoryStorage()
    three(storage)
    data = json.loads(storage.get(SAVE_KEY))
    change(data)
    storage.set(SAVE_KEY, json.dumps(data))
    app = App(storage)
    assert not app.load()
    assert words in app.notices[-1]["text"]


def test_game_file_with_several_people_opens_at_a_hand_over():
    app = three()
    app.act("pass-ok")
    play_person(app)
    app.act("pass-ok")
    play_person(app)
    name, text = records_io.export_game(app)
    other = App(MemoryStorage())
    records_io.import_game(other, text)
    assert [s["name"] for s in other.seats] == ["Ana", "Ben", "Bot 1"]
    assert other.bot_to_move() is None and other.handover == 0  # the bot plays once Ana has the device
    data = json.loads(text)
    data["players"][0]["bot"] = "easy"
    data["players"][1]["bot"] = "easy"
    with pytest.raises(records_io.RecordProblem, match="at least one seat must be a person"):
        records_io.read_game_file(json.dumps(data))


def test_deal_links_with_people():
    app = three(seed=77)
    url = app.deal_url("https://x.example/")
    assert "people=Ana,Ben" in url and "bots=easy" in url and "players=3" in url
    pairs = [tuple(p.split("=")) for p in url.split("?")[1].split("&")]
    fresh = App(MemoryStorage())
    fresh.open_link(pairs)
    assert fresh.link_note.startswith("The link set up this deal: seed 77, 3 players (people: Ana and Ben; bots: easy)")
    fresh.act("start", {})
    assert [(s["name"], s["bot"]) for s in fresh.seats] == [("Ana", None), ("Ben", None), ("Bot 1", "easy")]
    assert fresh.game.seed == 77
    bad = deal_link.parse([("people", "Ana,,Ben")])
    assert bad.ignored == ["people=Ana,,Ben (1 to 4 names, separated by commas, none empty)"]
    bad = deal_link.parse([("players", "2"), ("people", "A,B"), ("bots", "hard")])
    assert "do not fill 2 seats" in bad.ignored[-1]


# -- the end, the record -------------------------------------------------------------------------------------------
def test_whole_game_end_screen_and_a_record_for_each_person():
    storage = MemoryStorage()
    app = three(storage, seed=3)
    rng = random.Random(1)
    while not app.game.is_over:
        if app.handover is not None:
            app.act("pass-ok")
        elif app.bot_to_move() is not None:
            play_bot(app)
        else:
            g = app.game
            acts = g.legal_actions()
            buys = [a for a in acts if a.kind == "buy"]
            app._commit([rng.choice(buys or acts)])
    assert app.handover is None
    replayed = splendor.replay(json.loads(storage.get(SAVE_KEY))["record"])
    html = view.render(app)
    for i, seat in enumerate(app.seats):
        assert re.search(rf'<th scope="row">{seat["name"]}</th><td class="total"><b>{replayed.scores[i]}</b>', html)
    assert "You win" not in html and "you win" not in app.log[-1]["text"]
    totals = app.player_record.totals()
    assert totals["played"] == 2 and totals["won"] == sum(1 for i in replayed.winners if i in (0, 1))
    app.save()  # counted once per person, however often it is saved
    assert app.player_record.totals()["played"] == 2


def test_a_save_of_several_people_without_its_hand_over_state_hides_the_table():
    storage = MemoryStorage()
    app = three(storage)
    app.act("pass-ok")
    code = hidden_reserve(app)
    data = json.loads(storage.get(SAVE_KEY))
    del data["pass"]  # e.g. written by hand, or by a page of this version's branch before the state was saved
    storage.set(SAVE_KEY, json.dumps(data))
    again = App(storage)
    assert again.load()
    assert again.handover == 1
    assert_not_shown(view.render(again), code, "the hand-over screen of a save without its state")


def test_the_hand_over_lists_only_the_moves_since_the_next_persons_turn():
    """The bot plays after the hand-over: its move of the round before is not listed as one made since."""
    app = three(starts="person")
    app.act("pass-ok")
    play_person(app)  # Ana
    app.act("pass-ok")
    play_person(app)  # Ben
    app.act("pass-ok")
    play_bot(app)  # Bot 1, on Ana's table
    play_person(app)  # Ana
    app.act("pass-ok")
    play_person(app)  # Ben; the bot plays once Ana has the device
    assert app.handover == 0 and app.game.current_player == 2
    html = view.render(app)
    listed = re.findall(r"<li><b>([^<]+)</b>", html)
    assert listed == ["Ben"], listed
