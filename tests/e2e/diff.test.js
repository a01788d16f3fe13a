// The Diff view (issue 7): open a trace, open a second one through the Compare… panel, and check
// the table of changes against `uftrace report --diff` (v0.13, recorded on the same machine as the
// two traces: tests/fixtures/uftrace-diff/) and against `flamedrop diff --json`; that the
// differential flame graph draws, its tooltip gives base and new, a table row outlines its
// function, the columns sort, removing the comparison hides the view, Scaler traces compare too
// and traces in different time units are refused. Screenshots go to tests/e2e/out/views/ (and to
// docs/views/diff.png with FLAMEDROP_UPDATE_DOCS=1).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { test } = require('node:test');
const { cliPath, openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const ROOT = path.join(__dirname, '..', 'fixtures');
const CASE = path.join(ROOT, 'uftrace-diff');
const BASE = path.join(CASE, 'base', 'uftrace.data');
const NEW = path.join(CASE, 'new', 'uftrace.data');
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));

function cliDiff(base, next) {
  const out = execFileSync(cliPath(), ['diff', base, next, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

/** A printed uftrace time as [ns, one unit of its last digit in ns]. */
function printed(number, unit) {
  const scale = { us: 1e3, ms: 1e6, s: 1e9 }[unit];
  const digits = (number.split('.')[1] || '').length;
  return [Math.round(Number(number) * scale), Math.max(1000, scale / 10 ** digits)];
}

/** `report --diff --diff-policy full`: name → {total: [base, new], self: [base, new], calls}. */
function referenceRows() {
  const rows = new Map();
  for (const line of fs.readFileSync(path.join(CASE, 'reference', 'report-diff-full.txt'), 'utf8').split('\n')) {
    const t = line.trim().split(/\s+/);
    if (!line.trim() || line.startsWith('#') || /^(Total|=)/.test(t[0])) continue;
    let at = 0;
    const time = () => (t[at] === '-' ? (at++, null) : ((at += 2), printed(t[at - 2], t[at - 1])));
    const total = [time(), time(), time()];
    const self = [time(), time(), time()];
    rows.set(t.slice(at + 3).join(' '), { total, self, calls: [Number(t[at]), Number(t[at + 1])] });
  }
  return rows;
}

function near(ours, ref, what) {
  const [value, step] = ref || [0, 1000];
  assert.ok(Math.abs(ours - value) < step, `${what}: ours ${ours} ns, uftrace ${value} ns (±${step})`);
}

async function openWithComparison(page, base, first, second) {
  await openEmpty(page, base);
  await page.setInputFiles('#open-folder', first);
  await waitForState(page, 'ready');
  await page.click('#compare');
  await page.waitForSelector('#compare-panel');
  await page.setInputFiles('#compare-folder', second);
}

const shot = (page, file) => saveShots(page, SHOTS, file);

/** Canvas pixels that differ from the theme background. */
async function ink(page, selector) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    const g = c.getContext('2d');
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const hex = /^#([0-9a-f]{6})$/i.exec(window.flamedrop.theme().background);
    const bg = [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 24) n++;
    }
    return n;
  }, selector);
}

test('diff of two uftrace runs: table equals uftrace report --diff and the CLI, graph, tooltip, removal', (t) =>
  withPage(t, async ({ page, base }) => {
    await openWithComparison(page, base, BASE, NEW);
    await page.waitForSelector('#view-diff');
    await page.waitForSelector('section.aggregate[data-view="diff"] #diff-table tbody tr');
    assert.match(await page.textContent('#compare-chip'), /uftrace\.data/);

    // window.flamedrop.diff() is `flamedrop diff --json`.
    const cli = cliDiff(BASE, NEW);
    const api = JSON.parse(await page.evaluate(() => JSON.stringify(window.flamedrop.diff())));
    assert.deepEqual(api, cli);

    // The table holds the same numbers, in the same order (largest change in self first).
    const rows = await page.$$eval('#diff-table tbody tr', (trs) => trs.map((tr) => ({
      name: tr.dataset.name,
      base: { calls: Number(tr.dataset.baseCalls), total: Number(tr.dataset.baseTotal), self: Number(tr.dataset.baseSelf) },
      new: { calls: Number(tr.dataset.newCalls), total: Number(tr.dataset.newTotal), self: Number(tr.dataset.newSelf) },
    })));
    assert.deepEqual(rows, cli.functions.map((f) => ({ name: f.name, base: f.base, new: f.new })));
    assert.equal(rows[0].name, 'spin');

    // …and they are uftrace's: calls exact, times within the printed rounding. uftrace's diff also
    // lists the new run's scheduler events, which its plain report (and ours) leaves out.
    const reference = referenceRows();
    assert.deepEqual(reference.get('linux:schedule (pre-empted)').calls, [0, 6]);
    assert.equal(rows.length, reference.size - 1);
    for (const r of rows) {
      const want = reference.get(r.name);
      assert.ok(want, `${r.name} is not in uftrace's diff`);
      assert.deepEqual([r.base.calls, r.new.calls], want.calls, `${r.name} calls`);
      near(r.base.total, want.total[0], `${r.name} base total`);
      near(r.new.total, want.total[1], `${r.name} new total`);
      near(r.base.self, want.self[0], `${r.name} base self`);
      near(r.new.self, want.self[1], `${r.name} new self`);
    }

    // The differential flame graph drew, and its tooltip gives base and new.
    assert.ok((await ink(page, 'canvas#diff-flamegraph')) > 1000, 'the diff flame graph is blank');
    const box = await page.locator('canvas#diff-flamegraph').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + 9);
    await page.waitForSelector('.diff-tip');
    const tip = await page.textContent('.diff-tip');
    assert.match(tip, /main/);
    assert.match(tip, /base/);
    assert.match(tip, /new/);
    assert.match(tip, /353\.\d+ us/); // main's base total, as uftrace prints it
    await page.mouse.move(box.x + box.width / 2, box.y + box.height - 2);

    // SVG export of the diff view: the merged call paths, coloured by the change in self time
    // as on screen (red grew, blue shrank).
    const svg = await page.evaluate(() => window.flamedrop.svg());
    assert.ok(svg, 'the diff view exports no SVG');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const boxes = [...doc.querySelectorAll('g')].map((g) => ({
        title: g.querySelector('title')?.textContent ?? '',
        fill: g.querySelector('rect')?.getAttribute('fill') ?? '',
      }));
      return { error: doc.querySelector('parsererror') !== null, boxes };
    }, svg);
    assert.equal(parsed.error, false, 'the SVG does not parse');
    assert.ok(parsed.boxes.some((b) => b.title.startsWith('main')), 'no main box in the SVG');
    // Every box carries a diff colour (rgb(), not the name palette's hex), and they differ: the
    // two runs changed.
    assert.ok(parsed.boxes.length > 5, `only ${parsed.boxes.length} boxes in the SVG`);
    assert.ok(parsed.boxes.every((b) => /^rgb\(/.test(b.fill)), 'a box is not coloured by its change');
    const shades = new Set(parsed.boxes.map((b) => b.fill));
    assert.ok(shades.size > 3, `the SVG has ${shades.size} shades only`);

    // A row picks its function (outlined in the graph); Enter on a focused row does the same.
    await page.click('#diff-table tr[data-name="compute"]');
    assert.equal(await page.getAttribute('#diff-table tr[data-name="compute"]', 'aria-selected'), 'true');
    await page.focus('#diff-table tr[data-name="parse"]');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('#diff-table tr[data-name="parse"]', 'aria-selected'), 'true');
    assert.equal(await page.getAttribute('#diff-table tr[data-name="compute"]', 'aria-selected'), 'false');

    // Columns sort; widths by the base trace keep the graph drawn.
    await page.click('#diff-table th button[data-sort="name"]');
    const names = await page.$$eval('#diff-table tbody tr', (trs) => trs.map((tr) => tr.dataset.name));
    assert.deepEqual(names, [...names].sort());
    await page.click('#diff-table th button[data-sort="delta-self"]');
    await page.click('#diff-width-base');
    assert.ok((await ink(page, 'canvas#diff-flamegraph')) > 1000);
    await page.click('#diff-width-new');
    await page.click('#diff-table tr[data-name="compute"]');
    await page.$eval('.diff-table-scroll', (el) => { el.scrollTop = 0; });
    await shot(page, 'diff.png');
    await page.click('#theme-toggle');
    await page.waitForFunction(() => window.flamedrop.theme().background !== '#ffffff');
    assert.ok((await ink(page, 'canvas#diff-flamegraph')) > 1000, 'the dark diff flame graph is blank');
    await page.screenshot({ path: path.join(SHOTS[0], 'diff-dark.png') });
    await page.click('#theme-toggle');

    // Removing the comparison hides the view.
    await page.click('#compare-remove');
    await page.waitForSelector('#view-diff', { state: 'detached' });
    assert.equal(await page.evaluate(() => window.flamedrop.diff()), null);
    assert.notEqual(await page.evaluate(() => window.flamedrop.state().view), 'diff');
  }));

test('diff of two Scaler traces equals the CLI; traces in different units are refused', (t) =>
  withPage(t, async ({ page, base }) => {
    const a = path.join(ROOT, 'scaler', 'a-prodcons-mutex-cond-sem');
    const b = path.join(ROOT, 'scaler', 'b-nested-callbacks-sync');
    await openWithComparison(page, base, a, b);
    await page.waitForSelector('#diff-table tbody tr');
    const api = JSON.parse(await page.evaluate(() => JSON.stringify(window.flamedrop.diff())));
    assert.deepEqual(api, cliDiff(a, b));
    assert.ok((await ink(page, 'canvas#diff-flamegraph')) > 1000);

    // A uftrace trace (ns) against a SELogger one (events): a clear refusal, not numbers.
    await openWithComparison(page, base, BASE, path.join(ROOT, 'selogger', 'demo-v060-omni-text'));
    await page.waitForSelector('#diff-error');
    assert.match(await page.textContent('#diff-error'), /ns.*events/);
    assert.match(JSON.stringify(await page.evaluate(() => window.flamedrop.diff())), /"error"/);
  }));
