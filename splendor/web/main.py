"""PLACEHOLDER main-thread entry (infrastructure smoke test); the web engineer replaces it.

Shows the two patterns the real front end needs:
  1. mark the page ready as soon as the main interpreter runs;
  2. afterwards, create the AI worker lazily and call its exported function (JSON text in/out).
See docs/STACK-NOTES.md.
"""

import asyncio
import json

import js
from pyscript import create_named_worker, document

WORKER_NAME = "ai"
_tasks = set()  # keep a reference so the task is not garbage-collected


def set_text(element_id, text):
    document.getElementById(element_id).textContent = text


async def start_worker():
    # No config argument on purpose: the worker then inherits the main thread's parsed
    # pyscript.toml (local interpreter, [files], sync_main_only). See docs/STACK-NOTES.md.
    try:
        worker = await create_named_worker(src="./splendor/web/worker.py", name=WORKER_NAME)
        answer = await worker.ping(json.dumps({"hello": "worker"}))
        reply = json.loads(answer)
    except Exception as error:  # the real game falls back to a main-thread bot here
        js.console.error(f"AI worker failed: {error!r}")
        set_text("worker-answer", "unavailable")
        return
    set_text("worker-answer", f"{reply['pong']} (Python {reply['python']})")
    document.body.dataset.worker = "1"


set_text("status", "ready")
document.body.dataset.ready = "1"
# Start the worker without blocking this script: the page is usable while the worker boots.
_task = asyncio.ensure_future(start_worker())
_tasks.add(_task)
_task.add_done_callback(_tasks.discard)
