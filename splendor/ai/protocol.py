"""The bots' worker protocol: JSON text in, JSON text out, never an exception.

The page sends the observation of the seat to act (``game.observation(seat)``) and gets back the action's notation:

    request  {"turn_id": 17, "observation": {...}, "level": "hard", "seed": 4711,
              "budget": {"seconds": 0.8}}                      # or {"iterations": 300}; optional
    response {"turn_id": 17, "action": "buy 2G2:4w2u1k", "explanation": "buys the level 2 green card ...",
              "focus": {"card": "2G2:4w2u1k", "colors": ["white", "blue", "gold"], "noble": null},
              "stats": {"level": "hard", "seconds": 0.81, "iterations": 412, ...}}
    error    {"turn_id": 17, "error": "unknown bot level 'master': choose from random, easy, medium, hard, expert"}

``turn_id`` (any JSON number or string) is echoed so the page can drop a late answer for an old position. ``seed``
defaults to 0 and ``budget`` to the level's own (:func:`default_budget`: its counts, with the browser's time cap).
``hint_json`` answers the same
request shape with what the expert would play for the person (``level`` is ignored, unless ``"light": true`` asks
the hint of that level without search, as the page's own thread does without its worker: the coach's judge,
:mod:`splendor.ai.coach`, the one the game review asks too), on a shorter budget, and speaks to the person ("it
brings you to ..."); its answer also has ``weighed``, the moves the expert's search tried most, best first, with the
chance to win each gives (``[{"action", "chance"}]``, at most :data:`HINT_WEIGHED`); ``choose_json`` speaks about
the bot ("it brings them to ...").
``focus`` names what the move is about, for the page to highlight: the card bought or reserved, or the card a take
brings nearest, and the token colors taken, paid or returned (a guided first turn can point at both).
Both are also reachable through ``handle_json`` with ``"mode": "move"`` or ``"hint"``.
"""

import json
import random
import time

from . import LEVELS, get_bot
from .budget import Budget
from .explain import explain_details



def default_budget(level, players=2):
    """A level's budget when the request names none: its ladder counts at a table of ``players``, with the
    browser's time cap on the search levels (splendor.ai.ladder.CAP_SECONDS), so that a slow device still answers;
    one step for the random baseline."""
    if level == "random":
        return Budget(iterations=1)
    from .ladder import find

    return find(level).budget(players if players in (2, 3, 4) else 2)

#: The hint: what the expert would play, thought over for a shorter time (in Pyodide about 1,300 simulations of the
#: network's search at two players; the hint's answer is on screen within a second on a desktop, two on a phone).
HINT_BUDGET = Budget(seconds=0.5)
HINT_LEVEL = "expert"
#: The moves a hint names with their chances: the one it advises and the next ones the expert weighed.
HINT_WEIGHED = 3
#: ... each other than the advised one shown only from this many walks of its own, and only where its chance is not
#: above the advised move's: the list never shows a better chance than the move it advises (a move walked a handful
#: of times has no estimate to speak of, and the search advises the move it walked most).
WEIGHED_MIN_VISITS = 16


class RequestError(ValueError):
    """A request that cannot be answered; the message goes back as the response's ``error``."""


def _read(request_text):
    if isinstance(request_text, (bytes, bytearray)):
        request_text = request_text.decode("utf-8", "replace")
    if not isinstance(request_text, str):
        raise RequestError("the request must be JSON text")
    try:
        req = json.loads(request_text)
    except ValueError as exc:
        raise RequestError(f"the request is not valid JSON: {exc}") from None
    if not isinstance(req, dict):
        raise RequestError("the request must be a JSON object")
    return req


def _turn_id(req):
    tid = req.get("turn_id")
    if isinstance(tid, bool) or not isinstance(tid, (int, float, str)) and tid is not None:
        return None
    return tid


def _answer(req, mode):
    if "turn_id" not in req:
        raise RequestError("the request has no turn_id")
    tid = req["turn_id"]
    if isinstance(tid, bool) or not isinstance(tid, (int, float, str)):
        raise RequestError("turn_id must be a number or a string")
    obs = req.get("observation")
    if not isinstance(obs, dict):
        raise RequestError("the request has no observation object")
    if obs.get("format") != "splendor-observation":
        raise RequestError("the observation is not a splendor observation (format 'splendor-observation')")
    light = mode == "hint" and req.get("light") is True
    if light:  # (the page's own thread, without its worker: the hint of the light level it plays instead)
        level = req.get("level") if req.get("level") in ("random", "easy", "medium") else "medium"
    elif mode == "hint":
        level = HINT_LEVEL
    else:
        level = req.get("level")
        if level not in LEVELS:
            raise RequestError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}")
    seed = req.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RequestError(f"seed must be a whole number, not {seed!r}")
    try:
        default = HINT_BUDGET if mode == "hint" else default_budget(level, obs.get("players"))
        budget = Budget.parse(req.get("budget"), default)
    except ValueError as exc:
        raise RequestError(str(exc)) from None
    t0 = time.perf_counter()
    try:
        if mode == "hint" and not light:
            from .coach import advise, expert
            expert().evaluator_at(obs.get("players"))  # (its files read before its time starts)
            action, info = advise(obs, random.Random(seed), budget.started())
        else:
            action, info = get_bot(level).decide(obs, random.Random(seed), budget)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise RequestError(f"the observation cannot be played from: {exc}") from None
    seconds = time.perf_counter() - t0
    try:
        details = explain_details(obs, action, info, voice="you" if mode == "hint" else "they")
    except Exception:  # an explanation must never cost the move itself
        details = {"sentence": f"plays {action}", "card": None, "colors": [], "noble": None}
    sentence = details.pop("sentence")
    stats = {"level": level, "seconds": round(seconds, 3)}
    for k in ("iterations", "samples", "win_chance", "candidates", "forced", "net", "backend", "prior",
              "position_chance"):
        if k in info:
            stats[k] = info[k]
    out = {"turn_id": tid, "action": str(action), "explanation": sentence, "focus": details, "stats": stats}
    if mode == "hint":
        out["weighed"] = weighed(info, action)
    return out


def weighed(info, action):
    """The moves the search tried most (``info["candidates"]``), the move played first: ``[{"action", "chance"}]``
    with the chance each gives the mover, at most :data:`HINT_WEIGHED`; [] for a move without a search. The others
    are those with :data:`WEIGHED_MIN_VISITS` walks or more (a candidate that does not say leaves it unchecked) and a
    chance no higher than the advised move's."""
    seen = [c for c in info.get("candidates", ()) if isinstance(c.get("value"), (int, float))]
    first = [c for c in seen if c["action"] == str(action)]
    rest = [c for c in seen if c["action"] != str(action) and c.get("visits", WEIGHED_MIN_VISITS) >= WEIGHED_MIN_VISITS
            and first and c["value"] <= first[0]["value"]]
    if not first:
        return []
    return [{"action": c["action"], "chance": round(float(c["value"]), 3)} for c in (first + rest)[:HINT_WEIGHED]]


def handle_json(request_text, mode=None):
    """Answer one request (``mode`` "move" or "hint"; default: the request's own "mode", else "move")."""
    tid = None
    try:
        req = _read(request_text)
        tid = _turn_id(req)
        mode = mode or req.get("mode", "move")
        if mode not in ("move", "hint"):
            raise RequestError(f"mode must be 'move' or 'hint', not {mode!r}")
        return json.dumps(_answer(req, mode))
    except RequestError as exc:
        return json.dumps({"turn_id": tid, "error": str(exc)})
    except Exception as exc:  # never raise into the worker: say what went wrong
        return json.dumps({"turn_id": tid, "error": f"internal error: {type(exc).__name__}: {exc}"})


def choose_json(request_text):
    """The bot's move for the request (see the module text)."""
    return handle_json(request_text, "move")


def hint_json(request_text):
    """What the expert would play for the person (see the module text)."""
    return handle_json(request_text, "hint")
