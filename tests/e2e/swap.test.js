// The bundled SWAP demo (?demo=swap-gallery): a synthetic Tizen SWAP stream reaches `ready`,
// report() has its functions, threads and samples, and the function lanes are drawn.
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { assertDrawn, pageReport, waitForState, withPage } = require('./lib.js');

test('?demo=swap-gallery', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=swap-gallery`);
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    assert.equal(report.format, 'swap');
    assert.ok(report.functions.some((f) => f.name === 'gallery+0x3000' && f.calls === 24), 'no decode calls in report()');
    const withSpans = report.threads.filter((th) => th.spans > 0);
    assert.ok(withSpans.length >= 2, `expected function lanes on 2+ threads, got ${withSpans.length}`);
    const samples = report.threads.reduce((n, th) => n + th.samples, 0);
    assert.ok(samples > 0, 'report() has no samples');
    await assertDrawn(page, report);
  }));
