// Starts the flamedrop app. Trunk's <script> tag (see pattern_script in Trunk.toml) names the
// hashed wasm-bindgen module and wasm file; this file is separate so that the page's
// Content-Security-Policy needs no 'unsafe-inline' and no per-build script hash.
//
// Before that it makes the page cross-origin isolated where it can (SharedArrayBuffer needs it):
// the service worker (sw.js) adds COOP/COEP to every response it serves, but it serves nothing
// on the very first visit, so once it is active the page reloads itself ONCE (a sessionStorage
// flag guards against a reload loop) and only then starts the app. Where service workers are
// unavailable (blocked, a private window refusing them, plain http) the app starts at once, not
// isolated, as before. <html data-isolation> says which way it went.
const RELOADED = 'flamedrop-isolation-reload';
const INSTALL_TIMEOUT_MS = 20_000;

// The service worker also caches the app so it opens offline after this first visit. Its
// scope is the folder this page is served from, so the site works under any sub-path.
/** Registers sw.js; resolves to the registration, or null where service workers are unavailable. */
function register() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return Promise.resolve(null);
  return navigator.serviceWorker
    .register(new URL('sw.js', document.baseURI), { scope: new URL('./', document.baseURI).pathname })
    .then(
      (registration) => registration || null,
      (e) => {
        console.warn(`flamedrop: offline use and isolation are not available: ${e.message}`);
        return null;
      },
    );
}

/** Resolves to true once the registration's newest worker is active, false if it failed. */
function activated(registration) {
  const pending = registration.installing || registration.waiting;
  if (!pending) return Promise.resolve(Boolean(registration.active));
  return new Promise((resolve) => {
    const check = () => {
      if (pending.state === 'activated') resolve(true);
      else if (pending.state === 'redundant') resolve(false);
    };
    pending.addEventListener('statechange', check);
    check();
    setTimeout(() => resolve(false), INSTALL_TIMEOUT_MS);
  });
}

/** sessionStorage without throwing where storage is refused (null: unknown). */
function session(action) {
  try {
    return action(window.sessionStorage);
  } catch {
    return null;
  }
}

/** Resolves to [whether and why the page is isolated, whether sw.js was registered]; never when it reloads. */
async function isolate() {
  if (window.crossOriginIsolated) {
    session((s) => s.removeItem(RELOADED));
    return ['yes', false];
  }
  const registration = await register();
  if (!registration) return ['no: no service worker', true];
  if (session((s) => s.getItem(RELOADED)) !== null) return ['no: reloaded once already', true];
  if (!(await activated(registration))) return ['no: the service worker did not start', true];
  if (session((s) => s.setItem(RELOADED, '1')) === null) return ['no: no sessionStorage', true];
  location.reload();
  return new Promise(() => {}); // the page is going away: the reloaded one starts the app
}

const [isolation, registered] = await isolate();
document.documentElement.dataset.isolation = isolation;

/**
 * Starts the shared-memory build (scripts/build-shared.sh writes it to shared/) where the page is
 * isolated and `?shared=0` does not ask for the copying one: the page and its decoding workers
 * then run one module on one memory, and a decoded trace is never copied (src/wire/handover.rs).
 * Resolves to false, having started nothing, where it cannot (not isolated, not built).
 */
async function startShared() {
  if (!window.crossOriginIsolated) return false;
  if (new URLSearchParams(location.search).get('shared') === '0') return false;
  let glue;
  try {
    glue = await import(new URL('shared/flamedrop.js', document.baseURI).href);
  } catch {
    return false; // a build without it (trunk serve)
  }
  await glue.default({ module_or_path: new URL('shared/flamedrop_bg.wasm', document.baseURI) });
  return true;
}

/** Starts the build Trunk made, named by Trunk's <script> tag: the model is copied from the workers. */
async function startCopying() {
  const tag = document.querySelector('script[data-js][data-wasm]');
  const { default: init } = await import(new URL(tag.dataset.js, document.baseURI).href);
  await init({ module_or_path: new URL(tag.dataset.wasm, document.baseURI) });
}

const shared = await startShared();
document.documentElement.dataset.model = shared ? 'shared' : 'copied';
if (!shared) await startCopying();

// Registered after the app is up when the page was already isolated: it checks for a new version.
if (!registered) register();
