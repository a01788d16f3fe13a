// The Files (8), Network (9) and Threads (t) views (issue 18): the SWAP activity scenario
// (tests/fixtures/swap/activity.swap, written by crates/core/examples/swap-scenarios/activity.rs)
// shows one row per file per thread, per socket, per sync object per thread, with the calls the
// scenario makes (counted here from its description, not from the page); a drag across the chart
// sets the ruler's range and the table recounts; a network call shows its payload; Scaler's
// producer/consumer fixture shows its sync objects in the Threads view.
// Screenshots go to tests/e2e/out/views/ (and docs/views/ with FLAMEDROP_UPDATE_DOCS=1).
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const path = require('node:path');
const { nextFrames, openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const SCENARIO = path.join(__dirname, '..', 'fixtures', 'swap', 'activity.swap');
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));
const VIEWPORT = { width: 1400, height: 860 };
const LABEL_WIDTH = 330; // src/view_model/activity.rs
const AXIS = 22;
const ROW = 24;
const TRACE_MS = 115; // the scenario's first message at 0 ms, MSG_TERMINATE at 115 ms

// The scenario's file calls (activity.rs: files()), as [ms, row key].
const DB = '/opt/usr/apps/org.example.notes/data/notes.db';
const LOG = '/opt/usr/apps/org.example.notes/data/notes.log';
const MISSING = '/opt/usr/media/cover.png';
function fileCalls() {
  const calls = [];
  const main = (t, p) => calls.push([t, `${p} 1234`]);
  const worker = (t, p) => calls.push([t, `${p} 1240`]);
  main(2, DB); main(3, DB); main(4, DB); // open, lock start, lock end
  for (let i = 0; i < 3; i++) { main(5 + i * 2, DB); main(6 + i * 2, DB); } // write begin/end
  main(11, DB); // lock release
  for (let i = 0; i < 2; i++) { main(12 + i * 3, DB); main(14 + i * 3, DB); } // read begin/end
  main(20, DB); // close
  main(22, LOG);
  for (let i = 0; i < 5; i++) { main(30 + i * 15, LOG); main(30.5 + i * 15, LOG); }
  worker(8, DB);
  for (let i = 0; i < 4; i++) { worker(10 + i * 10, DB); worker(13 + i * 10, DB); }
  worker(55, DB);
  worker(60, MISSING); // fails
  return calls;
}

/** Bytes as the page prints them (src/view_model/text.rs::bytes, powers of 1000). */
function bytes(n) {
  return n < 1e3 ? `${n} B` : `${(n / 1e3).toFixed(1)} KB`;
}

function countBy(calls, from = -Infinity, to = Infinity) {
  const out = {};
  for (const [t, key] of calls) if (t >= from && t <= to) out[key] = (out[key] || 0) + 1;
  return out;
}

/** The table's rows as objects keyed by column title. */
async function tableRows(page) {
  return page.$$eval('#activity-table', ([table]) => {
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
    return [...table.querySelectorAll('tbody tr')].map((tr) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent);
      return Object.fromEntries(heads.map((h, i) => [h, cells[i]]));
    });
  });
}

async function openView(page, base, file, key, canvas) {
  await openEmpty(page, base);
  await page.setInputFiles('#open-files', file);
  await waitForState(page, 'ready');
  await page.click('body', { position: { x: 5, y: 5 } });
  await page.keyboard.press(key);
  await page.waitForSelector(`#${canvas}`);
  await nextFrames(page);
}

/** The page x of `ms` on the chart (whole-trace axis). */
async function xOf(page, canvas, ms) {
  const box = await page.locator(`#${canvas}`).boundingBox();
  return { box, x: box.x + LABEL_WIDTH + (ms / TRACE_MS) * (box.width - LABEL_WIDTH) };
}

test('files view: a row per file per thread with its calls; a range recounts them', (t) =>
  withPage(t, async ({ page, base }) => {
    await openView(page, base, SCENARIO, '8', 'files-chart');
    const calls = fileCalls();
    const expected = countBy(calls);
    const rows = await tableRows(page);
    const got = Object.fromEntries(rows.map((r) => [`${r.file} ${r.thread.replace('tid ', '')}`, Number(r.calls)]));
    assert.deepEqual(got, expected);
    const db = rows.find((r) => r.file === DB && r.thread === 'tid 1234');
    assert.equal(db.read, bytes(2 * 4096));
    assert.equal(db.written, bytes(3 * 512));
    assert.equal(rows.find((r) => r.file === MISSING).failed, '1');
    await saveShots(page, SHOTS, 'files.png');

    // Drag from 24.5 ms to 47.5 ms (no call within a few pixels of either end).
    const a = await xOf(page, 'files-chart', 24.5);
    const b = await xOf(page, 'files-chart', 47.5);
    const y = a.box.y + AXIS + ROW / 2;
    await page.mouse.move(a.x, y);
    await page.mouse.down();
    await page.mouse.move(b.x, y, { steps: 4 });
    await page.mouse.up();
    await page.waitForSelector('#activity-clear-range');
    const inRange = countBy(calls, 24.5, 47.5);
    const ranged = await tableRows(page);
    const gotRanged = Object.fromEntries(
      ranged.filter((r) => r.calls !== '0').map((r) => [`${r.file} ${r.thread.replace('tid ', '')}`, Number(r.calls)]),
    );
    assert.deepEqual(gotRanged, inRange);
    assert.match(await page.textContent('#activity-scope'), /^In the range/);
    await saveShots(page, SHOTS, 'files-range.png');
  }, { viewport: VIEWPORT }));

test('network view: a row per socket, bytes each way, a response payload as hex and text', (t) =>
  withPage(t, async ({ page, base }) => {
    await openView(page, base, SCENARIO, '9', 'network-chart');
    const request = 'GET /notes/sync?since=1700000000 HTTP/1.1\r\nHost: notes.example.org\r\nAccept: application/json\r\n\r\n';
    const response = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\n\r\n{"notes":[{"id":7,"title":"groceries"}]}';
    const rows = await tableRows(page);
    assert.deepEqual(rows.map((r) => [r.socket, r.destination, r.calls]), [
      // fd open, connect, 3 × (send start, send end, recv start, recv end), fd close
      ['0x400a000 fd 30', '93.184.216.34:80', String(2 + 3 * 4 + 1)],
      // connect, 3 × (send start, send end), 2 × (recv start, recv end)
      ['0x400b000 fd 31', '10.0.0.2:8883', String(1 + 3 * 2 + 2 * 2)],
    ]);
    assert.equal(rows[0].sent, bytes(3 * request.length));
    assert.equal(rows[0].received, bytes(3 * response.length));
    assert.equal(rows[1].sent, bytes(3 * 16));
    assert.equal(rows[1].received, bytes(2 * 32));
    // Pick the first response (recv end at 18 ms) on the HTTP socket's row.
    const { box, x } = await xOf(page, 'network-chart', 18);
    await page.mouse.click(x, box.y + AXIS + ROW / 2);
    await page.waitForSelector('#payload-text');
    assert.equal(await page.textContent('#payload-text'), response.replace(/\r/g, ''));
    assert.match(await page.textContent('#payload-hex'), /^0000 {2}48 54 54 50 2f 31 2e 31 20 32 30 30 20 4f 4b 0d {2}HTTP\/1\.1 200 OK\./);
    await saveShots(page, SHOTS, 'network.png');
  }, { viewport: VIEWPORT }));

test('threads view: held and waited per sync object per thread, the object lit on every thread', (t) =>
  withPage(t, async ({ page, base }) => {
    await openView(page, base, SCENARIO, 't', 'threads-chart');
    const rows = await tableRows(page);
    // activity.rs: locks(): 4 rounds of (wait start, wait end, release) on each thread; the
    // worker's condition waits (start, end) and main's notifies in rounds 0 and 2.
    assert.deepEqual(rows.map((r) => [r.thread, r.object, r.calls, r.waits, r.holds]), [
      ['tid 1234', '0x3005000', '12', '4', '4'],
      ['tid 1234', '0x3005100', '2', '0', '0'],
      ['tid 1240', '0x3005000', '12', '4', '4'],
      ['tid 1240', '0x3005100', '4', '2', '0'],
    ]);
    // Main holds 3.9 ms a round (0.1 → 4 ms), the worker waits 3.1 ms (1 → 4.1 ms).
    assert.equal(rows[0].held, '15.600 ms');
    assert.equal(rows[2].waited, '12.400 ms');
    // Click main's mutex row: the mutex is lit on both threads.
    const box = await page.locator('#threads-chart').boundingBox();
    await page.mouse.click(box.x + 40, box.y + AXIS + ROW / 2);
    await page.waitForFunction(() => document.querySelectorAll('#activity-table tr.highlighted').length === 2);
    await saveShots(page, SHOTS, 'threads.png');
  }, { viewport: VIEWPORT }));

test('threads view on Scaler: its mutex, condition, semaphore and joins per thread', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=scaler-prodcons`);
    await waitForState(page, 'ready');
    await page.click('body', { position: { x: 5, y: 5 } });
    await page.keyboard.press('t');
    await page.waitForSelector('#threads-chart');
    const rows = await tableRows(page);
    // README: the mutex and the semaphore on the producer and both consumers, the condition on
    // the producer (signal, broadcast) and consumer 0 (its one wait), main's three joins.
    const objects = {};
    for (const r of rows) objects[r.object] = (objects[r.object] || 0) + 1;
    assert.deepEqual(
      Object.entries(objects).map(([o, n]) => [o.split(' ')[0], n]).sort(),
      [['cond', 2], ['mutex', 3], ['sem', 3], ['thread', 1], ['thread', 1], ['thread', 1]],
    );
    assert.equal(rows.filter((r) => r.object === 'mutex 0x55f71d12b0a0').length, 3);
    await page.click('#activity-table tbody tr:has-text("mutex 0x55f71d12b0a0")');
    await page.waitForFunction(() => document.querySelectorAll('#activity-table tr.highlighted').length === 3);
    await saveShots(page, SHOTS, 'threads-scaler.png');
  }, { viewport: VIEWPORT }));

test('timeline of the scenario: per-core load and frequency tracks, startup stages, screen markers', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    await page.setInputFiles('#open-files', SCENARIO);
    await waitForState(page, 'ready');
    await nextFrames(page);
    const counters = await page.evaluate(() => window.flamedrop.counters().map((c) => c.name));
    for (const name of ['CPU 0 load', 'CPU 1 load', 'CPU 0 frequency', 'CPU 1 frequency']) {
      assert.ok(counters.some((c) => c.startsWith(name)), `no ${name} track in ${counters}`);
    }
    const lanes = await page.evaluate(() => window.flamedrop.lanes().map((l) => l.thread_id));
    assert.ok(lanes.some((id) => id.endsWith('startup')), `no startup lane in ${lanes}`);
    await saveShots(page, [path.join(__dirname, 'out', 'views')], 'activity-timeline.png');
  }, { viewport: VIEWPORT }));
