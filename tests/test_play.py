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


def test_tokens_and_bonuses_print_with_the_notations_letters_and_gold_apart():
    from engine_fixtures import position

    from splendor.play import show

    game = position(tokens={0: "1w2u1g1r2k2*", 1: "3g"}, bonuses={0: "1g2k"})
    text = show(game, 0)
    supply = text.splitlines()[0].split("Supply: ")[1]
    assert supply == "3w 2u 0g 3r 2k 3*"  # every pile, zeros too, in the notation's order
    you = next(line for line in text.splitlines() if " you: " in line)
    assert "tokens 1w 2u 1g 1r 2k 2*," in you
    assert "bonuses 1g 2k," in you
    bot = next(line for line in text.splitlines() if " bot 1: " in line)
    assert "tokens 3g," in bot and "bonuses -," in bot
    # black is k (b is no color) and gold is * (never g, which is green)
    for line in (supply, you, bot):
        assert not any(word.endswith("b") for word in line.split())


def test_the_legend_names_every_letter_once_at_the_start():
    _, text = run(["quit"], "--seed", "7", "--bots", "random")
    first = text.splitlines()[0]
    assert "w white, u blue, g green, r red, k black, * gold" in first
