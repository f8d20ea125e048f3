"""The review on the page's state machine (splendor/web/review/, records/finished.py) under CPython: the end
screen's button, the pieces asked of the worker and their answers (the worker's own function, review_json), the
steps (the engine's replay, the live game and its save untouched), cancel, the record's list and its stored
reviews (a damaged one computed again), and no review of a game in progress."""

import json
import random

import pytest

from splendor.ai import get_bot
from splendor.ai.review import position_after, review_json
from splendor.web import view
from splendor.web.botcall import answer
from splendor.web.controller import App
from splendor.web.records.finished import FINISHED_KEY, FinishedGames
from splendor.web.records.storage import MemoryStorage


def play_out(app, stop_before_end=False):
    """Play the game in ``app`` to its end: bots through the protocol, the person as the medium bot would."""
    medium = get_bot("medium")
    g = app.game
    while not g.is_over:
        if stop_before_end and g.final_round:
            return
        seat = g.current_player
        if app.seats[seat]["bot"]:
            assert app.bot_reply(answer(json.dumps(app.bot_request()))) == "applied"
        else:
            app._commit([medium.choose(g.observation(seat), random.Random(len(g.history)))])


def new_app(storage=None, levels=("medium",), seed="7", **more):
    app = App(storage if storage is not None else MemoryStorage(), bot_budget={"iterations": 1})
    app.act("start", {"opponents": len(levels), "level0": levels[0], "seed": seed, **more,
                      **({"level1": levels[1]} if len(levels) > 1 else {})})
    return app


def run_review(app, pieces=None):
    """Answer the review's requests with the worker's function; the number of pieces asked."""
    asked = 0
    while True:
        req = app.review_request()
        if req is None:
            return asked
        asked += 1
        status = app.review_reply(review_json(json.dumps(req)))
        if pieces is not None and asked >= pieces:
            return asked
        assert status in ("more", "done")


@pytest.fixture(scope="module")
def finished():
    storage = MemoryStorage()
    app = new_app(storage)
    play_out(app)
    return storage, app


def test_a_finished_game_offers_its_review_and_the_review_leaves_the_game_alone(finished):
    storage, app = finished
    html = view.render(app)
    assert 'data-act="review"' in html and "Review this game" in html
    state = json.dumps(app.game.to_dict())
    save = storage.get("splendor.save.v1")
    app.act("review", {})
    assert app.screen == "review" and app.review["state"] == "computing"
    assert "Reviewing the game" in view.render(app)
    pieces = run_review(app)
    r = app.review
    turns = len(r["turns"])
    assert r["state"] == "done" and pieces == -(-(turns + 1) // 8)
    html = view.render(app)
    assert 'role="img"' in html and "rv-chart" in html and "Turning points" in html
    assert f"After move {turns} of {turns}" in html
    # step back 12 moves, one at a time: the table is the engine's replay, and the market changed
    market_end = [[c.code if c else None for c in row] for row in app.review_game().market]
    for _ in range(12):
        app.act("review-step", {"by": -1})
    assert r["step"] == turns - 12
    g = app.review_game()
    assert g.to_dict() == position_after(app.game.record(), turns - 12).to_dict()
    assert [[c.code if c else None for c in row] for row in g.market] != market_end
    assert f"After move {turns - 12} of {turns}" in view.render(app)
    app.act("review-step", {"to": "start"})
    assert r["step"] == 0 and "The deal" in view.render(app)
    app.act("review-step", {"to": "5"})
    assert r["step"] == 5
    app.act("review-step", {"to": "end"})
    assert r["step"] == turns
    # the live game and its save are untouched; leaving returns to the end screen
    assert json.dumps(app.game.to_dict()) == state and storage.get("splendor.save.v1") == save
    app.act("review-close", {})
    assert app.screen == "game" and app.show_end and 'id="end"' in view.render(app)


def test_the_chart_is_drawn_from_its_first_points():
    app = new_app(seed="8")
    play_out(app)
    app.act("review", {})
    assert 'id="rv-chart"' not in view.render(app)  # nothing known yet: the progress bar alone
    run_review(app, pieces=1)
    r = app.review
    assert r["state"] == "computing" and len(r["entries"]) == 8
    html = view.render(app)
    assert 'id="rv-chart"' in html and "Reviewing the game" in html and 'id="review-cancel"' in html
    # the known points on the whole game's width: the first seat's line ends at move 7 of the game's turns
    line = html.split('class="rv-line rv-seat0" points="')[1].split('"')[0].split()
    assert len(line) == 8 and float(line[-1].split(",")[0]) == pytest.approx(1000 * 7 / len(r["turns"]), abs=0.1)
    assert "so far" in html and "Turning points" not in html
    # the axis names whole moves ("Move 43.5" was read on an odd count of moves: issue 72)
    for odd in (len(r["turns"]) | 1, 87):
        r["turns"] = r["turns"][:1] * odd
        ticks = view.render(app).split('class="rv-ticks"')[1].split("</div>")[0]
        assert f"<span>Move {odd // 2}</span><span>Move {odd}</span>" in ticks and "." not in ticks, ticks
    app.act("review-cancel", {})
    app.act("review-close", {})


def test_the_person_is_told_a_better_move_and_why(finished):
    storage, app = finished
    app.act("review", {})
    run_review(app)
    data = app.review["data"]
    people_turns = [tp for tp in data["turning"] if tp["mover"] == 0 and tp.get("better")]
    assert people_turns
    html = view.render(app)
    assert "Better:" in html and "points of chance below your best choice." in html
    # the turning points: moves that lost most against their player's best choice, in plain words
    turning = html.split('id="rv-turning-title"')[1]
    assert "You moved: your chance went from" in turning
    for tp in data["turning"]:
        name = "You" if tp["mover"] == 0 else "Bot 1"
        assert f'{name} moved: {"your" if name == "You" else "Bot 1’s"} chance went from {round(100 * tp["from"])}% ' \
               f'to {round(100 * tp["to"])}%.' in turning
        points = round(100 * (tp["best"] - tp["played"]))
        assert f'{points} point{"s" if points != 1 else ""} of chance below' in turning
    app.act("review-close", {})


def test_a_second_look_is_stored_and_a_damaged_stored_review_is_computed_again(finished):
    storage, app = finished
    app.act("review", {})
    run_review(app)
    app.act("review-close", {})
    again = App(storage)
    again.load()
    kept = again.finished.games()
    assert kept and kept[0]["review"] is not None
    gid = kept[0]["id"]
    again.act("review", {"game": gid})
    assert again.review["state"] == "done" and again.review_request() is None  # instant, no worker
    again.act("review-close", {})
    assert again.screen == "setup"
    # damage the stored review: it is computed again, and stored whole again
    raw = json.loads(storage.get(FINISHED_KEY))
    raw["games"][0]["review"]["positions"][3]["chances"] = [2, "x"]
    storage.set(FINISHED_KEY, json.dumps(raw))
    third = App(storage)
    third.act("review", {"game": gid})
    assert third.review["state"] == "computing"
    run_review(third)
    assert third.review["state"] == "done"
    assert json.loads(storage.get(FINISHED_KEY))["games"][0]["review"]["positions"][3]["chances"] != [2, "x"]


def test_a_cancelled_review_asks_the_worker_for_nothing_more(finished):
    storage, app = finished
    app.finished.set_review(app.game_id, None)
    app.act("review", {})
    req = app.review_request()
    assert req is not None
    app.act("review-cancel", {})
    assert app.review["state"] == "cancelled" and app.review_request() is None
    assert app.review_reply(review_json(json.dumps(req))) == "stale"  # the piece in flight is dropped
    assert "Review again" in view.render(app)
    app.act("review-retry", {})
    assert run_review(app) > 0 and app.review["state"] == "done"
    app.act("review-close", {})


def test_a_failed_piece_says_so():
    app = new_app(seed="8")
    play_out(app)
    app.act("review", {})
    assert app.review_request() is not None
    assert app.review_reply(json.dumps({"error": "boom"})) == "failed"
    assert "The review failed: boom" in view.render(app)


def test_a_game_in_progress_offers_no_review():
    app = new_app(levels=("person",), seed="9", name="Ana", pname0="Ben")  # pass and play, two people
    app.act("pass-ok", {})
    assert not app.can_review()
    assert 'data-act="review"' not in view.render(app)
    app.act("review", {})
    assert app.screen == "game" and app.review is None and "over" in app.message


def test_the_records_list_shows_finished_games_only(finished):
    storage, app = finished
    other = App(storage)
    other.load()
    other.act("new-game", {})
    html = view.render(other)
    assert "Finished games" in html and f'data-game="{app.game_id}"' in html
    unfinished = MemoryStorage()
    live = new_app(unfinished, seed="11")
    play_out(live, stop_before_end=True)
    live.act("new-game", {})
    assert "Finished games" not in view.render(live)


def test_the_store_drops_a_damaged_entry_and_moves_a_damaged_store_aside():
    storage = MemoryStorage()
    app = new_app(storage, seed="12")
    play_out(app)
    good = json.loads(storage.get(FINISHED_KEY))
    good["games"].append({"id": "bad", "record": "nope"})
    storage.set(FINISHED_KEY, json.dumps(good))
    kept = FinishedGames(storage)
    assert kept.load() is None and [e["id"] for e in kept.games()] == [app.game_id]
    storage.set(FINISHED_KEY, "{not json")
    kept = FinishedGames(storage)
    assert "could not be read" in kept.load() and kept.games() == []
    assert any(k.startswith("splendor.finished.corrupt.") for k in storage.keys())


def test_a_finished_game_file_opens_with_its_review_and_an_unfinished_one_without(finished):
    from splendor.web.records.records_io import export_game, open_file
    storage, app = finished
    name, text = export_game(app)
    other = App(MemoryStorage())
    assert open_file(other, text, name)
    assert other.game.is_over and other.can_review() and 'data-act="review"' in view.render(other)
    other.act("review", {})
    assert other.screen == "review"
    run_review(other)
    assert other.review["state"] == "done" and other.review["data"]["people"] == [0]
    live = new_app(seed="13")
    for _ in range(6):
        if live.bot_to_move() is not None:
            live.bot_reply(answer(json.dumps(live.bot_request())))
        else:
            live._commit([live.game.legal_actions()[0]])
    name, text = export_game(live)
    third = App(MemoryStorage())
    assert open_file(third, text, name) and not third.game.is_over
    assert not third.can_review() and 'data-act="review"' not in view.render(third)


@pytest.mark.parametrize("players", [3, 4])
def test_the_review_screen_draws_a_line_for_each_player(players):
    app = new_app(levels=("medium",) * (players - 1), seed=str(20 + players))
    play_out(app)
    app.act("review", {})
    run_review(app)
    html = view.render(app)
    assert html.count('class="rv-line rv-seat') == players
    assert html.count('class="rv-key rv-seat') == players
    app.act("review-step", {"to": 3})
    assert "After move 3 of" in view.render(app)


class FakeWorker:
    """The bot worker's ``review`` as the page calls it (a coroutine answering JSON text), counting the calls in
    flight; ``on_call(n)`` runs as call ``n`` is being answered (the person taps meanwhile)."""

    def __init__(self, on_call=None):
        self.calls = 0
        self.busy = 0
        self.on_call = on_call

    async def review(self, text):
        import asyncio
        self.calls += 1
        self.busy += 1
        try:
            await asyncio.sleep(0)
            if self.on_call:
                self.on_call(self.calls)
            return review_json(text)
        finally:
            self.busy -= 1


def drive(app, worker):
    import asyncio
    from splendor.web import review_page
    drawn = []

    async def get_worker():
        return worker

    # in a thread of its own: a browser test run before this one in the same process may have left an event loop
    # running in this thread (Playwright's), where asyncio.run refuses to start
    import threading

    failed = []

    def run():
        try:
            asyncio.run(review_page.run_review(app, get_worker, lambda: drawn.append(app.review_progress())))
        except BaseException as exc:  # (re-raised in the test's thread)
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return drawn


def test_the_page_asks_the_worker_piece_by_piece_and_a_cancel_stops_it(finished):
    storage, app = finished
    app.finished.set_review(app.game_id, None)
    app.act("review", {})
    worker = FakeWorker()
    drawn = drive(app, worker)
    total = len(app.review["turns"]) + 1
    assert app.review["state"] == "done" and worker.calls == -(-total // 8) and worker.busy == 0
    assert [d[0] for d in drawn][-1] == total and drawn == sorted(drawn)  # the progress only goes forward
    app.act("review-close", {})
    app.finished.set_review(app.game_id, None)
    app.act("review", {})
    worker = FakeWorker(on_call=lambda n: n == 2 and app.act("review-cancel", {}))
    drive(app, worker)
    assert app.review["state"] == "cancelled" and worker.calls == 2 and worker.busy == 0  # nothing asked after
    assert "Review again" in view.render(app)
    app.act("review-retry", {})
    drive(app, FakeWorker())
    assert app.review["state"] == "done"
    app.act("review-close", {})


def test_the_review_screens_keys():
    from splendor.web import review_page

    class Key:
        def __init__(self, key, ctrl=False):
            self.key, self.altKey, self.ctrlKey, self.metaKey = key, False, ctrl, False
            self.prevented = False

        def preventDefault(self):
            self.prevented = True

    app = new_app(seed="8")
    play_out(app)
    app.act("review", {})
    run_review(app)
    last = len(app.review["turns"])
    assert review_page.on_key(app, Key("ArrowLeft")) == "review-step" and app.review["step"] == last - 1
    assert review_page.on_key(app, Key("Home")) == "review-step" and app.review["step"] == 0
    assert review_page.on_key(app, Key("ArrowLeft")) == "review-step" and app.review["step"] == 0
    assert review_page.on_key(app, Key("ArrowRight")) == "review-step" and app.review["step"] == 1
    assert review_page.on_key(app, Key("End")) == "review-step" and app.review["step"] == last
    assert review_page.on_key(app, Key("ArrowLeft", ctrl=True)) is None and app.review["step"] == last
    assert review_page.on_key(app, Key("a")) is None
    assert review_page.on_key(app, Key("Escape")) == "review-close" and app.screen == "game" and app.show_end


def test_a_buy_from_your_own_reserve_says_your_reserve_in_the_flash_and_the_review():
    """'You bought ... from their reserve' was said of the person's own reserve (issue 72): the table's flash of the
    move and the review's words of the turn say "your reserve"; a bot's buy from its reserve stays "their"."""
    from splendor.ai.review import turns_of

    app = new_app(seed="7")
    g = app.game
    reserved = None
    while True:
        seat = g.current_player
        acts = g.legal_actions()
        if seat == 1:
            move = next(a for a in acts if a.kind in ("take", "take_two", "return"))
        elif reserved is None:
            move = min((a for a in acts if a.kind == "reserve" and a.card is not None and a.card.level == 1),
                       key=lambda a: sum(a.card.cost_t))
            reserved = move.card
        else:
            buy = [a for a in acts if a.kind == "buy" and a.card is reserved]
            if buy:
                flash = app._flash_of(buy[0], 0)
                assert "You bought" in flash["text"] and "from your reserve" in flash["text"], flash["text"]
                g.apply(buy[0])
                break
            move = next((a for a in acts if a.kind == "take"), acts[0])
        g.apply(move)
    entry = {"record": g.record(), "names": ["You", "Bot 1"], "people": [0], "why": {}}
    turns = turns_of(entry["record"])
    app.review = {"entry": entry, "turns": turns, "step": len(turns), "positions": {}}
    said = " ".join(s for s, _ in app.review_turn_words())
    assert "from your reserve" in said and "their reserve" not in said, said


def test_every_judged_move_carries_its_class_and_the_chart_marks_the_bad_ones(finished):
    """Issue 72: a jump of the line says why: each move's class and what it lost in the step view, the mistakes and
    blunders marked on the chart (on their mover's line) and named in the chart's text."""
    from splendor.ai.review import move_class
    storage, app = finished
    app.act("review", {})
    run_review(app)
    kept = app.review["data"]
    data = app.review["data"] = json.loads(json.dumps(kept))  # (changed here only: the stored review is kept)
    pos = data["positions"]
    names = app.review["entry"]["names"]
    # one of each class, on the review of this game, whoever moved: the words follow the loss
    cases = {"best": 0, "good": .04, "mistake": .15, "blunder": .31}
    judged = [t for t in range(1, len(pos) - 1) if "played" in pos[t]]
    picked = dict(zip(cases, judged[3:]))
    for cls, t in picked.items():
        pos[t]["best"] = round(min(1.0, pos[t]["played"] + cases[cls]), 4)
        cases[cls] = pos[t]["best"] - pos[t]["played"]
    html = view.render(app)
    chart = html.split('id="rv-chart"')[1].split("</svg>")[0]
    for cls, t in picked.items():
        mover = data["moves"][t - 1]["seat"]
        assert move_class(pos[t])[0] == cls
        app.act("review-step", {"to": str(t)})
        step = view.render(app).split('class="rv-move"')[1].split("</section>")[0]
        assert f'class="rv-class rv-{cls}"><b>{cls.capitalize()}</b>' in step
        if cls in ("mistake", "blunder"):
            points = round(100 * cases[cls])
            assert f"{points} points of chance below" in step
            x = 1000 * t / (len(pos) - 1)
            y = 100 * (1 - pos[t]["chances"][mover])
            assert f'class="rv-flag rv-{cls}" x1="{x:.1f}" x2="{x:.1f}" y1="{y:.1f}"' in chart
            assert f"move {t} ({names[mover]})" in html.split('id="rv-chart-desc">')[1].split("</desc>")[0]
        else:
            assert f'rv-flag rv-{cls}' not in chart
    app.act("review-step", {"to": str(picked["best"])})
    assert "the move the expert would have played" in view.render(app)
    for t in judged:  # every judged move has its class in the step view
        if t in picked.values():
            continue
        app.act("review-step", {"to": str(t)})
        assert 'class="rv-class rv-' in view.render(app)
    app.review["data"] = kept
    app.act("review-close", {})
