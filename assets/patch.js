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

  function children(live, next, fresh) {
    let at = live.firstChild;
    let want = next.firstChild;
    while (want) {
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
      } else if (at && at.nextSibling && same(at.nextSibling, want, fresh) && at.nodeType === 1 && want.nodeType === 1
                 && !(following && same(at, following, fresh))) {
        // One element gone from the live page: drop it and match the rest.
        const gone = at;
        at = at.nextSibling;
        gone.remove();
        continue;
      } else {
        live.insertBefore(want, at);  // moved out of the template
      }
      want = following;
    }
    while (at) {
      const gone = at;
      at = at.nextSibling;
      gone.remove();
    }
  }

  // The keyboard's marks, put on the new HTML before it is compared (so they are never a change of their own):
  // one Tab stop per grid (roving tabindex: the element last moved to, else the first), and everything behind an
  // open dialog inert. ``remembered``: grid name -> id (splendor/web/keyboard.py Keys.remembered).
  function tabStops(page, remembered) {
    for (const grid of page.querySelectorAll("[data-grid]")) {
      const rows = grid.querySelectorAll("[data-grid-row]");
      const ids = [];
      for (const row of rows.length ? rows : [grid]) {
        for (const el of row.children) if (el.tagName === "BUTTON" && el.id) ids.push(el);
      }
      const wanted = remembered[grid.dataset.grid];
      const keep = ids.find((el) => el.id === wanted) || ids[0];
      for (const el of ids) el.tabIndex = el === keep ? 0 : -1;
    }
    const app = page.firstElementChild;
    if (!app) return;
    const dialog = page.querySelector('[role="dialog"]');
    for (const child of app.children) {
      if (dialog && !child.contains(dialog) && !child.classList.contains("scrim")) child.setAttribute("inert", "");
    }
  }

  const template = document.createElement("template");

  function patch(root, html, fresh, remembered) {
    template.innerHTML = html;
    tabStops(template.content, remembered ? JSON.parse(remembered) : {});
    const wanted = patch.check ? template.content.cloneNode(true) : null;
    children(root, template.content, !!fresh);
    template.innerHTML = "";
    patch.count += 1;
    if (wanted !== null) {
      // Tests (splendorPatch.check = true): the page must be the very tree innerHTML would have made of the HTML
      // (node for node, attributes in any order).
      const got = root.childNodes;
      const want = wanted.childNodes;
      const same = got.length === want.length && Array.from(want).every((node, i) => node.isEqualNode(got[i]));
      if (!same) patch.mismatches.push({ at: patch.count, html: html.slice(0, 200) });
    }
  }
  patch.count = 0;
  patch.check = false;
  patch.mismatches = [];

  window.splendorPatch = patch;
})();
