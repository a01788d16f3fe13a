// flamedrop's service worker: keeps the app usable with no network after the first visit.
//
// On install it caches the page and everything the page names (the hashed app script, wasm and
// stylesheet that Trunk writes into index.html), the decoding worker's files, the icon and the fonts. Then:
//   - files with a content hash in their name never change: served from the cache first;
//   - everything else (the page, boot.js, the worker's unhashed files, demo traces): network
//     first, so a new deploy is picked up at once, with the cached copy when offline.
// Every same-origin GET it answers is stored, so a demo opened once also opens offline.
// Only this origin is ever fetched. URLs are relative to the worker's scope, so any sub-path works.
//
// Every response it serves (page, scripts, wasm, worker files, demos, fonts, icons; from the
// network or the cache) gets the cross-origin isolation headers that GitHub Pages cannot send:
// COOP same-origin + COEP require-corp make the page `crossOriginIsolated` (SharedArrayBuffer),
// CORP same-origin lets these same-origin files load under COEP. The cache keeps the responses
// as the server sent them; the headers are added on the way out. boot.js reloads the page once
// on the first visit so that the page itself comes through here.
'use strict';

const CACHE = 'flamedrop-v1';
const FIXED = ['./', './boot.js', './worker-loader.js', './worker.js', './worker_bg.wasm', './icons/flamedrop.svg',
  './fonts/DejaVuSans.ttf', './fonts/DejaVuSansMono.ttf'];
const OPTIONAL = ['./worker-shared.js', './shared/flamedrop.js', './shared/flamedrop_bg.wasm'];
const HASHED = /-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/;

const scoped = (relative) => new URL(relative, self.registration.scope).href;

/** The same-origin files index.html refers to (href, src, data-js and data-wasm attributes). */
function referencedBy(html) {
  const urls = new Set();
  for (const m of html.matchAll(/\s(?:href|src|data-js|data-wasm)="([^"]+)"/g)) {
    const url = new URL(m[1], self.registration.scope);
    if (url.origin === self.location.origin) urls.add(url.href);
  }
  return [...urls];
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const page = await fetch(scoped('./'), { cache: 'no-store' });
      if (!page.ok) throw new Error(`cannot cache the page: HTTP ${page.status}`);
      const html = await page.clone().text();
      await cache.put(scoped('./'), page);
      const rest = new Set([...FIXED.slice(1).map(scoped), ...referencedBy(html)]);
      rest.delete(scoped('./'));
      await cache.addAll([...rest]);
      // The shared-memory build is absent where only Trunk built the site (trunk serve).
      await Promise.allSettled(OPTIONAL.map((file) => cache.add(scoped(file))));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** `response` with the isolation headers (redirects and opaque answers cannot be rebuilt: as is). */
function isolated(response) {
  if (response.status === 0 || response.type === 'opaqueredirect' || response.type === 'opaque') return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (offline) {
    const cached = await cache.match(key, { ignoreSearch: true });
    if (cached) return cached;
    throw offline;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || !url.href.startsWith(self.registration.scope)) return;
  // A trace served by `flamedrop open` (and its keep-alive pings) is never cached.
  if (url.href.startsWith(scoped('./trace/'))) return;
  if (request.mode === 'navigate') {
    // Any page of the app (?demo=…, index.html) is the one cached page.
    event.respondWith(networkFirst(request, scoped('./')).then(isolated));
  } else if (HASHED.test(url.pathname)) {
    event.respondWith(cacheFirst(request).then(isolated));
  } else {
    event.respondWith(networkFirst(request, request).then(isolated));
  }
});
