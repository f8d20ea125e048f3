"""A blind reservation stays hidden from everyone but its owner in every view the page renders: the table, each
player's "see all" dialog, the dialogs of a market card and of a deck, the guide, the hand-over screen. Each check
looks for the card's code and for its words (:mod:`hidden_words`), since a screen reader reads the words."""

import pytest

from hidden_words import assert_not_shown, assert_shown
from splendor.engine import Action
from splendor.web import view
from splendor.web.controller import App
from splendor.web.records.storage import MemoryStorage


def every_view(app):
    """(name, HTML) of each view of the table the person to play can open now; each dialog is closed again."""
    views = [("the table", view.render(app))]
    for seat in range(app.game.players_count):
        app.act("inspect", {"seat": str(seat)})
        assert app.inspecting == seat
        views.append((f"seat {seat}'s see-all dialog", view.render(app)))
        app.act("close", {})
    app.act("card", {"where": "market", "level": "1", "slot": "0"})
    views.append(("a market card's dialog", view.render(app)))
    app.act("close", {})
    for level in (1, 2, 3):
        app.act("card", {"where": "deck", "level": str(level)})
        views.append((f"the level {level} deck's dialog", view.render(app)))
        app.act("close", {})
    app.act("howto", {})
    views.append(("the guide", view.render(app)))
    app.act("howto-close", {})
    assert app.inspecting is None and app.selected is None
    marks = ["inspect-dialog"] * app.game.players_count + ["card-dialog"] + ["deck-dialog"] * 3 + ['id="howto"']
    assert all(mark in html for mark, (_, html) in zip(marks, views[1:])), "a dialog did not open"
    return views


def blind(app, seat):
    """``seat`` (to play) reserves the top level-1 card blind; returns the card."""
    assert app.game.current_player == seat
    app._commit([Action.reserve(level=1)])
    return app.game.players[seat].reserved[-1]


@pytest.mark.parametrize("opponents", [1, 3])
def test_a_bots_blind_reservation_is_hidden_in_every_view(opponents):
    app = App(MemoryStorage())
    app.act("start", {"seed": "11", "opponents": str(opponents), "starts": "bot"})
    hidden = blind(app, app.game.current_player)
    owner = app.game.players.index(next(p for p in app.game.players if hidden in p.reserved))
    while app.bot_to_move() is not None:  # the other bots play until it is the person's turn
        app._commit([app.game.legal_actions()[0]])
    assert app.my_turn
    views = every_view(app)
    assert len(views) == opponents + 1 + 1 + 3 + 1 + 1
    for where, html in views:
        assert_not_shown(html, hidden, where)
    seen = dict(views)[f"seat {owner}'s see-all dialog"]
    assert f'aria-label="Hidden level {hidden.level} card"' in seen  # said to be there, by its level only


def test_in_pass_and_play_each_persons_blind_reservation_is_theirs_alone():
    app = App(MemoryStorage())
    app.act("start", {"name": "Ana", "opponents": "2", "level0": "person", "pname0": "Ben", "level1": "easy",
                      "starts": "person", "seed": "5"})
    assert app.handover == 0
    app.act("pass-ok")
    anas = blind(app, 0)
    html = view.render(app)  # the hand-over screen: nothing of the table
    assert app.handover == 1
    assert_not_shown(html, anas, "the hand-over screen")
    app.act("pass-ok")
    for where, html in every_view(app):  # Ben's turn
        assert_not_shown(html, anas, f"Ben's {where}")
    bens = blind(app, 1)
    while app.bot_to_move() is not None:
        app._commit([app.game.legal_actions()[0]])
    assert app.handover == 0
    assert_not_shown(view.render(app), bens, "the hand-over screen")
    app.act("pass-ok")
    views = dict(every_view(app))  # Ana's turn: her card face up in her own view, Ben's hidden everywhere
    for where, html in views.items():
        assert_not_shown(html, bens, f"Ana's {where}")
    assert_shown(views["seat 0's see-all dialog"], anas, "Ana's own see-all dialog")
    assert_shown(views["the table"], anas, "Ana's table")


def test_the_open_reservations_variant_shows_them_to_everyone():
    # The same checks see a reserved card when the rules say it is shown: they are not blind to the page.
    app = App(MemoryStorage())
    app.act("start", {"seed": "11", "opponents": "1", "starts": "bot", "open_reservations": True})
    card = blind(app, 1)
    assert app.my_turn
    views = dict(every_view(app))
    assert_shown(views["seat 1's see-all dialog"], card, "the see-all dialog")
    with pytest.raises(AssertionError, match="the hidden card is in"):
        assert_not_shown(views["seat 1's see-all dialog"], card)
