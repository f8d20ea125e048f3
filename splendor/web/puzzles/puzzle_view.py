"""The puzzles' HTML: their place on the first screen, the status and tools of a puzzle on the table, and the
result (right or wrong, the expert's reason, both moves' chances, the streak and the rating). Pure Python."""

from ..table.faces import cap, esc
from ..table.seats import LEVEL_LABEL, LEVELS


MODE_WORDS = {"rated": "Puzzle", "streak": "Puzzle streak", "daily": "Daily puzzle"}


def setup_panel(app):
    """The first screen's puzzles and daily deal, one compact panel near its top: one tap into each."""
    return f'<section class="today" aria-label="Today">{daily_panel(app)}{puzzles_row(app)}</section>'


def puzzles_row(app):
    """One tap into each puzzle mode, and where the person stands."""
    part = app.player_record.data["puzzles"]
    rating = app.player_record.puzzle_rating()
    if part["tried"]:
        stand = (f'Rating <b>{round(rating.rating)}</b>{"?" if rating.games < 5 else ""} · '
                 f'solved {part["solved"]} of {part["tried"]} · best streak {part["best_streak"]}')
    else:
        stand = "Positions with one clearly best move: can you find it?"
    loading = app.pool_wanted is not None
    problem = f'<p class="message" role="alert">{esc(app.pool_problem)}</p>' if app.pool_problem else ""
    busy = ' aria-busy="true"' if loading else ""
    note = '<p class="puzzle-loading" role="status">Loading the puzzles…</p>' if loading else ""
    return (f'<div class="today-row" role="group" aria-labelledby="puzzles-title" id="puzzles"{busy}>'
            f'<h2 id="puzzles-title">Puzzles</h2> <span class="today-said">{stand}</span>'
            '<div class="today-buttons">'
            '<button type="button" class="secondary" data-act="puzzles" data-mode="rated" id="puzzle-rated">'
            'Solve puzzles</button>'
            '<button type="button" class="secondary" data-act="puzzles" data-mode="streak" id="puzzle-streak">'
            'Puzzle streak</button>'
            '<button type="button" class="secondary" data-act="puzzles" data-mode="daily" id="puzzle-daily">'
            'Daily puzzle</button></div>'
            f'{note}{problem}</div>')


def status(app):
    """The status line during a puzzle (two short lines on a phone)."""
    pz = app.puzzle
    r = pz["result"]
    if r is None:
        head = MODE_WORDS[pz["mode"]]
        if pz["mode"] == "streak":
            head += f" {pz['streak']['count'] + 1}"
        return f"{head}: find the best move."
    return "Solved: the best move." if r["solved"] else "Not the best move."


def tools(app):
    """The tools of a puzzle's table: the result (once the move is played) and Next; Leave."""
    pz = app.puzzle
    out = []
    if pz["result"] is not None:
        if not pz["shown"]:
            out.append('<button type="button" class="tool" data-act="puzzle-table" data-show="1" id="puzzle-show">'
                       'Result</button>')
        out.append(f'<button type="button" class="tool" data-act="puzzle-next" id="puzzle-next-tool">'
                   f'{esc(next_words(pz))}</button>')
    out.append('<button type="button" class="tool" data-act="puzzle-leave" id="puzzle-leave" '
               'aria-label="Leave the puzzles"><span class="long" aria-hidden="true">Leave puzzles</span>'
               '<span class="short" aria-hidden="true">Leave</span></button>')
    return "".join(out)


def next_words(pz):
    if pz["mode"] == "streak" and not pz["result"]["solved"]:
        return "New streak"
    return "Next puzzle"


def chance_words(pct):
    return "the expert set it aside after a glance" if pct is None else f"your chance {pct}%"


def result_dialog(app):
    """The result of the move played, over the table (``puzzle-table`` puts it away to look at the table)."""
    pz = app.puzzle
    if pz is None or pz["result"] is None or not pz["shown"]:
        return ""
    p, r = pz["p"], pz["result"]
    if r["solved"]:
        title = "Solved!"
        lines = [f'<p class="pz-move"><b>{esc(cap(r["answer"]))}</b>: {esc(chance_words(r["best"]))}.</p>']
    else:
        title = "Not the best move"
        lines = [f'<p class="pz-move">The best: <b>{esc(r["answer"])}</b>: {esc(chance_words(r["best"]))}.</p>',
                 f'<p class="pz-move pz-yours">Yours: {esc(r["played"])}: {esc(chance_words(r["yours"]))}.</p>']
    if p.get("why"):
        lines.append(f'<p class="pz-why">Why: it {esc(p["why"])}.</p>')
    lines.append(f'<p class="pz-theme">Theme: {esc(p["theme"])}. Puzzle rating {round(p["rating"])}.</p>')
    part = app.player_record.data["puzzles"]
    stand = []
    if pz["mode"] == "streak":
        count = pz["streak"]["count"]
        stand.append(f"Streak: {count}" if r["solved"] else f"The streak ends at {count}")
        stand.append(f"best {part['best_streak']}")
    rating = app.player_record.puzzle_rating()
    change = r["change"]
    moved = f" ({round(change):+d})" if change else " (tried before: not rated again)"
    stand.append(f"your puzzle rating {round(rating.rating)}{moved}")
    lines.append(f'<p class="pz-stand">{esc(cap("; ".join(stand)))}.</p>')
    return f"""<div class="scrim"></div>
<div class="dialog puzzle-result{' solved' if r['solved'] else ' missed'}" role="dialog" aria-modal="true" \
aria-labelledby="puzzle-title" id="puzzle-result">
<h2 id="puzzle-title">{title}</h2>
{''.join(lines)}
<div class="dialog-buttons"><button type="button" class="primary" data-act="puzzle-next" id="puzzle-next">\
{esc(next_words(pz))}</button>\
<button type="button" class="secondary" data-act="puzzle-table" id="puzzle-look">See the table</button>\
<button type="button" class="secondary" data-act="puzzle-leave" id="puzzle-done">Leave puzzles</button></div>
</div>"""


def daily_panel(app):
    """The daily deal: the day, how today went, the level, one tap to play (or practise)."""
    day = app.today()
    row = app.player_record.daily_entry(day)
    part = app.player_record.data["daily"]
    run = app.player_record.daily_streak(day)
    if row is None:
        said = "One deal for everyone today; your first game of it is scored."
        label = "Play today's deal"
    else:
        level = LEVEL_LABEL.get(row["level"], row["level"])
        if row["state"] == "started":
            said = f"Today's scored game against {level} is under way (or was left unfinished)."
        else:
            verb = {"won": "won", "lost": "lost", "shared": "shared the win"}[row["state"]]
            said = f"Today: you {verb} {row['you']}-{row['bot']} against {level}."
        label = "Practise today's deal"
    if run or part["best_streak"]:
        said += f" Days won in a row: {run} (best {part['best_streak']})."
    chosen = app.settings.get("daily_level", "expert")
    options = "".join(f'<option value="{esc(v)}"{" selected" if v == chosen else ""}>{esc(LEVEL_LABEL[v])}</option>'
                      for v in LEVELS)
    return (f'<div class="today-row" role="group" aria-labelledby="daily-title" id="daily">'
            f'<h2 id="daily-title">Daily deal <small>{esc(day)}</small></h2> <span class="today-said">{esc(said)}'
            '</span><div class="today-buttons">'
            f'<button type="button" class="secondary" data-act="daily" id="daily-play">{label}</button>'
            '<label class="daily-level" for="daily-level"><span>against</span> '
            f'<select class="level-pick" id="daily-level" data-setting="daily_level">{options}</select></label>'
            '</div></div>')


def daily_end(app):
    """The results' word on the daily deal: scored (and the run of days won) or practice."""
    d = getattr(app, "daily", None)
    if not d:
        return ""
    if not d["scored"]:
        return f'<p class="daily-end">Practice game of the daily deal of {esc(d["day"])}: not scored.</p>'
    run = app.player_record.daily_streak(d["day"])
    best = app.player_record.data["daily"]["best_streak"]
    said = f" Days won in a row: {run} (best {best})." if run else ""
    return f'<p class="daily-end">Daily deal of {esc(d["day"])}: scored.{said}</p>'

