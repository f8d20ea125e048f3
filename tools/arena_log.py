"""Win rates from an arena's ``--progress`` log, finished or not (a long run stopped early can still be read).

    .venv/bin/python tools/arena_log.py LOG

Reads the lines ``game k: ok scores [...] winners [...] rounds r bots [...]`` and prints, per bot, the seats
played, wins (a shared victory split), win rate with its 95% Wilson interval (``arena.wilson``) and the mean game
length, as the arena's own summary does.
"""

import ast
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from splendor.training.arena import wilson  # noqa: E402

LINE = re.compile(r"^game (\d+): (\w+) scores (\[.*?\]) winners (\[.*?\]) rounds (\d+) bots (\[.*\])$")


def read(text):
    """[(k, status, winners, rounds, bots)] of the log's game lines."""
    out = []
    for line in text.splitlines():
        m = LINE.match(line.strip())
        if m:
            out.append((int(m.group(1)), m.group(2), ast.literal_eval(m.group(4)), int(m.group(5)),
                        ast.literal_eval(m.group(6))))
    return out


def summary(games):
    names = []
    for _, _, _, _, bots in games:
        for b in bots:
            if b not in names:
                names.append(b)
    lines = []
    for name in names:
        seats = wins = 0.0
        for _, status, winners, _, bots in games:
            for s, b in enumerate(bots):
                if b == name:
                    seats += 1
                    if s in winners:
                        wins += 1.0 / len(winners)
        lo, hi = wilson(wins, int(seats))
        lines.append(f"{name}: {int(seats)} seats, {wins:g} wins, {100 * wins / seats:.1f}% "
                     f"[{100 * lo:.1f}%, {100 * hi:.1f}%]")
    ok = [g for g in games if g[1] == "ok"]
    rounds = [g[3] for g in ok]
    lines.append(f"{len(games)} games read, {len(ok)} finished, mean length "
                 f"{statistics.fmean(rounds) if rounds else 0:.2f} rounds")
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    games = read(Path(argv[0]).read_text(encoding="utf-8"))
    if not games:
        print(f"{argv[0]}: no game lines (run the arena with --progress)", file=sys.stderr)
        return 1
    print(summary(games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
