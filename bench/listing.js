#!/usr/bin/env node
// The Listing view on a big trace (issue 17): how long it takes to open, and how long each frame
// takes while it scrolls.
//
//   node bench/listing.js TRACE [--dist DIR] [--steps N] [--runs N]
//
// TRACE is opened as bench/browser.js opens it (a folder through input#open-folder, a file through
// input#open-files). Then, per run:
//   open     from the key 6 to the first rows painted, the trace already loaded (the listing's
//            row index is built in slices with pauses; each run loads the trace afresh, so every
//            run builds it)
//   build    listingStatus().timing: build_ms (first slice to last), busy_ms (the main thread's
//            part), slices and the longest slice
//   longest  the longest main-thread task (PerformanceObserver 'longtask', > 50 ms) while opening
//   frames   N scroll steps (default 300): each a wheel turn of 3 lines (54 px) on the list, and
//            every 10th step a jump of the scroll bar to another place of the 20 M rows. A step's
//            time is the main-thread time from the event to the end of the frame that shows it:
//            the event's handlers (the view renders its rows there), then the frame's rendering
//            (style, layout, paint), measured up to a task queued behind that frame. The table
//            gives p50, p95 and max, and the p95 of the intervals between frames while scrolling
//            (16.7 ms at 60 fps).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer } = require('../tests/e2e/server.js');
const { probe } = require('./lib/probe.js');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

function parseArgs(argv) {
  const opts = { dist: path.join(__dirname, '..', 'dist'), steps: 300, runs: 1, trace: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dist') opts.dist = argv[++i];
    else if (a === '--steps') opts.steps = Number(argv[++i]);
    else if (a === '--runs') opts.runs = Number(argv[++i]);
    else opts.trace = a;
  }
  if (!opts.trace) throw new Error('usage: node bench/listing.js TRACE [--dist DIR] [--steps N] [--runs N]');
  return opts;
}

/** Inside the page: scrolls the listing `steps` times and times each step. */
async function scrollSteps(steps) {
  const raf = window.__bench.raf;
  const frame = () => new Promise((r) => raf(r));
  const channel = new MessageChannel();
  // The next frame: when its callbacks began, and when a task queued behind its rendering ran.
  const afterFrame = () =>
    new Promise((resolve) => {
      let start = 0;
      channel.port1.onmessage = () => resolve({ start, done: performance.now() });
      raf(() => {
        start = performance.now();
        channel.port2.postMessage(null);
      });
    });
  const box = document.querySelector('#listing-scroll');
  let scrollStart = 0;
  box.addEventListener('scroll', () => (scrollStart = scrollStart || performance.now()), { capture: true });
  const intervals = [];
  let last = 0;
  let ticking = true;
  const tick = (ts) => {
    if (last) intervals.push(ts - last);
    last = ts;
    if (ticking) raf(tick);
  };
  raf(tick);
  const out = [];
  const rect = box.getBoundingClientRect();
  for (let i = 0; i < steps; i++) {
    await frame();
    const jump = i % 10 === 9;
    const t0 = performance.now();
    scrollStart = 0;
    if (jump) {
      box.scrollTop = ((i * 7919) % 1000) / 1000 * (box.scrollHeight - box.clientHeight);
    } else {
      box.dispatchEvent(
        new WheelEvent('wheel', {
          bubbles: true,
          cancelable: true,
          clientX: rect.left + rect.width / 2,
          clientY: rect.top + rect.height / 2,
          deltaMode: 0,
          deltaY: 54,
        }),
      );
    }
    const t1 = performance.now();
    const { start, done } = await afterFrame();
    // A wheel: its handlers, then the frame (the wait for the frame is idle time, not counted).
    // A jump: the scroll event comes in the frame itself, before its callbacks.
    const ms = jump ? done - (scrollStart || start) : t1 - t0 + (done - start);
    out.push({ jump, ms, input: t1 - t0 });
  }
  ticking = false;
  const rows = () => [...document.querySelectorAll('.listing-lines .listing-row')].map((r) => Number(r.dataset.row));
  const shown = rows();
  // One more wheel turn, to show that it moves the rows (by 3).
  box.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaMode: 0, deltaY: 54 }));
  await afterFrame();
  return { steps: out, intervals, first: shown[0], count: shown.length, moved: rows()[0] - shown[0] };
}

function quantile(values, q) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  return v[Math.min(v.length - 1, Math.floor(q * v.length))];
}

async function run(opts, server) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'flamedrop-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = context.pages()[0] || (await context.newPage());
    page.on('crash', () => console.error('the page crashed (out of memory?)'));
    await page.addInitScript(probe);
    await page.goto(server.base);
    await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop, null, { timeout: 60_000 });
    const picker = fs.statSync(opts.trace).isDirectory() ? '#open-folder' : '#open-files';
    const t0 = Date.now();
    await page.setInputFiles(picker, opts.trace);
    await page.waitForFunction(() => window.flamedrop.timings().first_draw_ms != null, null, { timeout: 600_000, polling: 500 });
    const loaded = (Date.now() - t0) / 1000;
    await page.waitForTimeout(2000); // let the load's last work settle
    const open = await page.evaluate(async () => {
      const raf = window.__bench.raf;
      const before = window.__bench.longtasks.length;
      const started = performance.now();
      document.dispatchEvent(new KeyboardEvent('keydown', { key: '6', bubbles: true }));
      await new Promise((resolve) => {
        const poll = () => (document.querySelector('.listing-lines .listing-row') ? resolve() : raf(poll));
        raf(poll);
      });
      await new Promise((r) => raf(() => raf(r)));
      const ms = performance.now() - started;
      await new Promise((r) => setTimeout(r, 300)); // long task entries arrive late
      const tasks = window.__bench.longtasks.slice(before).filter((t) => t.start >= started - 1);
      return {
        ms,
        status: window.flamedrop.listingStatus(),
        longest: Math.max(0, ...tasks.map((t) => t.duration)),
        long: tasks.filter((t) => t.duration > 50).length,
      };
    });
    const frames = await page.evaluate(scrollSteps, opts.steps);
    return { loaded, open, frames };
  } finally {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { server, base } = await startServer(opts.dist);
  try {
    const notes = [];
    console.log('| run | rows | trace loaded s | open ms | build ms (busy) | slices (longest ms) | longest task ms | step p50 / p95 / max ms | wheel p95 | jump p95 | frame interval p95 ms |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (let r = 1; r <= opts.runs; r++) {
      const { loaded, open, frames } = await run(opts, { base });
      const t = open.status.timing || {};
      const f = (x) => (x == null || !Number.isFinite(x) ? 'n/a' : x.toFixed(1));
      const all = frames.steps.map((s) => s.ms);
      const wheel = frames.steps.filter((s) => !s.jump).map((s) => s.ms);
      const jump = frames.steps.filter((s) => s.jump).map((s) => s.ms);
      console.log(
        `| ${r} | ${open.status.rows} | ${loaded.toFixed(1)} | ${f(open.ms)} | ${f(t.build_ms)} (${f(t.busy_ms)}) | ${t.slices ?? 'n/a'} (${f(t.longest_slice_ms)}) | ${f(open.longest)} | ${f(quantile(all, 0.5))} / ${f(quantile(all, 0.95))} / ${f(Math.max(...all))} | ${f(quantile(wheel, 0.95))} | ${f(quantile(jump, 0.95))} | ${f(quantile(frames.intervals, 0.95))} |`,
      );
      notes.push(`run ${r}: ${frames.count} rows in the page, the first row ${frames.first} after the steps; one more wheel turn moved it by ${frames.moved}`);
    }
    notes.forEach((n) => console.log(n));
  } finally {
    server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
