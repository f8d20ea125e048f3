"""Hostile saves and game files, under CPython: every damaged, foreign, old, new or rule-breaking save is explained
in words, kept aside under another key (nothing deleted) and a new game can start; full and unavailable storage
never stop play; game files round-trip, are replayed by the rules before use, refused with the reason otherwise,
and markup in them is shown as text."""

import json

import pytest

import splendor
from engine_fixtures import record_card_twice, record_over_ten_tokens
from splendor.web.records import records_io
from splendor.web import view
from splendor.web.controller import App
from splendor.web.records.records_io import RecordProblem, export_game, import_game, read_game_file
from splendor.web.records.storage import CORRUPT_PREFIX, SAVE_KEY, MemoryStorage, StorageError

EVIL = "<img src=x onerror=alert(1)>"
CLOCK = lambda: 1_800_000_000.0  # noqa: E731


def started(storage=None, seed="7", **settings):
    app = App(storage if storage is not None else MemoryStorage(), clock=CLOCK)
    app.act("start", {"seed": seed, "starts": "person", **settings})
    return app


def play(app, *texts):
    """The person's and the bots' moves, applied through the page's own path."""
    for text in texts:
        g = app.game
        app._apply(splendor.parse_action(g, text), g.current_player)
    app.save()


def good_save():
    app = started()
    play(app, "take white blue green", "take red black white")
    return json.loads(app.slot.read())


def hostile_saves():
    """name -> (raw text of the save slot, words the person must be told)."""
    good = good_save()

    def variant(**changes):
        return json.dumps(dict(good, **changes))

    nested = "[" * 50_000 + "]" * 50_000
    return {
        "truncated JSON": (json.dumps(good)[:120], "cut short or damaged"),
        "not JSON at all": ("hello <b>world</b>", "not readable JSON"),
        "empty": ("", "it is empty"),
        "JSON list": ("[1, 2, 3]", "not a Splendor save"),
        "JSON number": ("42", "not a Splendor save"),
        "deeply nested": (nested, "Splendor save"),
        "foreign object": (json.dumps({"hello": "world"}), "not a Splendor save"),
        "older version": (variant(version=0), "older version of this page"),
        "newer version": (variant(version=2), "newer version of this page"),
        "version as text": (variant(version="1"), "format version is '1'"),
        "record of the wrong shape": (variant(record=[1, 2]), "cannot be replayed by the rules"),
        "too many tokens": (variant(record=record_over_ten_tokens()), "you hold 12 tokens: return 2 tokens first"),
        "a card twice": (variant(record=record_card_twice()), "cannot be replayed by the rules"),
        "illegal action": (variant(record=dict(good["record"], actions=["take gold gold gold"])), "action 1"),
        "seven players": (variant(record=dict(good["record"], players=7)), "cannot be replayed"),
        "players mismatch": (variant(seats=good["seats"][:1]), "players do not match"),
        "unknown bot level": (variant(seats=[good["seats"][0], {"name": "x", "bot": "godlike"}]), "bots of a known"),
        "log of the wrong shape": (variant(log="<script>"), "log is not a list"),
    }


@pytest.mark.parametrize("case", list(hostile_saves()))
def test_each_hostile_save_is_explained_kept_aside_and_play_goes_on(case):
    raw, words = hostile_saves()[case]
    other = "another site's data"
    store = MemoryStorage({SAVE_KEY: raw, "unrelated": other})
    app = App(store, clock=CLOCK)
    assert app.load() is False
    kept = [k for k in store.data if k.startswith(CORRUPT_PREFIX)]
    assert len(kept) == 1 and store.data[kept[0]] == raw  # kept byte for byte under another key
    assert store.data["unrelated"] == other and SAVE_KEY not in store.data
    text = app.notices[0]["text"]
    assert "could not be read" in text and kept[0] in text and words in text, text
    html = view.render(app)
    assert 'role="alert"' in html and "<script>" not in html and "<b>world" not in html
    app.act("start", {"starts": "person"})
    play(app, "take white blue green")
    assert json.loads(store.data[SAVE_KEY])["record"]["actions"][0] == "take white blue green"
    assert store.data[kept[0]] == raw


def test_a_second_damaged_save_gets_its_own_key():
    store = MemoryStorage({SAVE_KEY: "{one"})
    App(store, clock=CLOCK).load()
    store.data[SAVE_KEY] = "{two"
    App(store, clock=CLOCK).load()
    kept = sorted(v for k, v in store.data.items() if k.startswith(CORRUPT_PREFIX))
    assert kept == ["{one", "{two"]


def test_a_good_save_still_loads():
    store = MemoryStorage({SAVE_KEY: json.dumps(good_save())})
    app = App(store, clock=CLOCK)
    assert app.load() is True and len(app.game.history) == 2 and app.notices == []


class QuotaStorage(MemoryStorage):
    """Like a browser whose storage is full: every write raises (reads work)."""

    def set(self, key, value):
        raise StorageError("storage is full")


def test_full_storage_with_a_damaged_save_leaves_it_in_place_and_play_goes_on():
    store = QuotaStorage({SAVE_KEY: "{damaged"})
    app = App(store, clock=CLOCK)
    assert app.load() is False
    assert store.data == {SAVE_KEY: "{damaged"}  # nothing deleted: it could not be copied, so it stays
    assert "left where it was" in app.notices[0]["text"]
    app.act("start", {"starts": "person"})
    play(app, "take white blue green")
    assert len(app.game.history) >= 1 and store.data == {SAVE_KEY: "{damaged"}


def test_unavailable_storage_is_told_and_play_goes_on():
    app = App(MemoryStorage(broken=True), clock=CLOCK)
    assert app.load() is False and "cannot be read on this device" in app.notices[0]["text"]
    app.act("start", {"starts": "person"})
    play(app, "take white blue green")
    assert len(app.game.history) >= 1


# -- game files -----------------------------------------------------------------------------------------------------
def seen_alike(game, other):
    """The two games look the same to every seat: the same moves and all that is face up or in anyone's hand (the
    undealt cards of a game opened from a file without its seed are shuffled afresh)."""
    return (game.record()["actions"] == other.record()["actions"]
            and all(game.observation(s) == other.observation(s) for s in range(game.players_count))
            and [p.reserved for p in game.players] == [p.reserved for p in other.players])


def test_an_unfinished_games_file_has_no_seed_and_opens_with_the_same_table():
    app = started(seed="7", opponents="3")
    g = app.game
    while len(g.history) < 40:  # a few of each kind of move, a blind reservation among them
        blind = [a for a in g.legal_actions() if a.kind == "reserve" and a.card is None]
        app._apply(blind[0] if blind and len(g.history) % 7 == 3 else g.legal_actions()[0], g.current_player)
    assert any(any(p.hidden) for p in g.players) and not g.is_over
    name, text = export_game(app, clock=CLOCK)
    assert "seed" not in name and "seed7" not in text
    record = json.loads(text)["record"]
    assert record["seed"] is None
    # The file names no card beyond those dealt: the market, the nobles, the cards bought or held.
    named = {c for deal in record["deals"] for level in deal["cards"] for c in level}
    dealt = {c.code for row in g.market for c in row if c} | {c.code for p in g.players for c in p.cards + p.reserved}
    assert named == dealt
    assert len(named) + sum(g.deck_sizes) == len(splendor.engine.cards.CARDS)
    other = App(MemoryStorage(), clock=CLOCK)
    import_game(other, text, "game.json")
    assert seen_alike(other.game, g) and other.game.seed != 7
    assert [e["text"] for e in other.log if e["kind"] == "move"] == [e["text"] for e in app.log if e["kind"] == "move"]
    # Play goes on there, and its save replays.
    other.game.apply(other.game.legal_actions()[0])
    assert splendor.replay(other.game.record()) == other.game


def test_a_finished_games_file_keeps_its_seed():
    app = started(seed="7")
    g = app.game
    while not g.is_over:
        app._apply(g.legal_actions()[0], g.current_player)
    name, text = export_game(app, clock=CLOCK)
    assert "seed7" in name and json.loads(text)["record"] == g.record() and g.record()["seed"] == 7


def test_export_then_import_gives_the_same_game_log_and_players():
    app = started(name=EVIL, opponents="2")
    play(app, "take white blue green", "take red black white", "take blue green red")
    name, text = export_game(app, clock=CLOCK)
    data = json.loads(text)
    assert name.endswith(".json") and data["format"] == "splendor-game" and data["version"] == 1
    assert data["record"] == app.game.record(hide_decks=True) and data["players"][0] == {"name": EVIL, "bot": None}
    other_store = MemoryStorage()
    other = App(other_store, clock=CLOCK)
    import_game(other, text, "game.json")
    assert seen_alike(other.game, app.game)
    assert other.seats == app.seats and other.screen == "game"
    assert [e["text"] for e in other.log if e["kind"] == "move"] == [e["text"] for e in app.log if e["kind"] == "move"]
    assert other.can_undo()
    assert json.loads(other_store.data[SAVE_KEY])["record"] == other.game.record()  # and it is saved there
    html = view.render(other)
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_the_bots_reasons_travel_with_the_game_file():
    app = started()
    g = app.game
    app._apply(splendor.parse_action(g, "take white blue green"), g.current_player)
    app._apply(splendor.parse_action(g, "take red black white"), g.current_player, why=EVIL + " for the noble")
    app._apply(splendor.parse_action(g, "take blue green red"), g.current_player)
    data = json.loads(export_game(app, clock=CLOCK)[1])
    assert data["why"] == ["", EVIL + " for the noble", ""]
    other = App(MemoryStorage(), clock=CLOCK)
    import_game(other, json.dumps(data))
    moves = [e for e in other.log if e["kind"] == "move"]
    assert [e["why"] for e in moves] == data["why"]
    html = view.render(other)
    assert "&lt;img src=x onerror=alert(1)&gt; for the noble" in html and "<img" not in html
    # Reasons that cannot be read are left out and said so; the game itself opens all the same.
    for bad in ("reasons", [1, 2, 3], ["a", "b", "c", "d"]):
        third = App(MemoryStorage(), clock=CLOCK)
        import_game(third, json.dumps(dict(data, why=bad)))
        assert seen_alike(third.game, app.game)
        assert all(e["why"] == "" for e in third.log)
        assert any("reasons for the bots' moves could not be read" in e["text"] for e in third.log)
    # A game where no bot gave a reason has none to carry.
    assert "why" not in json.loads(export_game(started())[1])


def test_a_finished_game_saved_and_opened_back_counts_once_in_the_record():
    store = MemoryStorage()
    app = started(store, seed="11")
    rng = __import__("random").Random(11)
    while not app.game.is_over:
        g = app.game
        app._apply(rng.choice(g.legal_actions()), g.current_player)
        app._after_change()
    assert app.player_record.totals()["played"] == 1
    before = json.dumps(app.player_record.data, sort_keys=True)
    name, text = export_game(app, clock=CLOCK)
    assert json.loads(text)["id"] == app.game_id
    import_game(app, text, name)  # the same browser opens the file of the game it already counted
    assert app.game.is_over
    assert json.dumps(app.player_record.data, sort_keys=True) == before
    # a file without an id (from another program) is still counted, once however often it is opened
    bare = json.loads(text)
    del bare["id"]
    import_game(app, json.dumps(bare))
    assert app.player_record.totals()["played"] == 2
    import_game(app, json.dumps(bare))
    assert app.player_record.totals()["played"] == 2


def test_a_finished_game_opens_on_its_end_screen():
    g = splendor.new_game(players=2, seed=3)
    rng = __import__("random").Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    text = json.dumps({"format": "splendor-game", "version": 1, "record": g.record(),
                       "players": [{"name": "Ann", "bot": None}, {"name": "B", "bot": "hard"}]})
    app = App(MemoryStorage(), clock=CLOCK)
    import_game(app, text)
    assert app.game.is_over and 'id="end"' in view.render(app)


def bad_files():
    app = started()
    play(app, "take white blue green")
    good = json.loads(export_game(app)[1])

    def variant(**changes):
        return json.dumps(dict(good, **changes))

    return {
        "not JSON": ("{\"format\": \"splendor-game\", ", "not readable JSON"),
        "a save": (app.slot.read(), "a page's save, not a game file"),
        "another program's JSON": (json.dumps({"name": "x"}), "not a Splendor game file"),
        "newer version": (variant(version=9), "newer version of this page"),
        "illegal moves": (variant(record=dict(good["record"], actions=["take white white white"])),
                          "cannot be replayed by the rules (action 1"),
        "a card twice": (variant(record=record_card_twice()),
                         "(action 3 ('reserve 1G1:4k') of the record: the card 1G1:4k is not in the market"),
        "too many players listed": (variant(players=good["players"] * 2), "names 4 players for a 2-player game"),
        "no person": (variant(players=[{"name": "x", "bot": "easy"}, good["players"][1]]),
                      "nobody plays: at least one seat must be a person"),
        "unknown level": (variant(players=[good["players"][0], {"name": EVIL, "bot": EVIL}]), "known level"),
        "too large": ("x" * (records_io.MAX_FILE_BYTES + 1), "far too large"),
        "far too many moves": (variant(record=dict(good["record"], actions=["pass"] * 6000)), "more than any real"),
    }


@pytest.mark.parametrize("case", list(bad_files()))
def test_a_bad_game_file_is_refused_with_the_reason_and_nothing_changes(case):
    text, words = bad_files()[case]
    store = MemoryStorage()
    app = started(store)
    play(app, "take white blue green")
    before = (app.game.to_dict(), list(app.log), store.data[SAVE_KEY])
    assert records_io.open_file(app, text, f"{EVIL}.json") is False
    notice = app.import_problem
    assert words in notice and EVIL in notice and "Nothing was changed" in notice, notice
    assert (app.game.to_dict(), app.log, store.data[SAVE_KEY]) == before
    app.act("new-game", {})
    html = view.render(app)
    assert "<img" not in html and "&lt;img" in html and 'role="alert" id="import-problem"' in html
    # A good file then opens, and the reason goes away.
    good = export_game(started())[1]
    assert records_io.open_file(app, good, "good.json") is True and app.import_problem == ""


def test_a_bare_engine_record_opens_too():
    g = splendor.new_game(players=3, seed=5)
    g.apply("take white blue green")
    game, seats = read_game_file(json.dumps(g.record()))
    assert game.to_dict() == g.to_dict() and [s["bot"] for s in seats] == [None, "medium", "medium"]


def test_names_from_a_file_are_trimmed_and_shown_as_text():
    app = started()
    text = export_game(app)[1].replace('"You"', json.dumps(EVIL * 10 + "\n\t"))
    other = App(MemoryStorage())
    assert records_io.open_file(other, text, "a.json") is True
    assert other.seats[0]["name"] == (EVIL * 10)[:40]
    assert "<img" not in view.render(other)


def test_the_controls_are_there():
    app = started()
    assert 'id="export-game"' in view.render(app)
    app.act("new-game", {})
    html = view.render(app)
    assert 'type="file" id="import-file"' in html and '<label class="file-pick" for="import-file">' in html
    with pytest.raises(RecordProblem):
        export_game(App(MemoryStorage()))
