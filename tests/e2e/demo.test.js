// (c) Bundled demos: ?demo=<name> reaches `ready` and draws; the empty page offers a
// [data-demo=<name>] control for every demo, and clicking one opens it.
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { DEMOS, assertDrawn, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

for (const name of DEMOS) {
  test(`?demo=${name}`, (t) =>
    withPage(t, async ({ page, base }) => {
      await page.goto(`${base}?demo=${name}`);
      await waitForState(page, 'ready');
      const report = await pageReport(page);
      assert.equal(report.format, name.startsWith('scaler-') ? 'scaler' : 'uftrace');
      assert.ok(report.threads.length > 0, 'demo report has no threads');
      await assertDrawn(page, report);
    }));
}

test('empty page lists the demos; clicking one opens it', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    for (const name of DEMOS) {
      assert.ok(await page.locator(`[data-demo="${name}"]`).isVisible(), `no visible [data-demo="${name}"] on the empty page`);
    }
    await page.click(`[data-demo="${DEMOS[1]}"]`);
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    assert.equal(report.format, 'uftrace');
    await assertDrawn(page, report);
  }));
