"""Play in a terminal against bots: ``python -m splendor play --players 2 --bots medium --seed 7``.

Type actions in the notation (``take white blue green``, ``buy 1.3``, ``reserve deck 2``...), ``list`` for the legal
actions, ``undo`` to take back your last turn, ``quit`` to stop.

Tokens and bonuses print as in the notation's card costs, a count then a letter: ``w`` white, ``u`` blue, ``g`` green,
``r`` red, ``k`` black, and ``*`` gold (``2w 1*`` is two white tokens and one gold).
"""

import argparse
import random

from . import ai
from .engine import COLORS, TOKEN_COLORS, IllegalActionError, new_game, parse_action
from .engine.cards import LETTERS

#: The notation's letter for each token color (gold is ``*``, so no two colors share a letter).
LETTER = dict(zip(TOKEN_COLORS, LETTERS))
LEGEND = "Letters: w white, u blue, g green, r red, k black, * gold (2w = two white)."


def _counts(counts, colors=TOKEN_COLORS, zeros=False):
    """``{"white": 2, "gold": 1, ...}`` as ``2w 1*``; "-" when there is nothing."""
    return " ".join(f"{counts[c]}{LETTER[c]}" for c in colors if zeros or counts[c]) or "-"


def show(game, seat):
    """The table as text, from ``seat``'s point of view."""
    lines = [f"Round {game.round}. Supply: {_counts(game.supply, zeros=True)}"]
    lines.append("Nobles: " + "  ".join(nb.code for nb in game.nobles))
    for lv in (2, 1, 0):
        cards = "  ".join(f"{lv + 1}.{i + 1} {c.code if c else '(empty)':<14}" for i, c in enumerate(game.market[lv]))
        lines.append(f"L{lv + 1} [{game.deck_sizes[lv]:2}] {cards}")
    for i, p in enumerate(game.players):
        who = "you" if i == seat else f"bot {i}"
        reserved = [c.code if (i == seat or not h) else f"L{c.level}?" for c, h in zip(p.reserved, p.reserved_hidden)]
        lines.append(f"{'>' if game.current_player == i else ' '} {who}: {p.points} pts, tokens {_counts(p.tokens)}, "
                     f"bonuses {_counts(p.bonuses, COLORS)}, reserved {reserved or '-'}, "
                     f"nobles {[n.code for n in p.nobles] or '-'}")
    return "\n".join(lines)


def main(argv=None, input_fn=input, print_fn=print):
    parser = argparse.ArgumentParser(prog="python -m splendor play", description=__doc__)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--bots", default="medium", help="bot levels, comma separated (cycled over the seats)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=1.0, help="the hard bot's time per move")
    args = parser.parse_args(argv)
    levels = [b.strip() for b in args.bots.split(",") if b.strip()] or ["medium"]
    bots = {seat: ai.get_bot(levels[(seat - 1) % len(levels)]) for seat in range(1, args.players)}
    game = new_game(players=args.players, seed=args.seed)
    rng = random.Random(game.seed)
    print_fn(f"Seed {game.seed}. You are seat 0. {LEGEND}")
    while not game.is_over:
        seat = game.current_player
        if seat in bots:
            action = bots[seat].choose(game.observation(seat), rng, {"seconds": args.seconds})
            game.apply(action)
            print_fn(f"bot {seat}: {action}")
            continue
        print_fn(show(game, 0))
        try:
            text = input_fn(f"[{game.phase}] your action> ").strip()
        except EOFError:
            return 0
        if text in ("quit", "exit"):
            return 0
        if text == "list":
            print_fn("\n".join(str(a) for a in game.legal_actions()))
            continue
        if text == "undo":
            # Back through the bots' replies to the start of your own last turn.
            while game.can_undo():
                game.undo()
                if game.current_player == 0 and game.phase == "action":
                    break
            continue
        try:
            game.apply(parse_action(game, text))
        except (IllegalActionError, ValueError) as exc:
            print_fn(f"not played: {exc}")
    print_fn(show(game, 0))
    winners = ", ".join("you" if w == 0 else f"bot {w}" for w in game.winners)
    print_fn(f"Game over. Scores {game.scores}; winner(s): {winners}"
             + (f" (decided by {game.tie_break})" if game.tie_break != "score" else ""))
    return 0
