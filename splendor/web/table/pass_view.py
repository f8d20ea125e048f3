"""The pass-and-play parts of the page: the hand-over screen and the new-game screen's seat choices.

Pure Python (no browser imports), like ``view``. The hand-over screen replaces the whole table: nothing of the
position is in the page while the device goes from one person to the next, so nobody sees another person's hidden
reserved cards, not even through a screen reader.
"""

from html import escape

from .seats import LEVEL_LABEL, LEVELS, PERSON, plays_words, rated_label


def esc(text):
    return escape(str(text), quote=True)


def render_handover(app, logo=""):
    """'Pass to Ben': a screen with one button for the next person, and (before they tap) the way back for the
    person who just played: undo their turn."""
    seat = app.handover
    name = app.name(seat)
    g = app.game
    before = app.pass_play.viewer
    undo = ""
    if before is not None and app.can_undo():
        undo = (f'<button type="button" class="secondary" data-act="undo" id="pass-undo">'
                f'{esc(app.name(before))}: undo your last turn</button>')
    said = ""
    moves = app.last_moves()
    since = []
    for i in _since_order(app, seat):  # up to the player to move: the bots still to play come after the hand-over
        if i == g.current_player and i != seat:
            break
        since.append(i)
    others = [(i, moves[i]) for i in since if i in moves]
    if others:
        items = "".join(f"<li><b>{esc(app.name(i))}</b>: {esc(text)}</li>" for i, text in others)
        said = f'<h3>Since {esc(name)}\'s last turn</h3><ul class="pass-moves">{items}</ul>'
    round_words = f"Round {g.round}." + (" Final round." if g.final_round else "")
    return f"""<div class="app pass-screen">
<header class="topbar"><h1 class="title">{logo}Splendor</h1></header>
<main class="pass" id="main">
<div class="pass-card" role="dialog" aria-modal="true" aria-labelledby="pass-title" aria-describedby="pass-help" \
id="pass">
<h2 id="pass-title">Pass to {esc(name)}</h2>
<p id="pass-help">The table is hidden while the device changes hands, so nobody sees another player's hidden \
reserved cards. {esc(name)}, tap when you hold the device. {esc(round_words)}</p>
<div class="dialog-buttons">\
<button type="button" class="primary btn-large" data-act="pass-ok" id="pass-ok">I am {esc(name)}: show my turn</button>\
{undo}</div>
{said}
</div>
</main>
</div>"""


def _since_order(app, seat):
    """The other seats in turn order from the one after ``seat``: what happened since its last turn."""
    n = app.game.players_count
    return [(seat + k) % n for k in range(1, n)]


def seat_choices(app):
    """The new-game screen's fieldsets for the other seats, side by side where they fit: each a choice (one
    ``<select>``: the ladder's levels and Person would not fit a phone's width as a row of buttons) of a bot level,
    shown with its measured rating ("Hard · 1090"), or a person (with a name field). Under them, one line for each
    level chosen of how it plays (once, however many seats play it; each list is described by its level's line)."""
    s = app.settings
    out = []
    chosen = []
    bots = 0
    for i in range(s["opponents"]):
        kind = s["levels"][i]
        options = "".join(
            f'<option value="{lv}"{" selected" if kind == lv else ""}>{esc(rated_label(lv))}</option>'
            for lv in LEVELS)
        options += f'<option value="{PERSON}"{" selected" if kind == PERSON else ""}>Person</option>'
        if kind == PERSON:
            # named as the table will name the seat: the person's name once typed
            typed = " ".join(str(s["names"][i] or "").split()) if i < len(s["names"]) else ""
            legend = typed or f"Player {i + 2}"
            field = (f'<label class="field" for="set-pname{i}"><span>Player {i + 2}\'s name</span>'
                     f'<input type="text" id="set-pname{i}" maxlength="40" autocomplete="off" '
                     f'value="{esc(s["names"][i])}" data-setting="pname{i}"></label>')
            described = ""
        else:
            bots += 1
            legend = f"Bot {bots}"
            field = ""
            described = f' aria-describedby="plays-{kind}"'
            if kind not in chosen:
                chosen.append(kind)
        out.append(f'<fieldset class="row seat-choice{" person" if kind == PERSON else ""}">'
                   f'<legend id="seat{i}-legend">{esc(legend)}</legend>'
                   f'<select class="level-pick" id="set-level{i}" data-setting="level{i}" '
                   f'aria-labelledby="seat{i}-legend"{described}>{options}</select>{field}</fieldset>')
    notes = "".join(f'<li id="plays-{lv}"><b>{esc(LEVEL_LABEL[lv])}</b>: {esc(plays_words(lv))}</li>'
                    for lv in chosen)
    notes = f'<ul class="level-plays">{notes}</ul>' if notes else ""
    return f'<div class="seat-list">{"".join(out)}</div>{notes}'


def several(app):
    s = app.settings
    return any(k == PERSON for k in s["levels"][:s["opponents"]])


def opponents_label(app, n):
    """The count's words: '2 bots' (as for one person), or '2 opponents' when people sit among them."""
    kinds = app.settings["levels"][:n]
    if all(k != PERSON for k in kinds):
        return f"{n} bot{'s' if n > 1 else ''}"
    return f"{n} opponent{'s' if n > 1 else ''}"


def first_name_field(app):
    """With several people, the first player's name is asked beside the seats (not under More options)."""
    return (f'<label class="field" for="set-name"><span>Player 1\'s name</span><input type="text" id="set-name" '
            f'maxlength="40" autocomplete="nickname" value="{esc(app.settings["name"])}" data-setting="name">'
            '</label>')


def skip_option(app):
    s = app.settings
    checked = " checked" if s.get("skip_pass") else ""
    return ('<label class="check" for="set-skip_pass"><input type="checkbox" id="set-skip_pass" name="skip_pass"'
            f' data-setting="skip_pass"{checked}><span><b>No hand-over screen</b> <small>With open reservations '
            'nothing is hidden, so several people may play without passing the device behind a screen.</small>'
            '</span></label>')


def opponent_kind(seat):
    return f"{seat['bot']} bot" if seat.get("bot") else "person"


def handover_words(app):
    """What the live region says when the hand-over screen comes up ('' when there is none)."""
    seat = app.handover
    if seat is None or app.showing:  # a bot's move is seen first (view.render): the screen comes after it
        return ""
    name = app.name(seat)
    return f"Pass the device to {name}. {name}, press “I am {name}: show my turn” when you hold it."
