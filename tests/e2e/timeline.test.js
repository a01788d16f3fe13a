// The timeline's lanes and exports (issue 7): lanes hidden and reordered through the lanes list
// (#lanes-list, keyboard), the header buttons drawn on the canvas and by dragging a header, kept
// in the URL fragment across a reload and never changing report(); the timeline as SVG (rects,
// the visible spans' labels, bounded size on the biggest fixture, the `events` unit on a logical
// clock); the page's own font; the minimap on a trace without spans; the sample-set note; SWAP's
// merged CPU samples. Screenshots go to tests/e2e/out/views/ (and docs/views/ with
// FLAMEDROP_UPDATE_DOCS=1).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { fixtureDir, nextFrames, openEmpty, pageReport, saveShots, waitForState, withPage } = require('./lib.js');

const FIXTURES = path.resolve(__dirname, '../fixtures');
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));

const frames = nextFrames;

const shot = (page, file) => saveShots(page, SHOTS, file);

/** Thread ids of the lanes drawn, top to bottom. */
async function laneOrder(page) {
  await frames(page);
  return (await page.evaluate(() => window.flamedrop.lanes())).map((l) => String(l.thread_id));
}

/** The fragment's lane parts, decoded: {lanes: [...keys], hide: [...keys]}. */
async function fragmentLanes(page) {
  const hash = await page.evaluate(() => location.hash.slice(1));
  const out = { lanes: [], hide: [] };
  for (const part of hash.split('&')) {
    const [key, value] = part.split('=');
    if (key in out) out[key] = value.split(',').map(decodeURIComponent);
  }
  return out;
}

/** Pixels of canvas#flamechart rows [y0, y1) (CSS px) that differ from the background. */
async function ink(page, y0, y1) {
  await frames(page);
  return page.evaluate(({ y0, y1 }) => {
    const c = document.querySelector('canvas#flamechart');
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d', { willReadFrequently: true });
    g.drawImage(c, 0, 0);
    const sy = c.height / c.getBoundingClientRect().height;
    const a = Math.max(0, Math.floor(y0 * sy));
    const b = Math.min(c.height, Math.ceil(y1 * sy));
    if (b <= a) return 0;
    const d = g.getImageData(0, a, c.width, b - a).data;
    const hex = /^#([0-9a-f]{6})$/i.exec(window.flamedrop.theme().background);
    const bg = [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 24) n++;
    }
    return n;
  }, { y0, y1 });
}

/** Parses SVG text in the page: {ok, rects, texts, paths}. */
async function parseSvg(page, svg) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      ok: !doc.querySelector('parsererror') && doc.documentElement.nodeName === 'svg',
      rects: doc.querySelectorAll('rect').length,
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      paths: doc.querySelectorAll('path').length,
      external: [...doc.querySelectorAll('[href], image, use')].length,
    };
  }, svg);
}

test('lanes are hidden, shown and reordered from the lanes list, the canvas and by dragging; a reload keeps them', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=c-pthreads-mutex`);
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    const natural = await laneOrder(page);
    assert.ok(natural.length >= 3, `the demo needs 3+ lanes, has ${natural.length}`);
    const sourcesBefore = await page.evaluate(() => window.flamedrop.state().source);

    // The lanes list: one entry per lane, reachable by keyboard.
    await page.focus('#lanes-button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#lanes-list', { state: 'visible' });
    const entries = await page.$$eval('#lanes-list li', (li) => li.map((l) => ({ lane: l.dataset.lane, kind: l.dataset.kind })));
    assert.deepEqual(entries.filter((e) => e.kind === 'thread').map((e) => e.lane), natural.map((id) => `t${id}`));
    await shot(page, 'timeline-lanes.png');

    // Hide the second lane with the keyboard: Tab to its checkbox, Space.
    const second = natural[1];
    const before = await page.evaluate(() => window.flamedrop.lanes());
    const oldBottom = before[before.length - 1].top + before[before.length - 1].height;
    await page.focus(`#lanes-list li[data-lane="t${second}"] input[type=checkbox]`);
    await page.keyboard.press('Space');
    await page.waitForFunction((id) => !window.flamedrop.lanes().some((l) => String(l.thread_id) === id), second);
    assert.deepEqual(await laneOrder(page), natural.filter((id) => id !== second));
    assert.deepEqual((await fragmentLanes(page)).hide, [`t${second}`]);
    assert.match(await page.textContent('#lanes-button'), /1 hidden/);
    // Its pixels are gone: the lanes below moved up, and the rows the last lane left hold only
    // the grid lines that run down an empty canvas.
    const shown = await page.evaluate(() => window.flamedrop.lanes());
    const bottom = shown[shown.length - 1].top + shown[shown.length - 1].height;
    assert.ok(bottom < oldBottom - 20, 'the lanes did not move up');
    const canvasHeight = await page.evaluate(() => document.querySelector('canvas#flamechart').getBoundingClientRect().height);
    const gridRows = Math.min(canvasHeight - 4, oldBottom + 20) - (oldBottom + 2);
    if (gridRows > 4) {
      const grid = (await ink(page, oldBottom + 2, oldBottom + 2 + gridRows)) / gridRows;
      const freed = (await ink(page, bottom + 2, oldBottom - 2)) / (oldBottom - 4 - bottom);
      assert.ok(freed <= grid * 1.05 + 2, `the freed rows hold ${freed} px per row, the empty grid ${grid}`);
    }

    // Move the last lane up twice with the list's buttons.
    const last = natural[natural.length - 1];
    for (let i = 0; i < 2; i++) await page.click(`#lanes-list li[data-lane="t${last}"] .lane-up`);
    // The list holds hidden lanes too: the last lane passes two lanes of the whole list.
    const arranged = natural.filter((id) => id !== last);
    arranged.splice(natural.length - 3, 0, last);
    let order = await laneOrder(page);
    assert.deepEqual(order, arranged.filter((id) => id !== second), 'lanes are not in the moved order');
    assert.ok((await fragmentLanes(page)).lanes.includes(`t${last}`), 'the order is not in the fragment');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#lanes-list', { state: 'detached' });

    // The hide button drawn at the right end of a lane header.
    const box = await page.locator('canvas#flamechart').boundingBox();
    let lanes = await page.evaluate(() => window.flamedrop.lanes());
    const victim = String(lanes[0].thread_id);
    await page.mouse.click(box.x + box.width - 21, box.y + lanes[0].top + 11);
    await page.waitForFunction((id) => !window.flamedrop.lanes().some((l) => String(l.thread_id) === id), victim);
    assert.deepEqual((await fragmentLanes(page)).hide.sort(), [`t${second}`, `t${victim}`].sort());

    // Drag the first lane by its header onto the second: it takes the second's place.
    lanes = await page.evaluate(() => window.flamedrop.lanes());
    if (lanes.length >= 2) {
      const [a, b] = lanes.map((l) => String(l.thread_id));
      await page.mouse.move(box.x + 120, box.y + lanes[0].top + 10);
      await page.mouse.down();
      await page.mouse.move(box.x + 120, box.y + lanes[1].top + 20, { steps: 6 });
      await page.mouse.up();
      await page.waitForFunction(([a, b]) => {
        const ids = window.flamedrop.lanes().map((l) => String(l.thread_id));
        return ids.indexOf(a) > ids.indexOf(b);
      }, [a, b]);
    }
    order = await laneOrder(page);
    const hash = await page.evaluate(() => location.hash);

    // Nothing of this changes report() or the aggregated views' threads.
    assert.deepEqual(await pageReport(page), report, 'hiding or moving lanes changed report()');
    assert.equal(await page.evaluate(() => window.flamedrop.state().source), sourcesBefore);
    await page.click('[data-view="calltree"]');
    const threadSources = await page.$$eval('#source option', (os) => os.filter((o) => o.value.startsWith('thread:')).length);
    assert.equal(threadSources, report.threads.length, 'the aggregated views lost a thread');
    await page.click('[data-view="timeline"]');

    // A reload of the same file restores order and hidden lanes.
    await page.reload();
    await waitForState(page, 'ready');
    assert.equal(await page.evaluate(() => location.hash), hash);
    assert.deepEqual(await laneOrder(page), order, 'the reload lost the lane order');
    await shot(page, 'timeline-lanes-arranged.png');

    // "Show all" puts everything back, in trace order, and clears the fragment's lane parts.
    await page.click('#lanes-button');
    await page.click('#lanes-show-all');
    await page.waitForFunction((n) => window.flamedrop.lanes().length === n, natural.length);
    assert.deepEqual(await laneOrder(page), natural);
    assert.deepEqual(await fragmentLanes(page), { lanes: [], hide: [] });
  }));

test('counter tracks are listed, hidden and reordered too', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=swap-gallery`);
    await waitForState(page, 'ready');
    const counters = await page.evaluate(() => window.flamedrop.counters().map((c) => c.name));
    assert.ok(counters.length >= 2);
    await page.click('#lanes-button');
    const listed = await page.$$eval('#lanes-list li[data-kind="counter"] label', (ls) => ls.map((l) => l.textContent));
    assert.equal(listed.length, counters.length);
    await page.click('#lanes-list li[data-lane="c0"] input[type=checkbox]');
    await page.waitForFunction((n) => window.flamedrop.counters().length === n - 1, counters.length);
    await page.click('#lanes-list li[data-lane="c2"] .lane-up');
    await frames(page);
    const after = await page.evaluate(() => window.flamedrop.counters().map((c) => c.name));
    assert.equal(after[0], counters[2], 'the moved counter track is not first');
    assert.deepEqual(after, [counters[2], counters[1], ...counters.slice(3)]);
    const fragment = await fragmentLanes(page);
    assert.deepEqual(fragment.hide, ['c0']);
    assert.ok(fragment.lanes.indexOf('c2') < fragment.lanes.indexOf('c1'), `fragment lanes: ${fragment.lanes}`);
  }));

test('the timeline exports as SVG: boxes, labels, ruler, counters; bounded on the biggest fixture', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', fixtureDir('b-recursion-hot'));
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    const spans = report.threads.reduce((a, th) => a + th.spans, 0);
    await frames(page);
    assert.equal(await page.isEnabled('#export-svg'), true, 'the SVG button is off on the timeline');
    const svg = await page.evaluate(() => window.flamedrop.svg());
    assert.ok(svg && svg.startsWith('<svg'), 'no SVG');
    const parsed = await parseSvg(page, svg);
    assert.ok(parsed.ok, 'the SVG does not parse');
    assert.equal(parsed.external, 0, 'the SVG refers to something outside itself');
    assert.ok(parsed.rects > 20, `${parsed.rects} rects`);
    assert.ok(parsed.rects < spans, `one element per span (${parsed.rects} rects for ${spans} spans): not merged`);
    assert.ok(svg.length < 3e6, `${svg.length} bytes`);
    const names = new Set(report.functions.map((f) => f.name));
    const labels = parsed.texts.filter((s) => names.has(s));
    assert.ok(labels.length > 0, `no span label among ${parsed.texts.slice(0, 20)}`);
    const cut = parsed.texts.filter((s) => s.endsWith('…'));
    for (const c of cut) assert.ok([...names].some((n) => n.startsWith(c.slice(0, -1))), `label ${c} is no cut name`);
    t.diagnostic(`b-recursion-hot: ${spans} spans → ${parsed.rects} rects, ${parsed.texts.length} texts, ${svg.length} bytes`);

    // The download itself.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
    assert.equal(download.suggestedFilename(), 'flamedrop-timeline.svg');
  }));

test('a logical clock names its unit on the ruler; counters and markers reach the SVG', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=selogger-v060-omnibinary`);
    await waitForState(page, 'ready');
    const svg = await page.evaluate(() => window.flamedrop.svg());
    const parsed = await parseSvg(page, svg);
    assert.ok(parsed.texts.includes('events'), 'the ruler does not say "events"');
    // The canvas draws it at the ruler's right end.
    const width = await page.evaluate(() => document.querySelector('canvas#flamechart').getBoundingClientRect().width);
    const rulerInk = await page.evaluate((w) => {
      const c = document.querySelector('canvas#flamechart');
      const s = c.width / c.getBoundingClientRect().width;
      const d = c.getContext('2d').getImageData(Math.floor((w - 60) * s), Math.floor(4 * s), Math.floor(50 * s), Math.floor(14 * s)).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 60) n++;
      return n;
    }, width);
    assert.ok(rulerInk > 10, 'no unit drawn at the ruler end');
    await page.goto(`${base}?demo=swap-gallery`);
    await waitForState(page, 'ready');
    const swap = await parseSvg(page, await page.evaluate(() => window.flamedrop.svg()));
    assert.ok(swap.ok);
    assert.ok(swap.paths > 0, 'no counter or marker paths');
  }));

test('the page uses its own font, fetched from its own origin', (t) =>
  withPage(t, async ({ page, base, requests }) => {
    await page.goto(`${base}?demo=a-simple-nested`);
    await waitForState(page, 'ready');
    await page.evaluate(() => document.fonts.load('12px "DejaVu Sans"'));
    assert.equal(await page.evaluate(() => document.fonts.check('12px "DejaVu Sans"')), true);
    const loaded = await page.evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family));
    assert.ok(loaded.some((f) => f.includes('DejaVu Sans')), `loaded fonts: ${loaded}`);
    const origin = new URL(base).origin;
    const fonts = requests.filter((u) => /\.ttf$/.test(u));
    assert.ok(fonts.length > 0, 'no font was requested');
    for (const u of fonts) assert.equal(new URL(u).origin, origin, `font from ${u}`);
    // The canvas draws its text in it.
    assert.match(await page.evaluate(() => document.querySelector('canvas#flamechart').getContext('2d').font), /DejaVu Sans/);
  }));

test('a trace without spans hides the minimap; the sample set says what it is', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', path.join(FIXTURES, 'selogger', 'demo-v060-nearomni-json'));
    await waitForState(page, 'ready');
    assert.equal(await page.isHidden('#minimap'), true, 'an empty minimap band is shown');
    await page.click('[data-view="flamegraph"]');
    await page.waitForSelector('#source-note', { state: 'visible' });
    const note = await page.textContent('#source-note');
    assert.ok(note.length > 20, `note: ${note}`);
    t.diagnostic(`note: ${note}`);
  }));

test('SWAP offers its CPU samples of all threads merged, totalling the per-thread sets', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=swap-gallery`);
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    await page.click('[data-view="flamegraph"]');
    await page.waitForSelector('section.aggregate[data-view="flamegraph"]');
    const sources = await page.$$eval('#source option', (os) => os.map((o) => ({ value: o.value, label: o.textContent })));
    const merged = sources.find((s) => s.label.startsWith('CPU samples, all threads merged'));
    assert.ok(merged, `no merged CPU samples in ${JSON.stringify(sources)}`);
    const total = async (source) => (await page.evaluate((s) => window.flamedrop.calltree({ source: s, inverted: false }), source))
      .filter((r) => r.depth === 1).reduce((a, r) => a + r.total, 0);
    let sum = 0;
    for (const s of sources.filter((s) => s.label.startsWith('CPU samples: '))) sum += await total(s.value);
    assert.ok(sum > 0);
    assert.equal(await total(merged.value), sum, 'merged total differs from the per-thread totals');
    assert.equal(sum, report.threads.reduce((a, th) => a + th.samples, 0));
    await page.selectOption('#source', merged.value);
    await page.waitForSelector(`section.aggregate[data-source="${merged.value}"]`);
    assert.match(await page.textContent('#source-note'), /MSG_SAMPLE/);
    t.diagnostic(`merged CPU samples: ${sum}`);
  }));
