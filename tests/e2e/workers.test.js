// Decoding in two workers at once (what the page does for big uftrace recordings; forced here with
// ?workers=2 on small real fixtures) gives the same trace as one worker: report() equals the CLI's
// and every lane draws. A recording with one task file, and a non-uftrace input, fall back to one
// worker's answer and still load.
'use strict';
const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');
const { assertDrawn, cliReport, fixtureDir, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const REPO = path.resolve(__dirname, '../..');

async function openWith(page, base, workers, dir) {
  await openEmpty(page, `${base}?workers=${workers}`);
  await page.setInputFiles('#open-folder', dir);
  await waitForState(page, 'ready');
  const { parts } = await page.evaluate(() => window.flamedrop.timings());
  return { report: await pageReport(page), parts };
}

for (const [label, dir, split] of [
  ['c-pthreads-mutex (5 task files)', fixtureDir('c-pthreads-mutex'), 2],
  ['d-fork-exec (fork and exec, 3 task files)', path.join(REPO, 'tests/fixtures/uftrace-extra/d-fork-exec/uftrace.data'), 2],
  ['b-recursion-hot (1 task file: not split)', fixtureDir('b-recursion-hot'), 1],
  ['scaler a-prodcons (another format: not split)', path.join(REPO, 'tests/fixtures/scaler/a-prodcons-mutex-cond-sem'), 1],
]) {
  test(`two workers: ${label}`, (t) =>
    withPage(t, async ({ page, base }) => {
      const expected = cliReport(dir);
      const two = await openWith(page, base, 2, dir);
      assert.equal(two.parts, split, 'parts merged');
      assert.deepEqual(two.report, expected, 'report() with two workers differs from the CLI');
      await assertDrawn(page, expected);
      const one = await openWith(page, base, 1, dir);
      assert.equal(one.parts, 1);
      assert.deepEqual(one.report, two.report, 'one worker and two workers disagree');
    }));
}
