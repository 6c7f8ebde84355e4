/* The officials' service worker (issue 34; matches/officials/field_engine.py).
 *
 * A scorer's laptop or an umpire's tablet must open its screen and go on when the link is down —
 * after a reload, a closed lid or a swapped battery. This keeps on the device:
 * - the field engine (Pyodide and the rules engine's package): fetched once when a screen asks
 *   ("precache"), then served from here (their addresses carry their versions);
 * - the officials' screens and the files they load (/static/, the JS catalogue): from the network
 *   while it answers (within a few seconds), else the copy kept here.
 * Everything else goes to the network as if this were not here. What the officials log is kept by
 * the screens themselves (the offline queue, the log: localStorage), never here. */
const VERSION = {{ version|safe }};
const CACHE = "polo-field-" + VERSION;
const PRECACHE = {{ precache|safe }};
const SCREEN = /^\/matches\/\d+\/(scorer|referee)\/$/;
const KEPT = (path) => SCREEN.test(path) || path.startsWith("/static/") || path.startsWith("/jsi18n/");
const NETWORK_WAIT_MS = 4000;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith("polo-field-") && key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

async function precache(pages) {
  const cache = await caches.open(CACHE);
  const missing = [];
  for (const url of PRECACHE) if (!(await cache.match(url))) missing.push(url);
  if (missing.length) await cache.addAll(missing);
  // The screen that asked, and what it loaded before this worker was there to keep it.
  for (const url of pages || []) {
    const path = new URL(url, self.location.origin);
    if (path.origin === self.location.origin && KEPT(path.pathname)) {
      try { await cache.add(url); } catch { /* gone: kept on its next load */ }
    }
  }
  for (const client of await self.clients.matchAll()) client.postMessage({type: "field-cached"});
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "precache") event.waitUntil(precache(data.pages).catch(() => { /* offline: next time */ }));
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("slow")), NETWORK_WAIT_MS)),
    ]);
    if (answer.ok && answer.type === "basic") cache.put(request, answer.clone());
    return answer;
  } catch (error) {
    const kept = await cache.match(request, {ignoreVary: true});
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (PRECACHE.includes(url.pathname)) {
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(url.pathname).then((kept) => kept || fetch(request))));
  } else if (KEPT(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});
