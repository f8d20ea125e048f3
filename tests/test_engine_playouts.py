"""Random playouts: thousands of games across 2, 3 and 4 players and the variants, checking the position after every
action with the engine's shared invariant check (splendor.engine.invariants), plus undo, replay, from_dict round
trips and observations on samples. Every game must end within a bounded number of actions."""

import random

import pytest

import splendor
from splendor.engine.invariants import check_invariants

VARIANT_SETS = [(), ("open_reservations",), ("noble_veto",), ("rotating_series",),
                ("open_reservations", "noble_veto"), ("noble_veto", "rotating_series"),
                ("open_reservations", "noble_veto", "rotating_series")]
DEALS_PER_PLAYER_COUNT = 700  # 2,100 games in all (a series counts each of its games)
MAX_ACTIONS_PER_DEAL = 1500  # random games last about 95 (2 players) to 200 (4 players) actions


def other_payment(game, action, rng):
    """A legal buy paying differently from the default: one or more colored tokens replaced by gold held."""
    tok = game._players[game.current].tok
    pay = list(action.pay_t)
    swaps = [i for i in range(5) if pay[i]]
    rng.shuffle(swaps)
    for i in swaps:
        if tok[5] > pay[5]:
            pay[i] -= 1
            pay[5] += 1
    return splendor.Action.buy(action.card, tuple(pay))


def play_one(players, seed, variants, rng, stats):
    game = splendor.new_game(players=players, seed=seed, first_player="random", variants=variants)
    start = game.to_dict()
    steps = 0
    deals = 1
    while not game.is_over:
        steps += 1
        assert steps <= MAX_ACTIONS_PER_DEAL * deals, f"game {players}/{seed}/{variants} does not end"
        moves = game.legal_actions()
        assert moves, "a position with no legal action while the game goes on"
        assert len(set(moves)) == len(moves), "an action listed twice"
        action = moves[rng.randrange(len(moves))]
        prev_seat, prev_phase, prev_index = game.current, game.phase, game.game_index
        checked = False
        if action.kind == "buy" and action.pay_t[5] < game._players[game.current].tok[5] and rng.random() < 0.5:
            alt = other_payment(game, action, rng)
            if alt != action:
                assert game.why_illegal(alt) is None, game.why_illegal(alt)
                action, checked = alt, True
                stats["other payments"] += 1
        if steps % 9 == 0:  # undo restores the serialized state exactly
            before = game.to_dict()
            game.apply_unchecked(action)
            game.undo()
            assert game.to_dict() == before, f"undo of {action} changed the state"
            stats["undo checks"] += 1
        if checked or steps % 5 == 0:
            game.apply(action)  # the checked path accepts every generated action
        else:
            game.apply_unchecked(action)

        problems = check_invariants(game)
        assert not problems, f"after {action} ({players}/{seed}/{variants}, step {steps}): {problems}"
        # The turn moves on in seat order, or waits for the same player's return or noble choice.
        if game.game_index != prev_index:
            deals += 1
            assert game.current == game.start and game.phase in ("action", "veto")
        elif game.phase in ("return", "noble"):
            assert game.current == prev_seat and prev_phase in ("action", "return", "noble")
        elif game.phase == "action" and prev_phase != "veto":
            assert game.current == (prev_seat + 1) % players
        elif game.phase == "veto":
            assert game.current == (prev_seat + 1) % players
        if game.phase == "action":  # a turn ended: the limits hold for everyone
            assert all(p.token_count <= 10 and len(p.reserved) <= 3 for p in game.players)

        if steps % 31 == 0:
            assert splendor.Game.from_dict(game.to_dict()) == game
            seat = rng.randrange(players)
            view = game.observation(seat)
            sample = splendor.determinize(view, rng)
            assert sample.observation(seat) == view
            assert check_invariants(sample) == []
            stats["mid-game round trips"] += 1

    stats["deals"] += deals
    stats["actions"] += steps
    assert game.winners and set(game.winners) <= set(range(players))
    assert splendor.replay(game.record()) == game
    assert splendor.Game.from_dict(game.to_dict()) == game
    if seed % 10 == 0:  # undo all the way back to the deal
        while game.can_undo():
            game.undo()
        assert game.to_dict() == start
        stats["full undos"] += 1
    return steps


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_every_invariant(players):
    rng = random.Random(1000 + players)
    stats = dict.fromkeys(["deals", "actions", "undo checks", "other payments", "mid-game round trips",
                           "full undos"], 0)
    seed = 0
    while stats["deals"] < DEALS_PER_PLAYER_COUNT:
        play_one(players, seed, VARIANT_SETS[seed % len(VARIANT_SETS)], rng, stats)
        seed += 1
    # The samples really were taken (the checks above cannot have been skipped).
    assert stats["undo checks"] > stats["actions"] // 10
    assert stats["other payments"] > 100 and stats["mid-game round trips"] > 100 and stats["full undos"] > 10
    print(f"{players} players: {stats}")


# --- the invariant check itself can fail ---------------------------------------------------------------------------

def corrupted(change):
    game = splendor.new_game(players=3, seed=4)
    for text in ("take white blue green", "reserve deck 2", "take2 red"):
        game.apply(text)
    assert check_invariants(game) == []
    change(game)
    return " | ".join(check_invariants(game))


@pytest.mark.parametrize("change, words", [
    (lambda g: g._supply.__setitem__(0, g._supply[0] + 1), "white tokens: 6 in the game, a 3-player game has 5"),
    (lambda g: g._players[0].tok.__setitem__(5, -1), "holds -1 gold"),
    (lambda g: g._decks[0].append(g._market[0][0]), "cards not accounted once"),
    (lambda g: g._decks[2].pop(), "cards not accounted once"),
    (lambda g: g._decks[0].append(g._decks[1].pop()), "in the level 1 deck"),
    (lambda g: g._players[1].bon.__setitem__(2, 1), "bonuses"),
    (lambda g: setattr(g._players[2], "points", 3), "has 3 points"),
    (lambda g: g._players[0].tok.__setitem__(3, 9) or g._supply.__setitem__(3, g._supply[3] - 9),
     "holds 12 tokens in the action phase"),
    (lambda g: setattr(g, "final", True), "final round without anyone at 15"),
    (lambda g: setattr(g, "phase_", "noble"), "noble phase without two nobles"),
    (lambda g: setattr(g, "phase_", "return"), "return phase while the player holds 10 tokens or fewer"),
    (lambda g: setattr(g, "phase_", "over"), "game over without a final round"),
    (lambda g: g._nobles.pop(), "3 nobles in play in a 3-player game"),
    (lambda g: g._players[1]._reserved.append(g._decks[0].pop()), "hidden flags"),
    (lambda g: g._market[1].__setitem__(0, None), "market slot is empty while its deck holds"),
    (lambda g: setattr(g, "passes", 3), "3 passes in a row"),
])
def test_the_invariant_check_names_each_fault(change, words):
    assert words in corrupted(change)
