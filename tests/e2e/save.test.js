// "Save analysis": for every bundled demo, the screen is changed (a narrowing, the timeline
// zoomed, a selected span, another view for some), saved as a .flamedrop file through button#save-analysis (the download
// captured), and the file dropped on a fresh page. The reopened page must give the same
// flamedrop.report(), the same URL fragment, the same selected call in the detail panel, and a
// pixel-identical canvas of the open view (PNG bytes of the canvas element's screenshot).
// The two screenshots of each demo are kept in tests/e2e/out/.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { dropFiles, nextFrames, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

// src/loading/demos.rs's DEMOS, every one.
const DEMOS = ['a-simple-nested', 'c-pthreads-mutex', 'scaler-prodcons', 'selogger-v060-omnibinary', 'rtrace-c-leaks', 'swap-gallery'];
const OUT = path.join(__dirname, 'out');

/** A name as the stack's text form writes it (crates/core transform/text.rs `encode`). */
function encode(name) {
  return [...Buffer.from(name, 'utf8')]
    .map((b) => (/[A-Za-z0-9._-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

/** Waits until the page shows the stack `text`, applied and not busy. */
async function settled(page, text) {
  await page.waitForFunction(async (want) => {
    const n = await window.flamedrop.narrowing();
    return n && !n.busy && n.stack === want;
  }, text, { timeout: 60_000 });
  await nextFrames(page);
}

/** Clicks down the first lanes of the timeline until a span is selected; its name, or null. */
async function selectSpan(page) {
  const canvas = page.locator('canvas#flamechart');
  if (!(await canvas.isVisible().catch(() => false))) return null;
  const box = await canvas.boundingBox();
  const lanes = await page.evaluate(() => window.flamedrop.lanes());
  for (const lane of lanes.slice(0, 3)) {
    for (let dy = 20; dy < Math.min(lane.height, 80); dy += 8) {
      for (const fx of [0.5, 0.3, 0.7, 0.1, 0.9]) {
        await page.mouse.click(box.x + box.width * fx, box.y + lane.top + dy);
        const name = await page.locator('#detail .detail-name').textContent({ timeout: 200 }).catch(() => null);
        if (name) return name;
      }
    }
  }
  return null;
}

/** What must be the same after reopening: report, fragment, selected call, the view's canvas. */
async function screen(page, file) {
  await page.mouse.move(0, 0); // no hover outline or tooltip
  await nextFrames(page);
  await nextFrames(page);
  const view = await page.evaluate(() => window.flamedrop.state().view);
  const selector = { timeline: 'canvas#flamechart', flamegraph: 'canvas#flamegraph' }[view];
  const shot = await page.locator(selector).screenshot({ animations: 'disabled' });
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, file), shot);
  return {
    report: await pageReport(page),
    hash: await page.evaluate(() => location.hash),
    detail: await page.locator('#detail .detail-name').textContent({ timeout: 500 }).catch(() => null),
    view,
    shot,
  };
}

for (const [i, demo] of DEMOS.entries()) {
  test(`save analysis: ${demo} reopens to the same screen`, (t) =>
    withPage(t, async ({ page, context, base }) => {
      await page.goto(`${base}?demo=${demo}`);
      await waitForState(page, 'ready');

      // A narrowing: drop the function with the fewest calls (a step the page carries out).
      const before = await pageReport(page);
      const functions = (before.functions || []).filter((f) => f.name).sort((a, b) => a.calls - b.calls || a.name.localeCompare(b.name));
      let stack = '';
      if (functions.length > 1) {
        stack = `df:${encode(functions[0].name)}`;
        await page.evaluate((text) => window.flamedrop.narrow(text), stack);
        await settled(page, stack);
      }
      // The timeline zoomed in around its middle, a selected span, then (every other demo) the
      // flame graph.
      const chart = page.locator('canvas#flamechart');
      if (await chart.isVisible().catch(() => false)) {
        const box = await chart.boundingBox();
        await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
        await page.mouse.wheel(0, -240);
        await nextFrames(page);
      }
      const selected = await selectSpan(page);
      if (i % 2 === 1) {
        await page.click('[data-view="flamegraph"]');
        await page.waitForSelector('section.aggregate[data-view="flamegraph"]');
      }
      const saved = await screen(page, `save-${demo}-saved.png`);
      t.diagnostic(`${demo}: stack ${stack || '(none)'}, selected ${selected}, view ${saved.view}`);

      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-analysis')]);
      assert.equal(download.suggestedFilename(), `${demo}.flamedrop`);
      const bytes = fs.readFileSync(await download.path());
      assert.equal(bytes.subarray(0, 12).toString('latin1'), '\x89FLAMEDROP\r\n');

      // A fresh page, with nothing but the file.
      const fresh = await context.newPage();
      await openEmpty(fresh, base);
      await dropFiles(fresh, [{ name: `${demo}.flamedrop`, bytes }]);
      await waitForState(fresh, 'ready');
      if (stack) await settled(fresh, stack);
      await fresh.waitForFunction((want) => location.hash === want, saved.hash, { timeout: 10_000 }).catch(() => {});
      const reopened = await screen(fresh, `save-${demo}-reopened.png`);

      assert.deepEqual(reopened.report, saved.report, 'report() differs');
      assert.equal(reopened.hash, saved.hash, 'the URL fragment differs');
      assert.equal(reopened.view, saved.view);
      assert.equal(reopened.detail, saved.detail, 'the selected call differs');
      assert.ok(reopened.shot.equals(saved.shot), `the ${saved.view} canvas differs (see tests/e2e/out/save-${demo}-*.png)`);
      await fresh.close();
    }));
}

test('save analysis: a damaged or newer file is refused with a clear message', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      await page.goto(`${base}?demo=a-simple-nested`);
      await waitForState(page, 'ready');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-analysis')]);
      const bytes = fs.readFileSync(await download.path());

      await openEmpty(page, base);
      await dropFiles(page, [{ name: 'cut.flamedrop', bytes: bytes.subarray(0, bytes.length - 9) }]);
      await waitForState(page, 'error');
      assert.match(await page.textContent('#error'), new RegExp(`truncated at byte ${bytes.length - 9}`));

      const newer = Buffer.from(bytes);
      newer.writeUInt16LE(9, 12);
      await openEmpty(page, base);
      await dropFiles(page, [{ name: 'newer.flamedrop', bytes: newer }]);
      await waitForState(page, 'error');
      assert.match(await page.textContent('#error'), /made by a newer flamedrop \(version 9\); this one reads up to 1/);
    },
    { allowConsoleError: /flamedrop file/ },
  ));
