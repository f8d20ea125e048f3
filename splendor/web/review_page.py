"""The review's page side: asks the bot worker for the review piece by piece (``splendor.ai.review.review_json``
through ``worker.review``), redrawing the progress after each, and the review screen's keys. No DOM handles of its
own: ``main.py`` passes its worker getter and its redraw."""

import asyncio
import json

from ..ai.review import review_json

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
                # No worker (off, or failed): the pieces are computed on this thread, one a frame, so the page
                # still answers between them (a piece is a few positions: a fraction of a second)
                await asyncio.sleep(0.02)
                if app.review is None or app.review["state"] != "computing":
                    return
                problem = await _model_here()
                if problem:
                    app.review_failed(problem)
                    render()
                    return
                status = app.review_reply(review_json(json.dumps(request)))
                if app.screen == "review":
                    render()
                if status in ("done", "failed"):
                    return
                continue

            async def call(worker=worker, text=json.dumps(request)):
                return str(await worker.review(text))

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


#: Where the site serves the expert's model, from the page's address (worker.py MODEL_PATH: the worker fetches it
#: into its own copy of the package; without the worker, the page does the same for its review).
MODEL_PATH = "splendor/ai/expert_model.json"


async def _model_here():
    """The expert's model in this thread's copy of the package (fetched beside the page once); None, or why not."""
    import os

    from ..ai import learned
    if os.path.exists(learned.MODEL_FILE):
        return None
    try:
        from pyodide.http import pyfetch  # Pyodide's own module: only in the browser

        response = await pyfetch(MODEL_PATH)
        if not response.ok:
            return f"the expert's model could not be loaded (error {response.status})"
        text = await response.string()
    except Exception as exc:  # offline without it, or no network: said on the review screen
        return f"the expert's model could not be loaded ({type(exc).__name__})"
    with open(learned.MODEL_FILE, "w", encoding="utf-8") as f:
        f.write(text)
    return None


def after_act(document, act, screen):
    """After a review's control was used and the page redrawn: a step chosen below the table is brought into view
    (``show_step``); leaving the review for the results puts the focus back on the button that opened it."""
    if act == "review-step":
        show_step(document)
    elif act == "review-close" and screen == "game":
        button = document.getElementById("review-game")
        if button is not None and hasattr(button, "focus"):
            button.focus()


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
    """The review screen's keys: arrows step, Home and End go to the deal and the end, Escape leaves. The control
    the key stood for ("review-step", "review-close"; the page then redraws), or None when the key is not the
    review's."""
    key = str(event.key)
    if event.altKey or event.ctrlKey or event.metaKey:
        return None
    if key == "Escape":
        app.act("review-close", {})
        return "review-close"
    if key in KEYS:
        event.preventDefault()
        app.act("review-step", KEYS[key])
        return "review-step"
    return None
