// SELogger's Values view and omniscient stepping (issue 19), on demo-v060-omnibinary opened through
// input#open-folder, against the text SELogger's own LogPrinter printed for it
// (reference/LogPrinter.txt.gz, parsed here):
// - the Values view of three data ids (one chosen in the picker by searching, two through
//   flamedrop.values) lists, row by row, the EventIds, threads and values LogPrinter prints for them;
//   the view's count, distinct count and min/max are those of the reference's values;
// - pressing `.` from no selection starts at the first event of thread 0 and, pressing it on,
//   visits thread 0's events in LogPrinter's order (the first 200); from thread 1's first event
//   (selectEvent), thread 1's; `,` goes back; the detail panel shows the event's call and the
//   Listing view marks the event's row;
// - a near-omniscient output's Values view says it keeps no history.
// Screenshots: docs/views/values.png, values-nearomni.png (with FLAMEDROP_UPDATE_DOCS=1).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { test } = require('node:test');
const { openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const GROUP = path.join(__dirname, '..', 'fixtures', 'selogger');
const CASE = path.join(GROUP, 'demo-v060-omnibinary');
const NEAR_OMNI = path.join(GROUP, 'demo-v060-nearomni-json');
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));

/** LogPrinter's lines: {id, kind, thread, dataId, value} (the value: between `Value=` and the place). */
function reference() {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(CASE, 'reference', 'LogPrinter.txt.gz'))).toString();
  const field = (line, key) => (line.split(',').find((f) => f.startsWith(key)) || '').slice(key.length);
  return text
    .split('\n')
    .filter((l) => l.startsWith('EventId='))
    .map((line) => {
      const beforePlace = line.split(',').slice(0, -2).join(',');
      const at = beforePlace.indexOf(',Value=');
      return {
        id: Number(field(line, 'EventId=')),
        kind: field(line, 'EventType='),
        thread: field(line, 'ThreadId='),
        dataId: Number(field(line, 'DataId=')),
        value: at < 0 ? '' : beforePlace.slice(at + ',Value='.length),
      };
    });
}

/** The rows the Values view shows: [EventId, thread, value] each. */
async function shownRows(page) {
  return page.$$eval('#values-table .values-row[data-event]', (rows) =>
    rows.map((r) => [
      Number(r.querySelector('.seq').textContent),
      r.querySelector('.thread').textContent,
      r.querySelector('.value').firstChild ? r.querySelector('.value').firstChild.textContent : '',
    ]));
}

/** Opens the SELogger folder `dir` and its Values view (key `v`). */
async function openValues(page, base, dir) {
  await openEmpty(page, base);
  await page.setInputFiles('#open-folder', dir);
  await waitForState(page, 'ready');
  await page.keyboard.press('v');
  await page.waitForSelector('#view-values');
}

/** Waits until the view shows `key`'s history. */
async function waitForLocation(page, key) {
  await page.waitForSelector(`#view-values[data-location="${key}"] #values-table`);
}

test('values view: three data ids list the values LogPrinter prints, in order', (t) =>
  withPage(t, async ({ page, base }) => {
    const lines = reference();
    await openValues(page, base, CASE);
    await page.waitForSelector('#view-values #values-picks');
    // fib's results (numbers, one thread), a local store seen by three threads, a method parameter.
    for (const [id, how] of [[1446, 'picker'], [1760, 'script'], [1755, 'script']]) {
      const theirs = lines.filter((l) => l.dataId === id).map((l) => [l.id, l.thread, l.value]);
      assert.ok(theirs.length >= 3 && theirs.length <= 50, `${id}: ${theirs.length}`);
      if (how === 'picker') {
        await page.fill('#values-search', `#${id} `);
        await page.click(`#values-picks button[data-location="id:${id}"]`);
      } else {
        const history = await page.evaluate((d) => window.flamedrop.values(d), id);
        assert.deepEqual(history.points.map((p) => [p.seq, p.thread, p.value]), theirs, `data id ${id} (script)`);
        assert.equal(history.complete, true);
      }
      await waitForLocation(page, `id:${id}`);
      assert.deepEqual(await shownRows(page), theirs, `data id ${id}`);
      assert.equal(await page.textContent('#values-count'), String(theirs.length));
      assert.equal(await page.textContent('#values-distinct'), String(new Set(theirs.map((r) => r[2])).size));
      const numbers = theirs.map((r) => Number(r[2]));
      if (numbers.every((n) => Number.isFinite(n))) {
        assert.equal(await page.textContent('#values-min'), String(Math.min(...numbers)));
        assert.equal(await page.textContent('#values-max'), String(Math.max(...numbers)));
        assert.ok(await page.$('canvas#values-chart'), 'numeric values have a chart');
      }
    }
    // A click on a row selects its event; the selected event's call is the detail panel's.
    const second = lines.filter((l) => l.dataId === 1755)[1];
    await page.click(`#values-table .values-row[data-event] >> nth=1`);
    await page.waitForFunction((seq) => window.flamedrop.event() && window.flamedrop.event().seq === seq, second.id);
    assert.match(await page.textContent('#values-event'), new RegExp(`EventId ${second.id}\\b`));
    await page.waitForSelector('#detail .detail-name');
    // "Values of this location" shows the selected event's data id.
    await page.evaluate(() => window.flamedrop.values(1446));
    await waitForLocation(page, 'id:1446');
    await page.click('#values-of-event');
    await waitForLocation(page, 'id:1755');
    await page.evaluate(() => window.flamedrop.values(1446));
    await waitForLocation(page, 'id:1446');
    await page.click(`#values-table .values-row[data-event] >> nth=7`);
    await saveShots(page, SHOTS, 'values.png');
  }));

test('values view: stepping visits a thread\'s events in LogPrinter\'s order', (t) =>
  withPage(t, async ({ page, base }) => {
    const lines = reference();
    await openValues(page, base, CASE);
    await page.waitForSelector('#view-values #values-event');
    const event = () => page.evaluate(() => window.flamedrop.event());
    const walk = async (thread, count) => {
      const theirs = lines.filter((l) => l.thread === thread).slice(0, count).map((l) => l.id);
      const ours = [];
      for (let i = 0; i < count; i++) {
        if (i > 0) await page.keyboard.press('.');
        const e = await event();
        assert.equal(e.thread, thread, `step ${i}`);
        ours.push(e.seq);
      }
      assert.deepEqual(ours, theirs, `thread ${thread}`);
    };
    // From no selection, `.` starts at thread 0's first event.
    await page.keyboard.press('.');
    await walk('0', 200);
    await page.keyboard.press(',');
    const back = lines.filter((l) => l.thread === '0')[198];
    assert.equal((await event()).seq, back.id);
    // From thread 1's first event.
    const first1 = lines.find((l) => l.thread === '1');
    const points = await page.evaluate((d) => window.flamedrop.values(d).points, first1.dataId);
    const start = points.find((p) => p.seq === first1.id);
    assert.ok(start, `data id ${first1.dataId} holds EventId ${first1.id}`);
    await page.evaluate((n) => window.flamedrop.selectEvent(n), start.event);
    await walk('1', 120);
    // The selected event's call is selected; the Listing view marks the event's row.
    await page.waitForSelector('#detail .detail-name');
    const seq = (await event()).seq;
    await page.keyboard.press('6');
    await page.waitForSelector(`.listing-row.selected:has-text("EventId=${seq},")`);
    await page.keyboard.press('.');
    const next = lines.filter((l) => l.thread === '1')[120].id;
    await page.waitForSelector(`.listing-row.selected:has-text("EventId=${next},")`);
  }));

test('values view: a near-omniscient output says it keeps no history', (t) =>
  withPage(t, async ({ page, base }) => {
    await openValues(page, base, NEAR_OMNI);
    const note = await page.textContent('#view-values #values-note');
    assert.match(note, /near-omniscient logging keeps only the last values/);
    assert.equal((await page.evaluate(() => window.flamedrop.values(1))).complete, false);
    await saveShots(page, SHOTS, 'values-nearomni.png');
  }));
