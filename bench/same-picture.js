#!/usr/bin/env node
// Do two builds of the viewer draw the same picture? Opens TRACE in each build (Debian's headless
// Chromium, as bench/browser.js), walks the scripted zoom/pan/hover sequence of bench/lib/frames.js
// with its `pictures` option: after each step, a hash of every row of pixels of each canvas on the
// page (chart, minimap). Prints the steps where the two builds differ, with the canvas and the rows; exit code 1
// if any step differs. Used to check that a faster frame painter paints the same pixels.
//
//   node bench/same-picture.js TRACE --dist A_DIST --dist-b B_DIST [--steps 60]
//                              [--query 'strips=768'] [--query-b 'strips=4096']
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer } = require('../tests/e2e/server.js');
const { probe } = require('./lib/probe.js');
const { runFrames } = require('./lib/frames.js');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

function parseArgs(argv) {
  const opts = { steps: 60, traces: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => argv[++i];
    if (a === '--dist') opts.dist = path.resolve(value());
    else if (a === '--dist-b') opts.distB = path.resolve(value());
    else if (a === '--steps') opts.steps = Number(value());
    else if (a === '--query') opts.query = value();
    else if (a === '--query-b') opts.queryB = value();
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else opts.traces.push(path.resolve(a));
  }
  if (opts.traces.length !== 1 || !opts.dist || !opts.distB) {
    throw new Error('usage: node bench/same-picture.js TRACE --dist A --dist-b B [--steps 60] [--query Q] [--query-b Q]');
  }
  return opts;
}

async function pictures(dist, query, trace, count) {
  const { server, base } = await startServer(dist);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'flamedrop-same-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = context.pages()[0] || (await context.newPage());
    await page.addInitScript(probe);
    await page.goto(query ? `${base}?${query}` : base);
    await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop, null, { timeout: 60_000 });
    await page.waitForTimeout(500);
    if (fs.statSync(trace).isDirectory()) await page.setInputFiles('#open-folder', trace);
    else await page.setInputFiles('#open-files', trace);
    await page.waitForFunction(() => window.flamedrop.timings().first_draw_ms != null, null, { timeout: 600_000, polling: 100 });
    await page.waitForTimeout(2000);
    const steps = await page.evaluate(runFrames, { steps: count, pictures: true });
    return steps.map((s) => s.pictures || []);
  } finally {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
    server.close();
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const [trace] = opts.traces;
  const a = await pictures(opts.dist, opts.query, trace, opts.steps);
  const b = await pictures(opts.distB, opts.queryB, trace, opts.steps);
  let differing = 0;
  for (let step = 0; step < Math.max(a.length, b.length); step++) {
    const [ca, cb] = [a[step] || [], b[step] || []];
    for (let c = 0; c < Math.max(ca.length, cb.length); c++) {
      const [ra, rb] = [ca[c] || [], cb[c] || []];
      const rows = [];
      for (let y = 0; y < Math.max(ra.length, rb.length); y++) if (ra[y] !== rb[y]) rows.push(y);
      if (rows.length) {
        differing++;
        console.log(`step ${step}, canvas ${c}: ${rows.length} rows differ (first ${rows.slice(0, 8).join(', ')})`);
      }
    }
  }
  const canvases = a[0]?.length ?? 0;
  console.log(differing ? `${differing} step/canvas pairs differ` : `same pictures: ${a.length} steps × ${canvases} canvases`);
  process.exit(differing ? 1 : 0);
}

main().catch((e) => {
  console.error(`same-picture: ${e.stack || e.message}`);
  process.exit(2);
});
