// uftrace's read triggers (issue 18): the i-events case (`-T work@read=proc/statm -T
// work@read=page-fault`) opened through input#open-folder. A `work` call's tooltip and detail
// panel give its deltas as uftrace replay's `diff:` comments say (reference/replay.txt), the
// call tree's "Δ rss" / "Δ faults" columns sum them per node (top-down and bottom-up), and the
// values read become counter tracks under the lanes. Then i-read-events (triggers on nested
// calls, a freed mapping's negative delta): every bottom-up row's Δ columns equal the sums of
// its calls' `diff:` comments. Screenshots: docs/views/read-events*.png (with
// FLAMEDROP_UPDATE_DOCS=1).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { nextFrames, openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const CASE = path.join(__dirname, '..', 'fixtures', 'uftrace-extra', 'i-events');
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));
const shot = (page, file) => saveShots(page, SHOTS, file);

/**
 * The `diff:` values of each `work() {` block of replay.txt, in order: [{ vmrss, minor, major }]
 * (uftrace prints `+%PRIu64`; every value here is small and positive).
 */
function referenceWorkDiffs() {
  const text = fs.readFileSync(path.join(CASE, 'reference', 'replay.txt'), 'utf8');
  const calls = [];
  let current = null;
  for (const line of text.split('\n')) {
    const body = line.split(' | ')[1]?.trim() ?? '';
    if (body === 'work() {') current = {};
    else if (body === '} /* work */') {
      calls.push(current);
      current = null;
    } else if (current && body.startsWith('/* diff:')) {
      for (const [, key, value] of body.matchAll(/(\w+)=\+(\d+)/g)) current[key] = Number(value);
    }
  }
  return calls;
}

test('read triggers: tooltip, detail panel, call-tree columns and counter tracks of i-events', (t) =>
  withPage(t, async ({ page, base }) => {
    const diffs = referenceWorkDiffs();
    assert.equal(diffs.length, 2);
    assert.equal(diffs[0].vmrss, 64, 'replay.txt: the first work grew vmrss by 64 KB');
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', path.join(CASE, 'uftrace.data'));
    await waitForState(page, 'ready');

    // Counter tracks: one per value read, in the units uftrace recorded.
    const counters = await page.evaluate(() => window.flamedrop.counters());
    assert.deepEqual(
      counters.map((c) => `${c.name} (${c.unit})`),
      ['vmsize (KB)', 'vmrss (KB)', 'shared (KB)', 'major faults (faults)', 'minor faults (faults)'],
    );

    // The first work call: n selects it, the detail panel gives its deltas.
    await page.evaluate(() => window.flamedrop.search('/^work$/'));
    await page.click('canvas#flamechart', { position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await page.waitForSelector('#detail-deltas');
    assert.equal(await page.textContent('#detail .detail-name'), 'work');
    const detail = await page.$$eval('#detail-deltas dt, #detail-deltas dd', (els) => els.map((e) => e.textContent));
    const pairs = Object.fromEntries(detail.flatMap((v, i) => (i % 2 ? [] : [[v, detail[i + 1]]])));
    assert.equal(pairs['Δ vmrss'], `+${diffs[0].vmrss} KB`);
    assert.equal(pairs['Δ minor faults'], `+${diffs[0].minor}`);
    assert.equal(pairs['Δ major faults'], `+${diffs[0].major}`);

    // The tooltip of the same call says the same: zoom to it, then hover its row.
    await page.click('#detail button.button');
    const [lane] = await page.evaluate(() => window.flamedrop.lanes());
    const box = await page.locator('canvas#flamechart').boundingBox();
    let tooltip = null;
    for (let y = box.y + lane.top + 4; y < box.y + lane.top + lane.height && !tooltip; y += 5) {
      await page.mouse.move(box.x + box.width * 0.5, y);
      await nextFrames(page);
      const name = await page.locator('.tooltip .tooltip-name').textContent({ timeout: 300 }).catch(() => null);
      if (name === 'work') tooltip = await page.textContent('.tooltip');
    }
    assert.ok(tooltip, 'hovering the zoomed call shows its tooltip');
    assert.match(tooltip, new RegExp(`Δ vmrss\\+${diffs[0].vmrss} KB`));
    assert.match(tooltip, new RegExp(`Δ minor faults\\+${diffs[0].minor}`));
    await shot(page, 'read-events-tooltip.png');
    await page.keyboard.press('0').catch(() => {});

    // The call tree: Δ rss and Δ faults summed over the calls of each node.
    await page.click('[data-view="calltree"]');
    await page.waitForSelector('table#calltree');
    const headers = await page.$$eval('table#calltree thead th', (els) => els.map((e) => e.textContent.trim()));
    assert.deepEqual(headers.slice(3, 5), ['Δ rss', 'Δ faults']);
    const sum = (key) => diffs.reduce((a, d) => a + d[key], 0);
    const cells = async (name) => {
      const row = page.locator(`table#calltree tbody tr[data-name="${name}"]`).first();
      return row.locator('td.delta').allTextContents();
    };
    await page.waitForSelector('table#calltree tbody tr[data-name="work"]');
    assert.deepEqual(await cells('work'), [`+${sum('vmrss')} KB`, `+${sum('major') + sum('minor')}`]);
    assert.deepEqual(await cells('main'), ['', ''], 'main had no read trigger');
    await page.click('table#calltree tbody tr[data-name="work"]');
    await shot(page, 'read-events-calltree.png');
    await page.click('#calltree-bottomup');
    await page.waitForSelector('table#calltree[data-inverted="true"]');
    await page.waitForSelector('table#calltree tbody tr[data-name="work"]');
    assert.deepEqual(await cells('work'), [`+${sum('vmrss')} KB`, `+${sum('major') + sum('minor')}`]);

  }));

/**
 * Per function of replay.txt, the sums of its calls' `diff:` values: { name: { vmrss, faults } },
 * each `+%PRIu64` read back as the signed 64-bit difference it stands for.
 */
function referenceSums(dir) {
  const text = fs.readFileSync(path.join(dir, 'reference', 'replay.txt'), 'utf8');
  const sums = {};
  const open = [];
  for (const line of text.split('\n')) {
    const body = line.split(' | ')[1]?.trim() ?? '';
    const entered = /^(\S+)\(\) \{$/.exec(body);
    if (entered) open.push(entered[1]);
    else if (body.startsWith('} /* ')) open.pop();
    else if (body.startsWith('/* diff:')) {
      const name = open[open.length - 1];
      const sum = (sums[name] ??= { vmrss: 0n, faults: 0n, has: new Set() });
      for (const [, key, value] of body.matchAll(/(\w+)=\+(\d+)/g)) {
        const signed = BigInt.asIntN(64, BigInt(value));
        if (key === 'vmrss') (sum.vmrss += signed), sum.has.add('vmrss');
        if (key === 'major' || key === 'minor') (sum.faults += signed), sum.has.add('faults');
      }
    }
  }
  return sums;
}

test('read triggers on nested calls (i-read-events): bottom-up Δ columns, negative deltas, the counter tracks', (t) =>
  withPage(t, async ({ page, base }) => {
    const dir = path.join(CASE, '..', 'i-read-events');
    const sums = referenceSums(dir);
    assert.equal(sums.release.vmrss, -1544n, 'replay.txt: release gave back 516 + 1028 KB');
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', path.join(dir, 'uftrace.data'));
    await waitForState(page, 'ready');
    const counters = await page.evaluate(() => window.flamedrop.counters());
    assert.ok(counters.some((c) => c.name === 'vmrss' && c.unit === 'KB'), JSON.stringify(counters));
    await page.click('[data-view="calltree"]');
    await page.click('#calltree-bottomup');
    await page.waitForSelector('table#calltree[data-inverted="true"] tbody tr[data-name="release"]');
    // Every function's row: its calls' diffs summed (no function here calls itself).
    const rows = await page.$$eval('table#calltree tbody tr[aria-level="1"]', (trs) =>
      trs.map((tr) => [tr.dataset.name, [...tr.querySelectorAll('td.delta')].map((td) => td.textContent)]),
    );
    for (const [name, cells] of rows) {
      const sum = sums[name];
      const want = [
        sum?.has.has('vmrss') ? `${sum.vmrss < 0n ? '' : '+'}${sum.vmrss} KB` : '',
        sum?.has.has('faults') ? `${sum.faults < 0n ? '' : '+'}${sum.faults}` : '',
      ];
      assert.deepEqual(cells, want, `bottom-up row ${name}`);
    }
    assert.ok(rows.length >= 5);
    // Sorted by Δ rss: the largest growth first, calls without the value last.
    await page.click('button.sort[data-sort="delta-0"]');
    const order = await page.$$eval('table#calltree tbody tr[aria-level="1"]', (trs) => trs.map((tr) => tr.dataset.name));
    const byRss = Object.entries(sums)
      .filter(([, s]) => s.has.has('vmrss'))
      .sort((a, b) => (a[1].vmrss < b[1].vmrss ? 1 : a[1].vmrss > b[1].vmrss ? -1 : 0))
      .map(([name]) => name);
    assert.deepEqual(order.slice(0, byRss.length), byRss);
    await shot(page, 'read-events-bottom-up.png');
    // The timeline with its counter tracks: vmrss rises in each grow and falls in each release.
    await page.click('[data-view="timeline"]');
    await page.waitForSelector('canvas#flamechart');
    await shot(page, 'read-events-timeline.png');
  }));
