/* Redraw the page by changing only what changed (splendor/web/main.py render()).
 *
 * The view builds the whole page as one HTML string each time. Putting it in with innerHTML made the browser parse,
 * style and lay out all of it again on every tap: 250-300 ms from a tap to its paint with the CPU slowed 4x (a
 * mid-range phone), although a gem tap changes a pile, a counter and a button. splendorPatch(root, html, fresh)
 * parses the new HTML into an inert template (no style, no layout) and walks it beside the live page: attributes
 * and text that differ are set, elements that are not the same (another tag, another id, another data-key) are
 * replaced, extra ones removed, so the browser restyles and lays out only what changed. The result is the same page
 * as root.innerHTML = html: the live fields' values and checks follow the new HTML as they would after innerHTML.
 *
 * Regions: the view marks the parts of the table that change apart (each market card, deck, player, log line, the
 * supply, ...) as <!--r:key-->...<!--/r--> (splendor/web/view.py region()). A region whose HTML is the very string
 * already on the page is not parsed at all: it stands in the template as its opening comment alone (a placeholder)
 * and the walk steps over the live region. Parsing the whole table was the largest part of a tap's time.
 *
 * ``fresh`` (a move was just applied): elements of the new HTML with the class "flash" come in as new elements, so
 * that a bot's highlight plays again even where the last move was highlighted too.
 */
(() => {
  "use strict";

  function same(live, next, fresh) {
    if (live.nodeType !== next.nodeType || live.nodeName !== next.nodeName) return false;
    if (live.nodeType !== 1) return true;
    if (live.id !== next.id || live.getAttribute("data-key") !== next.getAttribute("data-key")) return false;
    return !(fresh && next.classList.contains("flash"));
  }

  function attributes(live, next) {
    for (const name of live.getAttributeNames()) {
      if (!next.hasAttribute(name)) live.removeAttribute(name);
    }
    for (const name of next.getAttributeNames()) {
      const value = next.getAttribute(name);
      if (live.getAttribute(name) !== value) live.setAttribute(name, value);
    }
  }

  const FIELDS = "input, select, textarea";

  function keptFields(live, next) {
    // An equal subtree is kept as it is; a field in it still takes its HTML's value (the lists match one to one).
    if (!live.querySelector(FIELDS)) return;
    const wanted = next.querySelectorAll(FIELDS);
    live.querySelectorAll(FIELDS).forEach((field, i) => fields(field, wanted[i]));
  }

  function fields(live, next) {
    // After innerHTML a field shows its HTML's value: a kept field is given that value too.
    if (live.nodeName === "INPUT") {
      if (live.type === "file") return;
      if (live.value !== next.value) live.value = next.value;
      if (live.checked !== next.checked) live.checked = next.checked;
    } else if (live.nodeName === "TEXTAREA" || live.nodeName === "SELECT") {
      if (live.value !== next.value) live.value = next.value;
    }
  }

  // -- regions: <!--r:key--> the region's nodes <!--/r--> ----------------------------------------------------------
  function regionKey(node) {
    return node && node.nodeType === 8 && node.nodeValue.startsWith("r:") ? node.nodeValue.slice(2) : null;
  }

  function regionEnd(start) {
    let node = start.nextSibling;
    while (node && !(node.nodeType === 8 && node.nodeValue === "/r")) node = node.nextSibling;
    return node;
  }

  let placeholders = new Set();  // opening comments standing for a region the page already has (not parsed)
  let regionHtml = new Map();  // key -> the region's HTML in the HTML being put in (expand() parses from it)

  function expand(start) {
    // A placeholder that has to become the region itself (its place is new): parsed from the HTML it stands for.
    placeholders.delete(start);
    const scratch = document.createElement("template");
    scratch.innerHTML = regionHtml.get(start.nodeValue.slice(2)) + "<!--/r-->";
    start.after(scratch.content);
  }

  function laterRegion(at, stop, key) {
    for (let node = at; node && node !== stop; node = node.nextSibling) if (regionKey(node) === key) return node;
    return null;
  }

  function region(live, next, fresh, at, stop, want) {
    // ``want`` opens a region (a placeholder or the region parsed); returns [live node after it, wanted node after it].
    const key = regionKey(want);
    const kept = placeholders.has(want);
    const wantEnd = kept ? null : regionEnd(want);
    const following = kept ? want.nextSibling : wantEnd.nextSibling;
    let start = regionKey(at) === key ? at : laterRegion(at, stop, key);
    if (start !== null) {
      while (at !== start) {  // regions gone before it
        const gone = at;
        at = at.nextSibling;
        gone.remove();
      }
      const end = regionEnd(start);
      if (!kept) children(live, next, fresh, start.nextSibling, end, want.nextSibling, wantEnd);
      return [end.nextSibling, following];
    }
    if (kept) {
      live.insertBefore(want, at);
      expand(want);
    } else {
      for (let node = want; node !== following;) {
        const move = node;
        node = node.nextSibling;
        live.insertBefore(move, at);
      }
    }
    return [at, following];
  }

  // Walks the live nodes from ``at`` to ``stop`` beside the wanted ones from ``want`` to ``wantStop``.
  function children(live, next, fresh, at = live.firstChild, stop = null, want = next.firstChild, wantStop = null) {
    while (want && want !== wantStop) {
      if (at === stop) at = null;
      if (regionKey(want) !== null) {
        [at, want] = region(live, next, fresh, at || stop, stop, want);
        continue;
      }
      const following = want.nextSibling;
      if (at && same(at, want, fresh)) {
        if (at.nodeType === 1 && at.isEqualNode(want) && !(fresh && want.querySelector(".flash"))) {
          keptFields(at, want);  // the same subtree (compared natively): nothing to do
        } else if (at.nodeType === 1) {
          attributes(at, want);
          children(at, want, fresh);
          fields(at, want);
        } else if (at.nodeValue !== want.nodeValue) {
          at.nodeValue = want.nodeValue;
        }
        at = at.nextSibling;
      } else if (at && at.nextSibling && at.nextSibling !== stop && same(at.nextSibling, want, fresh)
                 && at.nodeType === 1 && want.nodeType === 1 && !(following && same(at, following, fresh))) {
        // One element gone from the live page: drop it and match the rest.
        const gone = at;
        at = at.nextSibling;
        gone.remove();
        continue;
      } else {
        live.insertBefore(want, at || stop);  // moved out of the template
      }
      want = following;
    }
    while (at && at !== stop) {
      const gone = at;
      at = at.nextSibling;
      gone.remove();
    }
  }

  // The keyboard's marks, put on the new HTML before it is compared (so they are never a change of their own):
  // one Tab stop per grid (roving tabindex: the element last moved to, else the first), and everything behind an
  // open dialog inert. ``remembered``: grid name -> id (splendor/web/table/keyboard.py Keys.remembered). On the template a
  // grid may be partly placeholders: the stops are set again on the page once it is whole (where they differ).
  function tabStops(page, remembered) {
    for (const grid of page.querySelectorAll("[data-grid]")) {
      const rows = grid.querySelectorAll("[data-grid-row]");
      const ids = [];
      for (const row of rows.length ? rows : [grid]) {
        for (const el of row.children) if (el.tagName === "BUTTON" && el.id) ids.push(el);
      }
      const wanted = remembered[grid.dataset.grid];
      const keep = ids.find((el) => el.id === wanted) || ids[0];
      for (const el of ids) {
        const stop = el === keep ? "0" : "-1";
        if (el.getAttribute("tabindex") !== stop) el.setAttribute("tabindex", stop);
      }
    }
  }

  function inertBehindDialog(page) {
    const app = page.firstElementChild;
    if (!app) return;
    const dialog = page.querySelector('[role="dialog"]');
    for (const child of app.children) {
      if (dialog && !child.contains(dialog) && !child.classList.contains("scrim")) child.setAttribute("inert", "");
    }
  }

  const template = document.createElement("template");
  const REGION = /<!--r:([^>]*?)-->([\s\S]*?)<!--\/r-->/g;
  let onPage = new Map();  // key -> HTML of each region on the page after the last patch

  function patch(root, html, fresh, remembered) {
    // Marks of a move being answered (assets/motion.js now()) are the page's own, never in the HTML: gone first, so
    // that a region left as it is stays what its HTML makes.
    for (const el of root.querySelectorAll(".committing, [data-leaving]")) {
      el.classList.remove("committing");
      if (!el.classList.length) el.removeAttribute("class");
      el.removeAttribute("data-leaving");
    }
    const marks = remembered ? JSON.parse(remembered) : {};
    const known = onPage;
    const kept = new Set();
    regionHtml = new Map();
    const skeleton = html.replace(REGION, (whole, key, body) => {
      regionHtml.set(key, body);
      if (known.get(key) !== body || (fresh && body.includes("flash"))) return whole;
      kept.add(key);
      return `<!--r:${key}-->`;
    });
    onPage = new Map();  // until this patch is done, no region is known to be on the page
    template.innerHTML = skeleton;
    placeholders = new Set();
    if (kept.size) {
      const comments = document.createTreeWalker(template.content, NodeFilter.SHOW_COMMENT);
      while (comments.nextNode()) {
        if (kept.has(regionKey(comments.currentNode))) placeholders.add(comments.currentNode);
      }
    }
    tabStops(template.content, marks);
    inertBehindDialog(template.content);
    children(root, template.content, !!fresh);
    for (const start of Array.from(placeholders)) if (start.isConnected) expand(start);  // inside new elements
    placeholders = new Set();
    tabStops(root, marks);
    template.innerHTML = "";
    onPage = regionHtml;
    patch.count += 1;
    patch.parsed = skeleton.length;  // tests, benchmarks: how much of the HTML was parsed
    patch.total = html.length;
    if (patch.check) {
      // Tests (splendorPatch.check = true): the page must be the very tree innerHTML would have made of the HTML
      // (node for node, attributes in any order), with the keyboard's marks.
      const whole = document.createElement("template");
      whole.innerHTML = html;
      tabStops(whole.content, marks);
      inertBehindDialog(whole.content);
      const got = root.childNodes;
      const want = whole.content.childNodes;
      const same = got.length === want.length && Array.from(want).every((node, i) => node.isEqualNode(got[i]));
      if (!same) patch.mismatches.push({ at: patch.count, html: html.slice(0, 200) });
    }
  }
  patch.count = 0;
  patch.check = false;
  patch.mismatches = [];

  window.splendorPatch = patch;
})();
