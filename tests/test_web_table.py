"""The table's new parts under CPython: each player's last move kept until their next turn, the moments (a noble, the
final round, the end), the full view of a player, what the moves moved (for the page's animations), and the words
and small faults of issue 18."""

import json
import re

import splendor
from splendor.engine import Action
from splendor.web import view
from splendor.web.table import words
from splendor.web.controller import App
from splendor.web.records.storage import MemoryStorage
from hidden_words import assert_not_shown


def started(seed=11, opponents=1, starts="person", **extra):
    app = App(MemoryStorage())
    app.act("start", {"seed": str(seed), "opponents": str(opponents), "starts": starts, **extra})
    return app


def bot_plays(app, choose=None):
    req = app.bot_request()
    legal = app.game.legal_actions()
    action = choose(legal) if choose else legal[0]
    assert app.bot_reply({"turn_id": req["turn_id"], "action": str(action), "explanation": ""}) == "applied"


def take(app, *colors):
    for c in colors:
        app.act("gem", {"color": c})
    app.act("take", {})


def test_every_players_last_move_stays_until_their_next_turn():
    app = started(opponents=3)
    take(app, "white", "blue", "green")
    for _ in range(3):
        bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    moves = app.last_moves()
    assert set(moves) == {0, 1, 2, 3}  # all four still shown, not only the latest bot's
    assert moves[0] == "Took white, blue and green."
    html = view.render(app)
    for seat in (1, 2, 3):
        panel = html.split(f'id="seat-{seat}"')[1].split("</section>")[0]
        assert "Last move: </span>" + moves[seat].replace("'", "&#x27;") in panel, panel
    take(app, "red", "black", "white")  # the person's next turn replaces only the person's line
    after = app.last_moves()
    assert after[0] == "Took white, red and black." and after[1] == moves[1]
    # A turn with a follow-up (tokens returned) is said whole, and undo puts the earlier words back.
    app.act("undo", {})
    assert app.last_moves()[0] == "Took white, blue and green."


def test_the_moments_noble_final_round_and_end_are_said():
    app = started(seed=21)
    g = app.game
    noble = g.nobles[0]
    p = g._players[0]
    for i in range(5):
        p.bon[i] = noble.req_t[i]
    take(app, "white", "blue", "green")
    assert app.moment["kind"] == "noble" and app.moment["text"] == "A noble visits you: 3 points."
    assert 'id="moment"' in view.render(app) and "A noble visits you" in view.render(app)
    assert any(c["kind"] == "noble" and c["to"] == 0 for c in app.take_changes())
    app.act("moment-ok", {})
    assert app.moment is None and 'id="moment"' not in view.render(app)


def test_final_round_words_for_the_person_starting_second():
    app = started(seed=5, starts="bot")
    g = app.game
    g._players[1].points = 15
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    assert g.final_round and not g.is_over and g.current_player == 0
    # The banner, about Bot 1, says what the status says: the person plays now, and it is their last turn.
    assert app.moment == {"kind": "final", "n": app.moment["n"], "seat": 1,
                          "text": "Bot 1 has 15 points. Final round: this is your last turn."}
    assert view.status_text(app).startswith("Your turn: your last (final round).")
    take(app, "white", "blue", "green")
    assert g.is_over and app.moment is None  # no banner repeating the results
    assert 'id="end"' in view.render(app)
    assert view.status_text(app) == "Game over: Bot 1 wins."  # (short: the results say the rest)
    html = view.render(app)
    assert " short" not in "".join(re.findall(r'class="badge[^"]*"[^>]*>', html))  # no badges once it is over
    assert "short" not in " ".join(re.findall(r'data-t="(\d+ short)"', html))


def test_final_round_words_when_another_bot_plays_before_the_person():
    app = started(seed=5, opponents=2, starts="bot")  # Bot 1, Bot 2, then you
    g = app.game
    g._players[1].points = 15
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    assert g.final_round and g.current_player == 2
    assert app.moment["text"] == "Bot 1 has 15 points. Final round: your next turn is your last."
    assert app.moment["seat"] == 1
    assert view.status_text(app) == f"Bot 2's turn. Round {g.round}. Final round."


def paced(app):
    app.paced = True  # as on the page (main.py)
    return app


def test_paced_the_status_names_the_bot_whose_move_is_shown_then_who_plays():
    app = paced(started(opponents=3))
    take(app, "white", "blue", "green")
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    said = view.status_text(app)
    assert said == "Bot 1 " + app.last_moves()[1][:1].lower() + app.last_moves()[1][1:], said  # not "Bot 2's turn"
    assert app.showing["seat"] == 1
    app.showing = None  # the page: the move has been seen
    assert view.status_text(app).startswith("Bot 2's turn")
    for _ in range(2):
        bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    assert view.status_text(app).startswith("Bot 3 took")  # not "Your turn" while Bot 3's gems fly
    app.act("gem", {"color": "red"})  # the person acts: the status is theirs
    assert view.status_text(app).startswith("Your turn")


def test_paced_the_results_wait_until_the_last_move_is_seen():
    app = paced(started(seed=5, starts="person"))
    g = app.game
    g._players[0].points = 15
    take(app, "white", "blue", "green")
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    assert g.is_over and app.end_held
    assert view.status_text(app).startswith("Bot 1 took")  # the last move named, not yet the results
    assert 'id="end"' not in view.render(app)
    app.end_held = False  # the page: the last move seen, the final table held a moment
    app.showing = None
    html = view.render(app)
    assert view.status_text(app) == "Game over: you win!" and 'id="end"' in html
    assert 'class="celebrate"' in html and "person-won" in html  # gems burst for the person who won
    assert "No points yet." in html  # what made each player's points (here: none yet, the points were set)


def test_game_over_you_win_is_capitalised():
    app = started(seed=5, starts="person")
    g = app.game
    g._players[0].points = 15
    take(app, "white", "blue", "green")
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    assert g.is_over and g.winners == (0,)
    assert view.status_text(app) == "Game over: you win!"


def test_inspect_a_player_shows_bought_cards_by_bonus_reserves_and_nobles():
    app = started(opponents=2)
    g = app.game
    p = g._players[1]
    red = [c for c in splendor.engine.CARDS if c.level == 1 and c.bonus == "red"][0]
    blue = [c for c in splendor.engine.CARDS if c.level == 1 and c.bonus == "blue"][0]
    p._cards.extend([red, blue])
    take(app, "white", "blue", "green")
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "reserve" and a.card is None][0])  # blind
    app.act("inspect", {"seat": "1"})
    html = view.render(app)
    dialog = html.split('class="dialog inspect-dialog"')[1]
    assert "Bot 1 (Medium): " in dialog and "Bought cards: 2" in dialog  # the bot's level with its name
    assert f"Last move: {view.esc(app.last_moves()[1])}</p>" in dialog  # whole (a phone's panel shows its start)
    assert "Blue <b>1</b>" in dialog and "Red <b>1</b>" in dialog
    assert 'aria-label="Hidden level' in dialog  # the bot's blind reserve: a back with its level, no code
    hidden = g.players[1].reserved[0]
    assert_not_shown(dialog, hidden, "the see-all dialog")  # neither its code nor its words
    app.act("close", {})
    assert app.inspecting is None and "inspect-dialog" not in view.render(app)
    app.act("inspect", {"seat": "9"})  # nonsense is ignored
    assert app.inspecting is None


def test_changes_report_what_moves_for_the_animations():
    app = started(seed=11)
    app.take_changes()
    take(app, "white", "blue", "green")
    assert app.take_changes() == [{"kind": "tokens", "colors": ["white", "blue", "green"], "from": "supply", "to": 0}]
    assert app.take_changes() == []
    card = app.game.market[0][2]
    bot_plays(app, lambda legal: Action.reserve(card))
    changes = app.take_changes()
    assert {"kind": "card", "code": card.code, "from": "market", "to": 1} in changes
    assert {"kind": "deal", "level": 1, "slot": 2} in changes
    assert {"kind": "tokens", "colors": ["gold"], "from": "supply", "to": 1} in changes
    take(app, "white", "blue", "green")
    app.take_changes()
    bot_plays(app, lambda legal: Action.reserve(level=2))
    changes = app.take_changes()
    assert changes[0] == {"kind": "card", "from": "deck", "level": 2, "to": 1}  # no code of an unseen card
    assert "code" not in json.dumps(changes[0])


def test_words_of_the_issue():
    g = splendor.new_game(players=2, seed=7)
    said = words.describe_move(g, Action.reserve(level=3), "You")
    assert said == "You reserved the level 3 deck's top card unseen and took 1 gold."
    card = g.market[0][0]
    assert words.describe_move(g, Action.reserve(card), "You").endswith("from the market and took 1 gold.")
    app = started()
    assert app.log[0]["text"] == "New game: 2 players."  # no seed in the log's first line
    take(app, "white", "blue", "green")
    bot_plays(app)
    app.act("undo", {})
    html = view.render(app)
    assert app.message == "" and 'class="message info"' in html and "Your last turn was undone." in html
    app.act("gem", {"color": "red"})
    assert "undone" not in view.render(app)  # said once, then gone
    assert words.LETTERS["gold"] == "Au"


def test_small_faults():
    app = started(seed=2)
    g = app.game
    # The nobles row stays in place, with words, when every noble is gone.
    g._nobles.clear()
    html = view.render(app)
    assert "Every noble has been won." in html.split('aria-label="Nobles"')[1].split("</section>")[0]
    # The token count follows a staged return.
    p = g._players[0]
    for i in range(5):
        k = 2 if i < 4 else 1
        g._supply[i] -= k
        p.tok[i] += k
    take(app, "white", "blue", "red")
    assert g.phase == "return"
    assert ">12/10<" in view.render(app)
    app.act("return", {"color": "white"})
    assert ">11/10<" in view.render(app)
    app.act("return", {"color": "blue"})
    assert ">10/10<" in view.render(app)


def test_the_bot_speed_option_is_kept_with_the_game_and_only_known_speeds_are_taken():
    storage = MemoryStorage()
    app = App(storage)
    assert app.settings["pace"] == "normal"
    app.act("setting", {"name": "pace", "value": "warp"})
    assert app.settings["pace"] == "normal"  # an unknown speed is not taken
    app.act("start", {"seed": "3", "opponents": "1", "starts": "person", "pace": "fast"})
    again = App(storage)
    again.load()
    assert again.settings["pace"] == "fast"  # saved with the game, as the other options
    html = view.render_setup(again)
    assert "Bot speed" in html and re.search(r'id="set-pace-fast"[^>]* checked', html), html


def test_a_run_of_returns_is_one_line_of_the_log():
    app = started()
    take(app, "white", "blue", "green")
    g = app.game
    g._players[1].tok[:5] = [2, 2, 2, 2, 1]  # (and the supply without them: every count stays right)
    g._supply[:5] = [s - t for s, t in zip(g._supply[:5], [2, 2, 2, 2, 1])]
    bot_plays(app, lambda legal: next(a for a in legal if a.kind == "take" and set(a.colors) == {"red", "black",
                                                                                               "white"}))
    assert g.phase == "return"
    bot_plays(app, lambda legal: next(a for a in legal if a.colors == ("red",)))
    bot_plays(app, lambda legal: next(a for a in legal if a.colors == ("white",)))
    assert g.phase == "action" and g.current_player == 0
    html = view.log_list(app)
    assert html.count("returned") == 1 and "Bot 1 returned 1 white and 1 red to keep 10 tokens." in html
    app.act("undo", {})  # back to before the take: no return left in the log
    assert "returned" not in view.log_list(app)


def test_the_final_round_is_not_announced_by_the_move_that_ends_the_game():
    app = started(seed=5, starts="bot")
    g = app.game
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    g._players[0].points = 15
    take(app, "white", "blue", "green")  # the last seat of the round reaches 15: the game is over at once
    assert g.is_over
    log = " ".join(e["text"] for e in app.log)
    assert "final round" not in log and "you win!" in log
    # While a round is still to be played, the final round is said in the log.
    app = started(seed=5, starts="person")
    app.game._players[0].points = 15
    take(app, "white", "blue", "green")
    assert not app.game.is_over and "this is the final round" in " ".join(e["text"] for e in app.log)


def test_a_hint_to_buy_a_reserved_card_marks_it_in_your_reserve():
    app = started(seed=7)
    g = app.game
    card = g.market[0][0]
    app._apply(Action.reserve(card), 0)
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    app.act("hint", {})
    req = app.hint_request()
    assert app.hint_reply({"turn_id": req["turn_id"], "action": f"buy {card.code}", "explanation": ""}) == "applied"
    mine = view.my_area(app)
    assert re.search(r'class="mini[^"]* hinted"[^>]* id="r0"', mine), mine
    assert "hinted" not in view.market(app)


def test_a_hint_says_the_whole_move_as_advice():
    assert (words.advice("reserves the level 2 black card worth 2 points and takes 1 gold: it secures the card.")
            == "reserve the level 2 black card worth 2 points and take 1 gold: it secures the card")
    assert (words.advice("takes white, blue and green toward the level 1 red card, then gives back 2 tokens to keep 10")
            == "take white, blue and green toward the level 1 red card, then give back 2 tokens to keep 10")


def test_the_game_ending_move_is_not_logged_as_starting_the_final_round():
    """The bot's sentence is written before its move: a round's last move that reaches 15 ends the game at once,
    and the log says so, not "which starts the final round"."""
    app = started(seed=5)  # the person starts: the bot's move is the round's last
    take(app, "white", "blue", "green")
    app.game._players[1].points = 15
    req = app.bot_request()
    action = next(a for a in app.game.legal_actions() if a.kind == "take")
    said = "takes white: it brings it to 15 points, which starts the final round"
    assert app.bot_reply({"turn_id": req["turn_id"], "action": str(action), "explanation": said}) == "applied"
    assert app.game.is_over
    assert app.log[-2]["why"] == "takes white: it brings it to 15 points, which ends the game", app.log[-2:]
    assert "starts the final round" not in view.render(app)


def test_a_bots_last_move_on_a_phone_is_drawn_in_one_short_line():
    """An opponent's panel draws its last turn as gems and a word (view.move_picture): a take and the tokens given
    back as what the turn changed."""
    from splendor.engine import Action

    take3 = Action.take("white", "blue", "green")
    html = view.move_picture([take3, Action.return_token("white"), Action.return_token("red")])
    assert html.count('class="lg lg-') == 3  # +blue +green, -red: the white taken and given back cancels
    assert "lg-white" not in html and "lg-red" in html
    assert "Took and gave back" in view.move_picture([Action.take("red"), Action.return_token("red")])
    assert view.move_picture([take3]).count('class="lg lg-') == 3


def test_the_bot_speed_changes_during_a_game_and_is_kept():
    from splendor.web.records.storage import SAVE_KEY

    storage = MemoryStorage()
    app = App(storage)
    app.act("start", {"seed": "3", "opponents": "1", "starts": "person"})
    html = view.render(app)
    assert 'id="speed-normal" data-act="pace" data-value="normal" aria-pressed="true"' in html
    app.act("pace", {"value": "fast"})
    assert app.settings["pace"] == "fast"
    assert 'id="speed-fast" data-act="pace" data-value="fast" aria-pressed="true"' in view.render(app)
    again = App(storage)
    assert again.load() and again.settings["pace"] == "fast"  # kept with the game
    app.act("pace", {"value": "slow"})  # (no such speed: nothing changes)
    assert app.settings["pace"] == "fast" and '"pace":"fast"' in storage.get(SAVE_KEY)


def test_the_step_box_does_not_say_your_turn_while_a_bots_move_is_shown():
    app = started(seed=7, starts="bot")
    app.paced = True  # as on the page: each bot's move is shown before the next step
    bot_plays(app, lambda legal: [a for a in legal if a.kind == "take"][0])
    assert app.my_turn and app.showing
    bar = re.search(r'<section class="actionbar".*?</section>', view.render(app), re.S).group(0)
    assert "Your turn" not in bar and "Bot 1 moves; your turn comes next." in bar
    app.showing = None  # the page: the move has been seen
    bar = re.search(r'<section class="actionbar".*?</section>', view.render(app), re.S).group(0)
    assert "Your turn: tap gems" in bar
