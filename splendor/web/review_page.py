"""The review's page side: asks the bot worker for the review piece by piece (``splendor.ai.review.review_json``
through ``worker.review``), redrawing the progress after each, and the review screen's keys. No DOM handles of its
own: ``main.py`` passes its worker getter and its redraw."""

import asyncio
import json

#: Seconds one piece may take in the worker before the review counts it as failed (a piece is a few positions).
PIECE_PATIENCE = 30.0

_running = {"task": False}


async def run_review(app, get_worker, render):
    """Compute the review on show, piece by piece, until it is whole, cancelled or failed (one run at a time)."""
    if _running["task"]:
        return
    _running["task"] = True
    try:
        while True:
            request = app.review_request()
            if request is None:
                return
            worker = await get_worker()
            if worker is None:
                app.review_failed("the bot helper is not running, so the game cannot be reviewed now")
                render()
                return
            async def call():
                return str(await worker.review(json.dumps(request)))

            try:
                reply = await asyncio.wait_for(call(), timeout=PIECE_PATIENCE)
            except asyncio.TimeoutError:
                app.review_failed("the bot helper took too long")
                render()
                return
            except Exception as exc:  # the worker failed: said on the review screen, the game is untouched
                app.review_failed(f"the bot helper stopped working ({type(exc).__name__})")
                render()
                return
            status = app.review_reply(reply)
            if app.screen == "review":
                render()
            if status in ("done", "failed"):
                return  # (a stale answer: the review was cancelled, or asked again; the loop asks what is due)
    finally:
        _running["task"] = False


def show_step(document):
    """After a step chosen below the table (a turning point's button), bring the steps and the table into view."""
    active = document.activeElement
    if active is None or not hasattr(active, "closest") or not active.closest(".rv-turning"):
        return
    steps = document.querySelector(".rv-steps")
    if steps is not None and hasattr(steps, "scrollIntoView"):
        steps.scrollIntoView()


KEYS = {"ArrowLeft": {"by": -1}, "ArrowRight": {"by": 1}, "Home": {"to": "start"}, "End": {"to": "end"}}


def on_key(app, event):
    """The review screen's keys: arrows step, Home and End go to the deal and the end, Escape leaves. True when
    the key was used (the page then redraws)."""
    key = str(event.key)
    if event.altKey or event.ctrlKey or event.metaKey:
        return False
    if key == "Escape":
        app.act("review-close", {})
        return True
    if key in KEYS:
        event.preventDefault()
        app.act("review-step", KEYS[key])
        return True
    return False
