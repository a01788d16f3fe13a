// (j) Keeping the tab alive: a trace bigger than the page's input limit gets a clear message before
// anything is read, with a button to load it anyway (the limit is lowered with ?max_input_mb= so
// a fixture counts as big); against a memory budget (?max_memory_mb=), an input held back as
// possibly too big is decoded when its format's measured memory per byte fits, and refused with
// that memory named when it does not; a worker that stays silent past the watchdog's allowance (lowered
// with ?watchdog_ms=) is stopped with a message naming what it was opening, and the page then
// still opens a trace.
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const fs = require('node:fs');
const path = require('node:path');
const { assertDrawn, cliReport, fixtureDir, pageReport, waitForState, withPage } = require('./lib.js');

/** Bytes of every file below `dir`, as the page adds them up. */
function folderBytes(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => {
    const p = path.join(dir, e.name);
    return sum + (e.isDirectory() ? folderBytes(p) : fs.statSync(p).size);
  }, 0);
}

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

test('memory budget: a uftrace folder over the hold-back size opens when it fits, and is refused when not', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      const dir = fixtureDir('a-simple-nested');
      const expected = cliReport(dir);
      const mib = folderBytes(dir) / 2 ** 20;
      // 1.5 × its size: over the size any format might need (÷ 2.5), inside uftrace's 1.0 ×.
      await page.goto(`${base}?max_memory_mb=${mib * 1.5}`);
      await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      assert.equal(await page.locator('#error').count(), 0);
      assert.deepEqual(await pageReport(page), expected);

      // 0.8 × its size: uftrace's 1.0 × is over it.
      await page.goto(`${base}?max_memory_mb=${mib * 0.8}`);
      await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'error');
      const text = await page.locator('#error').textContent();
      assert.match(text, /decoding it would need about .* of memory, more than a browser tab can safely hold/);
      await page.waitForSelector('#part-choice');
      await page.click('#load-anyway');
      await waitForState(page, 'ready');
      assert.deepEqual(await pageReport(page), expected);
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
