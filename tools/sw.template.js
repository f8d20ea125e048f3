/* Offline service worker for the Splendor site.
 * GENERATED into site/sw.js by tools/build_site.py from tools/sw.template.js: edit the template.
 *
 * The build fills in CACHE_NAME (a content hash of every precached file and of this template) and
 * PRECACHE, a list of [url, revision] where revision is the start of the file's SHA-256.
 *
 * install   Fills a new cache with every precached file. A file whose revision an older cache
 *           already holds is copied from there (an update re-downloads only what changed); on a
 *           first install the rest comes from the browser's HTTP cache when the page has just
 *           downloaded it (nothing is downloaded twice, not even revalidated). Every body is checked
 *           against its revision, so a cache never mixes files of two deploys.
 * activate  Deletes the caches of older versions and takes control of open pages.
 * fetch     Cache first; navigations ignore the query string (deal links such as ?seed=4711 open
 *           offline too). A same-origin file missing from the precache is cached on first use.
 * message   {type: "SKIP_WAITING"} from the page activates a waiting new version (assets/pwa.js
 *           posts it when the person accepts the "new version" offer).
 */
"use strict";

const CACHE_NAME = "__CACHE_NAME__";
const CACHE_PREFIX = "splendor-";
const PRECACHE = __PRECACHE_ENTRIES__;
// Files not precached (not part of the first visit) but kept once used, such as the puzzle pool:
// [url, revision]. An update brings along the ones an older cache holds (see keepLazy).
const LAZY = __LAZY_ENTRIES__;

const SCOPE = self.registration.scope;
const ROOT_URL = new URL("./", SCOPE).href;
// Each cache keeps the revisions it holds under this key, for the next version's install.
const REVISIONS_URL = new URL("./__precache-revisions__", SCOPE).href;
const MATCH = { ignoreVary: true };

const absolute = (url) => new URL(url, SCOPE).href;

async function sha256Hex(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// What older caches of this site hold: url -> {cache, revision}.
async function olderRevisions() {
  const found = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith(CACHE_PREFIX) || name === CACHE_NAME) continue;
    const cache = await caches.open(name);
    const record = await cache.match(REVISIONS_URL, MATCH);
    if (!record) continue;
    try {
      for (const [url, revision] of Object.entries(await record.json())) {
        found.set(url, { cache, revision });
      }
    } catch (error) {
      // an unreadable record only means nothing is copied from that cache
    }
  }
  return found;
}

// A response fit to store: fetched, complete, from this site, its body matching the revision.
async function download(url, revision, mode) {
  const response = await fetch(new Request(url, { cache: mode, credentials: "same-origin" }));
  if (!response.ok || response.status !== 200) {
    throw new Error(`precache: ${url} answered ${response.status}`);
  }
  const body = await response.arrayBuffer();
  if (!(await sha256Hex(body)).startsWith(revision)) {
    return null; // another deploy's file (or a stale HTTP cache entry)
  }
  // A rebuilt response: drops the "redirected" flag, which navigations refuse, and the headers
  // that described the compressed transfer rather than this (decoded) body.
  const headers = new Headers(response.headers);
  for (const name of ["content-encoding", "content-length", "transfer-encoding"]) headers.delete(name);
  return new Response(body, { status: 200, statusText: response.statusText, headers });
}

async function precache() {
  const cache = await caches.open(CACHE_NAME);
  const older = await olderRevisions();
  const revisions = {};
  await Promise.all(
    PRECACHE.map(async ([relative, revision]) => {
      const url = absolute(relative);
      revisions[url] = revision;
      const previous = older.get(url);
      if (previous && previous.revision === revision) {
        const kept = await previous.cache.match(url, MATCH);
        if (kept) {
          await cache.put(url, kept);
          return;
        }
      }
      // First install: take what the page has just fetched straight from the HTTP cache, without
      // even a revalidation ("force-cache"; the hash check below catches an outdated entry). A file
      // changed since the previous version is revalidated. If the answer is still not this build's
      // file, bypass the HTTP cache once.
      let response = await download(url, revision, previous ? "no-cache" : "force-cache");
      if (!response) response = await download(url, revision, "reload");
      if (!response) {
        throw new Error(`precache: ${url} does not match this version (a deploy in progress?)`);
      }
      await cache.put(url, response);
    }),
  );
  await Promise.all(LAZY.map(([relative, revision]) => keepLazy(cache, absolute(relative), revision)));
  await cache.put(
    REVISIONS_URL,
    new Response(JSON.stringify(revisions), { headers: { "Content-Type": "application/json" } }),
  );
}

// A file cached on first use in an older version's cache comes along to this one: as it was when it
// matches this version's revision, else fetched afresh. Best effort: the install never fails for it
// (without it, the file is fetched again on its next use).
async function keepLazy(cache, url, revision) {
  try {
    for (const name of await caches.keys()) {
      if (!name.startsWith(CACHE_PREFIX) || name === CACHE_NAME) continue;
      const kept = await (await caches.open(name)).match(url, MATCH);
      if (!kept) continue;
      if ((await sha256Hex(await kept.clone().arrayBuffer())).startsWith(revision)) {
        await cache.put(url, kept);
      } else {
        const response = await download(url, revision, "no-cache");
        if (response) await cache.put(url, response);
      }
      return;
    }
  } catch (error) {
    // kept for next time: fetched again on its next use
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME)
          .map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") {
    self.skipWaiting();
  }
  // A page this worker did not control yet loaded a LAZY file: keep it as its first use would have.
  const lazy = event.data && event.data.type === "KEEP" && LAZY.find(([relative]) => absolute(relative) === event.data.url);
  if (lazy) {
    event.waitUntil(
      (async () => {
        const response = await download(absolute(lazy[0]), lazy[1], "force-cache").catch(() => null);
        if (response) await (await caches.open(CACHE_NAME)).put(absolute(lazy[0]), response);
      })(),
    );
  }
});

async function respond(event) {
  const request = event.request;
  const cache = await caches.open(CACHE_NAME);
  const navigate = request.mode === "navigate";
  const cached = navigate
    ? await cache.match(request, { ignoreSearch: true, ignoreVary: true })
    : await cache.match(request, MATCH);
  if (cached) return cached;
  try {
    const response = await fetch(request);
    const url = new URL(request.url);
    if (
      !navigate &&
      response.status === 200 &&
      response.type === "basic" &&
      !url.search &&
      !request.headers.has("range")
    ) {
      // Not precached but used: keep it for the next offline start.
      event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
    }
    return response;
  } catch (error) {
    if (navigate) {
      const root = await cache.match(ROOT_URL, MATCH);
      if (root) return root;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(respond(event));
});
