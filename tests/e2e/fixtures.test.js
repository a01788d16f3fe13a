// (a) Every uftrace fixture folder opened through input#open-folder (webkitdirectory) reaches
// `ready`, window.flamedrop.report() deep-equals `flamedrop report --json <folder>`, and every
// lane of the flame chart has drawn pixels.
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { CASES, assertDrawn, cliReport, fixtureDir, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

for (const name of CASES) {
  test(`open-folder ${name}`, (t) =>
    withPage(t, async ({ page, base }) => {
      const dir = fixtureDir(name);
      const expected = cliReport(dir);
      await openEmpty(page, base);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
      await assertDrawn(page, expected);
    }));
}
