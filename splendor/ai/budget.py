"""How long a bot may think: a time in seconds or a count of search iterations.

With an iteration budget a bot's move depends only on the observation and the seed (the same move every time);
with a time budget it depends on the machine's speed too.
"""

import time


class Budget:
    """``seconds`` (wall time) or ``iterations`` (search steps); at least one is set. Levels without search ignore
    it. ``Budget.parse`` reads a number (seconds), a dict ``{"seconds": s}`` / ``{"iterations": n}``, a Budget, or
    None (the level's default). ``cpu=True`` (measurements only: the arena's ``--budget-cpu-seconds``) counts the
    seconds as the process's processor time, so that bots measured side by side on a busy machine still get what a
    quiet one gives them."""

    __slots__ = ("seconds", "iterations", "since", "cpu")

    #: Upper limits accepted from outside (a request cannot make a bot think for minutes).
    MAX_SECONDS = 30.0
    MAX_ITERATIONS = 200_000

    def __init__(self, seconds=None, iterations=None, cpu=False):
        if seconds is None and iterations is None:
            raise ValueError("a budget needs seconds or iterations")
        if seconds is not None:
            if (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                    or not 0 < seconds <= self.MAX_SECONDS):
                raise ValueError(f"budget seconds must be a number above 0 and at most {self.MAX_SECONDS:g}, "
                                 f"not {seconds!r}")
            seconds = float(seconds)
        if iterations is not None:
            if (isinstance(iterations, bool) or not isinstance(iterations, int)
                    or not 0 < iterations <= self.MAX_ITERATIONS):
                raise ValueError(f"budget iterations must be a whole number from 1 to {self.MAX_ITERATIONS}, "
                                 f"not {iterations!r}")
        if cpu and seconds is None:
            raise ValueError("a processor-time budget needs seconds")
        self.seconds = seconds
        self.iterations = iterations
        self.cpu = bool(cpu)
        self.since = None  # when the move began (``started``); None: when the search's clock is made

    def started(self, now=None):
        """This budget for a move that begins now: its time counts from here (the bot's preparation, not only its
        search, is inside the seconds)."""
        copy = Budget(self.seconds, self.iterations, self.cpu)
        copy.since = (now or self._now())()
        return copy

    def _now(self):
        return time.process_time if self.cpu else time.perf_counter

    @classmethod
    def parse(cls, value, default=None):
        if value is None:
            return default if default is not None else cls(iterations=200)
        if isinstance(value, Budget):
            return value
        if isinstance(value, bool):
            raise ValueError(f"not a budget: {value!r}")
        if isinstance(value, (int, float)):
            return cls(seconds=value)
        if isinstance(value, dict):
            extra = set(value) - {"seconds", "iterations", "cpu"}
            if extra:
                raise ValueError(f"unknown budget field {sorted(extra)[0]!r}: use seconds or iterations")
            if "cpu" in value:
                if not isinstance(value["cpu"], bool):
                    raise ValueError(f"budget cpu must be true or false, not {value['cpu']!r}")
                return cls(seconds=value.get("seconds"), iterations=value.get("iterations"), cpu=value["cpu"])
            if "seconds" in value and "iterations" in value:
                return cls(seconds=value["seconds"], iterations=value["iterations"])
            if "seconds" in value:
                return cls(seconds=value["seconds"])
            if "iterations" in value:
                return cls(iterations=value["iterations"])
        raise ValueError(f"not a budget: {value!r} (use {{'seconds': 0.8}} or {{'iterations': 300}})")

    def to_dict(self):
        d = {}
        if self.seconds is not None:
            d["seconds"] = self.seconds
        if self.iterations is not None:
            d["iterations"] = self.iterations
        if self.cpu:
            d["cpu"] = True
        return d

    def clock(self):
        return Clock(self, now=self._now(), since=self.since)

    def __repr__(self):
        return f"Budget({', '.join(f'{k}={v!r}' for k, v in self.to_dict().items())})"


class Clock:
    """Counts a search's iterations and time against a Budget.

    A search asks ``done()`` before each step (a deal of the hard bot's search); with a time budget the answer looks
    one step ahead: done when the step just taken, taken once more, would end past the deadline. Steps only get
    cheaper as a search narrows its candidates, so a move ends within its time instead of overrunning it by a step
    (measured in Pyodide: 0.808 s medians for 0.8 s before)."""

    __slots__ = ("limit_n", "deadline", "start", "n", "last", "now")

    def __init__(self, budget, now=time.perf_counter, since=None):
        self.now = now
        self.start = self.last = now() if since is None else since
        self.limit_n = budget.iterations
        self.deadline = None if budget.seconds is None else self.start + budget.seconds
        self.n = 0

    def tick(self, k=1):
        self.n += k

    def done(self):
        if self.limit_n is not None and self.n >= self.limit_n:
            return True
        if self.deadline is None:
            return False
        t = self.now()
        step, self.last = t - self.last, t
        return t + step >= self.deadline

    def elapsed(self):
        return self.now() - self.start
