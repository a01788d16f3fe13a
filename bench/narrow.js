#!/usr/bin/env node
// Narrowing in the page (issue 16): how long applying and popping steps of the narrowing stack
// takes on a big trace, and how long the page's main thread is blocked meanwhile.
//
//   node bench/narrow.js TRACE [--dist DIR] [--steps STACK_TEXT...]
//
// TRACE is opened as bench/browser.js opens it (a folder through input#open-folder, a file through
// input#open-files). Then each request in turn goes through window.flamedrop.narrow(text) (the
// whole stack's text form, as the URL holds it; a shorter stack pops, and the page shows a kept
// result at once if it has one). Per request it prints:
//   wall     from the call until the timeline (the open view) painted the result: the promise of
//            narrow(text) resolves once every view and report() read it, then two frames
//   apply    narrowing().timing.apply_ms: carrying out the steps, in slices with pauses (first to last)
//            (busy: .apply_busy_ms, the main thread's part, pauses left out)
//   slices   narrowing().timing.slices and .longest_slice_ms: how many slices, the longest one
//   index    narrowing().timing.index_ms: indexing the result's rows, in slices with pauses
//   longest  the longest main-thread task (PerformanceObserver 'longtask', > 50 ms) in that time
//   long     how many such tasks (over 50 ms) there were
// The default requests push a depth limit, push "drop function" on top, pop back one step and
// to the whole trace, then apply a time filter and a merge from the whole trace.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer } = require('../tests/e2e/server.js');
const { probe } = require('./lib/probe.js');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
const DEFAULT_STEPS = ['u:-D%203', 'u:-D%203~df:leaf_mix', 'u:-D%203', '', 'u:-t%2010us', 'mf:walk', ''];

function parseArgs(argv) {
  const opts = { dist: path.join(__dirname, '..', 'dist'), steps: null, trace: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dist') opts.dist = argv[++i];
    else if (a === '--steps') opts.steps = argv.slice(i + 1).map((s) => (s === '-' ? '' : s)), (i = argv.length);
    else opts.trace = a;
  }
  if (!opts.trace) throw new Error('usage: node bench/narrow.js TRACE [--dist DIR] [--steps STACK...] (- for the whole trace)');
  opts.steps = opts.steps || DEFAULT_STEPS;
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { server, base } = await startServer(opts.dist);
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
    await page.goto(base);
    await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop, null, { timeout: 60_000 });
    const picker = fs.statSync(opts.trace).isDirectory() ? '#open-folder' : '#open-files';
    const t0 = Date.now();
    await page.setInputFiles(picker, opts.trace);
    await page.waitForFunction(() => window.flamedrop.timings().first_draw_ms != null, null, { timeout: 600_000, polling: 500 });
    const spans = await page.evaluate(() => window.flamedrop.report().threads.reduce((n, t) => n + t.spans, 0));
    console.log(`${opts.trace}: ${spans} spans, first draw after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    console.log('| stack | wall ms | apply ms (busy) | slices (longest ms) | index ms | steps done | longest task ms | tasks > 50 ms | spans shown |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const text of opts.steps) {
      const r = await page.evaluate(async (stack) => {
        const started = performance.now();
        const before = window.__bench.longtasks.length;
        let error = null;
        await window.flamedrop.narrow(stack).catch((e) => (error = e.message));
        await new Promise((res) => window.__bench.raf(() => window.__bench.raf(res)));
        const wall = performance.now() - started;
        await new Promise((res) => setTimeout(res, 200)); // long task entries arrive late
        const tasks = window.__bench.longtasks.slice(before).filter((t) => t.start >= started - 1);
        const n = window.flamedrop.narrowing();
        const spans = window.flamedrop.report().threads.reduce((s, t) => s + t.spans, 0);
        const longest = Math.max(0, ...tasks.map((t) => t.duration));
        return { wall, error, timing: n.timing, longest, long: tasks.filter((t) => t.duration > 50).length, spans };
      }, text);
      const t = r.timing || {};
      const f = (x) => (x == null ? 'n/a' : x.toFixed(0));
      console.log(
        `| \`${text || '(whole trace)'}\` | ${f(r.wall)} | ${f(t.apply_ms)} (${f(t.apply_busy_ms)}) | ${t.slices ?? 'n/a'} (${f(t.longest_slice_ms)}) | ${f(t.index_ms)} | ${t.steps ?? 'n/a'} | ${f(r.longest)} | ${r.long} | ${r.spans}${r.error ? ` (error: ${r.error})` : ''} |`,
      );
    }
  } finally {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
    server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
