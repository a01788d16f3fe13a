#!/usr/bin/env node
// Browser benchmark of the flamedrop viewer on one trace, in Debian's headless Chromium.
//
//   node bench/browser.js TRACE [--runs 5] [--dist dist] [--steps 60] [--json FILE]
//                               [--speedscope CHROME_JSON] [--no-cancel] [--timeout SECONDS]
//                               [--query 'workers=1'] [--profile FILE.cpuprofile]
//                               [--profile-load FILE.cpuprofile] [--trace-frames FILE.json]
//                               [--alternate 'preview=0'] [--load-only]
//
// TRACE is a folder (opened with input#open-folder, like choosing a folder) or a file (opened with
// input#open-files). Each run starts a fresh browser with a fresh profile and measures:
//   first draw   choosing the files → first flame chart painted (window.flamedrop.timings())
//   first partial picture  choosing the files → first picture of what was decoded so far drawn
//                while loading (timings().first_partial_ms), and the longest gap between pictures
//   worker/unpack  of that: time in the decoding worker, and on the page unpacking the trace
//   long tasks   main-thread tasks over 50 ms from choosing the files to 2 s after first draw
//   memory       peak PSS of the renderer processes (page + workers) above the empty page
//   frames       p95 and max of the scripted 60-step zoom/pan/hover sequence (bench/lib/frames.js)
//   views        tabs named "Flame graph" / "Call tree", if the page has them: click → painted
// then prints a markdown table of the medians (and every run's numbers with --json).
// --query adds a query string to the page's URL (for example `workers=1`: decode in one worker).
// --part: for a trace over the page's input limit, wait for the part dialog and load the part it
// offers (preselected to fit); the load is timed from that click (issue 20.6).
// --alternate Q runs every measured load a second time with the query Q added (alternating, so
// both see the same load on the machine) and prints the first-draw medians of both.
// --before FILE opens FILE in the same tab first, unmeasured: the measured load then finds the
// decoders' code already optimized by the browser (a second trace opened in a tab).
// --load-only skips the frame sequence, the aggregated views and the cancel run.
// --timeout bounds every load (default 300 s; a load that takes longer is reported as such).
// --speedscope FILE additionally opens FILE (Chrome JSON) in speedscope (npm `speedscope`, served
// from bench/node_modules) the same way: file chosen → title set and two frames drawn.
// --profile FILE records the main thread's JavaScript/wasm CPU profile (DevTools protocol) over
// the first run's frame sequence and writes it as FILE (open it in DevTools' Performance panel or
// `node bench/lib/cpuprofile.js FILE` for the functions with the most self time). Wasm functions
// have names only in a build that keeps them (`data-keep-debug` on the app's <link> in index.html).
// --profile-load FILE does the same over the first run's load (files chosen → 2 s after the first
// draw) and writes the run's long tasks next to it (FILE.tasks.json), so that
// `node bench/lib/cpuprofile.js FILE --tasks` shows what ran in each task over 50 ms.
// --trace-load FILE records a DevTools timeline trace over the first run's load instead, and
// `node bench/lib/tasks.js FILE` lists the main thread's tasks over 50 ms with what the browser did
// in each (script, style, layout, paint, garbage collection).
// --trace-frames FILE records the same timeline trace over the first run's frame sequence instead;
// `node bench/lib/tasks.js FILE --min 0 --total` then sums what the browser did over all its tasks.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer } = require('../tests/e2e/server.js');
const { probe } = require('./lib/probe.js');
const { runFrames } = require('./lib/frames.js');
const { Sampler, browserPid, rendererPss } = require('./lib/memory.js');

const REPO = path.resolve(__dirname, '..');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // a hidden or throttled page would measure the throttling, not the viewer
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
];
let LOAD_TIMEOUT_MS = 300_000;

function parseArgs(argv) {
  const opts = { runs: 5, steps: 60, dist: path.join(REPO, 'dist'), cancel: true, traces: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--runs') opts.runs = Number(value());
    else if (a === '--steps') opts.steps = Number(value());
    else if (a === '--dist') opts.dist = path.resolve(value());
    else if (a === '--json') opts.json = path.resolve(value());
    else if (a === '--speedscope') opts.speedscope = path.resolve(value());
    else if (a === '--no-cancel') opts.cancel = false;
    else if (a === '--part') opts.part = true;
    else if (a === '--timeout') LOAD_TIMEOUT_MS = Number(value()) * 1000;
    else if (a === '--query') opts.query = value();
    else if (a === '--alternate') opts.alternate = value();
    else if (a === '--load-only') opts.loadOnly = true;
    else if (a === '--before') opts.before = path.resolve(value());
    else if (a === '--profile') opts.profile = path.resolve(value());
    else if (a === '--profile-load') opts.profileLoad = path.resolve(value());
    else if (a === '--trace-load') opts.traceLoad = path.resolve(value());
    else if (a === '--trace-frames') opts.traceFrames = path.resolve(value());
    else if (a === '-h' || a === '--help') {
      const lines = fs.readFileSync(__filename, 'utf8').split('\n').slice(1);
      console.log(lines.slice(0, lines.findIndex((l) => !l.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else opts.traces.push(path.resolve(a));
  }
  if (opts.traces.length !== 1) throw new Error('give one TRACE (a folder or a file); --help for usage');
  return opts;
}

/** Size of a file, or of every file below a folder. */
function sizeOf(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((sum, name) => sum + sizeOf(path.join(p, name)), 0);
}

async function launch() {
  const kept = process.env.FLAMEDROP_BENCH_PROFILE;
  const profile = kept || fs.mkdtempSync(path.join(os.tmpdir(), 'flamedrop-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, ...(process.env.FLAMEDROP_BENCH_FLAGS || '').split(' ').filter(Boolean)],
    viewport: { width: 1280, height: 800 },
  });
  const pid = browserPid(profile);
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('crash', () => errors.push('the page crashed (out of memory?)'));
  const close = async () => {
    await context.close().catch(() => {});
    if (!kept) fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, pid, errors, close };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function openEmpty(page, base) {
  await page.addInitScript(probe);
  await page.goto(base);
  await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop, null, { timeout: 60_000 });
  await sleep(500);
}

async function choose(page, trace) {
  if (fs.statSync(trace).isDirectory()) await page.setInputFiles('#open-folder', trace);
  else await page.setInputFiles('#open-files', trace);
}

/** Opens `trace` first, unmeasured, and waits until it is drawn (`--before`). */
async function openBefore(page, trace) {
  await choose(page, trace);
  await page.waitForFunction(() => window.flamedrop.timings().first_draw_ms != null, null, {
    timeout: LOAD_TIMEOUT_MS,
    polling: 50,
  });
  await page.waitForFunction(() => document.body.dataset.state !== 'loading', null, { timeout: LOAD_TIMEOUT_MS });
  await sleep(1000);
}

/** One measured load, frame sequence and views. */
async function run(base, trace, opts) {
  const b = await launch();
  try {
    await openEmpty(b.page, base);
    if (opts.before) await openBefore(b.page, opts.before);
    const baseline = rendererPss(b.pid);
    const wasmMemoryEmpty = await b.page.evaluate(wasmMemoryBytes);
    const sampler = new Sampler(b.pid);
    const loadProfiler = opts.profileLoad ? await startProfile(b.page) : null;
    const tracer = opts.traceLoad ? await startTrace(b.page) : null;
    const mark = loadProfiler ? await b.page.evaluate(markProfile) : null;
    // Tasks of the page's own start (before the files are chosen) are not the load's.
    const chosenAt = await b.page.evaluate(() => performance.now());
    let t0 = Date.now();
    await choose(b.page, trace);
    if (opts.part) {
      await b.page.waitForSelector('#part-load', { timeout: LOAD_TIMEOUT_MS });
      t0 = Date.now();
      await b.page.click('#part-load');
    }
    await b.page.waitForFunction(
      () => window.flamedrop.timings().first_draw_ms != null || document.body.dataset.state === 'error',
      null,
      { timeout: LOAD_TIMEOUT_MS, polling: 50 },
    );
    const wall = Date.now() - t0;
    const state = await b.page.evaluate(() => ({
      state: document.body.dataset.state,
      error: document.querySelector('#error')?.textContent?.trim() || '',
      timings: window.flamedrop.timings(),
    }));
    if (state.state === 'error' || b.errors.length) throw new Error(`load failed: ${state.error} ${b.errors.join('; ')}`);
    await sleep(2000); // work that follows the first draw (panels) still counts
    const peak = sampler.stop();
    const wasmMemory = await b.page.evaluate(wasmMemoryBytes);
    const load = await b.page.evaluate((from) => ({
      longtasks: window.__bench.longtasks.filter((t) => t.start + t.duration > from),
      progress: window.__bench.progress,
      cancel: window.__bench.cancel,
    }), chosenAt);
    if (tracer) {
      fs.writeFileSync(opts.traceLoad, await tracer.stop());
      opts.traceLoad = null; // the first run only
    }
    if (loadProfiler) {
      fs.writeFileSync(opts.profileLoad, JSON.stringify(await loadProfiler.stop()));
      fs.writeFileSync(`${opts.profileLoad}.tasks.json`, JSON.stringify({ mark, longtasks: load.longtasks }));
      opts.profileLoad = null; // the first run only
    }
    const tasksBefore = await b.page.evaluate(() => window.__bench.longtasks.length);
    const profiler = opts.profile ? await startProfile(b.page) : null;
    const frameTracer = opts.traceFrames && !opts.loadOnly ? await startTrace(b.page) : null;
    const frames = opts.loadOnly ? [] : await b.page.evaluate(runFrames, { steps: opts.steps });
    if (frameTracer) {
      fs.writeFileSync(opts.traceFrames, await frameTracer.stop());
      opts.traceFrames = null; // the first run only
    }
    if (profiler) {
      fs.writeFileSync(opts.profile, JSON.stringify(await profiler.stop()));
      opts.profile = null; // the first run only
    }
    const frameTasks = (await b.page.evaluate(() => window.__bench.longtasks.slice())).slice(tasksBefore);
    const views = opts.loadOnly ? {} : await measureViews(b.page);
    return {
      first_draw_ms: state.timings.first_draw_ms,
      first_partial_ms: state.timings.first_partial_ms ?? null,
      partial_draws_ms: state.timings.partial_draws_ms ?? [],
      wall_ms: wall,
      worker_ms: state.timings.worker_ms,
      unpack_ms: state.timings.unpack_ms,
      parts: state.timings.parts,
      index_ms: state.timings.index_ms,
      phases: state.timings.phases ?? [],
      longtasks: load.longtasks.map((t) => t.duration),
      progress: load.progress,
      cancel_button: load.cancel,
      baseline_bytes: baseline,
      peak_bytes: peak,
      memory_bytes: Math.max(0, peak - baseline),
      wasm_memory_bytes: wasmMemory,
      wasm_memory_empty_bytes: wasmMemoryEmpty,
      memory_timeline: sampler.timeline.map(([t, b, anon, shmem]) => [t, b - baseline, anon, shmem]),
      frames,
      frame_longtasks: frameTasks.map((t) => t.duration),
      views,
    };
  } finally {
    await b.close();
  }
}

/** Starts the page's CPU profiler; `stop()` resolves to the profile (a .cpuprofile object). */
/** In the page: the size of the shared build's WebAssembly memory, which only grows (its
 * high-water mark), or null for the copying build. Calling the glue's init again returns the
 * running instance's exports. */
async function wasmMemoryBytes() {
  if (document.documentElement.dataset.model !== 'shared') return null;
  const glue = await import(new URL('shared/flamedrop.js', document.baseURI).href);
  const exports = await glue.default();
  return exports.memory?.buffer?.byteLength ?? null;
}

async function startProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.detach();
      return profile;
    },
  };
}

/**
 * Starts a DevTools timeline trace of the page (every task with its style, layout, paint, GC and
 * script parts); `stop()` resolves to the trace as JSON text, for DevTools' Performance panel or
 * `node bench/lib/tasks.js FILE`.
 */
async function startTrace(page) {
  const cdp = await page.context().newCDPSession(page);
  const categories = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'];
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReturnAsStream' });
  return {
    stop: async () => {
      const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      const { stream } = await done;
      const parts = [];
      for (;;) {
        const chunk = await cdp.send('IO.read', { handle: stream });
        parts.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data);
        if (chunk.eof) break;
      }
      await cdp.send('IO.close', { handle: stream });
      await cdp.detach();
      return parts.join('');
    },
  };
}

/**
 * Runs in the page: a 5 ms busy loop in a function the profile names, so that its samples tie the
 * profile's clock to `performance.now()` (the long tasks' clock). Returns when it started.
 */
function markProfile() {
  const start = performance.now();
  (function __benchProfileMark() {
    while (performance.now() - start < 5);
  })();
  return start;
}

/** Clicks each aggregated-view tab the page has and times it until painted. */
async function measureViews(page) {
  const out = {};
  for (const name of ['Flame graph', 'Call tree']) {
    const tab = page.getByRole('tab', { name: new RegExp(name, 'i') });
    if ((await tab.count()) === 0) continue;
    const t0 = Date.now();
    await tab.first().click();
    // Painted: two animation frames after the click's work, then any long task in between counted.
    await page.evaluate(() => new Promise((r) => window.__bench.raf(() => window.__bench.raf(() => setTimeout(r, 0)))));
    out[name] = Date.now() - t0;
  }
  return out;
}

/** Starts a load, presses Cancel once the progress bar moved, and times the way back to idle. */
async function cancelRun(base, trace) {
  const b = await launch();
  try {
    await openEmpty(b.page, base);
    await choose(b.page, trace);
    await b.page.waitForFunction(() => window.__bench.progress.value > 0, null, { timeout: 60_000, polling: 20 });
    const t0 = Date.now();
    await b.page.click('#cancel');
    await b.page.waitForFunction(() => document.body.dataset.state === 'idle', null, { timeout: 30_000, polling: 20 });
    return { cancel_ms: Date.now() - t0 };
  } finally {
    await b.close();
  }
}

/** speedscope opening a Chrome JSON file through its file input. */
async function speedscopeRun(file) {
  const dir = path.join(__dirname, 'node_modules/speedscope/dist/release');
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`speedscope not installed: run 'npm --prefix bench install'`);
  const { server, base } = await startServer(dir);
  const b = await launch();
  try {
    await b.page.addInitScript(probe);
    await b.page.goto(base);
    await b.page.waitForSelector('#file', { state: 'attached' });
    await sleep(500);
    const baseline = rendererPss(b.pid);
    const sampler = new Sampler(b.pid);
    const t0 = Date.now();
    await b.page.setInputFiles('#file', file);
    const outcome = await b.page
      .waitForFunction(
        () => / - speedscope$/.test(document.title) || /Something went wrong/.test(document.body.innerText),
        null,
        { timeout: LOAD_TIMEOUT_MS, polling: 100 },
      )
      .then(() => b.page.evaluate(() => (/Something went wrong/.test(document.body.innerText) ? 'error' : 'ok')))
      .catch((e) => (b.errors.length ? 'crash' : `timeout (${e.message.split('\n')[0]})`));
    if (outcome === 'ok') {
      await b.page.evaluate(() => new Promise((r) => window.__bench.raf(() => window.__bench.raf(() => setTimeout(r, 0)))));
    }
    const ms = Date.now() - t0;
    await sleep(1000);
    const peak = sampler.stop();
    const longtasks = await b.page.evaluate(() => window.__bench.longtasks.map((t) => t.duration)).catch(() => []);
    return { outcome, first_draw_ms: ms, memory_bytes: Math.max(0, peak - baseline), longtasks, errors: b.errors.slice(0, 3) };
  } finally {
    await b.close();
    server.close();
  }
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const percentile = (xs, p) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'n/a');
const ms1 = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a');
const mb = (x) => (Number.isFinite(x) ? `${(x / 1e6).toFixed(0)} MB` : 'n/a');

function table(trace, size, runs, cancel, speedscope) {
  if (!runs.length) return comparisonTable(trace, size, speedscope);
  const frameTotals = runs.map((r) => r.frames.map((f) => f.total));
  const p95 = runs.map((_, i) => percentile(frameTotals[i], 95));
  const rows = [
    ['trace', `${trace} (${mb(size)})`],
    ['runs', String(runs.length)],
    ['first flame chart drawn (median)', `${ms(median(runs.map((r) => r.first_draw_ms)))} (runs: ${runs.map((r) => ms(r.first_draw_ms)).join(', ')})`],
    ['first partial picture drawn (median)', `${ms(median(runs.map((r) => r.first_partial_ms ?? NaN)))} (runs: ${runs.map((r) => ms(r.first_partial_ms ?? NaN)).join(', ')})`],
    ['partial pictures drawn per load / longest gap between two (or before the full chart), median', `${median(runs.map((r) => r.partial_draws_ms.length))} / ${ms(median(runs.map(partialGap)))}`],
    ['… of which in the worker / unpacking on the page', `${ms(median(runs.map((r) => r.worker_ms)))} / ${ms(median(runs.map((r) => r.unpack_ms)))}`],
    ['… of the unpacking, indexing the rows', `${ms(median(runs.map((r) => r.index_ms ?? 0)))}`],
    ...phaseRows(runs),
    ['decoding workers (parts merged)', `${median(runs.map((r) => r.parts ?? 1))}`],
    ['decode throughput in the workers (trace size / slowest worker\'s time, median)', `${(size / 1e6 / (median(runs.map((r) => r.worker_ms)) / 1000)).toFixed(0)} MB/s`],
    ['longest main-thread task while loading (median of runs)', `${ms(median(runs.map((r) => Math.max(0, ...r.longtasks))))} (tasks over 50 ms per run: ${runs.map((r) => r.longtasks.length).join(', ')})`],
    ['progress shown / cancel button', `${runs.every((r) => r.progress.updates > 1) ? 'yes' : 'no'} / ${runs.every((r) => r.cancel_button) ? 'yes' : 'no'}${cancel ? `; cancel → idle in ${ms(cancel.cancel_ms)}` : ''}`],
    ['peak page memory above empty page (median)', `${mb(median(runs.map((r) => r.memory_bytes)))} = ${(median(runs.map((r) => r.memory_bytes)) / size).toFixed(2)} × trace size`],
    ['frame time p95 / max over the zoom-pan-hover sequence (median of runs)', `${ms1(median(p95))} / ${ms1(median(runs.map((r) => Math.max(...frameTotals[runs.indexOf(r)].filter(Number.isFinite)))))} (${runs[0].frames.length} steps; p95 per run: ${p95.map(ms1).join(', ')})`],
    ["… of which the page's own script (p95; the rest is the browser drawing the canvas)", ms1(median(runs.map((r) => percentile(r.frames.map((f) => f.input + f.script), 95))))],
    ['long tasks during the sequence', runs.map((r) => r.frame_longtasks.length).join(', ')],
  ];
  const views = Object.keys(runs[0].views || {});
  if (views.length) for (const v of views) rows.push([`${v} view ready (median)`, ms(median(runs.map((r) => r.views[v])))]);
  else rows.push(['aggregated views', 'n/a: this build has no Flame graph / Call tree tab']);
  if (speedscope) rows.push(speedscopeRow(speedscope));
  return ['| measure | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}

/** The longest time between two partial pictures, or between the last one and the full chart. */
function partialGap(r) {
  const times = [...r.partial_draws_ms, r.first_draw_ms];
  if (times.length < 2) return NaN;
  return Math.max(...times.slice(1).map((t, i) => t - times[i]));
}

/** The longest time between two partial pictures (the last one → the full chart left out). */
function pictureGap(r) {
  const times = r.partial_draws_ms;
  if (times.length < 2) return NaN;
  return Math.max(...times.slice(1).map((t, i) => t - times[i]));
}

/** The time from the last partial picture to the full chart. */
function lastPictureGap(r) {
  const times = r.partial_draws_ms;
  return times.length ? r.first_draw_ms - times[times.length - 1] : NaN;
}

/** With --alternate: the medians of the loads with and without the extra query (pictures drawn,
 * the longest gap between two, the last one → the full chart, the longest main-thread task and the
 * number of tasks over 50 ms). */
function alternateTable(query, runs, alt) {
  const longest = (r) => Math.max(0, ...r.longtasks);
  const row = (label, rs) =>
    `| ${label} | ${ms(median(rs.map((r) => r.first_draw_ms)))} (${rs.map((r) => ms(r.first_draw_ms)).join(', ')}) | ${ms(median(rs.map((r) => r.first_partial_ms ?? NaN)))} | ${median(rs.map((r) => r.partial_draws_ms.length))} / ${ms(median(rs.map(pictureGap)))} / ${ms(median(rs.map(lastPictureGap)))} | ${ms(median(rs.map((r) => r.worker_ms)))} | ${ms(median(rs.map(longest)))} (${rs.map((r) => r.longtasks.filter((t) => t > 50).length).join(', ')}) |`;
  return [
    '| loads | first full chart (median, runs) | first partial picture | pictures / longest gap between two / last → full chart | worker | longest task (tasks over 50 ms per run) |',
    '|---|---|---|---|---|---|',
    row('as given', runs),
    row(`with ?${query}`, alt),
  ].join('\n');
}

/** One row per phase the page reports (`timings().phases`: the slowest worker's, then the page's), median over runs. */
function phaseRows(runs) {
  const names = [...new Set(runs.flatMap((r) => (r.phases || []).map(([name]) => name)))];
  const sum = (r, name) => (r.phases || []).filter(([n]) => n === name).reduce((a, [, v]) => a + v, 0);
  return names.map((name) => [`… phase: ${name} (median)`, `${ms(median(runs.map((r) => sum(r, name))))} (runs: ${runs.map((r) => ms(sum(r, name))).join(', ')})`]);
}

function speedscopeRow(speedscope) {
  return [
      'speedscope 1.25: Chrome JSON chosen → drawn',
      `${speedscope.outcome === 'ok' ? ms(speedscope.first_draw_ms) : `${speedscope.outcome} after ${ms(speedscope.first_draw_ms)}`}, peak memory ${mb(speedscope.memory_bytes)}, longest task ${ms(Math.max(0, ...speedscope.longtasks))}${speedscope.errors.length ? `; errors: ${speedscope.errors.join(' / ').slice(0, 200)}` : ''}`,
  ];
}

/** With --runs 0: only the comparison rows. */
function comparisonTable(trace, size, speedscope) {
  const rows = [['trace', `${trace} (${mb(size)})`]];
  if (speedscope) rows.push(speedscopeRow(speedscope));
  return ['| measure | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}


async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const [trace] = opts.traces;
  if (!fs.existsSync(path.join(opts.dist, 'index.html'))) throw new Error(`no built viewer at ${opts.dist}: run 'trunk build --release'`);
  const size = sizeOf(trace);
  const { server, base: root } = await startServer(opts.dist);
  const base = opts.query ? `${root}?${opts.query}` : root;
  const altBase = opts.alternate ? `${root}?${[opts.query, opts.alternate].filter(Boolean).join('&')}` : null;
  const runs = [];
  const alt = [];
  try {
    for (let i = 0; i < opts.runs; i++) {
      const r = await run(base, trace, opts);
      console.error(`run ${i + 1}/${opts.runs}: first draw ${ms(r.first_draw_ms)}, first partial ${ms(r.first_partial_ms ?? NaN)}, memory ${mb(r.memory_bytes)}, longest task ${ms(Math.max(0, ...r.longtasks))}, frame p95 ${ms1(percentile(r.frames.map((f) => f.total), 95))}`);
      runs.push(r);
      if (altBase) {
        const a = await run(altBase, trace, opts);
        console.error(`run ${i + 1}/${opts.runs} with ?${opts.alternate}: first draw ${ms(a.first_draw_ms)}, first partial ${ms(a.first_partial_ms ?? NaN)}`);
        alt.push(a);
      }
    }
    const cancel = opts.cancel && !opts.loadOnly && opts.runs > 0 ? await cancelRun(base, trace) : null;
    const speedscope = opts.speedscope ? await speedscopeRun(opts.speedscope) : null;
    const uptime = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(`\n${new Date().toISOString()} · ${os.cpus().length} × ${os.cpus()[0]?.model || '?'} · load average ${uptime}\n`);
    console.log(table(trace, size, runs, cancel, speedscope));
    if (altBase) console.log(`\n${alternateTable(opts.alternate, runs, alt)}`);
    if (opts.json) fs.writeFileSync(opts.json, JSON.stringify({ trace, size, runs, alt, cancel, speedscope, loadavg: uptime }, null, 1));
  } finally {
    server.close();
  }
}

main().catch((e) => {
  console.error(`bench: ${e.stack || e.message}`);
  process.exit(1);
});
