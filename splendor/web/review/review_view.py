"""The review screen's HTML: the chart of each player's chance to win after every turn (SVG, with its name and a text
alternative), the steps through the game, the table after the turn shown, and the turning points as a list.
Pure Python, escaped like view.py; the state is ``review.state.ReviewState``'s."""

import time

from ...engine.cards import COLORS, TOKEN_COLORS
from ...ai.review import MARKED, move_class
from ..table import words
from ..table.faces import attrs, cap, card_face, drawn, esc, lettered

#: The chart's drawing units: it is stretched to its box (the lines keep their width, the labels are the page's own
#: text beside it, so they stay readable at any size); each seat's line has its color and its dash, so the lines are
#: told apart without color too.
W, H = 1000, 100
DASHES = ("", "7 4", "2 3", "10 3 2 3")


def pct(x):
    return f"{round(100 * x)}%"


def render_review(app, logo):
    r = app.review
    e = r["entry"]
    done, total = app.review_progress()
    turns = len(r["turns"])
    if r["state"] == "computing":
        status = (f'<div class="rv-progress" role="status"><label for="rv-bar">Reviewing the game… '
                  f'{done} of {total} positions</label><progress id="rv-bar" max="{total}" value="{done}">'
                  f'{done} of {total}</progress>'
                  f'<button type="button" class="secondary" data-act="review-cancel" id="review-cancel">Cancel</button>'
                  f'</div>')
    elif r["state"] in ("cancelled", "failed"):
        why = "The review was cancelled." if r["state"] == "cancelled" else f"The review failed: {r['error']}."
        status = (f'<div class="rv-progress" role="status"><p>{esc(why)}</p><button type="button" class="primary" '
                  f'data-act="review-retry" id="review-retry">Review again</button></div>')
    else:
        status = ""
    back = "Back to the results" if r["back"] == "game" else "Back"
    # (at 3-4 players the names would be cut on a phone: the chart's legend names every player)
    title = " vs ".join(e["names"]) if len(e["names"]) == 2 else f'{len(e["names"])} players'
    return f"""<div class="app review-screen">
<header class="topbar">
<h1 class="title">{logo}<span class="title-word">Game review</span></h1>
<p class="status rv-who">{esc(title)}</p>
<nav class="tools" aria-label="Review">\
<button type="button" class="tool" data-act="review-close" id="review-close">{esc(back)}</button></nav>
</header>
<main class="review" id="main">
<section class="rv-chart-box" aria-labelledby="rv-chart-title">
<h2 id="rv-chart-title">Chance to win after each move</h2>
{status}
{chart(app)}
</section>
{stepper(app, turns)}
{table(app)}
{turning_list(app) if r["data"] else ''}
</main>
</div>"""


def chart(app):
    """The chart, drawn from its first points on: while the review is computed, the positions known so far on the
    whole game's width (the turning points once it is whole); '' before the first piece."""
    r = app.review
    data = r["data"]
    names = r["entry"]["names"]
    pos = data["positions"] if data else r["entries"]
    if not pos:
        return ""
    turning = data["turning"] if data else []
    n = len(names)
    last = len(r["turns"])

    def x(k):
        return W * k / last if last else 0

    def y(v):
        return H * (1 - v)

    def dot(cls, k, v):  # a round dot whatever the stretch: a line of no length with round caps
        return f'<line class="{cls}" x1="{x(k):.1f}" x2="{x(k):.1f}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'

    grid = "".join(f'<line class="rv-grid" x1="0" x2="{W}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
                   for v in (0, .25, .5, .75, 1))
    lines = []
    for s in range(n):
        pts = " ".join(f"{x(k):.1f},{y(p['chances'][s]):.1f}" for k, p in enumerate(pos))
        lines.append(f'<polyline class="rv-line rv-seat{s}" points="{pts}"'
                     f'{attrs(stroke_dasharray=DASHES[s] or None)}/>')
    marks = "".join(dot("rv-mark", tp["turn"], tp["to"]) for tp in turning)
    flagged = flags(app, pos)
    marks += "".join(dot(f"rv-flag rv-{cls}", k, pos[k]["chances"][mover]) for k, mover, cls, _loss in flagged)
    step = min(r["step"], len(pos) - 1)
    cursor = (f'<line class="rv-cursor" x1="{x(step):.1f}" x2="{x(step):.1f}" y1="0" y2="{H}"/>'
              + "".join(dot(f"rv-dot rv-seat{s}", step, pos[step]["chances"][s]) for s in range(n)))
    # one tap target per position, as wide as its share of the chart: a tap shows the move nearest to it
    width = W / last if last else W
    hits = "".join(f'<rect class="rv-hit" x="{x(k) - width / 2:.1f}" y="-4" width="{width:.1f}" height="{H + 8}"'
                   f'{attrs(data_act="review-step", data_to=k)}><title>After move {k}</title></rect>'
                   for k in range(len(pos)))
    mid = last // 2  # (the middle of the chart, a whole move: half a move left of it when the count is odd)
    ticks = f'<span>Deal</span><span>Move {mid}</span><span>Move {last}</span>'
    kinds = {cls for _k, _m, cls, _l in flagged}
    # (the marks' key is a list of its own: the seats' list says every seat's chance and nothing else)
    flag_key = "".join(f'<li class="rv-flag-key rv-{cls}"><svg viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" '
                       f'cy="5" r="4"/></svg>{cap(cls)}</li>' for cls in MARKED if cls in kinds)
    marks_key = f'<ul class="rv-legend" aria-label="Marks on the chart">{flag_key}</ul>' if flag_key else ""
    legend = "".join(f'<li class="rv-key rv-seat{s}"><svg viewBox="0 0 24 8" aria-hidden="true"><line x1="0" x2="24" '
                     f'y1="4" y2="4"{attrs(stroke_dasharray=DASHES[s] or None)}/></svg>{esc(names[s])} '
                     f'<b>{pct(pos[step]["chances"][s])}</b></li>' for s in range(n))
    return (f'<figure class="rv-figure"><div class="rv-plot">'
            f'<span class="rv-y rv-y100" aria-hidden="true">100%</span>'
            f'<span class="rv-y rv-y50" aria-hidden="true">50%</span>'
            f'<span class="rv-y rv-y0" aria-hidden="true">0%</span>'
            f'<svg class="rv-chart" id="rv-chart" viewBox="0 -3 {W} {H + 6}" role="img" '
            f'aria-labelledby="rv-chart-name" aria-describedby="rv-chart-desc" preserveAspectRatio="none">'
            f'<title id="rv-chart-name">Each player\u2019s chance to win after every move</title>'
            f'<desc id="rv-chart-desc">{esc(chart_summary(app, pos, flagged))}</desc>'
            f'{grid}{"".join(lines)}{marks}{cursor}{hits}</svg></div>'
            f'<div class="rv-ticks" aria-hidden="true">{ticks}</div>'
            f'<figcaption><ul class="rv-legend" aria-label="Chances after move {step}">{legend}</ul>'
            f'{marks_key}'
            f'<p class="rv-alt">Tap the chart to see the table after a move. The turning '
            f'points are listed below.</p></figcaption></figure>')


def flags(app, pos):
    """The moves the chart marks (:data:`~splendor.ai.review.MARKED`: mistakes and blunders) among the positions
    known: [(move, its mover, class, loss)]."""
    turns = app.review["turns"]
    out = []
    for k in range(1, len(pos)):
        judged = move_class(pos[k]) if k <= len(turns) else None
        if judged and judged[0] in MARKED:
            out.append((k, turns[k - 1][2], judged[0], judged[1]))
    return out


def chart_summary(app, pos, flagged):
    r = app.review
    names = r["entry"]["names"]
    out = []
    for s, name in enumerate(names):
        series = [p["chances"][s] for p in pos]
        low = min(range(len(series)), key=lambda k: series[k])
        high = max(range(len(series)), key=lambda k: series[k])
        out.append(f"{name}: {pct(series[0])} at the deal, highest {pct(series[high])} after move {high}, lowest "
                   f"{pct(series[low])} after move {low}, {pct(series[-1])} "
                   f"{'at the end' if r['data'] else f'after move {len(series) - 1}, so far'}.")
    for cls in MARKED:
        moves = [f"move {k} ({names[mover]})" for k, mover, c, _loss in flagged if c == cls]
        if moves:
            out.append(f"{cap(words.plural(len(moves), cls))} marked: {', '.join(moves)}.")
    return " ".join(out)


def stepper(app, turns):
    r = app.review
    step = r["step"]
    e = r["entry"]

    def btn(to, before, text, after, id_, off):
        return (f'<button type="button" class="secondary rv-btn" id="{id_}"'
                f'{attrs(data_act="review-step", data_to=to, aria_disabled="true" if off else None)}>'
                f'<span class="rv-arr" aria-hidden="true">{before}</span>{text}<span class="rv-arr" aria-hidden="true">'
                f'{after}</span></button>')

    buttons = (btn("start", "« ", "Deal", "", "review-first", step == 0)
               + btn(max(0, step - 1), "◀ ", "Previous", "", "review-prev", step == 0)
               + '<p class="rv-where" id="review-where" aria-live="polite">'
                 f'{"The deal" if step == 0 else f"After move {step} of {turns}"}</p>'
               + btn(min(turns, step + 1), "", "Next", " ▶", "review-next", step == turns)
               + btn("end", "", "End", " »", "review-last", step == turns))
    said = []
    if step:
        seat = r["turns"][step - 1][2]
        for sentence, why in app.review_turn_words():
            said.append(f'<li>{esc(sentence)}{f" <span class=rv-why>({esc(why)})</span>" if why else ""}</li>')
        entry = r["data"]["positions"][step] if r["data"] else None
        judged = move_class(entry) if entry else None
        if judged:
            said.append(class_words(judged, e["names"][seat]))
        better = entry.get("better") if entry else None
        if better:
            said.append(better_words(better, e["names"][seat], seat in set(e["people"]), "li"))
        mover = f'Move {step}: {esc(e["names"][seat])}'
    else:
        mover = "The deal"
    return (f'<section class="rv-steps" aria-labelledby="rv-steps-title"><h2 id="rv-steps-title" class="sr-only">'
            f'Step through the game</h2><div class="rv-nav">{buttons}</div>'
            f'<div class="rv-move"><h3>{mover}</h3><ul>{"".join(said)}</ul></div></section>')


def table(app):
    """The table after the step shown: nobles, market and decks, supply, every player (everything shown: the game
    is over)."""
    r = app.review
    g = app.review_game()
    names = r["entry"]["names"]
    nobles = "".join(f'<div class="noble rv-noble" role="img"{attrs(aria_label=nb.describe())}>'
                     f'{drawn(3, cls="noble-pts")}'
                     f'<span class="reqs" aria-hidden="true">'
                     + "".join(f'<span class="req req-{COLORS[i]}">{lettered(COLORS[i])}{drawn(k, "b")}</span>'
                               for i, k in nb.needs) + '</span></div>' for nb in g.nobles)
    rows = []
    for level in (3, 2, 1):
        cards = []
        for card in g.market[level - 1]:
            if card is None:
                cards.append('<div class="mini slot" role="img" aria-label="Empty place"></div>')
            else:
                cards.append(f'<div class="mini rv-card bonus-{card.bonus}" role="img"'
                             f'{attrs(aria_label=card.describe(), data_code=card.code)}>'
                             f'{card_face(card)}</div>')
        rows.append(f'<div class="rv-row" role="group" aria-label="Level {level} cards">'
                    f'<span class="rv-deck lvl-{level}" '
                    f'role="img" aria-label="Level {level} deck: {g.deck_sizes[level - 1]} cards left">'
                    f'{g.deck_sizes[level - 1]}</span>{"".join(cards)}</div>')
    supply = "".join(f'<li>{lettered(c)}<b>{g.supply[c]}</b><span class="sr-only"> {c}</span></li>'
                     for c in TOKEN_COLORS)
    seats = []
    for s, p in enumerate(g.players):
        active = " active" if g.current_player == s and not g.is_over else ""
        toks = "".join(f'<td class="n{" zero" if not p.tokens[c] else ""}">{p.tokens[c]}</td>' for c in TOKEN_COLORS)
        bons = "".join(f'<td class="n{" zero" if not p.bonuses[c] else ""}">{p.bonuses[c]}</td>' for c in COLORS)
        head = "".join(f'<th scope="col">{lettered(c)}<span class="sr-only">{c}</span></th>' for c in TOKEN_COLORS)
        reserved = "".join(f'<div class="mini bonus-{c.bonus}" role="img"'
                           f'{attrs(aria_label="Reserved: " + c.describe())}>'
                           f'{card_face(c)}</div>' for c in p.reserved)
        nob = f' · {words.plural(len(p.nobles), "noble")}' if p.nobles else ""
        seats.append(f'<section class="rv-seat{active} rv-seat{s}" aria-label="{esc(names[s])}: {p.points} points">'
                     f'<h3><i class="rv-swatch" aria-hidden="true"></i>{esc(names[s])} <b>{p.points}</b> '
                     f'<small>pts{nob}</small></h3>'
                     f'<table class="holdings"><caption class="sr-only">{esc(names[s])}\'s tokens and bonuses</caption>'
                     f'<colgroup><col class="lab"><col span="6"></colgroup><thead><tr><td></td>{head}</tr></thead>'
                     f'<tbody><tr><th scope="row">Tokens</th>{toks}</tr>'
                     f'<tr><th scope="row">Bonuses</th>{bons}<td></td></tr></tbody></table>'
                     f'{f"<div class=rv-res>{reserved}</div>" if reserved else ""}</section>')
    step = r["step"]
    return (f'<section class="rv-table" aria-label="The table {"at the deal" if step == 0 else f"after move {step}"}">'
            f'<div class="rv-board"><div class="noble-row rv-nobles">{nobles}</div>{"".join(rows)}'
            f'<ul class="rv-supply" aria-label="Tokens in the supply">{supply}</ul></div>'
            f'<div class="rv-seats">{"".join(seats)}</div></section>')


def better_words(better, name, person, tag):
    """The mover's best choice, in words (what it gained over the move played is the class line's: one number for
    it, the judge's)."""
    whose = possessive(name)
    label = "Better" if person else f"{cap(whose)} best choice"
    return f'<{tag} class="rv-better"><b>{esc(label)}:</b> {esc(cap(better["words"]))}.</{tag}>'


def class_words(judged, name, tag="li"):
    """A judged move's class and what it lost against its mover's best choice, in a line of the step view."""
    cls, loss = judged
    whose = possessive(name)
    points = round(100 * loss)
    if cls == "best":
        said = "the move the expert would have played"
    elif points < 1:
        said = f"as good as {whose} best choice"
    else:
        said = f"{words.plural(points, 'point')} of chance below {whose} best choice"
    return f'<{tag} class="rv-class rv-{cls}"><b>{cap(cls)}</b>: {esc(said)}.</{tag}>'


def possessive(name):
    return "your" if name == "You" else f"{name}\u2019s"


def turning_list(app):
    r = app.review
    names = r["entry"]["names"]
    people = set(r["entry"]["people"])
    items = []
    for tp in r["data"]["turning"]:
        k = tp["turn"]
        mover = names[tp["mover"]]
        text = f"{mover} moved: {possessive(mover)} chance went from {pct(tp['from'])} to {pct(tp['to'])}."
        better = (class_words(move_class({"played": tp["played"], "best": tp["best"]}), mover, "p")
                  + better_words(tp["better"], mover, tp["mover"] in people, "p"))
        items.append(f'<li><button type="button" class="secondary rv-tp" id="tp-{k}"'
                     f'{attrs(data_act="review-step", data_to=k)}>'
                     f'Move {k}</button><div><p>{esc(text)}</p>{better}</div></li>')
    if not items:
        items.append("<li><div><p>No move lost much against its player\u2019s best choice: a well played game."
                     "</p></div></li>")
    return (f'<section class="rv-turning" aria-labelledby="rv-turning-title"><h2 id="rv-turning-title">Turning points'
            f'</h2><ol>{"".join(items)}</ol><p class="rv-note">The turning points are the moves that lost most '
            f'against their player\u2019s best choice. The chances and the best choices come from the expert '
            f'bot\u2019s own search of each position, from what its player could see: the judge behind the hint.'
            f'</p></section>')


def finished_list(app):
    """The record's list of finished games kept in this browser, each with a button that opens its review."""
    games = app.finished.games()
    if not games:
        return ""
    rows = []
    for e in games:
        scores = e.get("scores") or []
        who = ", ".join(f"{esc(name)}{f' {scores[i]}' if i < len(scores) else ''}" for i, name in enumerate(e["names"]))
        done = " (reviewed)" if e.get("review") else ""
        when = time.strftime("%d %b %Y", time.gmtime(e["ended"])) if e.get("ended") else ""
        rows.append(f'<li><span>{who}{f" · {when}" if when else ""}{done}</span>'
                    f'<button type="button" class="secondary"'
                    f'{attrs(data_act="review", data_game=e["id"], aria_label=f"Review the game {who}")}>'
                    'Review</button></li>')
    return ('<section class="finished" aria-labelledby="finished-title" id="finished"><h2 id="finished-title">'
            f'Finished games</h2><ul class="finished-list">{"".join(rows)}</ul></section>')
