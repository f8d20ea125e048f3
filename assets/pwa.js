/* Installable, offline game: the page's side of the service worker (plain JS, no Python needed).
 *
 *  - registers ./sw.js: on a first visit once Python has started (py:all-done) so the precache
 *    does not compete with the first boot; on later visits at once;
 *  - when a new version has installed and waits, offers "A new version is ready" with Reload:
 *    Reload posts SKIP_WAITING to the waiting worker and reloads when it takes control (the game
 *    is saved after every move, so the reload resumes the same position);
 *  - shows an Install offer only when the browser fires beforeinstallprompt;
 *  - on iOS Safari (not already on the home screen) shows short "Add to Home Screen" steps;
 *  - asks once per visit, at the person's first tap or key, for persistent storage
 *    (navigator.storage.persist()) so the browser does not evict saved games.
 * Its notices sit in one region at the top of the page (assets/pwa.css), never over the game.
 */
(() => {
  "use strict";

  const KEY_INSTALL_DISMISSED = "splendor.pwa.installDismissedAt";
  const KEY_IOS_DISMISSED = "splendor.pwa.iosHintDismissed";
  const INSTALL_QUIET_DAYS = 30;
  const UPDATE_CHECK_MS = 60 * 60 * 1000;
  const FIRST_VISIT_FALLBACK_MS = 15000; // register even if py:all-done never comes

  const state = { registration: null, persisted: null, updateShown: false };
  let resolveRegistration;
  state.ready = new Promise((resolve) => (resolveRegistration = resolve));
  window.splendorPwa = state;
  // A file loaded only when asked (the puzzle pool: sw.template.js LAZY) is kept for offline use: by the
  // service worker's own fetch handler once it controls the page, else (a first visit) by asking it
  // to, once it is active.
  state.keep = async (url) => {
    if (!sw || sw.controller) return;
    const registration = await sw.ready;
    if (registration.active) registration.active.postMessage({ type: "KEEP", url: new URL(url, location.href).href });
  };

  // --- small helpers --------------------------------------------------------------------------

  const store = {
    get(key) {
      try { return localStorage.getItem(key); } catch (e) { return null; }
    },
    set(key, value) {
      try { localStorage.setItem(key, value); } catch (e) { /* private mode: not remembered */ }
    },
  };

  const standalone = () =>
    window.navigator.standalone === true ||
    (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches);

  // The notices' container exists (empty) from the start and is a polite live region, so a screen
  // reader announces a notice when it appears.
  function region() {
    let box = document.getElementById("pwa-notices");
    if (!box) {
      box = document.createElement("div");
      box.id = "pwa-notices";
      box.className = "pwa-notices";
      box.setAttribute("aria-live", "polite");
      document.body.prepend(box);
    }
    return box;
  }

  // One notice: a labelled group with a sentence and buttons. Replaces a notice of the same id.
  function notice(id, { label, text, role = "region", buttons }) {
    const old = document.getElementById(id);
    if (old) old.remove();
    const box = document.createElement("section");
    box.id = id;
    box.className = "pwa-notice";
    box.setAttribute("role", role);
    box.setAttribute("aria-label", label);
    const words = document.createElement("p");
    words.className = "pwa-text";
    if (typeof text === "string") words.textContent = text;
    else words.append(...text);
    box.append(words);
    const row = document.createElement("div");
    row.className = "pwa-buttons";
    for (const { label: name, primary, onClick } of buttons) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = primary ? "pwa-button pwa-primary" : "pwa-button";
      button.textContent = name;
      button.addEventListener("click", onClick);
      row.append(button);
    }
    box.append(row);
    region().append(box);
    return box;
  }

  const closeNotice = (id) => {
    const box = document.getElementById(id);
    if (box) box.remove();
  };

  // --- service worker and updates -------------------------------------------------------------

  const sw = navigator.serviceWorker;
  let reloadRequested = false;
  let reloading = false;

  function reloadOnce() {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  }

  function offerUpdate(waiting) {
    state.updateShown = true;
    notice("pwa-update", {
      label: "New version",
      role: "status",
      text: "A new version of the game is ready.",
      buttons: [
        {
          label: "Reload",
          primary: true,
          onClick: () => {
            reloadRequested = true;
            const worker = waiting || (state.registration && state.registration.waiting);
            if (worker) {
              worker.postMessage({ type: "SKIP_WAITING" });
              // controllerchange reloads; if it never comes (the worker was replaced), reload anyway.
              setTimeout(reloadOnce, 4000);
            } else {
              reloadOnce();
            }
          },
        },
        { label: "Later", onClick: () => closeNotice("pwa-update") },
      ],
    });
  }

  function watch(registration) {
    // A version that installed while an older one controls this page waits: offer it.
    if (registration.waiting && sw.controller) offerUpdate(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const installing = registration.installing;
      if (!installing) return;
      installing.addEventListener("statechange", () => {
        if (installing.state === "installed" && sw.controller) offerUpdate(installing);
      });
    });
  }

  let registering = false;
  async function register() {
    if (registering || !sw) return;
    registering = true;
    try {
      const registration = await sw.register("./sw.js");
      state.registration = registration;
      watch(registration);
      resolveRegistration(registration);
      // Long sessions (an installed app left open) still learn of new versions.
      setInterval(() => registration.update().catch(() => {}), UPDATE_CHECK_MS);
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") registration.update().catch(() => {});
      });
    } catch (error) {
      console.warn("Offline support unavailable:", error);
      resolveRegistration(null);
    }
  }

  if (sw) {
    let hadController = !!sw.controller;
    sw.addEventListener("controllerchange", () => {
      if (reloadRequested) reloadOnce();
      else if (hadController && !state.updateShown) offerUpdate(null); // another tab updated
      hadController = true;
    });
    if (sw.controller) {
      register();
    } else {
      addEventListener("py:all-done", register, { once: true });
      addEventListener("load", () => setTimeout(register, FIRST_VISIT_FALLBACK_MS), { once: true });
    }
  } else {
    resolveRegistration(null);
  }

  // --- install ----------------------------------------------------------------------------------

  function installQuiet() {
    const at = Number(store.get(KEY_INSTALL_DISMISSED) || 0);
    return at && Date.now() - at < INSTALL_QUIET_DAYS * 24 * 3600 * 1000;
  }

  addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // our own, quieter offer instead of the browser's mini-bar
    if (installQuiet() || standalone()) return;
    const offer = () =>
      notice("pwa-install", {
        label: "Install the game",
        text: "Install Splendor to play from your home screen, even offline.",
        buttons: [
          {
            label: "Install",
            primary: true,
            onClick: async () => {
              closeNotice("pwa-install");
              try {
                await event.prompt();
                const choice = await event.userChoice;
                if (choice && choice.outcome === "dismissed") {
                  store.set(KEY_INSTALL_DISMISSED, String(Date.now()));
                }
              } catch (error) {
                /* the prompt can be shown only once per event */
              }
            },
          },
          {
            label: "Not now",
            onClick: () => {
              store.set(KEY_INSTALL_DISMISSED, String(Date.now()));
              closeNotice("pwa-install");
            },
          },
        ],
      });
    if (document.body) offer();
    else addEventListener("DOMContentLoaded", offer, { once: true });
  });

  addEventListener("appinstalled", () => closeNotice("pwa-install"));

  // iOS Safari has no install prompt: say where the menu entry is.
  function iosSafari() {
    const ua = navigator.userAgent || "";
    const ios = /iPhone|iPad|iPod/.test(ua) ||
      (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
    const otherBrowser = /CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(ua);
    return ios && !otherBrowser && /Safari\//.test(ua);
  }

  function offerIosSteps() {
    if (!iosSafari() || standalone() || store.get(KEY_IOS_DISMISSED)) return;
    const share = document.createElement("strong");
    share.textContent = "Share";
    const add = document.createElement("strong");
    add.textContent = "Add to Home Screen";
    notice("pwa-ios", {
      label: "Add to Home Screen",
      text: ["To install: tap ", share, ", then ", add, "."],
      buttons: [
        {
          label: "OK",
          onClick: () => {
            store.set(KEY_IOS_DISMISSED, "1");
            closeNotice("pwa-ios");
          },
        },
      ],
    });
  }

  // --- persistent storage ---------------------------------------------------------------------

  let persistAsked = false;
  async function askPersist() {
    if (persistAsked) return;
    persistAsked = true;
    removeEventListener("pointerdown", askPersist, true);
    removeEventListener("keydown", askPersist, true);
    const storage = navigator.storage;
    if (!storage || !storage.persist) return;
    try {
      state.persisted = (storage.persisted && (await storage.persisted())) || (await storage.persist());
    } catch (error) {
      state.persisted = false;
    }
    document.documentElement.dataset.storagePersisted = state.persisted ? "1" : "0";
  }

  function start() {
    region();
    offerIosSteps();
    if (standalone()) askPersist(); // installed: the browser grants it without asking
    else {
      addEventListener("pointerdown", askPersist, { capture: true, passive: true });
      addEventListener("keydown", askPersist, { capture: true });
    }
  }

  if (document.readyState === "loading") addEventListener("DOMContentLoaded", start, { once: true });
  else start();
})();
