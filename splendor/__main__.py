"""Command line: ``python -m splendor <command>``.

Commands:
  bench   random-playout speed of the engine (actions/s, games/s, copy and apply/undo cost)
  arena   bot-vs-bot games with seats rotated: win rates, points, game length, time per move
  levels  the ladder of bot levels with their measured ratings; --measure plays its round robin
  puzzles  puzzles mined from the expert's games (--make, resumable) and the pool (--export)
  twin     the compiled twin of self-play held to the engine (--check --random N)
  soak    many random and bot games, checking every invariant after every action
  play    play in a terminal against bots
  netdata  the sparring harness's raw logs of the agent's games as training records
  netfit  fit the expert's policy/value network to recorded games with a search's visits
  netplay  self-play of the net-guided expert, games in lockstep with their leaves evaluated in one batch
  generation  one self-play generation: netplay, netfit, a screen against the previous network (resumable)
  describenet  what a network file holds, or why it is refused
  train   play games and fit the expert bot's value model (writes the weights file)
  selfplay  expert iteration: generations of self-play with search, each fitting the expert's value and policy
"""

import sys


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0
    command, rest = argv[0], argv[1:]
    from importlib.util import find_spec

    if find_spec("numpy") is not None:  # the expert's network runs with numpy here when it can (else plain Python)
        from .training import netnumpy  # noqa: F401
    if command == "bench":
        from .bench import main as run
    elif command == "arena":
        from .training.arena import main as run
    elif command == "levels":
        from .training.ladder import main as run
    elif command == "puzzles":
        from .training.puzzles import main as run
    elif command == "twin":
        from .training.twin.check import main as run
    elif command == "soak":
        from .soak import main as run
    elif command == "train":
        from .training.train import main as run
    elif command == "selfplay":
        from .training.selfplay import main as run
    elif command == "netdata":
        from .training.netdata import main as run
    elif command == "netfit":
        from .training.netfit import main as run
    elif command == "netplay":
        from .training.netplay import main as run
    elif command == "generation":
        from .training.generation import main as run
    elif command == "describenet":
        from .ai.netfile import main as run
    elif command == "play":
        from .play import main as run
    else:
        print(f"unknown command {command!r}\n\n{__doc__.strip()}", file=sys.stderr)
        return 2
    return run(rest)


if __name__ == "__main__":
    sys.exit(main())
