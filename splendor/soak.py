"""A long soak of the engine: ``python -m splendor soak [--games 10000] [--seed S] [--bot-share 0.1]``.

Plays many games across 2, 3 and 4 players and every combination of the variants, checking every invariant
(``splendor.engine.invariants.check_invariants``, the same check the playout tests use) after every action. Most
games pick uniformly random legal actions, some through the checked ``apply()`` and some paying a buy with gold
instead of colored tokens; a share of the games are played by the bots (``splendor.ai``: random, easy, medium and,
with a small iteration budget, hard and expert), each bot seeing only its seat's observation. On samples it also
checks that ``undo`` restores the state exactly; at the end of every game that ``replay(record())`` and
``Game.from_dict(to_dict())`` give the same game.

Prints the count of games, actions and failures (with the first failures in words) and exits non-zero on any
failure. A series counts each of its games.
"""

import argparse
import random
import sys
import time

from .engine import Action, Game, new_game, replay
from .engine.invariants import check_invariants

VARIANT_SETS = [(), ("open_reservations",), ("noble_veto",), ("rotating_series",),
                ("open_reservations", "noble_veto"), ("open_reservations", "rotating_series"),
                ("noble_veto", "rotating_series"), ("open_reservations", "noble_veto", "rotating_series")]
MAX_ACTIONS_PER_DEAL = 3000  # random games take about 95 (2 players) to 200 (4 players) actions
BOT_LEVELS = ("random", "easy", "medium", "hard", "expert")
HARD_BUDGET = {"iterations": 6}  # enough to run the search code (hard, expert), cheap enough for a soak
SEARCH_LEVELS = ("hard", "expert")


class SoakFailure(Exception):
    """One game's first broken invariant or unexpected error, in words."""


def _other_payment(game, action, rng):
    """The same buy paying one or more colored tokens with spare gold instead (still exactly the price)."""
    tok = game._players[game.current].tok
    pay = list(action.pay_t)
    for i in rng.sample(range(5), 5):
        if pay[i] and tok[5] > pay[5]:
            pay[i] -= 1
            pay[5] += 1
    return Action.buy(action.card, tuple(pay))


def _bots_for(k, players, rng):
    """Bots for a bot game: a mix of levels; hard in one game of five and expert in another (the slow ones)."""
    from . import ai

    levels = [rng.choice(BOT_LEVELS[:3]) for _ in range(players)]
    if k % 5 == 0:
        levels[rng.randrange(players)] = "hard"
    elif k % 5 == 1:
        levels[rng.randrange(players)] = "expert"
    return [ai.get_bot(level) for level in levels], levels


def play_game(k, players, seed, variants, rng, bots=None):
    """Play one game (a whole series with that variant), checking after every action. Returns (deals, actions).
    Raises SoakFailure naming the first problem."""
    game = new_game(players=players, seed=seed, first_player="random", variants=variants)
    where = f"game {k} (players={players}, seed={seed}, variants={','.join(variants) or 'none'}"
    where += f", bots={','.join(b.level for b in bots)})" if bots else ")"
    bot_rngs = [random.Random(f"soak/{seed}/{s}") for s in range(players)] if bots else None
    actions = 0
    deals = 1
    while game.phase_ != "over":
        if actions >= MAX_ACTIONS_PER_DEAL * deals:
            raise SoakFailure(f"{where}: no end after {actions} actions")
        moves = game.legal_actions()
        if not moves:
            raise SoakFailure(f"{where}: no legal action in phase {game.phase_} after {actions} actions")
        checked = actions % 4 == 0
        if bots:
            seat = game.current
            budget = HARD_BUDGET if bots[seat].level in SEARCH_LEVELS else None
            action = bots[seat].choose(game.observation(seat), bot_rngs[seat], budget)
            reason = game.why_illegal(action)
            if reason:
                raise SoakFailure(f"{where}: bot {bots[seat].level} chose {action}: {reason}")
        else:
            action = moves[rng.randrange(len(moves))]
            if action.kind == "buy" and rng.random() < 0.3:
                action = _other_payment(game, action, rng)
                checked = True
        index = game.game_index
        if actions % 13 == 5:
            before = game.to_dict()
            game.apply_unchecked(action)
            game.undo()
            if game.to_dict() != before:
                raise SoakFailure(f"{where}: undo of {action} after {actions} actions did not restore the state")
        if checked:
            game.apply(action)
        else:
            game.apply_unchecked(action)
        actions += 1
        problems = check_invariants(game)
        if problems:
            raise SoakFailure(f"{where}: after action {actions} ({action}): {'; '.join(problems)}")
        if game.game_index != index:
            deals += 1
    if game.to_dict()["actions"] != [str(a) for a in game.history]:
        raise SoakFailure(f"{where}: the saved action list differs from the history")
    if replay(game.record()) != game:
        raise SoakFailure(f"{where}: replay(record()) is not the same game")
    if Game.from_dict(game.to_dict()) != game:
        raise SoakFailure(f"{where}: from_dict(to_dict()) is not the same game")
    if not game.winners:
        raise SoakFailure(f"{where}: over without a winner")
    return deals, actions


def soak(games, seed=1, bot_share=0.1, out=print, progress_every=1000):
    """Play ``games`` games (a series counts each of its games); returns (deals, actions, failures)."""
    rng = random.Random(f"soak/{seed}")
    try:
        from . import ai  # noqa: F401 - bots are optional: the soak runs random games without them
        have_bots = True
    except ImportError:
        have_bots = False
    deals = actions = 0
    failures = []
    bot_deals = 0
    search_deals = {level: 0 for level in SEARCH_LEVELS}  # bot games with a hard or an expert bot at the table
    k = 0
    start = time.perf_counter()
    next_report = progress_every
    while deals < games:
        players = 2 + k % 3
        variants = VARIANT_SETS[(k // 3) % len(VARIANT_SETS)]
        game_seed = rng.randrange(2**31)
        use_bots = have_bots and rng.random() < bot_share
        bots = _bots_for(k, players, rng)[0] if use_bots else None
        try:
            d, a = play_game(k, players, game_seed, variants, rng, bots)
        except SoakFailure as exc:
            failures.append(str(exc))
            d, a = 1, 0
        except Exception as exc:  # noqa: BLE001 - any crash is a failure to report, not the end of the soak
            failures.append(f"game {k} (players={players}, seed={game_seed}, variants={variants}): "
                            f"{type(exc).__name__}: {exc}")
            d, a = 1, 0
        deals += d
        actions += a
        bot_deals += d if bots else 0
        for level in SEARCH_LEVELS:
            if bots and any(b.level == level for b in bots):
                search_deals[level] += d
        k += 1
        if progress_every and deals >= next_report:
            out(f"  {deals} games, {actions} actions, {len(failures)} failures, {time.perf_counter() - start:.0f} s")
            next_report += progress_every
    seconds = time.perf_counter() - start
    with_search = ", ".join(f"{n} with {level}" for level, n in search_deals.items())
    kind = (f"{deals - bot_deals} random-action and {bot_deals} bot games: {with_search}" if have_bots
            else f"{deals} random-action games (no bots: splendor.ai is not available)")
    out(f"soak: {deals} games ({kind}), {actions} actions, {len(failures)} failures, {seconds:.1f} s, seed {seed}")
    for text in failures[:10]:
        out(f"  FAILURE {text}")
    if len(failures) > 10:
        out(f"  ... and {len(failures) - 10} more")
    return deals, actions, failures


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m splendor soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10000, help="games to play (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole soak (default %(default)s)")
    parser.add_argument("--bot-share", type=float, default=0.1,
                        help="share of the games played by bots rather than random actions (default %(default)s)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines, only the summary")
    args = parser.parse_args(argv)
    if args.games < 1 or not 0 <= args.bot_share <= 1:
        parser.error("--games is at least 1 and --bot-share between 0 and 1")
    _, _, failures = soak(args.games, args.seed, args.bot_share, progress_every=0 if args.quiet else 1000)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
