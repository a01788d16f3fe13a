// The Components view (issue 19): on a Scaler fixture and on uftrace's dlopen case, the library
// table's numbers equal `flamedrop components --json` run by the CLI on the same folder (and
// window.flamedrop.components() equals that JSON); the thread picker's numbers equal
// `--thread ID`; a range chosen on the ruler changes them, to what `--range A-B` prints; the
// flows and icicle canvases draw (also on sp-rtrace's modules), and a click on the icicle zooms into a node. Screenshots go to
// tests/e2e/out/components/ (and docs/views/ with FLAMEDROP_UPDATE_DOCS=1).
'use strict';
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { test } = require('node:test');
const { cliPath, nextFrames, openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const FIXTURES = path.resolve(__dirname, '../fixtures');
const SHOTS = [path.join(__dirname, 'out', 'components')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));

const CASES = [
  { name: 'scaler', dir: path.join(FIXTURES, 'scaler/a-prodcons-mutex-cond-sem'), shot: 'components.png' },
  { name: 'uftrace dlopen', dir: path.join(FIXTURES, 'uftrace/e-dlopen-plugin/uftrace.data'), shot: 'components-uftrace-dlopen.png' },
  { name: 'sp-rtrace modules', dir: path.join(FIXTURES, 'rtrace/c-leaks'), shot: 'components-rtrace.png' },
];

/** `flamedrop components --json ...args`, parsed. */
function cli(...args) {
  return JSON.parse(execFileSync(cliPath(), ['components', '--json', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

/** The library table as {library: {self, wait, inclusive, calls, local, global}}. */
async function table(page) {
  await nextFrames(page);
  return page.evaluate(() => {
    const out = {};
    for (const tr of document.querySelectorAll('#components-table tbody tr[data-library]')) {
      const cells = [...tr.querySelectorAll('td[data-value]')].map((td) => Number(td.dataset.value));
      const [self, wait, inclusive, calls, local, global] = cells;
      out[tr.dataset.library] = { self, wait, inclusive, calls, local, global };
    }
    return out;
  });
}

/** The same shape from the CLI's rows. */
function expectedTable(rows) {
  return Object.fromEntries(
    rows.map((r) => [
      r.library,
      { self: r.self_time, wait: r.wait, inclusive: r.inclusive, calls: r.calls, local: r.local_percent, global: r.global_percent },
    ]),
  );
}

/** Pixels of a canvas that differ from its top-left pixel. */
async function ink(page, selector) {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
    return n;
  }, selector);
}

for (const c of CASES) {
  test(`components view: ${c.name}`, (t) =>
    withPage(
      t,
      async ({ page, base }) => {
        await openEmpty(page, base);
        await page.setInputFiles('#open-folder', c.dir);
        await waitForState(page, 'ready');
        await page.keyboard.press('l');
        await page.waitForSelector('#components-table tbody tr[data-library]');
        const whole = cli(c.dir);
        const api = await page.evaluate(() => JSON.stringify(window.flamedrop.components()));
        assert.deepEqual(JSON.parse(api), whole, 'components() differs from flamedrop components --json');
        assert.deepEqual(await table(page), expectedTable(whole.libraries), 'the table differs from the CLI');
        const matrix = await page.$$eval('#components-matrix tbody tr', (rows) =>
          rows.map((r) => [r.dataset.caller, r.dataset.callee, Number(r.querySelector('td[data-value]').dataset.value)]),
        );
        const want = whole.matrix.map((e) => [e.caller, e.callee, e.time]);
        assert.deepEqual(matrix.sort(), want.sort(), 'the matrix table differs from the CLI');
        assert.ok((await ink(page, '#components-chart')) > 1000, 'the icicle is drawn');
        if (whole.matrix.some((e) => e.caller !== e.callee)) {
          assert.ok((await ink(page, '#components-flows')) > 500, 'the flows are drawn');
        }
        await saveShots(page, SHOTS, c.shot);

        // Clicking a thread in the icicle (row 1) zooms into it: the breadcrumb grows.
        const box = await page.locator('#components-chart').boundingBox();
        await page.mouse.click(box.x + 5, box.y + 22 + 11);
        await page.waitForFunction(() => document.querySelectorAll('.components-crumbs .crumb').length === 2);

        // One thread: its table equals `--thread ID`.
        const thread = whole.threads[whole.threads.length - 1];
        await page.selectOption('#components-thread', String(thread.index));
        const one = cli('--thread', thread.id, c.dir);
        await page.waitForFunction(
          (n) => document.querySelectorAll('#components-table tbody tr[data-library]').length === n,
          one.threads[0].libraries.length,
        );
        assert.deepEqual(await table(page), expectedTable(one.threads[0].libraries), `thread ${thread.id} differs from the CLI`);
        await page.selectOption('#components-thread', 'all');

        // "Other below 50 %": the table equals `--other 50`.
        await page.fill('#components-other', '50');
        await page.press('#components-other', 'Enter');
        await page.locator('#components-other').blur();
        const other = cli('--other', '50', c.dir);
        await page.waitForFunction(
          (n) => document.querySelectorAll('#components-table tbody tr[data-library]').length === n,
          other.libraries.length,
        );
        assert.deepEqual(await table(page), expectedTable(other.libraries), '--other 50 differs from the CLI');
        await page.fill('#components-other', '0');
        await page.locator('#components-other').blur();

        // Sorting by name: the rows in A → Z order; again: Z → A.
        await page.click('#components-table th[data-column="library"] button');
        const names = () => page.$$eval('#components-table tbody tr[data-library]', (rows) => rows.map((r) => r.dataset.library));
        const sortedNames = Object.keys(expectedTable(whole.libraries)).sort();
        assert.deepEqual(await names(), sortedNames);
        await page.click('#components-table th[data-column="library"] button');
        assert.deepEqual(await names(), [...sortedNames].reverse());

        // A range on the ruler: the numbers change, to what `--range A-B` prints.
        await page.keyboard.press('1');
        const chart = await page.locator('canvas#flamechart').boundingBox();
        await page.mouse.move(chart.x + 300, chart.y + 10);
        await page.mouse.down();
        await page.mouse.move(chart.x + 700, chart.y + 10, { steps: 4 });
        await page.mouse.up();
        const range = await page.evaluate(() => window.flamedrop.componentsRange());
        assert.ok(range && range[1] > range[0], `no range chosen: ${JSON.stringify(range)}`);
        await page.keyboard.press('l');
        await page.waitForSelector('#components-table');
        const ranged = cli('--range', `${range[0]}-${range[1]}`, c.dir);
        assert.ok(ranged.time < whole.time, `the range keeps less time (${ranged.time} of ${whole.time})`);
        assert.deepEqual(await table(page), expectedTable(ranged.libraries), 'the ranged table differs from the CLI');
      },
      { viewport: { width: 1400, height: 1000 } },
    ));
}
