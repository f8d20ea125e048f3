"""The page as HTML text, rendered from the game and the page's state (``render(app)``).

Pure Python: no browser imports. Every text that comes from outside (names, saves, bot sentences) goes through
``esc`` and is shown as text, never run. Every control and card carries a role and an accessible name a screen
reader speaks, and the tests find them by those names. Clicks are mapped by ``data-act`` (and other ``data-*``)
attributes: one delegated listener in ``main.py`` turns them into ``app.act(name, data)``.

>>> from splendor.web.controller import App
>>> from splendor.web.records.storage import MemoryStorage
>>> html = render(App(MemoryStorage()))
>>> 'data-act="start"' in html
True
"""

from ..engine import COLORS, TOKEN_COLORS, Action
from .learn import learn_view
from .table import pass_view, words
from .records import records_io
from .puzzles import puzzle_view
from .review import review_view
from .table.faces import (LEVEL_DOTS, SPRITE, attrs, bonus_gem, cap, card_face, drawn, esc, gem,  # noqa: F401 (view.pip...)
                    letter, lettered, pip)
from .table.seats import LEVEL_LABEL, VARIANT_NAMES

VARIANT_HELP = {
    "open_reservations": "Every reserved card is shown face up, deck draws too.",
    "noble_veto": "More nobles are revealed; each player removes one before play.",
    "rotating_series": "One game per player, the first seat moving each game; summed scores win.",
}


# -- cards -----------------------------------------------------------------------------------------------------------
def card_label(app, card, seat=None):
    """The spoken name of a card, with what it means for the person now."""
    g = app.game
    seat = app.person if seat is None else seat
    label = card.describe()
    price = g.price(card, seat)
    if any(price[c] != card.cost[c] for c in COLORS):
        left = words.counts_words(price, COLORS)
        label += f"; with your bonuses it costs {left}" if left != "nothing" else "; free with your bonuses"
    if g.can_afford(card, seat):
        label += ". You can buy it"
    return label


def shortfall(app, card):
    g = app.game
    price = g.price(card, app.person)
    mine = g.players[app.person].tokens
    return sum(max(0, price[c] - mine[c]) for c in COLORS) - mine["gold"]


def market_card(app, level, slot, card):
    g = app.game
    if card is None:
        return f'<div class="card empty" role="img" aria-label="Empty place: the level {level} deck is used up"></div>'
    flash = app.flash
    classes = ["card", f"bonus-{card.bonus}"]
    affordable = g.can_afford(card, app.person) and not g.is_over
    badge = ""
    if g.is_over:
        pass
    elif affordable:
        classes.append("affordable")
        badge = drawn("Can buy", cls="badge can")
    else:
        short = shortfall(app, card)
        badge = drawn(f"{short} short", cls="badge short")
    if flash and flash.get("slot") == [level, slot]:
        classes.append("flash")
    if app.hint and card.code in app.hint["action"]:
        classes.append("hinted")
    if app.selected and app.selected.get("where") == "market" and app.selected.get("code") == card.code:
        classes.append("selected")
    label = card_label(app, card)
    guided = learn_view.guided_card(app, card)
    if guided:
        classes.append("guided")
        label = label.replace(card.describe(), card.describe() + learn_view.CARD_SUFFIX, 1)
    price = g.price(card, app.person)
    return (f'<button type="button" class="{" ".join(classes)}" id="m{level}{slot}" data-fly="card:{card.code}"'
            f'{attrs(data_act="card", data_where="market", data_level=level, data_slot=slot, aria_label=label)}>'
            f'{card_face(card, price, badge=badge)}{learn_view.card_flag(guided)}</button>')


def deck_button(app, level):
    g = app.game
    left = g.deck_sizes[level - 1]
    flash = " flash" if app.flash and app.flash.get("deck") == level else ""
    if app.hint and app.hint["action"] == f"reserve deck {level}":  # the hint: reserve this deck's top card
        flash += " hinted"
    label = f"Level {level} deck: {words.plural(left, 'card')} left"
    if left:
        label += ". Reserve the top card unseen"
    return (f'<button type="button" class="deck lvl-{level}{flash}" id="d{level}"'
            + attrs(data_act="card", data_where="deck", data_level=level, aria_label=label,
                    aria_disabled="true" if not left else None) + '>'
            f'<span class="deck-level">{LEVEL_DOTS[level]}</span> <span class="deck-count">{left}</span> '
            f'<span class="deck-word">{"card" if left == 1 else "cards"} left</span></button>')


def mini_card(card, label=None, act=None, extra=""):
    """A small card (reserves, tableaus). ``data-fly`` names it for the page's animations (a face-up card only)."""
    body = (f'<span class="mini-top" aria-hidden="true">{drawn(card.points or "", cls="pts")}'
            f'{bonus_gem(card.bonus)}</span><span class="mini-cost" aria-hidden="true">'
            + "".join(pip(c, card.cost[c]) for c in COLORS if card.cost[c])
            + "</span>")
    label = label or card.describe()
    if act:
        return (f'<button type="button" class="mini bonus-{card.bonus}{extra}"{act}'
                f'{attrs(aria_label=label, data_fly=f"card:{card.code}")}>{body}</button>')
    return (f'<div class="mini bonus-{card.bonus}{extra}" role="img"'
            f'{attrs(aria_label=label, data_fly=f"card:{card.code}")}>'
            f'{body}</div>')


def card_back(level):
    return (f'<div class="mini back lvl-{level}" role="img" aria-label="Hidden level {level} card">'
            f'<span class="deck-level">{LEVEL_DOTS[level]}</span></div>')


# -- nobles ------------------------------------------------------------------------------------------------------------
def noble_tile(app, noble, choosable=False, verb=""):
    mine = app.game.players[app.person].bonuses if app.game else {}
    need_more = sum(max(0, n - mine.get(COLORS[i], 0)) for i, n in noble.needs)
    reqs = "".join(f'<span class="req req-{COLORS[i]}">{lettered(COLORS[i])}{drawn(n, "b")}</span>'
                   for i, n in noble.needs)
    status = ("You qualify" if need_more == 0 else f"You need {need_more} more")
    label = noble.describe() + f". {status}"
    body = (f'{drawn(3, cls="noble-pts")}<span class="reqs" aria-hidden="true">{reqs}</span>'
            f'<span class="noble-need" aria-hidden="true">{esc(status)}</span>')
    staged = app.staged is not None and app.staged.noble == noble
    if choosable:
        # (the hint's noble marked as its card or gems are: "noble 4g4r", "veto 4g4r")
        hinted = app.hint and app.hint["action"] in (f"noble {noble.code}", f"veto {noble.code}")
        cls = f'noble choosable{" staged" if staged else ""}{" hinted" if hinted else ""}'
        return (f'<button type="button" class="{cls}" id="n-{noble.code}"'
                f' data-fly="noble:{noble.code}"'
                + attrs(data_act="noble", data_code=noble.code, aria_label=f"{verb}: {label}",
                        aria_pressed="true" if staged else "false") + '>'
                f'{body}</button>')
    near = " near" if need_more <= 1 else ""
    if learn_view.guided_noble(app, noble):
        near += " guided"
    return f'<div class="noble{near}" role="img"{attrs(aria_label=label, data_fly=f"noble:{noble.code}")}>{body}</div>'


# -- whole screens ---------------------------------------------------------------------------------------------------
def render(app):
    """The whole page body for the app's current screen."""
    if app.screen == "review" and app.review is not None:
        return review_view.render_review(app, logo())
    if app.screen == "setup" or app.game is None:
        return render_setup(app)
    if app.handover is not None and not app.showing:
        # pass and play: nothing of the table while the device changes hands (a bot's move that came just before is
        # seen first, by the person who still holds the device)
        return pass_view.render_handover(app, logo())
    return render_game(app)


def notices(app):
    out = []
    for n in app.notices:
        out.append(f'<div class="notice notice-{esc(n["kind"])}" role="alert"><p>{esc(n["text"])}</p>'
                   f'<button type="button"{attrs(data_act="dismiss", data_kind=n["kind"])}>Dismiss</button></div>')
    return f'<div class="notices">{"".join(out)}</div>' if out else ""


def radio(name, value, label, checked, cls=""):
    rid = f"set-{name}-{value}"
    return (f'<label class="seg{cls}" for="{rid}"><input type="radio" id="{rid}" name="{esc(name)}"'
            f'{attrs(value=value, checked=bool(checked), data_setting=name)}><span>{esc(label)}</span></label>')


def render_setup(app):
    s = app.settings
    bots = [pass_view.seat_choices(app)]  # each other seat: a bot level or a person (pass and play)
    several = pass_view.several(app)
    if several:
        bots.insert(0, pass_view.first_name_field(app))
    opp = "".join(radio("opponents", n, pass_view.opponents_label(app, n), s["opponents"] == n) for n in (1, 2, 3))
    first = " ".join(str(s["name"] or "").split())  # (with several people, named as the table will name them)
    first = first if first.casefold() not in ("", "you") else "Player 1"
    starts = "".join(radio("starts", v, label, s["starts"] == v)
                     for v, label in (("person", first if several else "You"), ("bot", "A bot"),
                                     ("random", "At random")))
    variants = "".join(
        f'<label class="check" for="set-{v}"><input type="checkbox" id="set-{v}"'
        f'{attrs(name=v, checked=v in s["variants"], data_setting=v)}>'
        f'<span><b>{esc(VARIANT_NAMES[v])}</b> <small>{esc(VARIANT_HELP[v])}</small></span></label>'
        for v in VARIANT_NAMES)
    in_progress = app.game is not None and not app.game.is_over
    back = ""
    if app.game is not None:
        back = ('<button type="button" class="secondary btn-large" data-act="back" id="back">Back to the game</button>')
    warn = ('<p class="warn">Starting a new game ends the game in progress.</p>' if in_progress else "")
    name_field = "" if several else (
        '<label class="field" for="set-name"><span>Your name</span><input type="text" id="set-name" maxlength="40"'
        f' autocomplete="nickname"{attrs(value=s["name"], data_setting="name")}></label>')
    message = f'<p class="message" role="status">{esc(app.message)}</p>' if app.message else \
        '<p class="message" role="status"></p>'
    return f"""<div class="app setup-screen">
<header class="topbar"><h1 class="title">{logo()}Splendor</h1>\
<nav class="tools" aria-label="Help">{learn_view.howto_button()}</nav></header>
{notices(app)}
<main class="setup" id="main">
<p class="lede">Collect gems, buy cards that give lasting discounts, and win nobles. \
Reach 15 prestige to end the game.</p>
{learn_view.setup_top(app)}
{puzzle_view.setup_panel(app)}
<form class="setup-form" id="setup-form"{learn_view.form_hidden(app)}>
<fieldset class="row"><legend>Opponents</legend><div class="segs">{opp}</div></fieldset>
{''.join(bots)}
{learn_view.rating_panel(app)}
<fieldset class="row"><legend>Who starts</legend><div class="segs">{starts}</div></fieldset>
<details class="more"><summary>More options</summary>
{name_field}
<fieldset class="row variants"><legend>Variants</legend>\
{variants}{pass_view.skip_option(app) if several else ''}</fieldset>
<label class="field" for="set-seed"><span>Seed \
<small>(a number deals the same cards again; empty for a fresh deal)</small>\
</span><input type="text" inputmode="numeric" id="set-seed" maxlength="12"\
{attrs(value=s["seed"], data_setting="seed")}></label>
<label class="check" for="set-confirm"><input type="checkbox" id="set-confirm"\
{attrs(checked=bool(s["confirm"]), data_setting="confirm")}>\
<span><b>Confirm each move</b> <small>A last check before a buy or a reserve is final.</small></span></label>
<fieldset class="row"><legend>Bot speed</legend><div class="segs">\
{radio("pace", "normal", "Normal", s.get("pace") != "fast")}\
{radio("pace", "fast", "Fast", s.get("pace") == "fast")}</div></fieldset>
{learn_view.guided_checkbox(app)}
</details>
{warn}
<div class="start-row">\
<button type="button" class="primary btn-large" data-act="start" id="start">Start game</button>{back}</div>
{message}
</form>
{records_io.import_control(app)}
{learn_view.record_panel(app)}
{review_view.finished_list(app)}
</main>
{learn_view.howto_dialog(app)}
</div>"""


def logo():
    return (f'<svg class="logo" aria-hidden="true" focusable="false" viewBox="0 0 24 24">'
            f'<use href="{SPRITE}#gem-white"></use></svg>')


def status_text(app):
    g = app.game
    if app.showing and g.is_over:  # the last move, seen before the results
        return app.showing["text"]
    if g.is_over:  # (short: two lines of a phone's status; the results say the rest)
        winners = g.winners
        if len(winners) > 1:
            return f"Game over: {words.join_words([app.log_name(i) for i in winners])} share the victory."
        return "Game over: you win!" if app._you(winners[0]) else f"Game over: {app.log_name(winners[0])} wins."
    if app.puzzle is not None:
        return puzzle_view.status(app)
    seat = g.current_player
    who = app.name(seat)
    extra = ""
    if g.final_round:
        extra = " Final round."
    if "rotating_series" in g.variants:
        extra += f" Game {g.game_index + 1} of {g.players_count}."
    if app.showing:  # a bot's pieces still on their way: the status names that bot, not the next player
        return app.showing["text"] + extra
    if seat == app.person and app.my_turn:
        you = "Your turn" if app.solo else f"Your turn, {who}"
        phase = {"action": you, "return": f"{you}: return tokens", "noble": f"{you}: choose a noble",
                 "veto": f"{you}: remove a noble"}[g.phase]
        if g.final_round and g.phase == "action":
            return f"{you}: your last (final round).{extra.replace(' Final round.', '')}"
        return f"{phase}. Round {g.round}.{extra}"
    if app.thinking == seat:
        return f"{who} is thinking…{extra}"
    return f"{who}'s turn. Round {g.round}.{extra}"


def status_html(app):
    """The status line's markup: :func:`status_text`, its " Final round." in a span of its own (a phone says it
    in the title's place, :func:`render_game`, and keeps the words for screen readers)."""
    return esc(status_text(app)).replace(" Final round.", '<span class="final-words"> Final round.</span>', 1)


def render_game(app):
    g = app.game
    mine = my_turn = app.my_turn
    over = g.is_over
    undo_off = app.undo_off_words()  # the button says why it is off (its description, and a tap says it)
    undo = (f'<button type="button" class="tool" data-act="undo" id="undo"'
            f'{attrs(aria_disabled=None if not undo_off else "true", title=undo_off)}>Undo</button>')
    hint_ok = mine and not over
    hint = (f'<button type="button" class="tool" data-act="hint" id="hint"'
            f'{attrs(aria_disabled=None if hint_ok else "true")}>Hint</button>')
    results = ('<button type="button" class="tool" data-act="results" id="results">Results</button>'
               if over and not app.show_end else "")
    tools = (puzzle_view.tools(app) if app.puzzle is not None else f"""{results}{"" if over else hint + undo}\
<button type="button" class="tool" data-act="new-game" id="new-game" aria-label="New game">\
<span class="long" aria-hidden="true">New game</span><span class="short" aria-hidden="true">New</span></button>""")
    puzzle_result = puzzle_view.result_dialog(app) if app.puzzle is not None else ""
    thinking = app.thinking is not None
    status_cls = "status" + (" mine" if my_turn else "") + (" thinking" if thinking else "") + (
        " over" if over else "")
    coach = learn_view.coach_box(app)
    returning = " returning" if my_turn and g.phase == "return" else ""
    others = [(app.person + i) % g.players_count for i in range(1, g.players_count)]
    opponents = "".join(region(f"seat{seat}", opponent(app, seat)) for seat in others)
    final = g.final_round and not over
    # (phones: the final round said in the title's place over the status, where two lines leave it no room)
    final_flag = '<span class="final-flag" aria-hidden="true">Final round</span>' if final else ""
    return f"""<div class="app game-screen{' my-turn' if my_turn else ''}{' guided' if coach else ''}{returning}\
{' final' if final else ''}">
<header class="topbar">
<h1 class="title">{logo()}<span class="title-word">Splendor</span>{final_flag}</h1>
<p class="{status_cls}" id="status" role="status">\
{'<span class="spinner" aria-hidden="true"></span>' if thinking else ''}\
<span class="status-text">{status_html(app)}</span></p>
<nav class="tools" aria-label="Game">{learn_view.howto_button()}{tools}</nav>
</header>
{notices(app)}
{fallback_note(app)}
{moment_banner(app)}
<main class="table" id="main">
<section class="opponents" aria-label="Opponents">{opponents}</section>
<section class="board" aria-label="Board">
{region("nobles", nobles_row(app))}
{market(app)}
</section>
<section class="mine-col" aria-label="Your side">
{region("supply", supply(app))}
{coach}
{region("bar", action_bar(app))}
{region("mine", my_area(app))}
</section>
<section class="log" aria-label="Game log">
<div class="log-head"><h2>Log</h2>{speed_switch(app)}</div>
{records_io.export_button()}
{log_list(app)}
</section>
</main>
{learn_view.howto_dialog(app) or (dialog(app) or inspect_dialog(app) or puzzle_result) + end_dialog(app)}
</div>"""


def speed_switch(app, prefix=""):
    """Bot speed during the game (the new-game form sets it too): two buttons, the one in force pressed; in the
    log's head, and in the move box while bots play (``prefix`` for its ids), where a person waiting looks."""
    fast = app.settings.get("pace") == "fast"
    buttons = "".join(
        f'<button type="button" class="speed-btn" id="{prefix}speed-{v}"'
        f'{attrs(data_act="pace", data_value=v, aria_pressed="true" if on else "false")}>{label}</button>'
        for v, label, on in (("normal", "Normal", not fast), ("fast", "Fast", fast)))
    return (f'<div class="speed" role="group" aria-label="Bot speed">'
            f'<span aria-hidden="true">Bots:</span>{buttons}</div>')


def fallback_note(app):
    if not app.fallback_note:
        return ""
    return (f'<div class="fallback" role="note"><p>{esc(app.fallback_note)}</p>'
            '<button type="button" data-act="dismiss-fallback" id="dismiss-fallback">OK</button></div>')


def nobles_row(app):
    g = app.game
    choosing = app.my_turn and g.phase in ("noble", "veto")
    verb = "Welcome" if g.phase == "noble" else "Remove"
    qualifying = set(g.qualifying_nobles(app.person)) if g.phase == "noble" else set(g.nobles)
    tiles = "".join(noble_tile(app, nb, choosable=choosing and nb in qualifying, verb=verb) for nb in g.nobles)
    title = "Nobles"
    if not tiles:
        tiles = '<p class="no-nobles">Every noble has been won.</p>'
    if g.phase == "veto":
        title = f"Nobles: each player removes one ({len(g.nobles)} now, {g.players_count + 1} stay)"
    return (f'<section class="nobles" aria-label="Nobles"><h2 class="sr-only">{esc(title)}</h2>'
            f'<div class="noble-row">{tiles}</div></section>')


def region(key, html):
    """``html`` marked as a part of the page that changes apart from the rest (assets/patch.js): a redraw in which
    its HTML is the same string as on the page does not parse it again. ``key`` is unique on the page; regions do
    not nest."""
    return f"<!--r:{key}-->{html}<!--/r-->"


def market(app):
    g = app.game
    rows = []
    for level in (3, 2, 1):
        cards = "".join(region(f"m{level}{slot}", market_card(app, level, slot, card))
                        for slot, card in enumerate(g.market[level - 1]))
        rows.append(f'<div class="market-row lvl-{level}" role="group" aria-label="Level {level} cards" data-grid-row>'
                    f'{region(f"d{level}", deck_button(app, level))}{cards}</div>')
    # data-grid: arrow keys move between the cards and decks (splendor/web/table/keyboard.py)
    return (f'<section class="market" aria-label="Market" data-grid="market"><h2 class="sr-only">Market</h2>'
            f'{"".join(rows)}</section>')


def supply(app):
    g = app.game
    sup = g.supply
    picked = app.picked
    flash = app.flash
    my_action = app.my_turn and g.phase == "action"
    piles = []
    for color in TOKEN_COLORS:
        n = sup[color]
        k = picked.count(color)
        classes = ["pile", f"pile-{color}"]
        if k:
            classes.append(f"picked picked{k}")
        if flash and color in flash.get("colors", ()) and flash["kind"] in ("take", "take_two", "buy", "reserve"):
            classes.append("flash")
        if app.hint and color in app.hint.get("colors", ()) and not k:
            classes.append("hinted")
        guided = learn_view.guided_count(app, color)
        if color == "gold":
            label = f"Gold: {n} left. Gold comes only with a reservation"
            disabled = True
        else:
            label = f"{cap(color)} gems: {n} left"
            disabled = not my_action or n == 0
        if guided and my_action:
            classes.append("guided")
            label += learn_view.pile_suffix(guided)
        chosen = drawn(f"+{k}", cls="chosen") if k else ""
        piles.append(
            f'<button type="button" class="{" ".join(classes)}" id="pile-{color}"'
            + attrs(data_act="gem", data_color=color, aria_label=label,
                    aria_pressed=("true" if k else "false") if color != "gold" else None,
                    aria_disabled="true" if disabled else None) + '>'
            f'{gem(color)}{letter(color)}<span class="count">{n}</span>{chosen}</button>')
    return (f'<section class="supply" aria-label="Gem supply"><h2 class="sr-only">Gem supply</h2>'
            f'<div class="piles" data-grid="supply">{"".join(piles)}</div></section>')


def hint_weighed(hint):
    """The hint's chance and the other moves the expert weighed: " Chance to win: 53%; also weighed: take two red
    45%." (the others are left out on a phone, where the move box has room for the advice and its chance only)."""
    w = hint.get("weighed")
    if not w:
        return ""
    others = "".join(f'{"; also weighed: " if k == 0 else ", "}{esc(label)} {round(c * 100)}%'
                     for k, (label, c) in enumerate(w["others"]))
    return (f' <span class="hint-weighed" id="hint-weighed">Chance to win: {round(w["chance"] * 100)}%'
            f'{f"<span class=hint-others>{others}</span>" if others else ""}.</span>')

def action_bar(app):
    """What the person can do now: the prompt, what is staged, and the button that makes it final."""
    g = app.game
    parts = []
    buttons = []
    prompt = short_prompt = ""
    if g.is_over:
        prompt = "The game is over."
    elif app.puzzle is not None and not app.my_turn:
        prompt = "Puzzle played: the result says how it went."
    elif not app.my_turn:
        who = app.name(g.current_player)
        prompt = f"{who} is thinking…" if app.thinking is not None else f"{who} plays next."
        if app.seats[g.current_player].get("bot"):  # (waiting for bots: their speed at hand)
            buttons.append(speed_switch(app, "bar-"))
    elif app.showing:  # a bot's move is still being shown (the status names it): your turn comes once it is seen
        prompt = f"{app.name(app.showing['seat'])} moves; your turn comes next."
    elif g.phase == "veto":
        prompt = "Remove one noble from the game: tap it, then confirm."
        if app.staged is not None:
            buttons.append(primary("confirm", words.describe_pending(g, [app.staged]), short="Remove"))
            buttons.append(secondary("clear", "Clear"))
    elif g.phase == "noble":
        prompt = "Several nobles would visit you: tap the one you welcome, then confirm."
        if app.staged is not None:
            buttons.append(primary("confirm", words.describe_pending(g, [app.staged]), short="Welcome"))
    elif g.phase == "return":
        need = app.return_needed()
        prompt = (f"You hold {g.players[app.person].token_count}, the limit is 10: tap {words.plural(need, 'token')} "
                  f"of yours to return.")
        # Phones: one line, so that the line and the row of tokens to give back fit the move box's steady height
        # (the count is on your panel, in the warning colour).
        short_prompt = f"Tap {words.plural(need, 'token')} of yours to return."
        if app.returning:
            chips = "".join(
                f'<button type="button" class="chip chip-{c}" id="ret-{i}"'
                f'{attrs(data_act="unreturn", data_color=c, aria_label=f"Keep a {c} token")}>{lettered(c)}</button>'
                for i, c in enumerate(app.returning))
            parts.append(f'<div class="staged" aria-label="Tokens to return">{chips}</div>')
        ready = len(app.returning) == need
        buttons.append(primary("give-back", words.describe_pending(
            g, [Action.return_token(c) for c in app.returning]) if app.returning
            else f"Return {words.plural(need, 'token')}", disabled=not ready, short="Return"))
    else:
        if app.picked:
            problem = app.pick_problem()
            action = app.pick_action()
            chips = "".join(
                f'<button type="button" class="chip chip-{c}" id="pick-{i}"'
                f'{attrs(data_act="unpick", data_color=c, aria_label=f"Put back {c}")}>{lettered(c)}</button>'
                for i, c in enumerate(app.picked))
            parts.append(f'<div class="staged" aria-label="Gems to take">{chips}</div>')
            label = words.describe_pending(g, [action])
            buttons.append(primary("take", label, disabled=problem is not None, short="Take"))
            buttons.append(secondary("clear", "Clear"))
            after = g.players[app.person].token_count + len(app.picked)
            if problem:
                prompt = problem
            elif after > 10:
                prompt = f"You will hold {after} tokens and return {after - 10} (the limit is 10)."
                # Phones: one line, so that the move box keeps its height (the market does not jump)
                short_prompt = f"Over 10: you will return {after - 10}."
            else:
                prompt = "Ready: take them to end your turn."
        else:
            prompt = "Your turn: tap gems to take, or a card to buy or reserve."
            legal = g.legal_actions()
            if len(legal) == 1 and legal[0].kind == "pass":
                prompt = "No move is possible: you must pass."
                buttons.append(primary("pass", "Pass"))
    said = esc(prompt)
    if short_prompt:
        said = (f'<span class="lab-long">{said}</span><span class="lab-short" aria-hidden="true">'
                f'{esc(short_prompt)}</span>')
    line = f'<p class="prompt">{said}</p>'
    if app.hint and app.my_turn and not app.picked:
        # The hint takes the prompt's place (it says what to do, and more), so the move box keeps its height and
        # nothing under or above it moves; once gems are picked, the prompt is back and the hint's marks stay.
        said = esc(app.hint["text"])
        short = app.hint.get("short", app.hint["text"])
        if short != app.hint["text"]:  # (on phones: the marked card without its printed cost)
            said = f'<span class="lab-long">{said}</span><span class="lab-short" aria-hidden="true">{esc(short)}</span>'
        line = (f'<p class="prompt hint" id="hint-text"{attrs(data_action=app.hint["action"])}>{said}'
                f'{hint_weighed(app.hint)}</p>')
    msg = f'<p class="message" id="message" role="status">{esc(app.message)}</p>'
    if app.info and not app.message:
        msg = f'<p class="message info" id="message" role="status">{esc(app.info)}</p>'
    return (f'<section class="actionbar" aria-label="Your move">{line}'
            f'{"".join(parts)}<div class="buttons">{"".join(buttons)}</div>{msg}</section>')


def primary(act, label, disabled=False, id_=None, short=None):
    """The step's main button; ``short``: the word shown instead of the whole label on phones (the label stays its
    spoken name)."""
    text = esc(label)
    if short:
        text = (f'<span class="long" aria-hidden="true">{esc(label)}</span>'
                f'<span class="short" aria-hidden="true">{esc(short)}</span>')
    return (f'<button type="button" class="primary" id="{esc(id_ or "btn-" + act)}"'
            f'{attrs(data_act=act, aria_disabled="true" if disabled else None, aria_label=label if short else None)}>'
            f'{text}</button>')


def secondary(act, label, id_=None, **data):
    return (f'<button type="button" class="secondary" id="{esc(id_ or "btn-" + act)}"'
            f'{attrs(data_act=act, **data)}>{esc(label)}</button>')


def holdings(app, seat, returnable=False):
    """Tokens and bonuses as a small table: one column per color (its gem and letter on top), a row of tokens and a
    row of bonuses. In the return phase the person's token cells are buttons that stage a return. The row headers'
    words are visually hidden on phones (``lab-long``), where the table sits in a narrow strip."""
    p = app.game.players[seat]
    tok, bon = p.tokens, p.bonuses
    whose = "Your" if seat == app.person else f"{app.name(seat)}'s"
    head = "".join(f'<th scope="col">{lettered(c)}<span class="sr-only">{c}</span></th>' for c in TOKEN_COLORS)
    count = p.token_count - (len(app.returning) if returnable else 0)
    over = " over" if count > 10 else ""
    cells = []
    for color in TOKEN_COLORS:
        n = tok[color]
        shown = n - (app.returning.count(color) if returnable else 0)
        zero = " zero" if shown == 0 else ""
        if returnable and shown > 0:
            hinted = " hinted" if app.hint and app.hint.get("action") == f"return {color}" else ""
            cells.append(f'<td><button type="button" class="ret{hinted}" id="tok-{color}"'
                         + attrs(data_act="return", data_color=color,
                                 aria_label=f"Return a {color} token (you hold {shown})") + '>'
                         f'{lettered(color)}{drawn(shown)}</button></td>')
        else:
            cells.append(f'<td class="n{zero}">{shown}</td>')
    # (under gold, which gives no bonus: an opponent's reserved cards counted, where a phone hides them)
    held = (f'<span class="held-n" aria-hidden="true"><span class="card-ico"></span>{len(p.reserved)}</span>'
            if seat != app.person and p.reserved else "")
    bons = "".join(f'<td class="n{" zero" if bon[c] == 0 else ""}">{bon[c]}</td>' for c in COLORS) + f"<td>{held}</td>"
    return (f'<table class="holdings"><caption class="sr-only">{esc(whose)} tokens and bonuses</caption>'
            f'<colgroup><col class="lab"><col span="6"></colgroup>'
            f'<thead><tr><td></td>{head}</tr></thead><tbody>'
            f'<tr><th scope="row"><span class="lab-long">Tokens </span>'
            f'<b class="count{over}" title="Tokens held">{count}'
            f'{"/10" if seat == app.person else ""}</b></th>'
            f'{"".join(cells)}</tr>'
            f'<tr><th scope="row"><span class="lab-long">Bonuses</span><span class="lab-short card-ico" '
            f'aria-hidden="true" title="Bonuses: the cards bought, by colour"></span></th>{bons}</tr></tbody></table>')


def small_nobles(p):
    return "".join(f'<div class="noble small" role="img"{attrs(aria_label=nb.describe())}>'
                   f'<span class="noble-pts">3</span></div>' for nb in p.nobles)


def inspect_button(app, seat, text=None):
    """Opens the full view of a player (bought cards by bonus, reserves, nobles, tokens). Without ``text`` it is
    stretched over the whole panel (``.inspect``), so a tap anywhere on an opponent opens it."""
    whose = "your" if seat == app.person else f"{app.name(seat)}'s"
    label = f"See all of {whose} cards, reserves, nobles and tokens"
    if text is None:
        return (f'<button type="button" class="inspect" id="inspect-{seat}"'
                f'{attrs(data_act="inspect", data_seat=seat, aria_label=label)}></button>')
    return (f'<button type="button" class="secondary see-all" id="inspect-{seat}"'
            f'{attrs(data_act="inspect", data_seat=seat, aria_label=f"{text}. {label}")}>{esc(text)}</button>')


def last_move(app, seat, before=""):
    """What the player did on their latest turn, kept at their panel until their next turn (``before``: the
    opponent's reserved and noble counts, which phones show on the same line). Phones draw it as a picture that
    fits their narrow panels (``move_picture``); the words stay for screen readers, the log and the full view."""
    text = app.last_moves().get(seat)
    if not text and not before:
        return ""
    said = f'<span class="lm"><span class="sr-only">Last move: </span>{esc(text)}</span>' if text else ""
    picture = move_picture(last_run(app, seat)) if text else ""
    return f'<p class="last-move">{before}{said}{picture}</p>'


def last_run(app, seat):
    """The actions of ``seat``'s latest turn (its run of actions in the history: a take and the returns after it),
    read from the replayed game, never from the saved log."""
    g = app.game
    run, prev = [], None
    for action, (who, _) in zip(g.history, app.actors):
        if who == seat:
            run = run if prev == seat else []
            run.append(action)
        prev = who
    return run


def move_picture(actions):
    """A turn drawn in a phone panel's one line: ``+`` and the gems taken, ``−`` and the gems given back, the bonus
    gem of a card bought or reserved (a deck's level for an unseen one), a noble's crown."""
    parts = []
    taken, returned = [], []
    for a in actions:
        k = a.kind
        if k in ("take", "take_two"):
            taken = [c for c in a.colors for _ in range(1 + (k == "take_two"))]
        elif k == "return":
            returned.append(a.colors[0])
        elif k == "buy":
            parts.append(f'<span class="lw">Bought</span>{lettered(a.card.bonus)}')
        elif k == "reserve":
            what = lettered(a.card.bonus) if a.card is not None else f'<span class="lw">{LEVEL_DOTS[a.level]}</span>'
            parts.append(f'<span class="lw">Reserved</span>{what}')
        elif k == "noble":
            parts.append('<span class="lw">♔ Noble</span>')
        elif k == "veto":
            parts.append('<span class="lw">Removed a noble</span>')
        else:
            parts.append('<span class="lw">Passed</span>')
    if taken and returned:  # what the turn changed (a take of three and three given back: six gems, no room)
        kept = list(taken)
        for c in list(returned):
            if c in kept:
                kept.remove(c)
                returned.remove(c)
        taken = kept
        if not taken and not returned:
            parts.append('<span class="lw">Took and gave back</span>')
    if taken:
        parts.insert(0, '<b class="lp">+</b>' + "".join(lettered(c) for c in taken))
    if returned:
        parts.append('<b class="lp">−</b>' + "".join(lettered(c) for c in returned))
    if not parts:
        return ""
    return f'<span class="lm-pic" aria-hidden="true">{" ".join(parts)}</span>'


def my_area(app):
    g = app.game
    p = g.players[app.person]
    returnable = app.my_turn and g.phase == "return"
    reserved = []
    for i, card in enumerate(p.reserved):
        label = "Your reserved card: " + card_label(app, card)
        extra = " affordable" if g.can_afford(card, app.person) and not g.is_over else ""
        if app.selected and app.selected.get("where") == "reserved" and app.selected.get("index") == i:
            extra += " selected"
        if app.hint and card.code in app.hint["action"]:  # the advice is to buy (or take toward) this card
            extra += " hinted"
        reserved.append(mini_card(card, label, act=f' id="r{i}"' + attrs(data_act="card", data_where="reserved",
                                                                          data_index=i), extra=extra))
    for _ in range(3 - len(p.reserved)):
        reserved.append('<span class="mini slot" aria-hidden="true"></span>')
    nobles = small_nobles(p)
    active = " active" if g.current_player == app.person and not g.is_over else ""
    bought = (f'<span class="see-all" aria-hidden="true">{words.plural(len(p.cards), "card")}'
              f'<span class="lab-long"> bought</span> ›</span>')  # (phones: "17 cards ›")
    return f"""<section class="seat mine{active}" id="seat-{app.person}" aria-label="Your area">
<header class="seat-head"><h2>{esc(app.name(app.person))}</h2>{bought}\
<span class="prestige" role="img" aria-label="Your prestige: {p.points} points">\
{p.points}<small>pts</small></span></header>
{holdings(app, app.person, returnable)}
<div class="line res-line"><span class="what">Reserved</span><div class="reserved">{''.join(reserved)}</div></div>
{f'<div class="line"><span class="what">Nobles</span><div class="won">{nobles}</div></div>' if p.nobles else ''}
{last_move(app, app.person)}
{inspect_button(app, app.person)}
</section>"""


def opponent(app, seat):
    g = app.game
    p = g.players[seat]
    s = app.seats[seat]
    flash = app.flash
    active = " active" if g.current_player == seat and not g.is_over else ""
    flashed = " flash" if flash and flash.get("seat") == seat else ""
    reserved = []
    for card, hidden in zip(p.reserved, p.reserved_hidden):
        if hidden and "open_reservations" not in g.variants:
            reserved.append(card_back(card.level))
        else:
            reserved.append(mini_card(card, f"{s['name']}'s reserved card: {card.describe()}"))
    nobles = small_nobles(p)
    think = '<span class="spinner" aria-hidden="true"></span>' if app.thinking == seat else ""
    counts = []
    if p.reserved:
        counts.append(f"{len(p.reserved)} reserved")
    if p.nobles:
        counts.append(words.plural(len(p.nobles), "noble"))
    # (in words; phones draw them as a small card and a crown, each with its count)
    pics = f'♔{len(p.nobles)}' if p.nobles else ""  # (the reserved cards: counted in the holdings' gold column)
    counts = (f'<span class="opp-counts" aria-hidden="true"><span class="oc-w">{esc(" · ".join(counts))} </span>'
              f'<span class="oc-pic">{pics} </span></span>' if counts else "")
    title = f"{s['name']}, {pass_view.opponent_kind(s)}: {words.plural(p.points, 'point')}"
    held = (f'<div class="line held"><span class="what">{held_label(reserved, nobles)}</span>'
            f'<div class="reserved">{"".join(reserved)}{nobles}</div></div>' if reserved or nobles else "")
    return f"""<section class="seat opp{active}{flashed}" id="seat-{seat}"{attrs(aria_label=title)}>
<header class="seat-head"><h2>{think}{esc(s['name'])} <small>{esc(LEVEL_LABEL.get(s['bot'], ''))}</small></h2>\
<span class="prestige" role="img"{attrs(aria_label=f"{s['name']}'s prestige: {p.points} points")}>\
{p.points}<small>pts</small></span></header>
{holdings(app, seat)}
{held}
{last_move(app, seat, counts) or '<p class="last-move" aria-hidden="true"></p>'}
{inspect_button(app, seat)}
</section>"""


def held_label(reserved, nobles):
    if reserved and nobles:
        return "Reserved, nobles"
    return "Reserved" if reserved else "Nobles"


def moment_banner(app):
    """A noble won, the final round, the end: said briefly at the top of the table (and in the live region)."""
    m = app.moment
    if not m:
        return ""
    return (f'<div class="moment moment-{esc(m["kind"])}" id="moment" data-key="{m["n"]}"'
            f'{attrs(data_seat=m.get("seat"))}><p>{esc(m["text"])}</p>'
            f'<button type="button" class="moment-x" data-act="moment-ok" aria-label="Dismiss">×</button></div>')


def inspect_dialog(app):
    """Everything a player holds: bought cards grouped by bonus, reserved cards (hidden ones as backs with their
    level, unless they are the person's own), nobles, tokens and bonuses."""
    seat = app.inspecting
    g = app.game
    if seat is None or g is None or not 0 <= seat < g.players_count:
        return ""
    p = g.players[seat]
    me = seat == app.person
    name = "You" if me and app.solo else app.name(seat)
    groups = []
    for color in COLORS:
        cards = [c for c in p.cards if c.bonus == color]
        if cards:
            minis = "".join(mini_card(c) for c in cards)
            groups.append(f'<div class="group"><span class="what">{lettered(color)} {cap(color)} '
                          f'<b>{len(cards)}</b></span><div class="cards-owned">{minis}</div></div>')
    bought = "".join(groups) or '<p class="small">No card bought yet.</p>'
    reserved = []
    for card, hidden in zip(p.reserved, p.reserved_hidden):
        if hidden and not me and "open_reservations" not in g.variants:
            reserved.append(f'<div class="card big back lvl-{card.level}" role="img" '
                            f'aria-label="Hidden level {card.level} card"><span class="deck-level">'
                            f'{LEVEL_DOTS[card.level]}</span></div>')
        else:
            reserved.append(f'<div class="card big bonus-{card.bonus}" role="img"{attrs(aria_label=card.describe())}>'
                            f'{card_face(card, dots=True)}</div>')
    nobles = "".join(f'<div class="noble" role="img"{attrs(aria_label=nb.describe())}>{drawn(3, cls="noble-pts")}'
                     f'<span class="reqs" aria-hidden="true">'
                     + "".join(f'<span class="req">{lettered(COLORS[i])}{drawn(n, "b")}</span>' for i, n in nb.needs)
                     + '</span></div>' for nb in p.nobles)
    level = LEVEL_LABEL.get(app.seats[seat]["bot"])
    title = f"{name}{f' ({level})' if level else ''}: {words.plural(p.points, 'point')}"
    said = app.last_moves().get(seat)  # whole, where a phone's panel has room for its start only
    return f"""<div class="scrim" data-act="close"></div>
<div class="dialog inspect-dialog" role="dialog" aria-modal="true" aria-labelledby="dlg-title" id="dialog">
<h2 id="dlg-title">{esc(title)}</h2>
{f'<p class="last-move" id="inspect-last">Last move: {esc(said)}</p>' if said else ''}
{holdings(app, seat)}
<h3>Bought cards: {len(p.cards)}</h3>
<div class="groups">{bought}</div>
<h3>Reserved cards: {len(p.reserved)}</h3>
<div class="reserved-big">{''.join(reserved) or '<p class="small">None.</p>'}</div>
{f'<h3>Nobles</h3><div class="noble-row">{nobles}</div>' if nobles else ''}
<div class="dialog-buttons">{secondary("close", "Close", id_="close")}</div>
</div>"""


def returns_run(log, i):
    """The colors of the tokens given back in the run of returns by one player that starts at log entry ``i`` (the
    run is one line of the log, at its first entry); None when entry ``i`` is no such start."""
    e = log[i]
    if "returned" not in e or (i and "returned" in log[i - 1] and log[i - 1].get("seat") == e.get("seat")):
        return None
    colors = []
    for later in log[i:]:
        if "returned" not in later or later.get("seat") != e.get("seat"):
            break
        colors.append(later["returned"])
    return colors


def log_list(app):
    items = []
    first = max(0, len(app.log) - 200)
    for i in range(len(app.log) - 1, first - 1, -1):  # newest first
        e = app.log[i]
        seat = e.get("seat")
        cls = "log-note" if seat is None else ("log-me" if seat == app.person else "log-bot")
        returned = returns_run(app.log, i) if "returned" in e else None
        if "returned" in e and returned is None:
            continue  # told in its run's line
        if returned is not None and len(returned) > 1:
            counts = {c: returned.count(c) for c in returned}
            text = esc(f"{app.log_name(seat)} returned {words.counts_words(counts)} to keep 10 tokens.")
        elif e.get("why") and seat is not None and seat != app.person and 0 <= seat < len(app.seats):
            # A bot's own sentence says what it did and why ("takes white ... toward ...").
            text = f'<b>{esc(app.name(seat))}</b> {esc(e["why"])}.'
        else:
            text = esc(e["text"])
        # A region keyed by its place in the log: a redraw adds the new entries at the top and leaves the others as
        # they are (assets/patch.js), instead of rewriting every line one place down.
        items.append(region(f"log{i}", f'<li class="{cls}">{text}</li>'))
    # Focusable, so that the scrolling list can be read and scrolled with the keyboard.
    return f'<ol class="log-list" reversed tabindex="0" aria-label="Moves, newest first">{"".join(items)}</ol>'


# -- dialogs ----------------------------------------------------------------------------------------------------------
def dialog(app):
    s = app.selected
    if not s:
        return ""
    g = app.game
    if s["where"] == "deck":
        return deck_dialog(app, s["level"])
    card = app.selected_card()
    where = "In the market" if s["where"] == "market" else "Your reserved card"
    price = g.price(card, app.person)
    bon = g.players[app.person].bonuses
    pay = app.buy_payment(card)
    mine = g.players[app.person].tokens
    can = g.can_afford(card, app.person)
    swaps = app.gold_swap_limits(card) if can else {}
    rows = []
    for color in COLORS:
        printed = card.cost[color]
        if not printed:
            continue
        disc = min(bon[color], printed)
        tokens = pay[color] if can else min(mine[color], price[color])
        gold_here = price[color] - tokens if can else 0  # the payment's gold, told where it stands in
        swap = ""
        if can:
            now, more = swaps[color]
            if more:
                swap += secondary("gold", f"Use 1 gold instead of 1 {color}", id_=f"gold-{color}-plus",
                                  data_color=color, data_step="1")
            if now:
                swap += secondary("gold", f"Pay {color} instead of gold", id_=f"gold-{color}-minus",
                                  data_color=color, data_step="-1")
        # One row a gem: its price (and how the bonuses brought it down), then what is paid for it, or how many
        # of its tokens you hold when you cannot buy; the gold swaps on a row of their own below it.
        # (the bonus note on lines of its own, inside its column: "printed 4, bonus −2")
        cost = f"<b>{price[color]}</b>" + (
            f' <small class="was">printed {printed}, bonus −{disc}</small>' if disc else "")
        if not price[color]:
            paid = "nothing: your bonuses pay it"
        elif can:
            parts = ([f"{tokens} {color}"] if tokens else []) + ([f"{gold_here} gold"] if gold_here else [])
            paid = " + ".join(parts) or "nothing"
        else:
            paid = f"{mine[color]} of {price[color]}"
        rows.append(f'<tr><th scope="row">{gem(color)} {cap(color)}</th><td class="price-n">{cost}</td>'
                    f'<td class="paid" data-gold="{gold_here}">{paid}</td></tr>')
        if swap:
            rows.append(f'<tr class="swap-row"><td colspan="3" class="swap">{swap}</td></tr>')
    gold_line = ""
    if can:
        gold_line = f'<p class="pay-line">You pay {esc(words.counts_words(pay))}.</p>'
    else:
        short = shortfall(app, card)
        gold_line = (f'<p class="pay-line short" id="buy-why">You are {words.plural(short, "token")} short '
                     f'(gold included).</p>')
    table = (f'<table class="price"><caption>Price after your bonuses</caption><thead><tr><th scope="col">Gem</th>'
             f'<th scope="col">Price</th><th scope="col">{"You pay" if can else "You have"}</th></tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table>')
    buttons = []
    if app.confirming:
        question = words.describe_pending(g, app.confirming) + "?"
        buttons.append(f'<p class="confirm-q">{esc(question)}</p>')
        buttons.append(primary("confirm", "Confirm", id_="confirm"))
        buttons.append(secondary("cancel", "Back", id_="back-dialog"))
    else:
        buy_problem = app.buy_problem(card)
        res_problem = app.reserve_problem()
        buttons.append('<button type="button" class="primary" id="buy" data-act="buy"'
                       + attrs(aria_disabled="true" if buy_problem else None,
                               aria_describedby="buy-why" if buy_problem else None) + '>Buy</button>')
        if s["where"] == "market":
            buttons.append('<button type="button" class="secondary" id="reserve" data-act="reserve"'
                           + attrs(aria_disabled="true" if res_problem else None,
                                   aria_describedby="res-why" if res_problem else None) + '>Reserve</button>')
        buttons.append(secondary("close", "Close", id_="close"))
        if buy_problem and can:
            buttons.append(f'<p class="why-not" id="buy-why">Buy: {esc(buy_problem)}</p>')
        if res_problem and s["where"] == "market":
            buttons.append(f'<p class="why-not" id="res-why">Reserve: {esc(res_problem)}</p>')
        elif s["where"] == "market" and not g.supply["gold"]:
            buttons.append('<p class="why-not">No gold is left, so a reserve gives no gold now.</p>')
    msg = f'<p class="message" role="status">{esc(app.message)}</p>' if app.message else ""
    return f"""<div class="scrim" data-act="close"></div>
<div class="dialog card-dialog{' with-swaps' if 'swap-row' in table else ''}" role="dialog" aria-modal="true" \
aria-labelledby="dlg-title" id="dialog">
<h2 id="dlg-title">{esc(where)}: level {card.level} {esc(card.bonus)} card</h2>
<div class="dialog-body">
<div class="card big bonus-{card.bonus}{' affordable' if can else ''}" role="img"\
{attrs(aria_label=card.describe())}>{card_face(card, dots=True)}</div>
<div class="dialog-info">{table}{gold_line}</div>
</div>
<div class="dialog-buttons">{''.join(buttons)}</div>
{msg}
</div>"""


def deck_dialog(app, level):
    g = app.game
    left = g.deck_sizes[level - 1]
    buttons = []
    if app.confirming:
        buttons.append(f'<p class="confirm-q">{esc(words.describe_pending(g, app.confirming))}?</p>')
        buttons.append(primary("confirm", "Confirm", id_="confirm"))
        buttons.append(secondary("cancel", "Back", id_="back-dialog"))
    else:
        problem = app.reserve_problem()
        buttons.append('<button type="button" class="primary" id="reserve" data-act="reserve"'
                       + attrs(aria_disabled="true" if problem else None,
                               aria_describedby="res-why" if problem else None) + '>'
                       'Reserve the top card</button>')
        buttons.append(secondary("close", "Close", id_="close"))
        if problem:
            buttons.append(f'<p class="why-not" id="res-why">{esc(problem)}</p>')
    gold = "and take 1 gold" if g.supply["gold"] else "(no gold is left to take)"
    msg = f'<p class="message" role="status">{esc(app.message)}</p>' if app.message else ""
    return f"""<div class="scrim" data-act="close"></div>
<div class="dialog deck-dialog" role="dialog" aria-modal="true" aria-labelledby="dlg-title" id="dialog">
<h2 id="dlg-title">Level {level} deck: {words.plural(left, 'card')} left</h2>
<p>Reserve the top card without seeing it first {esc(gold)}. Only you will see it.</p>
<div class="dialog-buttons">{''.join(buttons)}</div>
{msg}
</div>"""


def end_dialog(app):
    g = app.game
    if not g.is_over or not app.show_end or app.end_held:
        return ""
    winners = set(g.winners)
    series = "rotating_series" in g.variants
    totals = g.series_scores if series else g.scores
    order = sorted(range(g.players_count), key=lambda i: (-totals[i], len(g.players[i].cards)))
    games = [tuple(r) for r in g.series_results]
    if series and len(games) < g.players_count:  # the last game's scores, if the engine has not filed them yet
        games.append(g.scores)
    rows = []
    for i in order:
        p = g.players[i]
        won = "Winner" if i in winners else ""
        per_game = ""
        if series:
            per_game = "".join(f"<td>{r[i]}</td>" for r in games)
        rows.append(f'<tr class="{"winner" if won else ""}"><th scope="row">{esc(app.name(i))}</th>{per_game}'
                    f'<td class="total"><b>{totals[i]}</b></td><td>{len(p.cards)}</td><td>{len(p.nobles)}</td>'
                    f'<td>{won}</td></tr>')
    games_head = ""
    if series:
        games_head = "".join(f'<th scope="col">Game {k + 1}</th>' for k in range(len(games)))
    points_head = "Total" if series else "Points"
    tie = ""
    if g.tie_break == "fewer cards":
        tie = "<p>Tied on points: the player with fewer bought cards wins.</p>"
    elif g.tie_break == "shared" and len(winners) > 1:
        tie = "<p>Tied on points and on bought cards: the victory is shared.</p>"
    people_won = [i for i in winners if not app.seats[i]["bot"]]
    party = celebration() if people_won else ""
    made = "".join(f'<li><b>{esc(app.name(i))}</b> {points_made(app, i)}</li>' for i in order)
    return f"""<div class="scrim"></div>
<div class="dialog end-dialog{' person-won' if people_won else ''}" role="dialog" aria-modal="true" \
aria-labelledby="end-title" id="end">
{party}<h2 id="end-title">{esc(headline(app))}</h2>
<table class="scores"><caption>Final scores</caption>\
<thead><tr><th scope="col">Player</th>{games_head}<th scope="col">{points_head}</th>\
<th scope="col">Cards</th><th scope="col">Nobles</th>\
<th scope="col"><span class="sr-only">Result</span></th></tr></thead>
<tbody>{''.join(rows)}</tbody></table>
<ul class="made" aria-label="What made the points">{made}</ul>
{tie}
{learn_view.end_rating(app)}
{puzzle_view.daily_end(app)}
{learn_view.copy_link(app)}
<div class="dialog-buttons"><button type="button" class="primary" data-act="again" id="again">\
{"Practise this deal" if app.daily else "Play again"}</button>\
{secondary("new-game", "New game", id_="end-new")}\
{secondary("review", "Review this game", id_="review-game")}{secondary("hide-end", "See the board", id_="hide-end")}\
{records_io.export_button("export-end")}</div>
</div>"""


def points_made(app, seat):
    """What made a player's points, for the results: each card with points (its bonus gem and its points) and each
    noble, in words for screen readers."""
    p = app.game.players[seat]
    cards = sorted((c for c in p.cards if c.points), key=lambda c: (-c.points, COLORS.index(c.bonus)))
    from_cards = sum(c.points for c in cards)
    said = []
    if cards:
        said.append(f"{words.plural(from_cards, 'point')} from {words.plural(len(cards), 'card')}")
    if p.nobles:
        said.append(f"{3 * len(p.nobles)} from {words.plural(len(p.nobles), 'noble')}")
    if not said:
        return '<span class="made-none">No points yet.</span>'
    chips = "".join(f'<span class="pt-card bonus-{c.bonus}" aria-hidden="true">{gem(c.bonus)}<b>{c.points}</b></span>'
                    for c in cards)
    chips += "".join('<span class="pt-noble" aria-hidden="true"><b>3</b></span>' for _ in p.nobles)
    return f'<span class="made-words">{esc(cap(" and ".join(said)))}:</span> <span class="chips">{chips}</span>'


def celebration():
    """Gems bursting over the results when a person wins (assets/style.css; still, with reduced motion)."""
    bits = "".join(f"<i>{gem(COLORS[k % 5])}</i>" for k in range(12))  # each placed by the stylesheet (no style=)
    return f'<div class="celebrate" aria-hidden="true">{bits}</div>'


def headline(app):
    g = app.game
    winners = g.winners
    if len(winners) > 1:
        return "Shared victory: " + words.join_words([app.name(i) for i in winners])
    if winners[0] == app.person and app.solo:
        return "You win!"
    return f"{app.name(winners[0])} wins"
