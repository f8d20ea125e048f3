"""The page's main thread (PyScript): render, listen, save, and run the bots' turns through the worker.

Everything that decides lives in ``controller.App`` (tested under CPython); this module only connects it to the
browser: one delegated click listener, ``localStorage``, the lazily created bot worker, timers.

URL settings for tests and benchmarks (not shown on the page): ``pace=<seconds>`` how long each bot's move is on the
table before the next one is drawn (default: the Bot speed option, 1.3 s or 0.6 s), ``bot_budget=<seconds>`` or
``bot_budget=iterations:<n>``, ``worker=off`` (play the light bot on this thread, as when the worker cannot start),
``bot_patience=<seconds>`` (how long past its budget a worker's answer may take before it counts as hung; default
8), ``worker_boot=<seconds>`` (how long the bot worker may take to start and answer its first call before the page
plays without it; default 20). Test hook, for tests/browser/test_worker_faults.py only:
``test_worker_fault=crash|hang|stale`` asks the worker to fail that way on every move, ``test_worker_fault=silent``
never to answer its first call (see worker.py).
"""

import asyncio
import json
import time

import js

js.performance.mark("splendor-main")  # timeline for tools/bench_page.py: Python is running our code

from pyodide.ffi import create_once_callable, create_proxy, jsnull  # noqa: E402
from pyscript import create_named_worker, document  # noqa: E402

from splendor.web import learn_page, records_page, review_page, view  # noqa: E402
from splendor.web.bytecode import bytecode_state  # noqa: E402
from splendor.web.controller import App  # noqa: E402
from splendor.web.puzzles import state as puzzle_state  # noqa: E402
from splendor.web.records import records_io  # noqa: E402
from splendor.web.records.storage import Storage, StorageError  # noqa: E402
from splendor.web.table import keyboard, pass_view  # noqa: E402

js.performance.mark("splendor-imported")

WORKER_NAME = "ai"
WORKER_SRC = "./splendor/web/worker.py"
WORKER_BOOT_LIMIT = 20.0  # seconds the worker may take to start and answer its first call, once per visit
EXTRA_THINK = 8.0  # seconds beyond its budget after which a worker's answer counts as hung


def _seconds(name, default, low, high):
    try:
        return max(low, min(high, float(param(name) or default)))
    except ValueError:
        return default


def _patience():
    return _seconds("bot_patience", EXTRA_THINK, 0.1, 60.0)


def light_answer(request_text):
    """The light bot on this thread (imported only when needed: the page starts faster without the bots)."""
    from splendor.web import botcall

    body = document.body.dataset  # counted for the tests: how many moves it played, at which levels
    body.lightMoves = str(int(getattr(body, "lightMoves", None) or 0) + 1)
    body.lightLevels = f"{getattr(body, 'lightLevels', None) or ''} {botcall.light_level(request_text)}".strip()
    return botcall.answer(request_text, light=True)


def _same_here(level):
    from splendor.web import botcall

    return botcall.same_here(level)


def _null(x):
    return x is None or x is jsnull


class LocalStorage(Storage):
    """``window.localStorage`` behind the Storage interface; every failure becomes a StorageError in words."""

    def __init__(self):
        try:
            self.ls = js.window.localStorage
            if _null(self.ls):
                self.ls = None
        except Exception:  # a SecurityError when storage is disabled
            self.ls = None

    def _store(self):
        if self.ls is None:
            raise StorageError("this browser does not allow saving here")
        return self.ls

    def get(self, key):
        try:
            value = self._store().getItem(key)
        except StorageError:
            raise
        except Exception as exc:
            raise StorageError(f"reading failed: {exc}") from None
        return None if _null(value) else str(value)

    def set(self, key, value):
        try:
            self._store().setItem(key, value)
        except StorageError:
            raise
        except Exception as exc:
            text = str(exc)
            if "quota" in text.lower():
                raise StorageError("storage is full") from None
            raise StorageError(f"saving failed: {text}") from None

    def remove(self, key):
        try:
            self._store().removeItem(key)
        except StorageError:
            raise
        except Exception as exc:
            raise StorageError(f"removing failed: {exc}") from None

    def keys(self):
        store = self._store()
        try:
            return [str(store.key(i)) for i in range(int(store.length))]
        except Exception as exc:
            raise StorageError(f"listing failed: {exc}") from None


def _params():
    params = js.URLSearchParams.new(js.location.search)

    def get(name):
        value = params.get(name)
        return None if _null(value) else str(value)

    return get


param = _params()


#: Seconds each bot's move is on the table before the next one is drawn, by the Bot speed option: its pieces fly
#: (about half a second), then the table holds still long enough to read what changed.
PACES = {"normal": 1.3, "fast": 0.6}
END_HOLD = 1.5  # seconds the final table is shown, once the last move's pieces have landed, before the results
END_HOLD_REDUCED = 0.6  # the same with reduced motion: nothing flies, the last move is simply drawn


def _reduced():
    return bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)


def _pace_param():
    """The address's ``pace`` (tests, benchmarks), or None: then the Bot speed option decides."""
    try:
        return max(0.0, min(5.0, float(param("pace")))) if param("pace") else None
    except ValueError:
        return None


def pace():
    """Seconds between two bots' moves drawn (0 with reduced motion: nothing moves, so nothing needs waiting for)."""
    if _reduced():
        return 0.0
    return PACE_PARAM if PACE_PARAM is not None else PACES.get(app.settings.get("pace"), PACES["normal"])


def _budget():
    text = param("bot_budget")
    if not text:
        return None
    try:
        if text.startswith("iterations:"):
            return {"iterations": max(1, int(text.split(":", 1)[1]))}
        return {"seconds": max(0.01, float(text))}
    except ValueError:
        return None


PACE_PARAM = _pace_param()
THINKING_SHOWN_AFTER = 0.1  # seconds: a bot's "thinking" is shown only when its answer takes longer
PATIENCE = _patience()
BOOT_LIMIT = _seconds("worker_boot", WORKER_BOOT_LIMIT, 0.5, 120.0)
# TEST HOOK: only tests set it (a URL setting); each move request (or, for "silent", the first call) then asks the
# worker to fail in that way.
TEST_FAULT = param("test_worker_fault") if param("test_worker_fault") in ("crash", "hang", "stale", "silent") else None
app = App(LocalStorage(), bot_budget=_budget())
app.paced = True  # each move is seen before what follows it (shown, show_done, release_end)
root = document.getElementById("app")
keys = keyboard.Keys(document, root)
announcer = document.getElementById("announce")
_tasks = set()
_listeners = []
state = {"worker": None, "worker_failed": param("worker") == "off", "opener": "", "bots": None, "booting": None}


def spawn(coro):
    task = asyncio.ensure_future(coro)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
    task.add_done_callback(_report)
    return task


def _report(task):
    if not task.cancelled() and task.exception() is not None:
        js.console.error(f"Splendor: {task.exception()!r}")


# -- rendering -----------------------------------------------------------------------------------------------------
def render():
    active = document.activeElement
    active_id = "" if _null(active) else str(active.id or "")
    was_in_dialog = not _null(active) and not _null(active.closest('[role="dialog"]'))
    by_keyboard = not _null(active) and bool(active.matches(":focus-visible"))
    motion = getattr(js.window, "splendorMotion", None)
    changes = app.take_changes()
    if changes and not _null(motion):
        motion.before()
    html = view.render(app)
    patch = getattr(js.window, "splendorPatch", None)
    if _null(patch):
        root.innerHTML = html
    else:
        patch(root, html, bool(changes), keys.marks())  # only what changed is redrawn (assets/patch.js)
    if any(c["kind"] != "deal" for c in changes):  # (a person's move was marked when its pieces flew: answer_first)
        moved()
    if changes and not _null(motion):
        motion.after(json.dumps(changes))
    state["moment_keep"] = ""
    if app.moment and app.moment["n"] != state.get("moment_said"):
        # A noble won, the final round, the end: said with what was just said, and kept for the next words.
        state["moment_said"] = app.moment["n"]
        said = str(announcer.textContent or "") if not _null(announcer) else ""
        announce(f"{said} {app.moment['text']}".strip() if app.moment["text"] not in said else said)
        state["moment_keep"] = app.moment["text"]
        spawn(_moment_ends(app.moment["n"]))
    if app.end_held and not state.get("releasing"):
        document.body.dataset.ending = "1"  # until the results open (tests wait for it to go)
        state["releasing"] = spawn(release_end())
    place_moment()
    document.body.dataset.pace = f"{pace():g}"  # (read by the tests: the Bot speed in force)
    handover = pass_view.handover_words(app)  # pass and play: the hand-over screen is said once
    if handover and handover != state.get("handover_said"):
        said = str(announcer.textContent or "") if not _null(announcer) else ""
        announce(f"{said} {handover}".strip() if said and app.flash and app.flash["text"] in said else handover)
    state["handover_said"] = handover
    if state.get("screen") != app.screen:  # a new screen opens at its top (not where the last one was scrolled)
        state["screen"] = app.screen
        js.window.scrollTo(0, 0)
    dialog = document.querySelector('[role="dialog"]')
    if not _null(dialog):
        target = document.getElementById(active_id) if active_id else None
        if _null(target) or not dialog.contains(target):
            target = dialog.querySelector("button:not([aria-disabled='true'])")
            if _null(target):
                target = dialog.querySelector("button")
        if not _null(target):
            target.focus()
        return
    # No dialog: focus stays where it was, or (the dialog that had it just closed) goes back to what opened it.
    target = None
    for wanted in ((active_id if not was_in_dialog else ""), state["opener"]):
        if wanted:
            target = document.getElementById(wanted)
            if not _null(target):
                break
    if _null(target) and was_in_dialog:
        target = document.getElementById("results")  # the end dialog was hidden: its way back
    if not _null(target):
        target.focus()
    elif active_id and by_keyboard and app.game is not None and app.screen == "game":
        keys.fallback_focus()  # only for keyboard use: a tap must not scroll the page to the supply
    state["opener"] = ""


def moved():
    """A move is on the page (drawn, or its pieces flying: answer_first): the pace of the next bot counts from now."""
    state["moved_at"] = time.perf_counter()
    js.performance.mark("splendor-move")  # tests: a bot's reply must not land in the frame of the person's move


def pace_left():
    """Seconds until the last move has been on the table long enough for the next bot's reply to be drawn."""
    return state.get("moved_at", 0.0) + pace() - time.perf_counter()


def landed():
    """An awaitable that ends once every piece in flight has landed (assets/motion.js)."""
    done = asyncio.get_event_loop().create_future()
    motion = getattr(js.window, "splendorMotion", None)
    if _null(motion):
        done.set_result(True)
    else:
        motion.landed(create_once_callable(lambda: done.done() or done.set_result(True)))
    return done


async def shown():
    """Until the last move drawn has been seen: its pieces landed and the pace over."""
    await person_move_drawn()
    wait = pace_left()
    if wait > 0:
        await asyncio.sleep(wait)
    await landed()


def show_done(showing):
    """The move named by the status has been seen: the status names who plays now (or the hand-over screen comes,
    pass and play)."""
    if app.showing is not showing or showing is None:
        return
    app.showing = None
    render()


async def release_end():
    """The game is over: its last move is seen (its pieces land, the status names it), the final table is held a
    moment, and then the results open."""
    try:
        await shown()
        show_done(app.showing)
        await asyncio.sleep(END_HOLD_REDUCED if _reduced() else END_HOLD)
        if app.end_held:
            app.end_held = False
            app.showing = None
            render()
            announce(app.result_words())
    finally:
        state["releasing"] = None
        if not app.end_held:
            del document.body.dataset.ending


def place_moment(_event=None):
    """A moment's banner never covers a player's panel, and on phones the page's notes lie over the market instead
    of pushing the table down (assets/motion.js placeBanner, placeNotes); again when the screen turns."""
    motion = getattr(js.window, "splendorMotion", None)
    if _null(motion) or app.game is None or app.screen != "game":
        return
    motion.placeNotes()
    banner = document.getElementById("moment")
    if not _null(banner):
        motion.placeBanner(banner)


async def _moment_ends(n, seconds=4.5):
    """A moment is brief: its banner goes after a few seconds (or at the person's next move, or its ×)."""
    await asyncio.sleep(seconds)
    if app.moment and app.moment["n"] == n:
        app.moment = None
        banner = document.getElementById("moment")  # only the banner goes: a redraw now could swallow a tap
        if not _null(banner):
            banner.remove()


def announce(text):
    if not _null(announcer) and text:
        keep = state.get("moment_keep")
        announcer.textContent = f"{keep} {text}" if keep and keep not in text else text


# -- input -----------------------------------------------------------------------------------------------------------
def on_click(event):
    el = event.target.closest("[data-act]")
    if _null(el) or not root.contains(el):
        return
    act = str(el.dataset.act)
    data = {str(pair[0]): str(pair[1]) for pair in js.Object.entries(el.dataset) if str(pair[0]) != "act"}
    if act in ("start", "again", "guided-start", "daily"):
        data = form_values() if act != "again" else {}
    if act in ("card", "howto"):
        state["opener"] = str(el.id or "")
    if act == "review":
        state["opener"] = "review-close"  # the review opens with its first control focused
    if act == "copy-link":
        data["base"] = learn_page.page_base()
    if act == "export-record":
        records_page.download(*app.record_export())
    keys.remember(el)
    if act == "export-game":  # a download: nothing on the page changes
        if app.game is not None:
            records_page.download(*records_io.export_game(app))
        return
    before = len(app.game.history) if app.game else -1
    had_dialog = app.selected is not None
    app.act(act, data)
    if had_dialog and app.selected is None and not state["opener"]:
        state["opener"] = ""
    if not answer_first(act, before):
        after_click(act, before)


def answer_first(act, before):
    """A tap that applied a move is answered in its own frame: the pieces it moves fly at once from where they are
    drawn (a card or noble that flies leaves its place; the dialog the move was made in goes). The controls of the
    move fade (``.committing``, assets/style.css) and the bot is asked in the next frame, and the page is redrawn
    into the move when the pieces have landed (with ``?pace=0``, in the frame after); the bot's reply is drawn only
    after that. Redrawing first made the tap wait for the whole redraw before anything moved (about 200 ms with the
    CPU slowed 4x), and a redraw while the pieces fly stalls their frames. The new market
    card is dealt from its deck after the redraw, to where it is drawn. False (nothing done) without motion (reduced
    motion, nothing moved): the tap waits for its redraw, as a tap that moves nothing does."""
    motion = getattr(js.window, "splendorMotion", None)
    if _null(motion) or not app.changes or motion.reduced():
        return False
    early = [c for c in app.changes if c["kind"] != "deal"]
    if not early:
        return False
    app.changes = [c for c in app.changes if c["kind"] == "deal"]
    motion.now(json.dumps(early))
    document.body.dataset.answering = "1"  # until the page is redrawn into the move (tests wait for it to go)
    moved()
    drawn = state["drawn"] = asyncio.get_event_loop().create_future()  # a bot's move waits for it: person_move_drawn

    def settle():
        try:
            after_click(act, before, asked=True)
        finally:
            del document.body.dataset.answering
            if not drawn.done():
                drawn.set_result(True)

    def fade_and_ask():
        motion.committing()
        start_bots(act, before)
        (motion.landed if pace() > 0 else motion.afterPaint)(create_once_callable(settle))

    motion.afterPaint(create_once_callable(fade_and_ask))
    return True


def after_click(act, before, asked=False):
    """The rest of a tap: the redraw, then what it starts (a hint, a copy, the bots unless ``asked``)."""
    render()
    if act == "hint" and app.message.startswith("Looking"):
        spawn(run_hint())
    if act == "copy-link" and app.link_copy:
        spawn(copy_link())
    if act == "puzzles" and app.pool_wanted is not None:
        spawn(load_pool())
    if act in ("review", "review-retry") and app.screen == "review":
        spawn(review_page.run_review(app, get_worker, render))
    if act.startswith("review"):
        review_page.after_act(document, act, app.screen)
    if app.guide_fault:
        js.console.warn(f"Splendor: the guide went quiet ({app.guide_fault})")
        app.guide_fault = ""
    if not asked:
        start_bots(act, before)


def start_bots(act, before):
    """After a tap: the bots play if it moved or started a game (``before``: the length of the history then)."""
    after = len(app.game.history) if app.game else -1
    if after != before or act in ("start", "again", "undo", "back", "guided-start", "link-continue", "pass-ok",
                                  "daily"):
        if act in ("undo", "start", "again", "guided-start", "daily"):
            app.awaiting = None
        if app.bot_to_move() is not None:
            announce(f"{app.name(app.game.current_player)} is thinking.")
        schedule_bots()


def form_values():
    values = {}
    for el in document.querySelectorAll("[data-setting]"):
        name = str(el.dataset.setting)
        kind = str(el.type)
        if kind == "radio":
            if el.checked:
                values[name] = str(el.value)
        elif kind == "checkbox":
            values[name] = bool(el.checked)
        else:
            values[name] = str(el.value)
    return values


def on_change(event):
    el = event.target
    if not _null(el) and str(el.id or "") == "import-file":
        spawn(open_game_file(el))
        return
    if _null(el) or _null(el.dataset) or _null(el.dataset.setting) or not root.contains(el):
        return
    name = str(el.dataset.setting)
    value = bool(el.checked) if str(el.type) == "checkbox" else str(el.value)
    app.act("setting", {"name": name, "value": value})
    if name == "opponents" or name.startswith("level") or (
            (name.startswith("pname") or name == "name") and pass_view.several(app)):
        render()  # a seat became a person (its name field appears), or a person's name names their seat


def on_submit(event):
    """Enter in a field of the new-game form starts the game (the form is never sent anywhere)."""
    event.preventDefault()
    app.act("start", form_values())
    render()
    schedule_bots()


def on_key(event):
    used = review_page.on_key(app, event) if app.screen == "review" else None
    if used:
        render()
        review_page.after_act(document, used, app.screen)
        return
    if keys.on_key(event):  # arrows in the market and supply, Tab kept inside an open dialog
        return
    if str(event.key) == "Escape":
        if app.howto is not None:
            app.act("howto-close", {})
            render()
        elif app.selected is not None:
            app.act("cancel" if app.confirming else "close", {})
            render()
        elif app.game is not None and app.game.is_over and app.show_end:
            app.act("hide-end", {})
            render()


# -- bots ------------------------------------------------------------------------------------------------------------
def schedule_bots():
    task = state["bots"]
    if task is None or task.done():
        state["bots"] = spawn(run_bots())


async def run_bots():
    last_seat = None
    while True:
        seat = app.bot_to_move()
        if seat is None:
            if last_seat is not None:
                # The last bot's move is seen before the status says whose turn it is (or the hand-over screen
                # covers the table).
                showing = app.showing
                await shown()
                show_done(showing)
            if last_seat is not None and app.my_turn:
                first = state.pop("say_first", "")
                announce(f"{first} {app.flash['text'] if app.flash else ''} Your turn.".strip())
            return
        if last_seat is not None and seat == last_seat:
            # A follow-up decision of the same bot (returning tokens, choosing a noble) comes sooner than a turn.
            await asyncio.sleep(pace() / 3)
            if app.bot_to_move() != seat:
                continue
        request = app.bot_request()
        if request is None:
            return
        asking = asyncio.ensure_future(ask(request))  # the bot starts thinking while the last move is shown
        animating = pace_left()
        # No redraw while the last move is shown, unless the bot takes longer; and none for a bot that answers
        # at once (a "thinking" that would flash for a frame costs a whole redraw of the table).
        await asyncio.wait({asking}, timeout=max(animating, THINKING_SHOWN_AFTER))
        await person_move_drawn()
        if not asking.done():
            app.showing = None  # the last move has been seen: the status says who thinks now
            render()  # "Bot 1 is thinking…"
        reply = await asking
        # The reply waits until the move before it has been seen (it animates meanwhile), however fast the bot was.
        await person_move_drawn()
        wait = pace_left()
        if wait > 0:
            await asyncio.sleep(wait)
        result = app.bot_reply(reply)
        if result == "stale" and _turn_id(reply) != request["turn_id"] and app.awaiting is not None \
                and app.awaiting["turn_id"] == request["turn_id"]:
            # The worker answered another question than the one asked (an old position): it is out of step.
            worker_failed("the bot helper answered for an old position")
            result = app.bot_reply(light_answer(json.dumps(request)))
        if result.startswith("error"):
            js.console.warn(f"Splendor: the bot's answer was refused ({result}); the light bot plays instead")
            app.bot_failed()
            request = app.bot_request()
            if request is None:
                continue
            result = app.bot_reply(light_answer(json.dumps(request)))
            if result.startswith("error"):
                app.bot_failed()
                app.message = f"The bot could not move ({result[7:]})."
                render()
                return
        if result == "applied":
            last_seat = seat
            await rest_of_returns(seat)
            if app.flash:
                announce(app.flash["text"])
        render()


async def rest_of_returns(seat):
    """A bot that holds more than 10 tokens gives them all back in one motion: its further returns are asked and
    applied before the page is drawn again (one redraw, the tokens flying back together), and the flash and the
    status tell them as one move. A refused or stale answer leaves the rest to run_bots, one at a time."""
    g = app.game
    if g is None or g.phase != "return" or app.bot_to_move() != seat or not app.flash or app.flash["kind"] != "return":
        return  # (the take before the returns is drawn and seen first)
    colors = list(app.flash["colors"])
    while g.phase == "return" and app.bot_to_move() == seat and not g.is_over:
        request = app.bot_request()
        if request is None:
            return
        if app.bot_reply(await ask(request)) != "applied":
            app.bot_failed()
            return
        if app.flash and app.flash["kind"] == "return":
            colors += app.flash["colors"]
    if len(colors) > 1 and app.flash and app.flash["kind"] == "return":
        counts = {c: colors.count(c) for c in colors}
        said = (view.words.join_words([c for c in view.words.TOKEN_COLORS if c in counts]) if max(counts.values()) == 1
                else view.words.counts_words(counts))  # ("white and red", or "2 white and 1 red")
        name = app.name(seat)
        app.flash = dict(app.flash, colors=colors, text=f"{name} returned {said}.", short=f"{name} returned {said}.")
        if app.showing:
            app.showing = dict(app.showing, text=app.flash["short"])


async def person_move_drawn():
    """Until the page is redrawn into the person's last move (answer_first: its pieces may still fly when the pace
    is over, on a slow machine): a bot's move drawn before it would be redrawn over, mid-flight."""
    drawn = state.get("drawn")
    if drawn is not None and not drawn.done():
        await drawn


async def ask(request):
    """The worker's answer to a request; on this thread (light bot) when the worker failed or hangs."""
    text = json.dumps(request)
    if state["worker"] is None and request.get("mode") != "hint" and _same_here(request.get("level")):
        # The worker is still starting (a bot that plays first, just after the page opened): a level that does
        # not search plays the very same move on this thread, at once, instead of waiting for the worker.
        return light_answer(text)
    worker = await get_worker()
    if worker is None:
        return light_answer(text)
    budget = request.get("budget") or {}
    limit = float(budget.get("seconds", 2.0)) + PATIENCE
    asked = json.dumps(dict(request, test_fault=TEST_FAULT)) if TEST_FAULT and request.get("mode") != "hint" else text

    async def call():
        return str(await worker.choose(asked))

    started = time.perf_counter()
    try:
        answer = await asyncio.wait_for(call(), timeout=limit)
    except asyncio.TimeoutError:  # a hang: stop it (it would burn a core), play on without it
        worker_failed(f"the bot helper took more than {limit:g} seconds to answer", stop=True)
        return light_answer(text)
    except Exception as exc:  # a crash: play on without the worker
        js.console.warn(f"Splendor: the bot helper failed: {exc}")
        worker_failed(f"the bot helper stopped working ({type(exc).__name__})")
        return light_answer(text)
    document.body.dataset.botMs = str(round((time.perf_counter() - started) * 1000))
    return answer


async def get_worker():
    """The worker, once it has started and answered its first call; None when it failed or did not start within
    the boot limit (then every later move is played on this thread at once, without waiting again)."""
    if state["worker_failed"]:
        return None
    if state["worker"] is None:
        boot = start_worker()
        if boot is not None:
            if not boot.done():  # this request waits for the worker to start: counted for the tests to read
                state["boot_waits"] = state.get("boot_waits", 0) + 1
                document.body.dataset.bootWaits = str(state["boot_waits"])
            try:
                await asyncio.shield(boot)  # the boot itself ends by the boot limit, counted from its start
            except asyncio.CancelledError:
                if not boot.cancelled():
                    raise  # this move itself was cancelled, not the boot
    return None if state["worker_failed"] else state["worker"]


def start_worker():
    if state["booting"] is None and not state["worker_failed"]:
        _listen_for_load_errors()
        state["booting"] = spawn(_boot_worker())
    return state["booting"]


async def _boot_worker():
    """Create the worker and wait for its answer to a first call (its Python ran and exported the bots): within
    BOOT_LIMIT seconds, or the page plays without it. A failure the browser reports earlier (its script missing, its
    package unreadable, an import that fails) ends the wait at once."""
    started = time.perf_counter()
    try:
        worker = await asyncio.wait_for(_start_and_greet(), timeout=BOOT_LIMIT)
    except asyncio.TimeoutError:
        worker_failed(f"the bot helper did not start within {BOOT_LIMIT:g} seconds", stop=True)
        return
    except asyncio.CancelledError:
        raise  # worker_failed() cancelled the boot: a load error was reported meanwhile
    except Exception as exc:
        js.console.warn(f"Splendor: the bot helper could not start: {exc!r}")
        worker_failed("the bot helper could not start", stop=True)
        return
    if state["worker_failed"]:
        _stop_worker()  # a late start, after the page gave up on it: ignored, and stopped
        return
    state["worker"] = worker
    document.body.dataset.worker = "1"
    document.body.dataset.workerBootMs = str(round((time.perf_counter() - started) * 1000))


async def _start_and_greet():
    created = asyncio.ensure_future(create_named_worker(src=WORKER_SRC, name=WORKER_NAME))
    watch = asyncio.ensure_future(_worker_ready())
    try:
        await asyncio.wait({created, watch}, return_when=asyncio.FIRST_COMPLETED)
        if watch.done() and watch.exception() is not None:
            raise watch.exception()  # its Python failed (a package that cannot be read or imported)
        worker = await created
    finally:
        for task in (created, watch):
            if not task.done():
                task.cancel()
    hello = {"hello": "page", "site": str(js.document.baseURI).split("?")[0].split("#")[0].rsplit("/", 1)[0] + "/"}
    if TEST_FAULT == "silent":
        hello["test_fault"] = "silent"
    reply = json.loads(str(await worker.ping(json.dumps(hello))))
    if not isinstance(reply, dict) or reply.get("pong") != "pong":
        raise RuntimeError(f"unexpected answer to its first call: {reply!r}")
    return worker


async def _worker_ready():
    """Ends when the worker's Python has run its module; raises when it failed (PyScript rejects the worker's
    ``ready`` promise then, while the promise of the named worker stays open)."""
    while True:
        script = document.querySelector(f'script[worker][name="{WORKER_NAME}"]')
        if not _null(script) and not _null(getattr(script, "xworker", None)):
            break
        await asyncio.sleep(0.05)
    await script.xworker.ready


def _listen_for_load_errors():
    """PyScript fetches the worker's script on this thread and reports a failure (a 404, the network) only as an
    unhandled rejection, while the promise of the worker never settles: that report ends the boot at once."""
    def on_rejection(event):
        reason = "" if _null(event.reason) else str(getattr(event.reason, "message", None) or event.reason)
        if state["worker"] is not None or state["worker_failed"]:
            return
        if WORKER_SRC.lstrip("./") not in reason:
            if reason in NETWORK_ERRORS:  # a fetch that failed on the network names no address: was it the script?
                spawn(_check_worker_script())
            return
        event.preventDefault()  # told to the person in words below, not left as an uncaught error
        js.console.warn(f"Splendor: the bot helper's script could not be loaded: {reason}")
        status = reason[1:4] if reason.startswith("[") and reason[1:4].isdigit() else ""
        worker_failed("the bot helper's file could not be loaded" + (f" (error {status})" if status else ""),
                      stop=True)

    proxy = create_proxy(on_rejection)
    _listeners.append(proxy)
    js.window.addEventListener("unhandledrejection", proxy)


#: What a browser's fetch rejects with when the request fails on the network (Chromium, Firefox, Safari).
NETWORK_ERRORS = ("Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed")


async def _check_worker_script():
    """A fetch failed on the network while the worker starts: if the worker's script cannot be fetched either, the
    worker will never start (PyScript's promise of it never settles), so the page plays without it at once rather
    than after the boot limit."""
    try:
        response = await js.fetch(WORKER_SRC, js.Object.fromEntries([["cache", "no-store"]]))
        fetched = bool(response.ok)
    except Exception:  # the network again
        fetched = False
    if not fetched and state["worker"] is None:
        js.console.warn("Splendor: the bot helper's script could not be loaded (a network error)")
        worker_failed("the bot helper's file could not be loaded (a network error)", stop=True)


def _turn_id(reply):
    try:
        data = json.loads(reply) if isinstance(reply, str) else reply
        return data.get("turn_id") if isinstance(data, dict) else None
    except ValueError:
        return None


def _stop_worker():
    try:
        script = document.querySelector(f'script[worker][name="{WORKER_NAME}"]')
        if not _null(script) and not _null(script.xworker):
            script.xworker.terminate()
    except Exception as exc:  # already gone: nothing to stop
        js.console.warn(f"Splendor: could not stop the bot helper ({exc})")


def worker_failed(reason, stop=False):
    """Play without the worker from now on (this visit), and tell the person once."""
    if state["worker_failed"]:
        return  # told already (or the worker is off by the address's setting, and the page says so)
    state["worker_failed"] = True
    state["worker"] = None
    boot = state["booting"]
    if boot is not None and not boot.done() and boot is not asyncio.current_task():
        boot.cancel()  # a move waiting for the boot goes on at once, on this thread
    if stop:
        _stop_worker()
    app.fallback_note = (f"Bots now think on this page's own thread, at a lighter level: {reason}. The game goes on; "
                         "reload the page to try the full bots again.")
    document.body.dataset.worker = "failed"
    # Said with "Your turn" (a bot's move announced meanwhile would replace it before a screen reader said it).
    state["say_first"] = f"The bots switched to a lighter level: {reason}."
    render()


async def copy_link():
    """The end screen's link to the deal: on the clipboard, or shown in a field to copy by hand."""
    app.link_copied(await learn_page.copy_text(app.link_copy["url"]))
    render()
    if app.link_copy["state"] == "manual":
        field = document.getElementById("deal-url")
        if not _null(field):
            field.focus()
            field.select()


async def open_game_file(input_el):
    """A game file was picked on the new-game screen: open its game (checked move by move) or say why not."""
    picked = await records_page.picked_file(input_el)
    if picked is None:
        return
    opened = records_io.open_file(app, picked[1], picked[0])
    render()
    if opened:
        app.awaiting = None
        announce("Game opened from the file.")
        schedule_bots()
    else:
        announce("The file could not be opened.")


async def load_pool():
    """Fetch the puzzle pool the first time puzzles are opened (the service worker keeps it for offline use)."""
    try:
        response = await js.fetch(puzzle_state.POOL_URL)
        if not response.ok:
            raise OSError(f"the server answered {response.status}")
        text = str(await response.text())
    except Exception as exc:  # (offline before the pool was ever loaded, a failed deploy)
        app.pool_loaded(None, f"The puzzles could not be loaded ({exc}). They load once while online, then work "
                              "offline too.")
    else:
        app.pool_loaded(text)
        keeper = getattr(getattr(js.window, "splendorPwa", None), "keep", None)
        if not _null(keeper):
            keeper(puzzle_state.POOL_URL)  # (kept for offline use, even on a first visit)
    render()


def today():
    """The person's calendar day, from the browser's clock and time zone ("2026-12-07")."""
    now = js.Date.new()
    return f"{now.getFullYear()}-{int(now.getMonth()) + 1:02d}-{int(now.getDate()):02d}"


async def run_hint():
    request = app.hint_request()
    if request is None:
        return
    reply = await ask(request)
    if app.hint_reply(reply) != "applied":
        app.message = "No hint this time."
    render()


# -- start ---------------------------------------------------------------------------------------------------------
def start():
    app.today = today
    if param("worker") == "off":
        app.fallback_note = "Bots think on this page's own thread, at a lighter level (the bot helper is off)."
    app.load()
    learn_page.drop_params(app.open_link(learn_page.query_pairs()))  # a deal link fills the new-game screen
    js.performance.mark("splendor-loaded")
    render()
    for kind, handler in (("click", on_click), ("change", on_change), ("submit", on_submit), ("keydown", on_key),
                          ("resize", place_moment)):
        proxy = create_proxy(handler)
        _listeners.append(proxy)
        {"keydown": document, "resize": js.window}.get(kind, root).addEventListener(kind, proxy)
    document.body.dataset.ready = "1"
    js.performance.mark("splendor-ready")
    document.body.dataset.bytecode = bytecode_state()
    # The worker boots after the page is usable, so the two do not compete for the first paint.
    start_worker()
    schedule_bots()


start()
