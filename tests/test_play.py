"""The terminal game: a scripted person plays against a bot through the notation."""

import splendor
from splendor.play import main


def run(inputs, *args):
    feed = iter(inputs)
    out = []

    def read(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    code = main(list(args), input_fn=read, print_fn=out.append)
    return code, "\n".join(out)


def test_illegal_input_is_refused_with_a_reason_and_play_goes_on():
    code, text = run(["take gold", "take2 white", "list", "take white blue green", "quit"],
                     "--seed", "7", "--bots", "random")
    assert code == 0
    assert "not played" in text and "gold" in text
    assert "take white blue green" in text  # the list command printed legal actions
    assert "bot 1:" in text  # the bot answered the legal take


def test_undo_goes_back_to_the_start_of_the_persons_turn():
    code, text = run(["take white blue green", "undo", "quit"], "--seed", "7", "--bots", "random")
    assert code == 0
    boards = [block for block in text.split("Round ")[1:]]
    # The board shown after undo is the opening board again (round 1, no tokens taken).
    assert boards[-1].startswith("1.") and "you: 0 pts, tokens -" in boards[-1]


def test_a_whole_game_against_a_bot_reaches_the_end(monkeypatch):
    import splendor.play as play

    games = []

    def spy(**kwargs):
        games.append(splendor.new_game(**kwargs))
        return games[-1]

    monkeypatch.setattr(play, "new_game", spy)
    out = []

    def first_legal(prompt):
        return str(games[0].legal_actions()[0])

    assert play.main(["--seed", "3", "--bots", "easy"], input_fn=first_legal, print_fn=out.append) == 0
    game = games[0]
    assert game.is_over
    assert f"Scores {game.scores}" in out[-1]
