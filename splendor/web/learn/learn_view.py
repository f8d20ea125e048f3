"""The HTML of the learning and sharing parts of the page (see learn.py): the first-visit offer of a guided game,
the guide's box on the table and its highlights, the deal link's note and choice, the end screen's link, and the
player's record on the new-game screen. ``view.py`` places these pieces. Pure Python, escaped like view.py."""

from html import escape

from . import guide
from ..records import rating as glicko
from ..records.player_record import LEVEL_ORDER
from ..table.seats import LEVEL_LABEL, LEVELS, PERSON, level_rating, rated_label

LEVEL_WORDS = {**{level: f"{label} bots" for level, label in LEVEL_LABEL.items()}, "mixed": "Mixed levels"}


def esc(text):
    return escape(str(text), quote=True)


# -- the table ------------------------------------------------------------------------------------------------------
def howto_button():
    return ('<button type="button" class="tool howto-btn" data-act="howto" id="howto-open" aria-label="How to play">'
            '<span class="long" aria-hidden="true">How to play</span><span class="short" aria-hidden="true">?</span>'
            '</button>')


def howto_dialog(app):
    return guide.render(app)


def guided_card(app, card):
    """True when the guide points at ``card`` (market or reserve)."""
    coach = getattr(app, "coach", None)
    return bool(coach and card is not None and coach.get("card") == card.code)


def guided_count(app, color):
    """How many gems of ``color`` the guide suggests taking now (0, 1, or 2 for a take of two)."""
    coach = getattr(app, "coach", None)
    if not coach or color not in (coach.get("colors") or ()):
        return 0
    return 2 if str(coach.get("take") or "").startswith("take2") else 1


def pile_suffix(count):
    return ". The guide suggests taking two" if count == 2 else ". The guide suggests taking one"


def card_flag(guided):
    """The small flag drawn on the card the guide points at (its words are in the card's accessible name)."""
    return '<span class="guide-flag" aria-hidden="true">★ Guide</span>' if guided else ""


def guided_noble(app, noble):
    coach = getattr(app, "coach", None)
    return bool(coach and coach.get("noble") == noble.code)


CARD_SUFFIX = ", marked by the guide"


def _said(text, short):
    """The guide's words, with their shorter form for the shortest phones when there is one (learn.css shows it
    there, the whole words kept for screen readers)."""
    if not short or short == text:
        return esc(text)
    return (f'<span class="coach-long">{esc(text)}</span>'
            f'<span class="coach-short" aria-hidden="true">{esc(short)}</span>')


def coach_box(app):
    """The guide's words for this turn, beside what it marks on the board; '' when there is nothing to say."""
    coach = getattr(app, "coach", None)
    if not coach or not app.my_turn or app.showing:  # (a bot's move is seen first, without the guide over it)
        return ""
    if not app.coach_words_shown():  # "Got it": its words are put away until the next position
        return ""
    parts = []
    if coach.get("text"):
        parts.append(f'<p class="coach-main">{_said(coach["text"], coach.get("short"))}</p>')
    if coach.get("idea_text"):
        # (after advice, a paragraph of its own under a dividing line; alone, it runs on from the title)
        idea = "coach-idea" if coach.get("text") else "coach-idea alone"
        parts.append(f'<p class="{idea}"><b>New: </b>{_said(coach["idea_text"], coach.get("idea_short"))}</p>')
    # (the buttons before the words, so that a short phone can float them beside the first lines: learn.css; the
    # layout puts them after the words elsewhere)
    return (f'<section class="coach" aria-labelledby="coach-title" id="coach"><h2 id="coach-title">'
            f'<span class="coach-mark" aria-hidden="true">★</span> Guide</h2>'
            f'<div class="coach-buttons">'
            f'<button type="button" class="secondary coach-away" data-act="guide-away" id="guide-away" '
            f'aria-label="Got it: put the guide\'s words away for this turn"><span aria-hidden="true">Got it</span>'
            f'</button>'
            f'<button type="button" class="secondary coach-stop" data-act="guide-stop" id="guide-stop" '
            f'aria-label="Stop the guide"><span class="long" aria-hidden="true">Stop the guide</span>'
            f'<span class="short" aria-hidden="true">Stop</span></button></div>{"".join(parts)}</section>')


# -- the new-game screen ---------------------------------------------------------------------------------------------
def offer(app):
    """The first visit's offer of a guided game (shown once; any start or "No thanks" answers it)."""
    if not app.offer_guide:
        return ""
    return ('<section class="offer" aria-labelledby="offer-title" id="offer">'
            '<h2 id="offer-title">New to Splendor?</h2>'
            '<p>Play a guided first game: the first turns point at a good card and the gems that pay for it, and '
            'each new idea is explained when it first matters. The form below still sets the bots and who starts.'
            '</p><div class="start-row">'
            '<button type="button" class="primary" data-act="guided-start" id="guided-start">Play a guided game'
            '</button>'
            '<button type="button" class="secondary" data-act="howto" id="offer-howto">Read how to play</button>'
            '<button type="button" class="secondary" data-act="guide-decline" id="guide-decline">No thanks</button>'
            '</div></section>')


def setup_top(app):
    """What sits above the new-game form: a link's choice, or its note, or the first visit's offer."""
    if app.link is not None:
        return link_choice(app)
    return link_note(app) + offer(app)


def form_hidden(app):
    """The form waits while a link's choice is open (the person answers that first)."""
    return " hidden" if app.link is not None else ""


def link_choice(app):
    """A deal link opened while a game is in progress: continue it, or set up the linked deal."""
    link = app.link
    said = link.describe() or "a deal"
    ignored = link.ignored_words()
    extra = f'<p class="small">{esc(ignored)}</p>' if ignored else ""
    return ('<section class="offer link-choice" aria-labelledby="link-title" id="link-choice">'
            '<h2 id="link-title">This link sets up a deal</h2>'
            f'<p>{esc(said[:1].upper() + said[1:])}. You have a game in progress, saved on this device.</p>{extra}'
            '<div class="start-row">'
            '<button type="button" class="primary" data-act="link-continue" id="link-continue">'
            'Continue the saved game</button>'
            '<button type="button" class="secondary" data-act="link-setup" id="link-setup">Set up the linked deal'
            '</button></div></section>')


def link_note(app):
    """The quiet note of what a link filled in, and what it ignored."""
    if not app.link_note and not app.link_ignored:
        return ""
    ignored = f'<p class="small" id="link-ignored">{esc(app.link_ignored)}</p>' if app.link_ignored else ""
    return (f'<div class="link-note" id="link-note"><p>{esc(app.link_note)}</p>{ignored}</div>')


def guided_checkbox(app):
    checked = " checked" if app.settings.get("guided") else ""
    return ('<label class="check" for="set-guided"><input type="checkbox" id="set-guided" name="guided" '
            f'data-setting="guided"{checked}><span><b>Guide me through this game</b> <small>The first turns point '
            'at a good card and the gems that pay for it; new ideas are explained when they first matter.</small>'
            '</span></label>')


def _games(n):
    return f"{n} game{'' if n == 1 else 's'}"


def end_rating(app):
    """The end screen's word on the rating, once the game is counted: what this game did to it ("Your rating: 1158,
    up 15."), or why it stays (an assisted game; a game opened from a file). '' where the game rates nobody (no bot
    with a measured rating) and for another person than the rated one in pass and play."""
    g = app.game
    people = app.pass_play.people
    owner = people[0] if len(people) > 1 else app.person
    if g is None or not g.is_over or app.unrated or (len(people) > 1 and app.person != owner):
        return ""
    if not glicko.game_results(g.winners, g.scores, owner, [s.get("bot") for s in app.seats]):
        return ""
    rec = app.player_record
    now = round(rec.rating().rating)
    if owner in app.assisted:
        text = (f"Assisted game (Hint, Undo or the guide): your rating stays {now}." if rec.rating().games else
                "Assisted game (Hint, Undo or the guide): it is not rated.")
    else:
        change = round(rec.last_change() or 0)
        moved = f"up {change}" if change > 0 else f"down {-change}" if change < 0 else "unchanged"
        text = f"Your rating: {now}, {moved}."
    return f'<p class="end-rating" id="end-rating">{esc(text)}</p>'


def rating_panel(app):
    """The player's rating on the new-game screen ("Your rating 1240 ± 90 · 23 games"), the level it suggests for
    an even game and the next step up, each a button that sets every bot seat to it; before any rated game, how to
    get one. The ± is one deviation of the rating (Glicko's RD). '' when the ladder has no measured rating at all
    (nothing could be rated) and the record holds none. Each button says what it is in a small line over the level
    ("Even game" over "Hard · 1090"), so that two fit side by side on a phone."""
    rec = app.player_record
    r = rec.rating()
    if not r.games and all(level_rating(n) is None for n in LEVELS):
        return ""
    if r.games:
        change = rec.last_change()
        moved = ""
        if change is not None and round(change):
            moved = f' · <span class="rating-change">{"+" if change > 0 else "−"}{abs(round(change))} last game</span>'
        line = (f'<b class="rating-n">{round(r.rating)}</b> <span class="rating-rest">± {round(r.rd)} · '
                f'{_games(r.games)}{moved}</span>')
        even, up = glicko.suggest(r.rating)
    else:
        line = '<span class="rating-rest">none yet</span>'
        even = up = None
    s = app.settings
    bots = [s["levels"][i] for i in range(s["opponents"]) if s["levels"][i] != PERSON]
    buttons = []
    for level, what in ((even, "Even game"), (up, "Step up")):
        if level is None or not bots:
            continue
        chosen = all(b == level for b in bots)
        mark = '<span class="rating-mark" aria-hidden="true">✓ </span>' if chosen else ""
        buttons.append(f'<button type="button" class="secondary rating-use{" chosen" if chosen else ""}" '
                       f'data-act="use-level" data-level="{level}" id="use-{level}">'
                       f'<small>{mark}{esc(what)}:</small> <span>{esc(rated_label(level))}</span></button>')
    if r.games:
        said = ""
        if even is not None and not buttons:  # (every other seat a person: the levels in words)
            step = f"; a step up: {rated_label(up)}" if up else ""
            said = (f'<p class="small rating-note">An even game for you: {esc(rated_label(even))}{esc(step)}. '
                    'Make a seat a bot to play it.</p>')
    else:
        said = ('<p class="small rating-note">Finish a game against the bots without Hint or Undo: your rating then '
                'shows here, on the levels\' scale, with the level that gives you an even game.</p>')
    assisted = rec.assisted()
    if assisted:
        said += (f'<p class="small rating-note" id="rating-assisted">{_games(assisted)} with Hint, Undo or the guide '
                 f'{"was" if assisted == 1 else "were"} not rated.</p>')
    row = f'<div class="rating-buttons">{"".join(buttons)}</div>' if buttons else ""
    return (f'<section class="rating" aria-labelledby="rating-title" id="rating"><div class="rating-line">'
            f'<h2 class="rating-title" id="rating-title">Your rating</h2> <p id="rating-value">{line}</p></div>'
            f'{row}{said}</section>')


def _cell(row):
    if not row:
        return '<td class="none">–</td>'
    return f'<td><b>{row["won"]}</b> of {row["played"]}</td>'


def record_panel(app):
    rec = app.player_record
    totals = rec.totals()
    rows = rec.table()
    if rows:
        body = "".join(
            f'<tr><th scope="row">{esc(LEVEL_WORDS[level])}</th>{"".join(_cell(cells[n]) for n in (2, 3, 4))}</tr>'
            for level, cells in rows)
        table = ('<table class="record-table"><caption>Games won of games finished</caption><thead><tr>'
                 '<td></td><th scope="col">2 players</th><th scope="col">3 players</th><th scope="col">4 players</th>'
                 f'</tr></thead><tbody>{body}</tbody></table>')
        facts = [f'<li>Finished: <b>{totals["played"]}</b>, won: <b>{totals["won"]}</b></li>']
        if totals["best"] is not None:
            facts.append(f'<li>Best score: <b>{totals["best"]}</b></li>')
        if totals["fastest"] is not None:
            facts.append(f'<li>Shortest win: <b>{totals["fastest"]}</b> rounds</li>')
        summary = f'<ul class="record-facts">{"".join(facts)}</ul>'
    else:
        table = ""
        summary = '<p class="small">No finished game yet: your results appear here.</p>'
    where = ("Saved games and this record live in this browser, on this device only. Download the record to keep "
             "a copy.")
    if not rec.available:
        where = "This browser does not let the page keep a record here; results are counted for this visit only."
    button = ('<button type="button" class="secondary" data-act="export-record" id="export-record">'
              'Download your record (JSON)</button>' if totals["played"] else "")
    return (f'<section class="record" aria-labelledby="record-title" id="record"><h2 id="record-title">Your record'
            f'</h2>{summary}{table}<p class="small device-note">{esc(where)}</p>{button}</section>')


# -- the end screen ------------------------------------------------------------------------------------------------
def copy_link(app):
    """'Copy a link to this deal', and what came of it (copied, or a text field to copy it by hand)."""
    state = app.link_copy
    share = bool(getattr(app, "daily", None))  # (the daily deal's result, said without its moves)
    button = ('<button type="button" class="secondary" data-act="copy-link" id="copy-link">'
              f'{"Share the result" if share else "Copy a link to this deal"}</button>')
    if not state:
        return f'<div class="share">{button}</div>'
    url = esc(state["url"])
    what = "text" if state.get("share") else "link"
    if state["state"] == "copied":
        said = f'<p class="share-said" role="status">{what.title()} copied: {url}</p>'
    elif state["state"] == "manual":
        said = ('<label class="field share-field" for="deal-url"><span>The clipboard is not available here: copy '
                f'this {what}</span><input type="text" id="deal-url" readonly value="{url}"></label>')
    else:
        said = '<p class="share-said" role="status">Copying…</p>'
    return f'<div class="share">{button}{said}</div>'


__all__ = ["LEVEL_ORDER", "howto_button", "howto_dialog", "coach_box", "offer", "setup_top", "form_hidden",
           "end_rating", "link_choice", "link_note", "guided_checkbox", "rating_panel", "record_panel", "copy_link",
           "guided_card", "guided_count", "pile_suffix", "card_flag", "guided_noble"]
