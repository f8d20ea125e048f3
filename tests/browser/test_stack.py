"""Smoke test of the stack: vendored PyScript + Pyodide boot, the lazily created AI worker
answers, nothing is fetched from another host, and the console stays clean.

Contract with the page (keep it when replacing the placeholder):
  * body[data-ready="1"] once the main interpreter has run;
  * a named PyScript worker <script worker name="ai"> (may be created lazily) whose module
    exports ping(json_text) -> JSON text.
"""

import json

from browser_helpers import READY_TIMEOUT_MS, non_local, ping_worker, wait_ready

import splendor


def test_page_boots_and_worker_answers_locally(page, request_log, console_errors, site_url):
    page.set_default_timeout(READY_TIMEOUT_MS)
    page.goto("/")
    wait_ready(page)

    answer = ping_worker(page, {"hello": "from the test"})
    assert answer["pong"] == "pong"
    assert answer["echo"] == {"hello": "from the test"}
    # Both interpreters imported the package from the bytecode the build compiled (tools/compile_pyc.mjs), and
    # the package came as one zip, not module by module.
    assert page.evaluate("document.body.dataset.bytecode") == "compiled"
    assert answer["bytecode"] == "compiled"
    assert any(url.endswith("/splendor.zip") for url in request_log)
    assert not any(("/splendor/engine/" in url or "/splendor/ai/" in url)
                   and not url.endswith(("/splendor/ai/expert_model.json", "/splendor/ai/expert_net.json"))
                   # (the service worker precaches the expert's files)
                   for url in request_log)

    assert request_log, "no request was recorded"
    assert any(url.endswith("/runtime/pyodide/pyodide.asm.wasm") for url in request_log)
    assert non_local(request_log) == []
    assert all(url.startswith((site_url, "blob:" + site_url, "data:")) for url in request_log)
    assert console_errors == []


ASK_WORKER_JS = """async (text) => {
    const worker = document.querySelector('script[worker][name="ai"]').xworker;
    await worker.ready;
    return await worker.sync.choose(text);
}"""


def test_the_worker_plays_the_expert_with_its_shipped_weights(page, context, request_log, console_errors, site_url):
    """The expert level's model (value and policy) and network are fetched by the worker when an expert first plays,
    never by the page (they are not in the package zip; only the service worker precaches them, for offline play),
    and the expert answers a 2-player position with a legal move of its network's search (the WebAssembly kernel)."""
    fetched = []  # requests for the expert's files that are not the service worker's own precaching

    def seen(req):
        if req.url.endswith(("/splendor/ai/expert_model.json", "/splendor/ai/expert_net.json")) \
                and req.service_worker is None:
            fetched.append(req.url)

    context.on("request", seen)
    page.set_default_timeout(READY_TIMEOUT_MS)
    page.goto("/?pace=0")
    wait_ready(page)
    ping_worker(page, {"site": site_url})
    assert fetched == [], "the page or the worker's start fetched the expert's model before an expert played"
    game = splendor.new_game(players=2, seed=5)
    request = {"turn_id": 1, "observation": game.observation(0), "level": "expert", "seed": 3,
               "budget": {"iterations": 24}}
    reply = json.loads(page.evaluate(ASK_WORKER_JS, json.dumps(request)))
    assert "error" not in reply, reply
    assert reply["stats"]["level"] == "expert" and reply["stats"]["iterations"] >= 24
    assert splendor.parse_action(game, reply["action"]) in game.legal_actions()
    assert reply["explanation"]
    assert reply["stats"].get("net") is True, reply["stats"]  # the network's search, not the tree's
    assert reply["stats"].get("backend") == "wasm", reply["stats"]  # run by the WebAssembly kernel
    # once each, by the worker, for this first move
    assert fetched == [site_url + "splendor/ai/expert_model.json", site_url + "splendor/ai/expert_net.json"]
    again = json.loads(page.evaluate(ASK_WORKER_JS, json.dumps({**request, "turn_id": 2})))
    assert again["action"] == reply["action"]  # the same decision from the same files, read once
    assert len(fetched) == 2
    context.remove_listener("request", seen)
    assert non_local(request_log) == []
    assert console_errors == []
