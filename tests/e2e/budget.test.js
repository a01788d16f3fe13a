// (j) Keeping the tab alive: a trace bigger than the page's input limit gets a clear message before
// anything is read, with a button to load it anyway (the limit is lowered with ?max_input_mb= so
// a fixture counts as big); a worker that stays silent past the watchdog's allowance (lowered
// with ?watchdog_ms=) is stopped with a message naming what it was opening, and the page then
// still opens a trace.
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { assertDrawn, cliReport, fixtureDir, pageReport, waitForState, withPage } = require('./lib.js');

const allowConsoleError = /too big|more than a browser tab|stopped responding/;

test('too big for the tab: a clear message, then load anyway', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      const dir = fixtureDir('a-simple-nested');
      const expected = cliReport(dir);
      await page.goto(`${base}?max_input_mb=0.05`);
      await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'error');
      const text = await page.locator('#error').textContent();
      assert.match(text, /uftrace\.data\/ is .*more than a browser tab can safely hold/);
      assert.match(text, /flamedrop report/);
      await page.click('#load-anyway');
      await waitForState(page, 'ready');
      assert.deepEqual(await pageReport(page), expected);
      await assertDrawn(page, expected);
    },
    { allowConsoleError },
  ));

test('watchdog: a silent worker is stopped and the page stays usable', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      const dir = fixtureDir('c-pthreads-mutex');
      await page.goto(`${base}?watchdog_ms=1`);
      await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'error');
      assert.match(await page.locator('#error').textContent(), /the decoder stopped responding while (opening|reading|building) .*uftrace\.data|files/);
      // The page is alive: it answers and can open a demo with a fresh worker.
      assert.equal(await page.evaluate(() => 1 + 1), 2);
      await page.goto(`${base}?demo=a-simple-nested`);
      await waitForState(page, 'ready');
    },
    { allowConsoleError },
  ));
