// (d) The viewer works when served from a sub-path (/flamedrop/, as on GitHub Pages): a demo and a
// fixture folder load, and every request stays under the sub-path.
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { SUBPATH, assertDrawn, cliReport, fixtureDir, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

test('sub-path: demo', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      await page.goto(`${new URL(SUBPATH, base)}?demo=a-simple-nested`);
      await waitForState(page, 'ready');
      await assertDrawn(page, await pageReport(page));
    },
    { pathPrefix: SUBPATH },
  ));

test('sub-path: open-folder', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      const dir = fixtureDir('a-simple-nested');
      const expected = cliReport(dir);
      await openEmpty(page, new URL(SUBPATH, base).href);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
      await assertDrawn(page, expected);
    },
    { pathPrefix: SUBPATH },
  ));
