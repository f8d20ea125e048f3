/* Offline service worker for the Splendor site.
 * GENERATED into site/sw.js by tools/build_site.py from tools/sw.template.js: edit the template.
 * The build fills in the cache name (a content hash of the whole site) and the precache list
 * (every file of the site, plus "./" for the root), so a new build gets a new cache.
 */
"use strict";

const CACHE_NAME = "__CACHE_NAME__";
const CACHE_PREFIX = "splendor-";
const PRECACHE_URLS = __PRECACHE_URLS__;
const INDEX_URL = new URL("./index.html", self.registration.scope).href;

self.addEventListener("install", (event) => {
  // Default cache mode: the browser's HTTP cache is reused, so files the page has just fetched
  // are revalidated (304) rather than downloaded again.
  event.waitUntil(caches.open(CACHE_NAME).then((cache) => cache.addAll(PRECACHE_URLS)));
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
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      const cached = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
      if (cached) return cached;
      try {
        return await fetch(request);
      } catch (error) {
        if (request.mode === "navigate") {
          const index = await cache.match(INDEX_URL);
          if (index) return index;
        }
        throw error;
      }
    })(),
  );
});
