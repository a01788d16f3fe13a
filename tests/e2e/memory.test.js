// The Memory view (key 7) on sp-rtrace's c-leaks: the peak and the live-at-end figures the view
// shows (and window.flamedrop.memory() returns) equal an independent replay of the calls
// sp-rtrace-postproc printed (reference/postproc.txt: `fn(size) = addr` allocates, `fn(addr)`
// frees), and the end equals postproc -l's leak totals (reference/postproc-l.txt); a range set on
// the timeline's ruler recomputes the numbers (the end of the range equals the replay up to the
// range's last call); a click on the chart lists that moment; "live at end" is a flame-graph
// source whose total is the leak total; the size filter keeps what a replay keeping those sizes
// keeps (its flame graph too); on c-files-multi each resource of the picker ends at the leaks postproc -l lists for it; the
// SWAP demo's memory probes end with its 4 leaks. Screenshots: memory.png, memory-range.png,
// memory-swap.png.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { nextFrames, openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const CASE = path.resolve(__dirname, '../fixtures/rtrace/c-leaks');
// Screenshots go to tests/e2e/out/views/ (and docs/views/ with FLAMEDROP_UPDATE_DOCS=1).
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));

/** postproc -l's last line: { blocks, bytes } of the memory resource's leaks. */
function leakTotals() {
  const text = fs.readFileSync(path.join(CASE, 'reference/postproc-l.txt'), 'utf8');
  const m = /# (\d+) block\(s\) leaked with total size of (\d+) bytes/.exec(text);
  assert.ok(m, 'postproc-l.txt states its leak totals');
  return { blocks: Number(m[1]), bytes: Number(m[2]) };
}

/**
 * Replays postproc.txt's calls up to call index `last` (inclusive): the first moment of highest
 * live bytes and what is live after the last call.
 */
function replay(last = Infinity, keep = () => true) {
  const lines = fs.readFileSync(path.join(CASE, 'reference/postproc.txt'), 'utf8').split('\n');
  const live = new Map();
  let bytes = 0;
  let peak = { index: 0, bytes: 0, blocks: 0 };
  for (const line of lines) {
    const call = /^(\d+)\. \[[^\]]*\] \w+\((.*)\)( = (0x[0-9a-f]+))?$/.exec(line);
    if (!call) continue;
    const index = Number(call[1]);
    if (index > last) break;
    if (call[4]) {
      const size = Number(call[2]);
      if (!keep(size)) continue;
      live.set(call[4], size);
      bytes += size;
    } else if (live.has(call[2])) {
      bytes -= live.get(call[2]);
      live.delete(call[2]);
    }
    if (bytes > peak.bytes) peak = { index, bytes, blocks: live.size };
  }
  return { peak, end: { bytes, blocks: live.size } };
}

async function openMemory(page, base) {
  await openEmpty(page, base);
  await page.setInputFiles('#open-folder', CASE);
  await waitForState(page, 'ready');
  await page.click('body', { position: { x: 5, y: 5 } });
  await page.keyboard.press('7');
  await page.waitForSelector('#memory-figures');
  await nextFrames(page);
  assert.equal(await page.evaluate(() => window.flamedrop.state().view), 'memory');
}

/** The figures as the view shows them (its data attributes) and as memory() returns them. */
async function figures(page) {
  await nextFrames(page);
  return page.evaluate(() => {
    const d = document.querySelector('#memory-figures').dataset;
    const m = window.flamedrop.memory();
    return {
      shown: { peak: [Number(d.peakBytes), Number(d.peakBlocks)], end: [Number(d.endBytes), Number(d.endBlocks)] },
      api: m,
    };
  });
}

test('memory: the peak and the end equal a replay of the calls and postproc -l', (t) =>
  withPage(t, async ({ page, base }) => {
    await openMemory(page, base);
    const want = replay();
    const leaks = leakTotals();
    assert.deepEqual(want.end, leaks, 'the replay itself agrees with postproc -l');
    const { shown, api } = await figures(page);
    assert.deepEqual(shown.end, [leaks.bytes, leaks.blocks], 'live at end shown = postproc -l totals');
    assert.deepEqual(shown.peak, [want.peak.bytes, want.peak.blocks], 'the peak shown = the replay’s');
    const s = api.summary;
    assert.equal(s.resource, 'memory');
    assert.equal(s.series.peak.bytes, want.peak.bytes);
    assert.equal(s.series.peak.time, want.peak.index, 'the peak is at the replay’s call');
    assert.equal(s.series.end.bytes, leaks.bytes);
    // The table lists the peak's blocks; their groups add up to the peak.
    const groups = await page.evaluate(() => ({ ...document.querySelector('#memory-groups').dataset }));
    assert.equal(Number(groups.bytes), want.peak.bytes);
    assert.equal(Number(groups.blocks), want.peak.blocks);
    // The size histogram counts every allocation once.
    const allocations = fs.readFileSync(path.join(CASE, 'reference/postproc.txt'), 'utf8').split('\n').filter((l) => / = 0x[0-9a-f]+$/.test(l)).length;
    const counted = s.sizes.reduce((n, b) => n + b.freed_count + b.live_count, 0);
    assert.equal(counted, allocations, 'the size histogram counts every allocation');
    assert.ok(await page.locator('canvas#memory-chart').isVisible());
    await saveShots(page, SHOTS, 'memory.png');

    // End: the table lists the leaks; its flame graph's total is the leak total.
    await page.click('#memory-at-end');
    await page.waitForFunction((bytes) => document.querySelector('#memory-groups').dataset.bytes === String(bytes), leaks.bytes);
    await page.click('#memory-flamegraph');
    await page.waitForSelector('canvas#flamegraph');
    const state = await page.evaluate(() => window.flamedrop.state());
    assert.equal(state.view, 'flamegraph');
    assert.equal(state.source, 'mem:0:end:bytes');
    const rows = await page.evaluate(() => window.flamedrop.calltree());
    const total = rows.filter((r) => r.depth === 1).reduce((n, r) => n + r.total, 0);
    assert.equal(total, leaks.bytes, 'the "live at end" flame graph weighs the leaks');
  }, { viewport: { width: 1400, height: 1000 } }));

test('memory: a ruler range recomputes the numbers; a click lists that moment', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', CASE);
    await waitForState(page, 'ready');
    const box = await page.locator('canvas#flamechart').boundingBox();
    await page.mouse.move(box.x + box.width * 0.1, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.45, box.y + 10, { steps: 4 });
    await page.mouse.up();
    const { range } = await page.evaluate(() => window.flamedrop.state());
    assert.ok(range && range[1] > range[0], `no range selected: ${JSON.stringify(range)}`);
    await page.click('body', { position: { x: 5, y: 5 } });
    await page.keyboard.press('7');
    await page.waitForSelector('#memory-figures');
    const { shown, api } = await figures(page);
    assert.deepEqual(api.range, range);
    const upTo = replay(range[1]);
    assert.deepEqual(shown.end, [upTo.end.bytes, upTo.end.blocks], `live at the range's end = the replay up to call ${range[1]}`);
    const whole = replay();
    assert.notDeepEqual(shown.end, [whole.end.bytes, whole.end.blocks], 'the range changed the end');
    const inRange = api.summary.sizes.reduce((n, b) => n + b.freed_count + b.live_count, 0);
    const lines = fs.readFileSync(path.join(CASE, 'reference/postproc.txt'), 'utf8').split('\n');
    const allocatedInRange = lines.filter((l) => {
      const m = /^(\d+)\. .* = 0x[0-9a-f]+$/.exec(l);
      return m && Number(m[1]) >= range[0] && Number(m[1]) <= range[1];
    }).length;
    assert.equal(inRange, allocatedInRange, 'the histogram counts the allocations made in the range');
    await saveShots(page, SHOTS, 'memory-range.png');

    // A click on the chart's middle lists that moment and makes it the flame graph's source.
    const chart = await page.locator('canvas#memory-chart').boundingBox();
    await page.mouse.click(chart.x + chart.width * 0.6, chart.y + chart.height * 0.4);
    await page.waitForFunction(() => window.flamedrop.memory().state.moment.At != null);
    const after = await page.evaluate(() => ({ m: window.flamedrop.memory(), s: window.flamedrop.state() }));
    const at = after.m.state.moment.At;
    assert.ok(at >= range[0] && at <= range[1], `the clicked time ${at} is in the range`);
    assert.equal(after.s.source, `mem:0:at${at}:bytes`);
    const listed = replay(at).end;
    const groups = await page.evaluate(() => ({ ...document.querySelector('#memory-groups').dataset }));
    assert.deepEqual([Number(groups.bytes), Number(groups.blocks)], [listed.bytes, listed.blocks], `live at call ${at} = the replay's`);
    // The line over the chart reads the value under the pointer.
    const readout = await page.textContent('#memory-readout');
    assert.match(readout, new RegExp(`^at \\d+ events: .* live in ${listed.blocks} blocks`), readout);
  }, { viewport: { width: 1400, height: 1000 } }));

test('memory: the size filter keeps what a replay of those sizes keeps', (t) =>
  withPage(t, async ({ page, base }) => {
    await openMemory(page, base);
    await page.fill('#memory-size', '33-');
    await page.press('#memory-size', 'Enter');
    await page.waitForFunction(() => window.flamedrop.memory().state.filter.size != null);
    const { shown, api } = await figures(page);
    assert.equal(api.state.filter.size[0], 33);
    assert.ok(api.state.filter.size[1] >= 2 ** 63, 'open above');
    const want = replay(Infinity, (size) => size >= 33);
    assert.deepEqual(shown.peak, [want.peak.bytes, want.peak.blocks], 'the filtered peak = the replay’s');
    assert.deepEqual(shown.end, [want.end.bytes, want.end.blocks], 'the filtered end = the replay’s');
    assert.ok(api.summary.selected < api.summary.total, 'the filter left some out');
    // The flame graph of the listed blocks (the peak) weighs what the filter keeps.
    await page.click('#memory-flamegraph');
    await page.waitForSelector('canvas#flamegraph');
    const { source } = await page.evaluate(() => window.flamedrop.state());
    assert.match(source, /^mem:0:peak:bytes:size=33,\d+$/);
    const rows = await page.evaluate(() => window.flamedrop.calltree());
    assert.equal(rows.filter((r) => r.depth === 1).reduce((n, r) => n + r.total, 0), want.peak.bytes);
    await page.keyboard.press('7');
    await page.waitForSelector('#memory-size');
    // A text that does not read is refused and leaves the filter as it was.
    await page.fill('#memory-size', '9-3');
    await page.press('#memory-size', 'Enter');
    assert.equal(await page.evaluate(() => document.querySelector('#memory-size').validity.valid), false);
    assert.equal(await page.evaluate(() => window.flamedrop.memory().state.filter.size[0]), 33);
  }));

test('memory: each resource of c-files-multi ends at the leaks postproc -l lists', (t) =>
  withPage(t, async ({ page, base }) => {
    const dir = path.resolve(__dirname, '../fixtures/rtrace/c-files-multi');
    const text = fs.readFileSync(path.join(dir, 'reference/postproc-l.txt'), 'utf8');
    // The leaked calls postproc -l lists, summed per resource (its memory summary line is wrong
    // in sp-rtrace 2.0.1: it prints the fd totals, see the fixture's README).
    const totals = {};
    for (const m of text.matchAll(/^\d+\. \w+<(\w+)>\((\d+)\) = 0x[0-9a-f]+$/gm)) {
      const [bytes, blocks] = totals[m[1]] || [0, 0];
      totals[m[1]] = [bytes + Number(m[2]), blocks + 1];
    }
    assert.deepEqual(totals.memory, [9181, 5], 'the README\'s 5 heap blocks of 9181 bytes');
    for (const m of text.matchAll(/# Resource - (fd|fp) .*\n# (\d+) block\(s\) leaked with total size of (\d+) bytes/g)) {
      assert.deepEqual(totals[m[1]], [Number(m[3]), Number(m[2])], `postproc -l's ${m[1]} summary`);
    }
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', dir);
    await waitForState(page, 'ready');
    await page.click('body', { position: { x: 5, y: 5 } });
    await page.keyboard.press('7');
    await page.waitForSelector('#memory-figures');
    const options = await page.$$eval('#memory-resource option', (os) => os.map((o) => o.value));
    assert.equal(options.length, 3);
    const seen = {};
    for (const value of options) {
      await page.selectOption('#memory-resource', value);
      await page.waitForFunction((v) => window.flamedrop.memory().state.resource === Number(v), value);
      const { shown, api } = await figures(page);
      seen[api.summary.resource] = shown.end;
    }
    assert.deepEqual(seen, totals);
  }));

test('memory: the SWAP demo’s memory probes end with its 4 leaks', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=swap-gallery`);
    await waitForState(page, 'ready');
    await page.click('body', { position: { x: 5, y: 5 } });
    await page.keyboard.press('7');
    await page.waitForSelector('#memory-figures');
    const { shown, api } = await figures(page);
    // tests/fixtures/swap/README.md: demo.swap's memory probes leave 4 blocks.
    assert.equal(shown.end[1], 4);
    assert.ok(shown.peak[0] >= shown.end[0] && shown.peak[1] > 0);
    assert.equal(api.summary.series.points.length > 2, true, 'a series over time');
    await saveShots(page, SHOTS, 'memory-swap.png');
  }, { viewport: { width: 1400, height: 1000 } }));
