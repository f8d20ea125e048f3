"""How to play: a short illustrated guide, one topic per page, reachable from the table at any time.

The words are the project's rules (the base game with the publisher's rulings), kept short; the pictures are drawn
from the page's own gem sprite and card styles, so the guide needs nothing the game does not already load and works
offline. ``render(app)`` gives the dialog's HTML for ``app.howto`` (the page on show). Pure Python.

>>> [p["tab"] for p in PAGES]
['Goal', 'Gems', 'Reserve', 'Buy', '10 tokens', 'Nobles', 'The end', 'Levels']
"""

from html import escape

from ...engine import COLORS, card_from_code, noble_from_code
from ..table import faces
from ..table.seats import LEVEL_LABEL, LEVELS, level_rating

# Each page: a short tab name, a title, what the picture shows (spoken), three or four short lines.
PAGES = [
    {"tab": "Goal", "title": "The goal: 15 prestige points", "art": "goal",
     "alt": "A level 3 card worth 4 points and a noble worth 3 points",
     "lines": [
         "Collect gem tokens and spend them on development cards. Many cards carry prestige points.",
         "Every card you buy also gives a bonus gem of its color, for good.",
         "Nobles visit players with enough bonuses: 3 points each.",
         "Score = points of your bought cards + 3 per noble. Reaching 15 starts the final round.",
     ]},
    {"tab": "Gems", "title": "Your turn: one of four actions. Two of them take gems", "art": "gems",
     "alt": "Three gems of different colors, or two gems of one color from a pile of at least 4",
     "lines": [
         "Take three gems of different colors, one of each. If fewer than three colors have tokens left, take one "
         "of each color that has any.",
         "Or take two gems of one color, only if its pile holds at least 4 before you take them.",
         "Never gold: gold comes only with a reservation.",
     ]},
    {"tab": "Reserve", "title": "Reserve a card and take a gold", "art": "reserve",
     "alt": "A reserved card and a gold token",
     "lines": [
         "Take a face-up card, or the top card of any deck without looking, into your hand, and take 1 gold if any "
         "is left.",
         "Gold pays for one token of any color.",
         "You may hold 3 reserved cards. Only you can buy them; they score and give a bonus only once bought.",
     ]},
    {"tab": "Buy", "title": "Buy a card: bonuses are permanent discounts", "art": "buy",
     "alt": "A card costing 1 white, 3 blue and 1 green costs only 1 white, 1 blue and 1 green to a player with "
            "2 blue bonuses",
     "lines": [
         "Buy a face-up card or one you reserved. Pay its cost with tokens (gold for any color); they go back to "
         "the supply.",
         "Each card you own is a bonus of its color: every later card costs one gem of that color less.",
         "A price never drops below 0. A card fully paid by your bonuses is free, but buying it still uses your turn.",
     ]},
    {"tab": "10 tokens", "title": "At most 10 tokens", "art": "limit",
     "alt": "Eleven tokens held: one of them goes back",
     "lines": [
         "At the end of your turn you may hold at most 10 tokens, gold included.",
         "With more, give back tokens of your choice (any colors, even ones just taken) until you hold 10.",
         "Cards and nobles do not count toward the limit.",
     ]},
    {"tab": "Nobles", "title": "Nobles come by themselves", "art": "nobles",
     "alt": "A noble needing 3 white, 3 blue and 3 green bonuses visits a player who has them",
     "lines": [
         "At the end of every turn, if your bonuses meet a noble's needs, that noble visits you: 3 points.",
         "It is not an action and cannot be declined. Only bonuses count, never tokens.",
         "One noble per turn: if several qualify, you choose one, and another may come on a later turn.",
     ]},
    {"tab": "The end", "title": "The final round and ties", "art": "end",
     "alt": "Two players tied on 16 points: the one with fewer bought cards wins",
     "lines": [
         "When a player ends a turn with 15 points or more, the round is played out: play goes on until the player "
         "seated just before the starting player has had a turn, so everyone has had the same number of turns.",
         "The highest score wins, even if another player reached 15. Tied on score: fewer bought cards wins "
         "(reserved cards do not count); still tied, the victory is shared.",
         "Friends at one device: make a seat a Person on the new-game screen; between turns a “Pass to…” screen "
         "hides the table, so nobody sees another's blind reserves.",
         "After a game, “Review this game” shows each player's chance to win move by move, where the game turned, "
         "and a better move for yours.",
     ]},
    {"tab": "Levels", "title": "The bots' levels and your rating", "art": "levels",
     "alt": f"The bots' levels from {LEVEL_LABEL[LEVELS[0]]} to {LEVEL_LABEL[LEVELS[-1]]}, each with its rating; "
            "Medium is 1000",
     "lines": [
         f"The bots play at {len(LEVELS)} levels, from {LEVEL_LABEL[LEVELS[0]]} to {LEVEL_LABEL[LEVELS[-1]]}. "
         "Each shows its rating, measured in games the levels played against each other.",
         "Your rating is on the same scale, where Medium is 1000: against a level rated like you, you win about half "
         "the games. Games in which you used Hint, Undo or the guide are assisted and do not change it.",
         "Each finished game against the bots moves it (at 3 or 4 players, against each bot: above it is a win, "
         "below it a loss); the ± after it narrows as games come in.",
     ]},
]


def esc(text):
    return escape(str(text), quote=True)


def _gems(*colors):
    return "".join(f'<span class="art-gem">{faces.lettered(c)}</span>' for c in colors)


def _noble(code):
    noble = noble_from_code(code)
    reqs = "".join(f'<span class="req req-{c}">{faces.lettered(c)}<b>{n}</b></span>'
                   for c, n in ((COLORS[i], n) for i, n in noble.needs))
    return f'<span class="noble art-noble"><span class="noble-pts">3</span><span class="reqs">{reqs}</span></span>'


def _card(code, price=None):
    card = card_from_code(code)
    return f'<span class="card art-card bonus-{card.bonus}">{faces.card_face(card, price)}</span>'


def art(kind):
    """The picture of a page: HTML built from the game's own sprite and card styles (hidden from screen readers;
    the page's ``alt`` says what it shows)."""
    if kind == "goal":
        return (f'{_card("3U4:6w3u3k")}<span class="art-op">+</span>{_noble("4w4u")}'
                '<span class="art-op">→</span><span class="art-big">15</span>')
    if kind == "gems":
        return (f'<span class="art-group">{_gems("white", "blue", "green")}<small>3 colors</small></span>'
                '<span class="art-op">or</span>'
                f'<span class="art-group">{_gems("red", "red")}<small>2 of a color, pile of 4+</small></span>')
    if kind == "reserve":
        return (f'{_card("1U0:1w1g1r1k")}<span class="art-op">+</span>'
                f'<span class="art-group">{_gems("gold")}<small>1 gold, any color</small></span>')
    if kind == "buy":
        price = {"white": 1, "blue": 1, "green": 1, "red": 0, "black": 0}
        return (f'<span class="art-group">{_gems("blue", "blue")}<small>2 blue bonuses</small></span>'
                f'<span class="art-op">→</span>{_card("1G0:1w3u1g", price)}')
    if kind == "limit":
        held = ("white", "white", "blue", "blue", "green", "red", "red", "black", "black", "gold")
        return (f'<span class="art-group art-wrap">{_gems(*held)}'
                f'<span class="art-gem art-out">{_gems("green")}</span><small>11 held: give 1 back</small></span>')
    if kind == "nobles":
        return (f'<span class="art-group">{_gems(*["white"] * 3, *["blue"] * 3, *["green"] * 3)}'
                f'<small>bonuses from bought cards</small></span><span class="art-op">→</span>{_noble("3w3u3g")}')
    if kind == "end":
        return ('<table class="art-table"><thead><tr><th scope="col">Player</th><th scope="col">Points</th>'
                '<th scope="col">Cards</th><th scope="col"></th></tr></thead><tbody>'
                '<tr class="win"><td>Ann</td><td>16</td><td>12</td><td>wins</td></tr>'
                '<tr><td>Ben</td><td>16</td><td>14</td><td></td></tr>'
                '<tr><td>Cy</td><td>15</td><td>11</td><td></td></tr></tbody></table>')
    if kind == "levels":
        rungs = '<span class="art-op">…</span>'.join(_rung(level) for level in (LEVELS[0], "medium", LEVELS[-1]))
        return (f'<span class="art-group art-ladder">{rungs}<small>weakest to strongest: each a measured step</small>'
                '</span>')
    return ""


def _rung(level):
    """A level as the guide's picture shows it: its name over its measured rating (Medium, the scale's zero, marked)."""
    r = level_rating(level)
    anchor = " anchor" if level == "medium" else ""
    number = f"<small>{r}</small>" if r is not None else ""
    return f'<span class="art-rung{anchor}"><b>{esc(LEVEL_LABEL[level])}</b>{number}</span>'


def render(app):
    """The How to play dialog for page ``app.howto`` ('' when it is closed)."""
    if app.howto is None:
        return ""
    i = max(0, min(len(PAGES) - 1, app.howto))
    page = PAGES[i]
    tabs = "".join(
        f'<button type="button" class="howto-tab" id="howto-tab-{k}" data-act="howto-page" data-page="{k}"'
        f'{" aria-current=" + chr(34) + "step" + chr(34) if k == i else ""}>{esc(p["tab"])}</button>'
        for k, p in enumerate(PAGES))
    lines = "".join(f"<li>{esc(line)}</li>" for line in page["lines"])
    prev = (f'<button type="button" class="secondary" id="howto-prev" data-act="howto-page" data-page="{i - 1}">'
            f'Previous</button>' if i > 0 else "")
    nxt = (f'<button type="button" class="primary" id="howto-next" data-act="howto-page" data-page="{i + 1}">'
           f'Next: {esc(PAGES[i + 1]["tab"])}</button>' if i + 1 < len(PAGES) else "")
    return f"""<div class="scrim" data-act="howto-close"></div>
<div class="dialog howto" role="dialog" aria-modal="true" aria-labelledby="howto-title" \
aria-describedby="howto-step" id="howto">
<h2 id="howto-title">How to play</h2>
<nav class="howto-tabs" aria-label="Topics">{tabs}</nav>
<section class="howto-page" aria-labelledby="howto-h">
<h3 id="howto-h"><span class="howto-n" id="howto-step">{i + 1} of {len(PAGES)}</span> {esc(page["title"])}</h3>
<div class="howto-art" role="img" aria-label="{esc(page["alt"])}">{art(page["art"])}</div>
<ul class="howto-lines">{lines}</ul>
</section>
<div class="dialog-buttons">{prev}{nxt}\
<button type="button" class="secondary" id="howto-close" data-act="howto-close">Close</button></div>
</div>"""
