// Starts the flamedrop app. Trunk's <script> tag (see pattern_script in Trunk.toml) names the
// hashed wasm-bindgen module and wasm file; this file is separate so that the page's
// Content-Security-Policy needs no 'unsafe-inline' and no per-build script hash.
const tag = document.querySelector('script[data-js][data-wasm]');
const { default: init } = await import(new URL(tag.dataset.js, document.baseURI).href);
await init({ module_or_path: new URL(tag.dataset.wasm, document.baseURI) });

// The service worker (sw.js) caches the app so it opens offline after this first visit. Its
// scope is the folder this page is served from, so the site works under any sub-path.
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker
    .register(new URL('sw.js', document.baseURI), { scope: new URL('./', document.baseURI).pathname })
    .catch((e) => console.warn(`flamedrop: offline use is not available: ${e.message}`));
}
