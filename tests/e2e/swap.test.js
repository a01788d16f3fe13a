// The bundled SWAP demo (?demo=swap-gallery): a synthetic Tizen SWAP stream reaches `ready`,
// report() has its functions, threads and samples, and the function lanes are drawn. And the
// SWAP fixtures of issue 23 (protocol 3.0 system calls) opened through input#open-files: report() deep-equals
// `flamedrop report --json` of the same file.
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const path = require('node:path');
const { assertDrawn, cliReport, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const SWAP = path.join(__dirname, '..', 'fixtures', 'swap');
const DROPPED = ['legacy-syscalls-3.0.swap', 'legacy-3.0.swap'];

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

for (const name of DROPPED) {
  test(`open-files swap/${name}`, (t) =>
    withPage(t, async ({ page, base }) => {
      const file = path.join(SWAP, name);
      const expected = cliReport(file);
      await openEmpty(page, base);
      await page.setInputFiles('#open-files', file);
      await waitForState(page, 'ready');
      assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
      assert.ok(expected.functions.some((f) => f.name.startsWith('syscall ')), 'no system call in the report');
    }));
}
