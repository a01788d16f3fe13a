// (a) Every uftrace fixture folder opened through input#open-folder (webkitdirectory) reaches
// `ready`, window.flamedrop.report() deep-equals `flamedrop report --json <folder>`, and every
// lane of the flame chart has drawn pixels. Also the uftrace-extra cases that issue 23 added
// (a forked child that returns from fork first, LOST records).
'use strict';
const assert = require('node:assert/strict');
const path = require('node:path');
const { test } = require('node:test');
const { CASES, assertDrawn, cliReport, fixtureDir, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const EXTRA = path.join(__dirname, '..', 'fixtures', 'uftrace-extra');
const EXTRA_CASES = ['d-fork-child', 'i-lost-nested', 'i-lost-sched', 'i-lost-records'];
const ALL = [
  ...CASES.map((name) => [name, () => fixtureDir(name)]),
  ...EXTRA_CASES.map((name) => [`uftrace-extra/${name}`, () => path.join(EXTRA, name, 'uftrace.data')]),
];

for (const [name, folder] of ALL) {
  test(`open-folder ${name}`, (t) =>
    withPage(t, async ({ page, base }) => {
      const dir = folder();
      const expected = cliReport(dir);
      await openEmpty(page, base);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
      await assertDrawn(page, expected);
    }));
}
