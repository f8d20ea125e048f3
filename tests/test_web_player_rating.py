"""The player's rating in the page, under CPython: kept in the player's record (splendor/web/records/player_record.py),
moved once by each finished game against rated bots (splendor/web/records/rating.py), not moved by an assisted game
(a hint, an undo, the guided game: the controller remembers it in the save), pass and play counted against the bot
seats only, 3-4 player games pairwise; an old record without a rating, a damaged rating; the new-game screen's words
and its one-tap suggestion; the guide's page about it.

The levels' ratings are a fixture (``ladder``), never the measured file's numbers: the tests read every expected
value from ``splendor.ai.ladder`` and ``rating.py`` at test time."""

import json
import random
import re
from html import escape

import pytest

from splendor.ai import ladder as ai_ladder
from splendor.web import botcall, view
from splendor.web.controller import App
from splendor.web.learn import guide, learn_view
from splendor.web.records import rating as glicko
from splendor.web.records import records_io
from splendor.web.records.player_record import CORRUPT_PREFIX, RECORD_KEY, PlayerRecord
from splendor.web.records.storage import SAVE_KEY, MemoryStorage, StorageError
from splendor.web.table import seats as seat_words
from test_web_learn import finished as learn_finished


@pytest.fixture
def ladder(monkeypatch):
    """Every level of the ladder rated, 90 points apart, medium at 1000 (a stand-in for the measured file):
    {name: rating}."""
    mid = ai_ladder.NAMES.index("medium")
    table = {name: 1000 + 90 * (i - mid) for i, name in enumerate(ai_ladder.NAMES)}
    levels = {name: {"rating": r, "low": r - 40, "high": r + 40, "games": 400} for name, r in table.items()}
    monkeypatch.setattr(ai_ladder, "_RATINGS", [{"levels": levels}])
    return table


def play_to_end(app, rng=None, on_my_turn=None):
    """Play the app's game to its end through the page's own paths: each person's move committed as the page commits
    it (a buy when there is one, else any legal move), each bot's asked and answered as the worker answers
    (splendor.web.botcall), the hand-over taken in pass and play. ``on_my_turn(app, k)`` runs before a person's
    ``k``-th move (a hint, an undo...)."""
    rng = rng or random.Random(1)
    k = 0
    while not app.game.is_over:
        if app.handover is not None:
            app.act("pass-ok")
        elif app.bot_to_move() is not None:
            request = app.bot_request()
            assert app.bot_reply(botcall.answer(json.dumps(request))) == "applied"
        else:
            if on_my_turn is not None:
                on_my_turn(app, k)
                if app.game.is_over or app.bot_to_move() is not None or app.handover is not None:
                    continue
            acts = app.game.legal_actions()
            buys = [a for a in acts if a.kind == "buy"]
            app._commit([rng.choice(buys or acts)])
            k += 1
    return app.game


def expected_after(before, game, person, bots):
    """The rating rating.py gives after ``game`` (the same code the page uses, asked directly)."""
    return before.after(glicko.game_results(game.winners, game.scores, person, bots))


def solo(storage, level="medium", opponents=1, **extra):
    app = App(storage)
    app.act("start", {"seed": "5", "starts": "person", "opponents": str(opponents),
                      **{f"level{i}": level for i in range(opponents)}, **extra})
    assert app.screen == "game", app.message
    return app


# -- Glicko-2 itself ---------------------------------------------------------------------------------------------------
def test_glickmans_example_gives_his_figures(monkeypatch):
    """Glickman's worked example (2013): a 1500 player (RD 200) beats a 1400 and loses to a 1550 and a 1700."""
    monkeypatch.setattr(glicko, "START", 1500.0)
    after = glicko.Rating(1500, 200, 0.06).after([(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert (round(after.rating, 2), round(after.rd, 2)) == (1464.05, 151.52)
    assert abs(after.vol - 0.05999) < 1e-5 and after.games == 1


def test_the_game_results_count_each_bot_seat_pairwise_and_leave_people_out(ladder):
    # Four players: the person (seat 0) 10 points; Bot at seat 1 wins; seat 2 is a person; seat 3 has fewer points.
    results = glicko.game_results([1], [10, 16, 12, 7], 0, [None, "hard", None, "easy"])
    assert results == [(ladder["hard"], glicko.BOT_RD, 0.0), (ladder["easy"], glicko.BOT_RD, 1.0)]
    # Level on points with a bot, neither winning: a half; both among the winners: a half.
    assert glicko.game_results([2], [9, 9, 15], 0, [None, "medium", "medium"]) == [
        (1000, glicko.BOT_RD, 0.5), (1000, glicko.BOT_RD, 0.0)]
    assert glicko.game_results([0, 1], [15, 15], 0, [None, "expert"]) == [(ladder["expert"], glicko.BOT_RD, 0.5)]


# -- a finished game moves the rating once -----------------------------------------------------------------------------
def test_a_finished_game_against_a_bot_moves_the_rating_once_and_a_reload_keeps_it(ladder):
    storage = MemoryStorage()
    app = solo(storage, "medium")
    assert app.player_record.rating().games == 0
    game = play_to_end(app)
    rec = app.player_record
    want = expected_after(glicko.Rating(), game, 0, [None, "medium"])
    got = rec.rating()
    assert (round(got.rating, 1), round(got.rd, 1), got.games) == (round(want.rating, 1), round(want.rd, 1), 1)
    assert got.rating != glicko.START  # (a game against a rated bot moves it, won or lost)
    assert (got.rating > glicko.START) == (0 in game.winners)
    assert rec.last_change() == round(want.rating - glicko.START, 1) and rec.assisted() == 0
    app.save()  # saved again (the end screen redrawn): not counted twice
    for _ in range(2):  # reloaded, twice
        again = App(storage)
        assert again.load() and again.game.is_over
        assert again.player_record.rating().to_dict() == got.to_dict()
    stored = json.loads(storage.get(RECORD_KEY))["rating"]
    assert stored["games"] == 1 and stored["rating"] == round(want.rating, 1)
    # In the record's download.
    assert json.loads(again.record_export()[1])["rating"] == stored
    # A second game moves it again, from where the first left it.
    app.act("again", {})
    game2 = play_to_end(app, random.Random(2))
    want2 = expected_after(got, game2, 0, [None, "medium"])
    assert round(app.player_record.rating().rating, 1) == round(want2.rating, 1)
    assert app.player_record.rating().games == 2


def test_a_three_and_a_four_player_game_count_pairwise_against_each_bot(ladder):
    storage = MemoryStorage()
    for opponents, levels in ((2, ["easy", "medium"]), (3, ["medium", "easy", "medium"])):
        app = App(storage)
        app.act("start", {"seed": str(opponents), "starts": "person", "opponents": str(opponents),
                          **{f"level{i}": lv for i, lv in enumerate(levels)}})
        before = app.player_record.rating()
        game = play_to_end(app, random.Random(opponents))
        results = glicko.game_results(game.winners, game.scores, 0, [None] + levels)
        assert len(results) == opponents  # one result against each bot seat
        assert [r for r, _, _ in results] == [ladder[lv] for lv in levels]
        assert app.player_record.rating().to_dict() == before.after(results).to_dict()
        # (one period of all the bots, not the table's winner alone)
        assert app.player_record.rating().to_dict() != before.after(results[:1]).to_dict()


def test_pass_and_play_counts_only_the_bot_seats_for_the_first_person(ladder):
    storage = MemoryStorage()
    app = App(storage)
    app.act("start", {"name": "Ana", "opponents": "2", "level0": "person", "pname0": "Ben", "level1": "easy",
                      "starts": "person", "seed": "3"})
    assert [s["bot"] for s in app.seats] == [None, None, "easy"]

    def ben_asks_a_hint(app, k):  # Ben's help is Ben's: Ana's game is still rated
        if app.person == 1 and k < 3:
            app.act("hint")

    game = play_to_end(app, on_my_turn=ben_asks_a_hint)
    assert app.assisted == {1}
    rec = app.player_record
    assert rec.totals()["played"] == 2  # a game counted for each person...
    results = glicko.game_results(game.winners, game.scores, 0, [None, None, "easy"])
    assert len(results) == 1 and results[0][0] == ladder["easy"]  # ...and Ana rated against the bot seat only
    assert rec.rating().to_dict() == glicko.Rating().after(results).to_dict() and rec.assisted() == 0

    # Ana takes back her move from the hand-over screen ("Ana: undo your last turn", before Ben takes the device):
    # her game is assisted, and nothing moves.
    app2 = App(storage)
    app2.act("start", {"name": "Ana", "opponents": "2", "level0": "person", "pname0": "Ben", "level1": "easy",
                       "starts": "person", "seed": "4"})
    app2.act("pass-ok")
    app2._commit([app2.game.legal_actions()[0]])
    assert app2.handover == 1 and app2.can_undo() and 'id="pass-undo"' in view.render(app2)
    app2.act("undo")
    assert app2.assisted == {0} and json.loads(storage.get(SAVE_KEY))["assisted"] == [0]
    play_to_end(app2)
    assert app2.player_record.rating().to_dict() == rec.rating().to_dict()
    assert app2.player_record.assisted() == 1


@pytest.mark.parametrize("helped", ["hint", "undo", "guided"])
def test_an_assisted_game_is_counted_as_such_and_does_not_move_the_rating(ladder, helped):
    storage = MemoryStorage()
    app = solo(storage, "medium", guided=helped == "guided")
    seen = {}

    def help_once(app, k):
        if k == 1 and helped == "hint":
            app.act("hint")
            assert app.message.startswith("Looking")
        if k == 2 and helped == "undo" and not app.assisted:
            app.act("undo")
            assert app.info == "Your last turn was undone."
        if k == 3 and "save" not in seen:
            # The save says so at once, before any further move: a reload mid-game does not forget it.
            seen["save"] = json.loads(storage.get(SAVE_KEY))["assisted"]
            reloaded = App(storage)
            reloaded.load()
            seen["reloaded"] = reloaded.assisted

    play_to_end(app, on_my_turn=help_once)
    assert seen["save"] == [0] and seen["reloaded"] == {0}
    rec = app.player_record
    assert rec.totals()["played"] == 1  # counted in the record...
    assert rec.rating().games == 0 and rec.rating().rating == glicko.START  # ...not rated
    assert rec.assisted() == 1 and json.loads(storage.get(RECORD_KEY))["rating"]["assisted"] == 1
    html = view.render(App(storage))
    assert "1 game with Hint, Undo or the guide was not rated." in html


def test_a_game_without_help_is_not_assisted_and_a_hint_refused_does_not_count(ladder):
    app = solo(MemoryStorage(), "medium", starts="bot")
    assert app.bot_to_move() is not None
    app.act("hint")  # not the person's turn: refused, so no help was given
    assert app.message.startswith("Wait") and app.assisted == set()
    play_to_end(app)
    assert app.player_record.rating().games == 1 and app.player_record.assisted() == 0


def test_a_game_opened_from_a_file_is_counted_but_not_rated(ladder):
    played = solo(MemoryStorage(), "medium")
    play_to_end(played)
    text = records_io.export_game(played)[1]
    data = json.loads(text)
    data["id"] = "another-device-game"  # not a game this record has counted
    storage = MemoryStorage()
    app = App(storage)
    records_io.import_game(app, json.dumps(data), "game.json")
    assert app.game.is_over and app.unrated
    assert app.player_record.totals()["played"] == 1 and app.player_record.rating().games == 0
    assert app.player_record.assisted() == 0
    assert json.loads(storage.get(SAVE_KEY))["unrated"] is True
    again = App(storage)
    assert again.load() and again.unrated


def test_bots_without_a_measured_rating_move_nothing(monkeypatch):
    monkeypatch.setattr(ai_ladder, "_RATINGS", [{"levels": {}}])
    storage = MemoryStorage()
    app = solo(storage, "medium")
    play_to_end(app)
    rec = app.player_record
    assert rec.totals()["played"] == 1 and rec.rating().games == 0 and rec.assisted() == 0
    assert learn_view.rating_panel(App(storage)) == ""  # nothing to rate against: the panel stays away
    assert "Medium · " not in view.render(App(storage)) and ">Medium</option>" in view.render(App(storage))


# -- the record: old, damaged -------------------------------------------------------------------------------------
def finished(players=2, seed=5, winner=0):
    """A game made to be over with ``winner`` ahead (tests/test_web_learn.py's, without its seats)."""
    return learn_finished(players, seed, winner)[0]


OLD_RECORD = {"format": "splendor-player-record", "version": 1, "counted": ["g1", "g2"],
              "games": {"2:hard": {"played": 2, "won": 1, "best": 16, "fastest": 21},
                        "3:mixed": {"played": 1, "won": 0, "best": 9, "fastest": None}}}


def test_a_record_from_before_ratings_loads_and_its_first_rated_game_starts_from_the_start(ladder):
    storage = MemoryStorage({RECORD_KEY: json.dumps(OLD_RECORD)})
    rec = PlayerRecord(storage)
    assert rec.load() is None  # nothing damaged, nothing said
    r = rec.rating()
    assert (r.rating, r.rd, r.games) == (glicko.START, glicko.START_RD, 0) and rec.assisted() == 0
    assert rec.totals()["played"] == 3
    game = finished()
    seats = [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": "hard"}]
    assert rec.count(game, seats, "g3")
    data = json.loads(storage.get(RECORD_KEY))
    assert data["games"]["2:hard"]["played"] == 3 and data["counted"] == ["g1", "g2", "g3"]
    want = glicko.Rating().after([(ladder["hard"], glicko.BOT_RD, 1.0)])
    assert data["rating"]["rating"] == round(want.rating, 1) and data["rating"]["games"] == 1
    # What a page without ratings left is read by the new-game screen as "none yet".
    app = App(MemoryStorage({RECORD_KEY: json.dumps(OLD_RECORD)}))
    assert app.notices == [] and "none yet" in learn_view.rating_panel(app)


@pytest.mark.parametrize("rating", [
    "1500",
    [1000, 300],
    {"rating": "high", "rd": 100, "vol": 0.06, "games": 3},
    {"rating": 1200, "rd": 0, "vol": 0.06, "games": 3},
    {"rating": 1200, "rd": 90, "vol": 0.06, "games": -2},
    {"rating": 1200, "rd": 90, "vol": 0.06, "games": True},
    {"rating": 1200, "rd": 90, "games": 3},
    {"rating": 1200, "rd": 90, "vol": 0.06, "games": 3, "assisted": -1},
    {"rating": 1200, "rd": 90, "vol": 0.06, "games": 3, "change": "up"},
    {"rating": 9e99, "rd": 90, "vol": 0.06, "games": 3},
])
def test_a_damaged_rating_is_kept_aside_explained_and_the_games_kept(ladder, rating):
    raw = json.dumps({**OLD_RECORD, "rating": rating})
    storage = MemoryStorage({RECORD_KEY: raw})
    app = App(storage, clock=lambda: 1700000000.0)  # the page's start: the record is read, never a crash
    said = [n["text"] for n in app.notices if n["kind"] == "record"]
    assert len(said) == 1 and said[0].startswith("Your rating could not be read: ")
    kept = [k for k in storage.keys() if k.startswith(CORRUPT_PREFIX)]
    assert kept == ["splendor.record.corrupt.20231114T221320Z"] and kept[0] in said[0]
    assert storage.get(kept[0]) == raw  # the record as it was, not deleted
    data = json.loads(storage.get(RECORD_KEY))  # the games kept, the rating afresh
    assert data["games"] == OLD_RECORD["games"] and data["counted"] == OLD_RECORD["counted"]
    assert data["rating"]["games"] == 0 and data["rating"]["rating"] == glicko.START
    html = view.render(app)
    assert "none yet" in html and escape(said[0]) in html
    rec = app.player_record
    assert rec.count(finished(), [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": "medium"}], "g9")
    assert rec.rating().games == 1 and rec.totals()["played"] == 4


def test_a_damaged_rating_that_cannot_be_moved_aside_is_never_overwritten(ladder):
    class Stubborn(MemoryStorage):
        def set(self, key, value):
            raise StorageError("storage is full")

    raw = json.dumps({**OLD_RECORD, "rating": "x"})
    storage = Stubborn({RECORD_KEY: raw})
    rec = PlayerRecord(storage)
    said = rec.load()
    assert said.startswith("Your rating could not be read") and "left where it was" in said
    assert rec.totals()["played"] == 3
    rec.count(finished(), [{"name": "You", "bot": None}, {"name": "Bot 1", "bot": "medium"}], "g9")
    assert storage.data[RECORD_KEY] == raw


def test_a_save_whose_assisted_seats_are_damaged_still_loads_and_is_not_rated(ladder):
    storage = MemoryStorage()
    solo(storage, "medium")
    save = json.loads(storage.get(SAVE_KEY))
    assert save["assisted"] == []
    for value, seen in (([0], {0}), ([], set()), ("all", {0}), ([1], {0}), ([True], {0}), (None, set())):
        save["assisted"] = value
        storage.set(SAVE_KEY, json.dumps(save))
        again = App(storage)
        assert again.load() and again.assisted == seen, value
    del save["assisted"]  # a save from before: nobody was helped, as far as it says
    storage.set(SAVE_KEY, json.dumps(save))
    again = App(storage)
    assert again.load() and again.assisted == set() and not again.unrated


# -- the new-game screen ----------------------------------------------------------------------------------------------
def test_before_any_rated_game_the_screen_says_how_to_get_a_rating(ladder):
    html = view.render(App(MemoryStorage()))
    panel = html[html.index('<section class="rating"'):]
    panel = panel[:panel.index("</section>")]
    assert "Your rating</h2>" in panel and "none yet" in panel and "without Hint or Undo" in panel
    assert 'data-act="use-level"' not in panel


def test_the_screen_shows_the_rating_the_even_game_and_the_step_up_and_one_tap_sets_the_bots(ladder):
    storage = MemoryStorage()
    record = PlayerRecord(storage)
    record.data["rating"] = {"rating": 1123.4, "rd": 87.6, "vol": 0.06, "games": 23, "assisted": 2,
                             "change": -12.2}
    record._write()
    app = App(storage)
    app.act("setting", {"name": "opponents", "value": "3"})
    app.act("setting", {"name": "level1", "value": "person"})
    html = view.render(app)
    even, up = glicko.suggest(1123.4)
    assert even and up and ai_ladder.NAMES.index(up) == ai_ladder.NAMES.index(even) + 1
    assert '<b class="rating-n">1123</b> <span class="rating-rest">± 88 · 23 games' in html
    assert "−12 last game" in html and "2 games with Hint, Undo or the guide were not rated." in html
    for level, what in ((even, "Even game"), (up, "Step up")):
        label = seat_words.rated_label(level)
        assert (f'data-level="{level}" id="use-{level}"><small>{what}:</small> <span>{label}</span></button>'
                in html)
    app.act("use-level", {"level": up})
    assert app.settings["levels"] == [up, "person", up]  # the bots' seats, not the person's
    html = view.render(app)
    assert f'<option value="{up}" selected>' in html and 'class="secondary rating-use chosen"' in html
    app.act("use-level", {"level": "grandmaster"})  # not a level: nothing changes
    assert app.settings["levels"] == [up, "person", up]
    app.act("start", {"name": "Ana", "pname1": "Ben"})
    assert [s["bot"] for s in app.seats] == [None, up, None, up], app.message
    # Every other seat a person: no button, the levels in words.
    app.act("new-game", {})
    app.act("setting", {"name": "opponents", "value": "1"})
    app.act("setting", {"name": "level0", "value": "person"})
    panel = learn_view.rating_panel(app)
    assert 'data-act="use-level"' not in panel
    assert f"An even game for you: {seat_words.rated_label(even)}; a step up: {seat_words.rated_label(up)}." in panel


def test_every_level_on_the_screen_shows_its_rating_from_the_ladder(ladder):
    html = view.render(App(MemoryStorage()))
    for name, r in ladder.items():
        label = ai_ladder.find(name).label
        assert re.search(rf'<option value="{name}"( selected)?>{label} · {r}</option>', html), name


# -- How to play ----------------------------------------------------------------------------------------------------
def test_how_to_play_says_what_the_rating_means(ladder):
    page = next(p for p in guide.PAGES if p["tab"] == "Levels")
    text = " ".join(page["lines"])
    assert "same scale" in text and "Medium is 1000" in text
    assert "assisted and do not change it" in text and "Hint, Undo" in text
    art = guide.art("levels")
    for name in (ai_ladder.NAMES[0], "medium", ai_ladder.NAMES[-1]):
        assert f"<b>{ai_ladder.find(name).label}</b><small>{ladder[name]}</small>" in art


def test_how_a_level_plays_is_said_in_one_short_sentence(monkeypatch):
    """The ladder's words for a level, shortened for the new-game screen: asides in brackets dropped, then the
    first clauses up to a semicolon, else a cut at a comma with "…"; never over the limit."""
    class Words:
        def __init__(self, plays):
            self.plays = plays

    said = {"short": "the network's favourite move (at 3-4 players, its tree search)",
            "semi": "the expert's search with 32 simulations a move; " + "never hands the opponent a win " * 4,
            "comma": "a heuristic that looks at its own game, " + "overlooks some cards, " * 6 + "and more"}
    monkeypatch.setattr(seat_words, "find", lambda name: Words(said[name]))
    assert seat_words.plays_words("short") == "The network's favourite move."
    assert seat_words.plays_words("semi") == "The expert's search with 32 simulations a move."
    comma = seat_words.plays_words("comma")
    assert comma.startswith("A heuristic that looks at its own game, overlooks") and comma.endswith("cards…")
    assert len(comma) <= seat_words.PLAYS_LIMIT + 1
    monkeypatch.undo()
    for name in ai_ladder.NAMES:  # the real ladder's words: each short, whole or cut in words
        words = seat_words.plays_words(name)
        assert len(words) <= seat_words.PLAYS_LIMIT + 1 and "(" not in words and words[-1] in ".…", words


def test_the_end_screen_says_what_the_game_did_to_the_rating(ladder):
    """Once a game ends, its results say the new rating and how far it moved; an assisted game says the rating
    stays; a game whose bots have no rating says nothing."""
    storage = MemoryStorage()
    app = solo(storage, "medium")
    before = app.player_record.rating()
    game = play_to_end(app)
    after = expected_after(before, game, 0, [None, "medium"])
    change = round(after.rating - before.rating)
    moved = f"up {change}" if change > 0 else f"down {-change}" if change < 0 else "unchanged"
    assert f"Your rating: {round(after.rating)}, {moved}." in view.render(app)
    helped = solo(storage, "medium")
    play_to_end(helped, on_my_turn=lambda a, k: a.act("hint") if k == 0 else None)
    html = view.render(helped)
    assert f"Assisted game (Hint, Undo or the guide): your rating stays {round(after.rating)}." in html
    assert helped.player_record.rating().games == 1


def test_the_end_screen_says_nothing_of_a_rating_where_no_bot_is_rated(monkeypatch):
    monkeypatch.setattr(ai_ladder, "_RATINGS", [{"levels": {}}])
    app = solo(MemoryStorage(), "medium")
    play_to_end(app)
    assert app.show_end and 'id="end"' in view.render(app) and "end-rating" not in view.render(app)
