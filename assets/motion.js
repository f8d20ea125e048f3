/* Moves seen on the table (FLIP): tokens travel between the supply and a player, a bought or reserved card travels
 * to its owner, the new market card is dealt from its deck, a noble travels to the player it visits.
 *
 * splendor/web/main.py calls splendorMotion.before() just before it redraws the table and
 * splendorMotion.after(changesJson) just after, with what the applied moves moved (controller.App.take_changes()):
 * before() notes where every [data-fly] element, pile, deck and seat was (and, read only for one that flies, its HTML);
 * after() draws copies flying from there to where things are now. Transforms only (no layout change), 250-450 ms,
 * and nothing at all when the system asks for reduced motion. Every animation started is counted in
 * splendorMotion.log (kind and count), for the tests. A person's own move flies before the page is redrawn
 * (main.py answer_first): now() draws the pieces flying from where they are drawn, and the page is redrawn once they
 * have landed (landed()); only the new market card's deal comes after the redraw.
 */
(() => {
  "use strict";
  const DURATION = 420;
  const EASE = "cubic-bezier(.2, .7, .2, 1)";
  const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let last = null;
  const log = [];

  function rectOf(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  }

  // Where a thing is: its place, and its HTML (read only if a flight needs it: a copy of it flies).
  function place(el) {
    return { rect: rectOf(el), el, get html() { return el.outerHTML; } };
  }

  // now(): a card or noble that flies is hidden where it was until the page is redrawn (data-leaving, cleared by
  // assets/patch.js), so that it is not seen twice. Hidden after every position is read.
  function leaves(old) {
    if (live && old && old.el) pending.push(() => { old.el.setAttribute("data-leaving", ""); });
  }

  function before() {
    if (reduced()) { last = null; return; }
    const seen = {};
    for (const el of document.querySelectorAll("[data-fly]")) seen[el.dataset.fly] = place(el);
    for (const el of document.querySelectorAll('[id^="pile-"], [id^="seat-"], [id^="d"].deck')) {
      seen["#" + el.id] = place(el);
    }
    for (const el of document.querySelectorAll('section.seat[id^="seat-"] .prestige')) {
      seen["pts:" + el.closest("section.seat").id] = el.firstChild ? el.firstChild.nodeValue : null;
    }
    const banner = document.getElementById("moment");
    seen.moment = banner ? banner.dataset.key : null;
    last = seen;
  }

  // A player's points change when the card (or noble) that brings them lands, not before: the number drawn before
  // the redraw is kept until its flights have finished (after(); before the page's next redraw, which waits for them
  // too: main.py landed).
  function holdPoints(changes) {
    const seats = new Set();
    for (const c of changes) {
      if ((c.kind === "card" || c.kind === "noble") && c.to !== undefined && c.to !== "supply") seats.add(c.to);
    }
    if (!seats.size) return;
    const flights = document.getAnimations().filter((a) => a.id === "fly-card" || a.id === "fly-noble");
    for (const seat of seats) {
      const el = document.querySelector(`#seat-${seat} .prestige`);
      const old = last["pts:seat-" + seat];
      const text = el && el.firstChild;
      if (!text || old == null || text.nodeValue === old || !flights.length) continue;
      const now = text.nodeValue;
      text.nodeValue = old;
      const put = onlyOnce(() => { if (text.nodeValue === old) text.nodeValue = now; });
      Promise.all(flights.map((a) => a.finished.catch(() => null))).then(put);
      setTimeout(put, 2000);  // (a hidden tab draws no frames)
    }
  }

  // A new moment's banner ("Bot 1 has 15 points. Final round", "A noble visits you") comes in when the pieces that
  // bring those points have landed, with the panel's number (holdPoints), not ahead of it.
  function holdMoment() {
    const banner = document.getElementById("moment");
    if (!banner || banner.dataset.key === last.moment) return;
    const flights = document.getAnimations().filter((a) => String(a.id).startsWith("fly-"));
    if (!flights.length) return;
    banner.classList.add("waiting");
    const show = onlyOnce(() => banner.classList.remove("waiting"));
    Promise.all(flights.map((a) => a.finished.catch(() => null))).then(show);
    setTimeout(show, 2000);  // (a hidden tab draws no frames)
  }

  // Where ``key`` ("card:<code>", "noble:<code>", "#<id>") was before the redraw: from before(), or, for now(), on
  // the page as it still is.
  let live = false;
  function was(key) {
    if (!live) return last[key];
    const el = key.startsWith("#") ? document.getElementById(key.slice(1))
      : document.querySelector(`[data-fly="${key}"]`);
    return el ? place(el) : undefined;
  }

  function box(id) {
    const el = document.getElementById(id);
    return el ? rectOf(el) : !live && last && last["#" + id] ? last["#" + id].rect : null;
  }

  function layer() {
    let el = document.getElementById("fly-layer");
    if (!el) {
      el = document.createElement("div");
      el.id = "fly-layer";
      el.setAttribute("aria-hidden", "true");
      document.body.append(el);
    }
    return el;
  }

  // Flights are drawn once every position is read: a copy added to the page between two reads of positions would
  // make the browser lay the whole page out again for the second read (one layout per token at each move).
  let pending = [];

  // A copy (``html``) placed over ``from`` travels to the middle of ``to``, shrinking to ``scale`` of its size.
  function fly(kind, html, from, to, delay, scale) {
    if (!from || !to) return;
    pending.push(() => draw(kind, html, from, to, delay, scale));
  }

  function draw(kind, html, from, to, delay, scale) {
    const holder = document.createElement("div");
    holder.className = "fly fly-" + kind;
    if (typeof html === "string") holder.innerHTML = html;
    else holder.append(html);  // an element made for the flight (a token: a copy of the pile's gem)
    const el = holder.firstElementChild || holder;
    holder.style.cssText = `left:${from.x}px;top:${from.y}px;width:${from.w}px;height:${from.h}px`;
    if (el !== holder) el.removeAttribute("id");
    layer().append(holder);
    const dx = to.x + to.w / 2 - (from.x + from.w / 2);
    const dy = to.y + to.h / 2 - (from.y + from.h / 2);
    const anim = holder.animate(
      [{ transform: "translate(0, 0) scale(1)" }, { transform: `translate(${dx}px, ${dy}px) scale(${scale})` }],
      { duration: DURATION, delay, easing: EASE, fill: "backwards" });
    anim.id = "fly-" + kind;
    log.push(kind);
    const done = () => holder.remove();
    anim.onfinish = done;
    anim.oncancel = done;
  }

  function gemOf(color) {
    // The pile's own gem, copied as an element (no HTML to parse); drawn from the sprite if the pile has none.
    const drawn = document.querySelector(`#pile-${color} svg.gem`);
    if (drawn) return drawn.cloneNode(true);
    return `<svg class="gem gem-${color}" viewBox="0 0 24 24"><use href="assets/gems.svg#gem-${color}"></use></svg>`;
  }

  function tokens(change) {
    change.colors.forEach((color, i) => {
      const pile = box("pile-" + color);
      const seat = box("seat-" + (change.from === "supply" ? change.to : change.from));
      if (!pile || !seat) return;
      const size = Math.min(pile.w, pile.h, 40);
      const at = (r) => ({ x: r.x + r.w / 2 - size / 2, y: r.y + r.h / 2 - size / 2, w: size, h: size });
      const [from, to] = change.from === "supply" ? [at(pile), at(seat)] : [at(seat), at(pile)];
      fly("tokens", gemOf(color), from, to, i * 60, 0.8);
    });
  }

  function card(change) {
    const seat = box("seat-" + change.to);
    let from = null;
    let html = "";
    const old = change.code && was("card:" + change.code);
    const deck = change.from === "deck" && was("#d" + change.level);
    const seatWas = was("#seat-" + change.to);
    if (old) { from = old.rect; html = old.html; }
    else if (deck) { from = deck.rect; }
    else if (seatWas) {
      const s = seatWas.rect;
      from = { x: s.x + s.w / 2 - 20, y: s.y + s.h / 2 - 28, w: 40, h: 56 };
    }
    if (!html) html = `<div class="mini back lvl-${change.level || 1}"></div>`;
    fly("card", html, from, seat && { x: seat.x + seat.w / 2 - 10, y: seat.y + seat.h / 2 - 10, w: 20, h: 20 }, 0, 0.35);
    leaves(old);
  }

  function noble(change) {
    const old = was("noble:" + change.code);
    const seat = box("seat-" + change.to);
    if (old && seat) fly("noble", old.html, old.rect, { x: seat.x + seat.w / 2, y: seat.y + 4, w: 1, h: 1 }, 150, 0.45);
    if (old && seat) leaves(old);
  }

  function deal(change) {
    const el = document.getElementById(`m${change.level}${change.slot}`);
    const deck = box("d" + change.level);
    if (!el || !deck) return;
    const r = rectOf(el);
    pending.push(() => dealFrom(el, r, deck));
  }

  function dealFrom(el, r, deck) {
    const dx = deck.x - r.x;
    const dy = deck.y - r.y;
    const sx = deck.w / r.w;
    const sy = deck.h / r.h;
    const anim = el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, transformOrigin: "0 0" },
       { transform: "none", transformOrigin: "0 0" }],
      { duration: DURATION - 80, delay: 180, easing: EASE, fill: "backwards" });
    anim.id = "fly-deal";
    log.push("deal");
  }

  function after(json) {
    const seen = last;
    last = null;
    if (!seen || reduced()) return;
    last = seen;
    drawAll(json);
    try { holdPoints(JSON.parse(json) || []); } catch (e) { /* the points are simply drawn at once */ }
    holdMoment();
    last = null;
  }

  // The flights of ``json`` from where things are drawn now, with nothing changed on the page yet (a person's
  // move, main.py answer_first): no before(), and only what flies is read.
  function now(json) {
    if (reduced()) return;
    live = true;
    try { drawAll(json); } finally { live = false; }
    mark("#app .scrim, #app [role='dialog']");  // the dialog the move was made in goes at once
  }

  // The move's controls fade until the page is redrawn into it (in the frame after the tap's: its paint is short).
  function committing() {
    mark("#status, #app .actionbar, #app .chosen");
  }

  function mark(selector) {
    for (const el of document.querySelectorAll(selector)) el.classList.add("committing");  // assets/style.css
  }

  function drawAll(json) {
    let changes = [];
    try { changes = JSON.parse(json) || []; } catch (e) { return; }
    pending = [];
    for (const change of changes) {  // first every position read (one layout) ...
      try {
        if (change.kind === "tokens") tokens(change);
        else if (change.kind === "card") card(change);
        else if (change.kind === "noble") noble(change);
        else if (change.kind === "deal") deal(change);
      } catch (e) { /* a move not drawn is never worth an error */ }
    }
    const draws = pending;
    pending = [];
    for (const drawOne of draws) {  // ... then every flight drawn
      try { drawOne(); } catch (e) { /* as above */ }
    }
  }

  function onlyOnce(callback) {
    let done = false;
    return () => { if (!done) { done = true; callback(); } };
  }

  // ``callback`` once the next frame is painted (a tap's first answer is on screen before the page is redrawn),
  // or after 200 ms where frames are not drawn (a hidden tab).
  function afterPaint(callback) {
    const once = onlyOnce(callback);
    requestAnimationFrame(() => setTimeout(once, 0));
    setTimeout(once, 200);
  }

  // ``callback`` once every piece in flight has landed (in the frame after; at most 2 s, for a hidden tab).
  function landed(callback) {
    const once = onlyOnce(callback);
    const flying = document.getAnimations().filter((a) => String(a.id).startsWith("fly-") && a.playState !== "finished");
    Promise.all(flying.map((a) => a.finished.catch(() => null))).then(() => afterPaint(once));
    setTimeout(once, 2000);
  }

  // A moment's banner (fixed near the top) never covers a player's panel: where it would meet one (on phones, the
  // opponents' strip under the top bar), it lies over the top of the market instead, no wider than the market
  // (main.py place_moment).
  const MARGIN = 12;  // more than the banner's entrance moves it (assets/style.css moment-in)
  function meetsSeat(el) {
    const b = el.getBoundingClientRect();
    return [...document.querySelectorAll("section.seat")].some((seat) => {
      const s = seat.getBoundingClientRect();
      return b.top < s.bottom + MARGIN && b.bottom > s.top - MARGIN && b.left < s.right && b.right > s.left;
    });
  }

  function overMarket(el, top) {
    const market = document.querySelector(".market");
    if (!market) return;
    const m = market.getBoundingClientRect();
    el.style.maxWidth = `${m.width - 8}px`;
    el.style.left = `${m.left + m.width / 2}px`;  // (centred there by its own transform)
    el.style.top = `${top(m, el.offsetHeight)}px`;
  }

  function placeBanner(banner) {
    if (!banner) return;
    banner.style.top = banner.style.left = banner.style.maxWidth = "";
    if (meetsSeat(banner)) overMarket(banner, (m) => m.top + 4);
  }

  // On phones the page's notes (the bots playing on the page's own thread, a storage problem) are laid over the
  // bottom of the market, not in the page's flow: they never push the table down, so nothing slides under the log
  // or off the screen; taps go through them but for their own button (assets/style.css), so play goes on.
  function placeNotes() {
    let bottom = null;
    for (const el of document.querySelectorAll(".game-screen > .fallback, .game-screen > .notices")) {
      el.style.top = el.style.left = el.style.maxWidth = "";
      if (getComputedStyle(el).position !== "fixed") continue;  // (in the page's flow: larger screens)
      overMarket(el, (m, h) => { const top = (bottom === null ? m.bottom - 4 : bottom) - h; bottom = top - 4; return top; });
    }
  }

  window.splendorMotion = {
    before, after, now, committing, afterPaint, landed, reduced, placeBanner, placeNotes, log, duration: DURATION,
  };
})();
