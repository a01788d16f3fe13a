// (f) Scaler: every Scaler fixture folder opened through input#open-folder reaches `ready`;
// window.flamedrop.report() equals `flamedrop report --json <folder>` and its per-thread node
// counts and per-function call counts equal the case's reference/tree.txt; every lane draws.
// Where the trace has synchronisation objects, the Tables tab lists them and choosing a row
// (click or Enter) highlights its calls; choosing it again clears the highlight.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { assertDrawn, cliReport, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const SCALER = path.resolve(__dirname, '../fixtures/scaler');
const CASES = fs
  .readdirSync(SCALER)
  .filter((n) => fs.existsSync(path.join(SCALER, n, 'reference/tree.txt')))
  .sort();

/** Per-thread nodes and per-function calls from a reference dump (no JSON: file<id>/func<id>). */
function reference(name) {
  const text = fs.readFileSync(path.join(SCALER, name, 'reference/tree.txt'), 'utf8');
  const threads = {};
  const calls = {};
  for (const line of text.split('\n')) {
    const head = /^== (\S+)\s.*\bnodes=(\d+)/.exec(line);
    if (head) {
      threads[head[1].replace(/\.bin$/, '').split('_').pop()] = Number(head[2]);
      continue;
    }
    const node = /^\s*\[(\d+)\]\s/.exec(line);
    if (!node || node[1] === '0') continue;
    const field = (k) => new RegExp(`\\b${k}=(\\S+)`).exec(line)[1];
    let fn = field('name');
    if (fn === '-') {
      const id = (v) => (v === '-1' ? '?' : v);
      fn = `file${id(field('fileID'))}/func${id(field('funcID'))}`;
    }
    calls[fn] = (calls[fn] || 0) + 1;
  }
  return { threads, calls };
}

for (const name of CASES) {
  test(`scaler open-folder ${name}`, (t) =>
    withPage(t, async ({ page, base }) => {
      const dir = path.join(SCALER, name);
      const expected = cliReport(dir);
      await openEmpty(page, base);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      const report = await pageReport(page);
      assert.deepEqual(report, expected, 'report() differs from the CLI');
      assert.equal(report.format, 'scaler');
      const want = reference(name);
      const nodes = Object.fromEntries(report.threads.map((th) => [th.id, th.events]));
      assert.deepEqual(nodes, want.threads, 'nodes per thread differ from reference/tree.txt');
      const calls = Object.fromEntries(report.functions.map((f) => [f.name, f.calls]));
      assert.deepEqual(calls, want.calls, 'calls per function differ from reference/tree.txt');
      await assertDrawn(page, report);

      const tables = await page.evaluate(() => window.flamedrop.tables());
      const sync = tables.find((tb) => tb.id === 'sync-objects');
      if (name === 'upstream-unittest-sample') {
        assert.equal(sync, undefined, 'the unit-test sample has no sync objects');
        return;
      }
      assert.ok(sync && sync.rows.length > 0, 'no sync-objects table');
      await page.getByRole('tab', { name: 'Tables' }).click();
      const rows = page.locator('#table-sync-objects tbody tr.selectable');
      assert.equal(await rows.count(), sync.rows.length);
      // Click: highlights the row's object in every lane.
      await rows.first().click();
      const first = await page.evaluate(() => window.flamedrop.highlight());
      const row = Number(await rows.first().getAttribute('data-row'));
      assert.deepEqual({ key: first.key, value: first.value }, sync.row_highlight[row]);
      const callsColumn = sync.columns.findIndex((c) => c.name === 'calls');
      assert.equal(first.spans, Number(sync.rows[row][callsColumn]), "highlighted calls = the row's calls");
      assert.equal(await rows.first().getAttribute('aria-selected'), 'true');
      // Click again: cleared.
      await rows.first().click();
      assert.equal(await page.evaluate(() => window.flamedrop.highlight()), null);
      // Keyboard: Enter on a focused row highlights it; leave it on for the screenshot.
      await rows.last().focus();
      await page.keyboard.press('Enter');
      const last = await page.evaluate(() => window.flamedrop.highlight());
      assert.ok(last && last.spans > 0, 'Enter did not highlight the row');
      // Sorting by a numeric column orders its cells as numbers.
      const callsHeader = page.locator('#table-sync-objects th button', { hasText: /^calls/ });
      await callsHeader.click();
      await callsHeader.click();
      const shown = await page.locator(`#table-sync-objects tbody tr td:nth-child(${callsColumn + 1})`).allTextContents();
      const numbers = shown.map(Number);
      assert.deepEqual(numbers, [...numbers].sort((a, b) => b - a), 'calls column not sorted descending');
      await assertDrawn(page, report);
    }));
}

test('scaler: later Scaler output is refused with a message naming the version', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      await openEmpty(page, base);
      await page.setInputFiles('#open-files', { name: 'threadTiming_1234.bin', mimeType: '', buffer: Buffer.alloc(80) });
      await waitForState(page, 'error');
      assert.match(await page.locator('#error').textContent(), /libHook-c/);
    },
    { allowConsoleError: /./ },
  ));
