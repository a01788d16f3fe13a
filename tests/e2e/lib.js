// Shared helpers for the flamedrop end-to-end tests (node --test + playwright-core + Debian Chromium).
//
// Every test runs in `withPage`, which launches a fresh headless Chromium (fresh profile), records
// every request, console error and page error, always saves a screenshot to tests/e2e/out/, and
// fails the test if the page requested anything from another origin, threw, logged an error, or
// got an HTTP error status.
//
// Environment:
//   FLAMEDROP_BASE  URL of a server that serves dist/ at / and /flamedrop/ (scripts/check.sh sets it);
//                   unset: this process serves dist/ itself on a random port (server.js)
//   FLAMEDROP_DIST  the built viewer (default: <repo>/dist)
//   FLAMEDROP_FIXTURES  the uftrace fixture cases (default: <repo>/tests/fixtures/uftrace)
//   FLAMEDROP_CLI   the native CLI (default: $CARGO_TARGET_DIR/debug/flamedrop,
//                   CARGO_TARGET_DIR defaulting to ~/.cache/flamedrop/target as in scripts/env.sh)
//   CHROMIUM        the browser (default: /usr/bin/chromium)
//   FLAMEDROP_E2E_ISOLATION  `on` (default): service workers allowed, so every page reloads once on
//                   its first visit and runs cross-origin isolated (www/sw.js, www/boot.js);
//                   `off`: service workers blocked (Playwright `serviceWorkers: 'block'`), the
//                   page's fallback path, not isolated. scripts/check.sh runs the suite both ways.
'use strict';
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer, SUBPATH } = require('./server.js');

const REPO = path.resolve(__dirname, '../..');
const DIST = path.resolve(process.env.FLAMEDROP_DIST || path.join(REPO, 'dist'));
const OUT = path.join(__dirname, 'out');
const FIXTURES = path.resolve(process.env.FLAMEDROP_FIXTURES || path.join(REPO, 'tests/fixtures/uftrace'));
const CASES = [
  'a-simple-nested',
  'b-recursion-hot',
  'c-pthreads-mutex',
  'e-dlopen-plugin',
  'f-args-explicit',
  'f-args-auto-dwarf',
  'g-finstrument-functions',
];
const DEMOS = ['a-simple-nested', 'c-pthreads-mutex', 'scaler-prodcons'];
const ISOLATION = (process.env.FLAMEDROP_E2E_ISOLATION || 'on').toLowerCase();
if (!['on', 'off'].includes(ISOLATION)) throw new Error(`FLAMEDROP_E2E_ISOLATION must be 'on' or 'off', not '${ISOLATION}'`);
/** Whether this run's pages are cross-origin isolated (service workers allowed). */
const ISOLATED = ISOLATION === 'on';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// A Rust panic or a wasm trap is a crash, whatever else the test allows.
const CRASH = /panicked at|RuntimeError|unreachable executed|wasm trap/i;

let basePromise;
/** The page's base URL (ends with '/'): FLAMEDROP_BASE, or a server started in this process. */
function base() {
  if (!basePromise) {
    if (process.env.FLAMEDROP_BASE) {
      basePromise = Promise.resolve(new URL(process.env.FLAMEDROP_BASE).href.replace(/\/?$/, '/'));
    } else {
      if (!fs.existsSync(path.join(DIST, 'index.html'))) {
        throw new Error(`no built viewer at ${DIST}/index.html: run 'trunk build --release' (or scripts/check.sh) first`);
      }
      basePromise = startServer(DIST).then(({ server, base: url }) => {
        server.unref(); // do not keep the test process alive
        return url;
      });
    }
  }
  return basePromise;
}

/** `<fixtures>/<name>/uftrace.data`, failing clearly if it is missing. */
function fixtureDir(name) {
  const dir = path.join(FIXTURES, name, 'uftrace.data');
  assert.ok(fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory(), `fixture folder missing: ${dir}`);
  return dir;
}

/** Files of a fixture folder, flat (no sub-folders in uftrace.data). */
function fixtureFiles(name) {
  const dir = fixtureDir(name);
  return fs.readdirSync(dir).sort().map((f) => path.join(dir, f));
}

function cliPath() {
  if (process.env.FLAMEDROP_CLI) return process.env.FLAMEDROP_CLI;
  const target = process.env.CARGO_TARGET_DIR || path.join(os.homedir(), '.cache/flamedrop/target');
  return path.join(target, 'debug', 'flamedrop');
}

/** `flamedrop report --json <paths...>`, parsed. */
function cliReport(...paths) {
  const cli = cliPath();
  assert.ok(fs.existsSync(cli), `CLI not found at ${cli}: build it with 'cargo build -p flamedrop-cli' (or set FLAMEDROP_CLI)`);
  const out = execFileSync(cli, ['report', '--json', ...paths], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

function slug(s) {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 120);
}

function isSameOrigin(url, origin) {
  if (url.startsWith('data:') || url.startsWith('about:')) return true;
  try {
    return new URL(url).origin === origin; // for blob: URLs this is the origin that created them
  } catch {
    return false;
  }
}

/**
 * Runs `fn({ page, context, base, requests })` in a fresh Chromium with a fresh profile.
 * opts.allowConsoleError: RegExp for console errors the test expects (never matches a crash).
 * opts.pathPrefix: every same-origin request must have a path starting with it (sub-path test).
 * opts.viewport: defaults to 1280x800.
 * opts.base: the page's base URL, when the test serves another site (default: the viewer's).
 * opts.serviceWorkers: 'allow' or 'block' (default: this run's mode, FLAMEDROP_E2E_ISOLATION).
 */
async function withPage(t, fn, opts = {}) {
  const url = opts.base || (await base());
  const origin = new URL(url).origin;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'flamedrop-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: opts.viewport || { width: 1280, height: 800 },
    serviceWorkers: opts.serviceWorkers || (ISOLATED ? 'allow' : 'block'),
  });
  const requests = [];
  const problems = [];
  context.on('request', (r) => requests.push(r.url()));
  context.on('response', (r) => {
    const p = new URL(r.url()).pathname;
    if (r.status() >= 400 && p !== '/favicon.ico') problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  // Console messages of the page's workers arrive here too (checked: a worker's console.error).
  const watch = (page) => {
    page.on('pageerror', (e) => problems.push(`page error: ${e.stack || e.message}`));
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      const text = m.text();
      if (/^Failed to load resource/.test(text)) return; // reported with its URL by the response check
      if (CRASH.test(text) || !(opts.allowConsoleError && opts.allowConsoleError.test(text))) {
        problems.push(`console error: ${text}`);
      }
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  const page = context.pages()[0] || (await context.newPage());

  let failure;
  try {
    await fn({ page, context, base: url, requests });
  } catch (e) {
    failure = e;
  }
  fs.mkdirSync(OUT, { recursive: true });
  const shot = path.join(OUT, `${slug(t.name)}.png`);
  await page.screenshot({ path: shot, fullPage: true }).catch((e) => t.diagnostic(`screenshot failed: ${e.message}`));
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });

  const foreign = requests.filter((u) => !isSameOrigin(u, origin));
  foreign.forEach((u) => problems.push(`request to another origin: ${u}`));
  if (opts.pathPrefix) {
    requests
      .filter((u) => isSameOrigin(u, origin) && /^https?:/.test(u))
      .map((u) => new URL(u).pathname)
      .filter((p) => !p.startsWith(opts.pathPrefix) && p !== '/favicon.ico')
      .forEach((p) => problems.push(`request outside ${opts.pathPrefix}: ${p}`));
  }
  t.diagnostic(`screenshot: ${path.relative(REPO, shot)}; ${requests.length} requests`);
  if (failure) {
    if (problems.length) failure.message += `\n-- also seen in the page:\n${problems.join('\n')}`;
    throw failure;
  }
  assert.deepEqual(problems, [], `the page misbehaved (requests: ${requests.length})`);
}

/** Waits until body[data-state] is `ready` or `error` and asserts it is `want`. */
async function waitForState(page, want, timeout = 60_000) {
  await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout }).catch(async (e) => {
    const state = await page.evaluate(() => document.body.dataset.state).catch(() => '?');
    throw new Error(`page never reached '${want}' (state is '${state}' at ${page.url()}): ${e.message}`);
  });
  const { state, error } = await page.evaluate(() => ({
    state: document.body.dataset.state,
    error: document.querySelector('#error')?.textContent?.trim() || '',
  }));
  assert.equal(state, want, `page state is '${state}', expected '${want}'${error ? `; #error says: ${error}` : ''}`);
  if (want === 'ready') {
    // The timeline takes its size from a ResizeObserver, so its first frame
    // comes a frame or two after 'ready': tests that read it wait for that.
    // (A trace without spans never sets first_draw_ms: give up waiting after 5 s.)
    await page
      .waitForFunction(
        () => !document.querySelector('canvas#flamechart') || window.flamedrop.timings().first_draw_ms != null,
        null,
        { timeout: 5_000 },
      )
      .catch(() => {});
  }
}

/** window.flamedrop.report(), as plain JSON (a Map or BigInt would not equal the CLI's JSON). */
async function pageReport(page) {
  const json = await page.evaluate(async () => {
    const r = await window.flamedrop.report();
    if (r instanceof Map) throw new Error('window.flamedrop.report() returned a Map, expected a plain object');
    return JSON.stringify(r);
  });
  return JSON.parse(json);
}

/** Waits two animation frames so the canvas has painted the latest state. */
async function nextFrames(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Screenshots the page, after two frames, into `file` under each of `dirs`. */
async function saveShots(page, dirs, file) {
  await nextFrames(page);
  for (const dir of dirs) {
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, file) });
  }
}

/**
 * For each lane of window.flamedrop.lanes(): the number of canvas pixels in the lane's rows that
 * differ from the background (theme().background, else the lane's top-left pixel).
 */
async function laneInk(page) {
  await nextFrames(page);
  return page.evaluate(async () => {
    const c = document.querySelector('canvas#flamechart');
    if (!c) throw new Error('no canvas#flamechart');
    const rect = c.getBoundingClientRect();
    if (!c.width || !c.height || !rect.width || !rect.height) throw new Error(`canvas#flamechart is empty: ${c.width}x${c.height}`);
    const sy = c.height / rect.height;
    // Copy into a 2d canvas so this works whatever context the viewer draws with.
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d', { willReadFrequently: true });
    g.drawImage(c, 0, 0);
    const theme = window.flamedrop.theme ? await window.flamedrop.theme() : null;
    const hex = theme && /^#([0-9a-f]{6})$/i.exec(theme.background || '');
    const bgTheme = hex && [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
    const lanes = await window.flamedrop.lanes();
    return lanes.map((l) => {
      const y0 = Math.max(0, Math.floor(l.top * sy));
      const y1 = Math.min(c.height, Math.ceil((l.top + l.height) * sy));
      const out = { thread_id: l.thread_id, top: l.top, height: l.height, rows: Math.max(0, y1 - y0), ink: 0 };
      if (y1 <= y0) return out;
      const d = g.getImageData(0, y0, c.width, y1 - y0).data;
      const bg = bgTheme || [d[0], d[1], d[2]];
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 24) out.ink++;
      }
      return out;
    });
  });
}

/**
 * Asserts the trace on screen is drawn: at least one lane, every lane's thread is in the report,
 * every thread with spans has a lane, and every lane has drawn pixels.
 */
async function assertDrawn(page, report) {
  const lanes = await laneInk(page);
  assert.ok(lanes.length > 0, 'window.flamedrop.lanes() is empty');
  const ids = new Set(report.threads.map((th) => String(th.id)));
  for (const l of lanes) {
    assert.ok(ids.has(String(l.thread_id)), `lane thread_id ${l.thread_id} is not a thread id of report(): ${[...ids]}`);
    assert.ok(l.rows > 0, `lane of thread ${l.thread_id} (top ${l.top}, height ${l.height}) is outside canvas#flamechart`);
    assert.ok(l.ink > 0, `lane of thread ${l.thread_id} (top ${l.top}, height ${l.height}) has no drawn pixels`);
  }
  const laneIds = new Set(lanes.map((l) => String(l.thread_id)));
  for (const th of report.threads) {
    if (th.spans > 0) assert.ok(laneIds.has(String(th.id)), `thread ${th.id} has ${th.spans} spans but no lane`);
  }
  return lanes;
}

/** Drops files on #dropzone as a synthetic drag and drop. files: [{ name, bytes: Buffer, type? }]. */
async function dropFiles(page, files) {
  const payload = files.map((f) => ({ name: f.name, type: f.type || '', b64: Buffer.from(f.bytes).toString('base64') }));
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    const zone = document.querySelector('#dropzone');
    if (!zone) throw new Error('no #dropzone');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, payload);
}

/** The `.java` files under dir (any depth): the page keeps them as the program's sources. */
function javaFiles(dir) {
  return fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).toLowerCase().endsWith('.java'));
}

/**
 * A CLI report of folder dir as the page reports it: the page keeps `.java` files as sources
 * (src/loading/sources.rs) instead of handing them to the decoder, so its ignored-files
 * diagnostic counts them out (and is gone when nothing else was ignored).
 */
function withoutSources(report, dir) {
  const java = javaFiles(dir).length;
  if (!java) return report;
  const diagnostics = report.diagnostics
    .map((d) => (/ were ignored \(first: /.test(d.message) ? { ...d, count: d.count - java } : d))
    .filter((d) => d.count > 0);
  return { ...report, diagnostics };
}

/** Opens the empty page and waits for the app to be up (state idle, window.flamedrop present). */
async function openEmpty(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.state && window.flamedrop, null, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle');
}

module.exports = {
  withoutSources,
  CASES,
  ISOLATED,
  cliPath,
  DEMOS,
  SUBPATH,
  assertDrawn,
  base,
  cliReport,
  dropFiles,
  fixtureDir,
  fixtureFiles,
  nextFrames,
  openEmpty,
  saveShots,
  pageReport,
  waitForState,
  withPage,
};
