// (l) The demo gallery: the empty page lists every bundled demo under its format's heading
// (read from the page, so new demos are covered without editing this test); each is one click
// away and reaches `ready` with a report of that format (and a drawn flame chart when it has spans).
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { assertDrawn, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

// Tall enough for every lane of the deepest demo (the SELogger one nests 31 levels).
const TALL = { viewport: { width: 1280, height: 1800 } };

test('every gallery demo opens with one click and reaches ready', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    const demos = await page.evaluate(() =>
      [...document.querySelectorAll('#gallery [data-format] [data-demo]')].map((b) => ({
        name: b.dataset.demo,
        format: b.closest('[data-format]').dataset.format,
      })),
    );
    assert.ok(demos.length >= 2, `the gallery lists ${demos.length} demos`);
    t.diagnostic(`demos: ${demos.map((d) => `${d.format}/${d.name}`).join(', ')}`);
    for (const demo of demos) {
      await openEmpty(page, base);
      await page.click(`[data-demo="${demo.name}"]`);
      await waitForState(page, 'ready');
      const report = await pageReport(page);
      assert.equal(report.format, demo.format, `demo ${demo.name} is listed under ${demo.format}`);
      // Formats without spans (allocations or samples only) draw other views.
      if (report.threads.some((th) => th.spans > 0)) await assertDrawn(page, report);
    }
  }, TALL));
