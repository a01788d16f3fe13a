// A first picture before the end (issue 20.4): while a big input decodes, the workers post
// pictures of what they decoded so far and the page draws them in the timeline under a
// "Loading — partial picture" mark (body[data-partial=yes], state still 'loading'), without the
// aggregated views; the whole trace replaces it at the end. Cancel works during that phase, and
// `?preview=0` turns the pictures off. The input is generated (bench/make-big.js: a real SELogger
// recording's events repeated to 150 MB), big enough that decoding lasts seconds here. sp-rtrace,
// whose decoder makes its pictures from the calls it collected (it builds spans only at the end),
// has its own case: the c-leaks recording's calls repeated to 110 MB, decoded by two workers that
// part 0 joins when the page is isolated, by one worker otherwise.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { test } = require('node:test');
const { openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const REPO = path.resolve(__dirname, '../..');
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(REPO, 'docs', 'views'));
const MB = 150;

/** The generated input, made once per machine (kept in the temp folder). */
function bigInput() {
  const dir = path.join(os.tmpdir(), `flamedrop-e2e-partial-selogger-${MB}`);
  const slg = path.join(dir, 'log-00001.slg');
  if (!fs.existsSync(slg) || fs.statSync(slg).size < MB * 1e6 * 0.99) {
    fs.rmSync(dir, { recursive: true, force: true });
    const src = path.join(REPO, 'tests/fixtures/selogger/demo-v060-omnibinary');
    execFileSync(process.execPath, [path.join(REPO, 'bench/make-big.js'), 'selogger', src, dir, String(MB)]);
  }
  return dir;
}

/** The c-leaks sp-rtrace recording with its calls repeated to about `mb` MB, made once per machine. */
function bigRtrace(mb) {
  const file = path.join(os.tmpdir(), `flamedrop-e2e-partial-rtrace-${mb}`, 'grown.rtrace');
  if (!fs.existsSync(file) || fs.statSync(file).size < mb * 1e6 * 0.99) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const src = path.join(REPO, 'tests/fixtures/rtrace/c-leaks/20315-0.rtrace');
    execFileSync(process.execPath, [path.join(REPO, 'bench/make-big.js'), 'rtrace', src, file, String(mb)]);
  }
  return file;
}

/** Canvas pixels of the timeline (or of the canvas `selector`) that differ from its top-left pixel. */
async function ink(page, selector = 'canvas#flamechart') {
  return page.evaluate((selector) => {
    const c = document.querySelector(selector);
    if (!c || !c.width || !c.height) return 0;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d', { willReadFrequently: true });
    g.drawImage(c, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
    return n;
  }, selector);
}

async function waitForPartial(page) {
  await page.waitForFunction(() => document.body.dataset.partial === 'yes' || ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 60_000, polling: 20 });
  const state = await page.evaluate(() => ({ state: document.body.dataset.state, partial: document.body.dataset.partial }));
  assert.deepEqual(state, { state: 'loading', partial: 'yes' }, 'no partial picture was shown before the end of the load');
}

/** Opens the big input on an empty page and waits for its first partial picture. */
async function startBigLoad(page, base) {
  const dir = bigInput();
  await openEmpty(page, base);
  await page.setInputFiles('#open-folder', dir);
  await waitForPartial(page);
}

test('a big input shows a partial timeline, marked as loading, before the whole trace', (t) =>
  withPage(t, async ({ page, base }) => {
    await startBigLoad(page, base);
    await page.waitForFunction(() => window.flamedrop.timings().first_partial_ms != null, null, { timeout: 30_000, polling: 20 });
    const mark = await page.textContent('#partial-mark');
    assert.match(mark, /Loading — partial/);
    assert.ok(await page.isVisible('#cancel'), 'Cancel is on the page during the partial phase');
    // Nothing that needs the whole trace: no view switcher, no sidebar.
    assert.equal(await page.$$eval('.view-controls, .sidebar', (e) => e.length), 0, 'views that need the whole trace are offered');
    assert.ok((await ink(page)) > 500, 'the partial timeline draws spans');
    const lanes = await page.evaluate(() => window.flamedrop.lanes().length);
    assert.equal(lanes, 0, 'the partial picture is not reported as the trace on screen');
    if (await page.evaluate(() => document.body.dataset.partial === 'yes')) {
      await saveShots(page, SHOTS, 'partial-selogger.png');
    }
    await waitForState(page, 'ready', 120_000);
    assert.equal(await page.evaluate(() => document.body.dataset.partial), 'no');
    assert.equal(await page.$('#partial-mark'), null, 'the mark goes with the partial picture');
    const timings = await page.evaluate(() => window.flamedrop.timings());
    assert.ok(timings.partial_draws_ms.length >= 1);
    assert.ok(timings.first_partial_ms < timings.first_draw_ms, 'the partial picture came first');
    await page.waitForFunction(() => window.flamedrop.lanes().length > 0, null, { timeout: 30_000 });
    assert.ok((await ink(page)) > 500, 'the whole trace draws');
    t.diagnostic(`first partial ${Math.round(timings.first_partial_ms)} ms, ${timings.partial_draws_ms.length} pictures, full chart ${Math.round(timings.first_draw_ms)} ms, load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  }));

test('a big sp-rtrace file shows a partial timeline of its calls before the whole trace', (t) =>
  withPage(t, async ({ page, base }) => {
    const file = bigRtrace(110);
    await openEmpty(page, base);
    await page.setInputFiles('#open-files', file);
    await waitForPartial(page);
    await page.waitForFunction(() => window.flamedrop.timings().first_partial_ms != null, null, { timeout: 30_000, polling: 20 });
    assert.match(await page.textContent('#partial-mark'), /Loading — partial/);
    assert.ok(await page.isVisible('#cancel'), 'Cancel is on the page during the partial phase');
    assert.equal(await page.$$eval('.view-controls, .sidebar', (e) => e.length), 0, 'views that need the whole trace are offered');
    // One lane, the process's calls, a few thousand of them at most whatever was decoded.
    const drawn = await page.evaluate(() => {
      const chart = document.querySelector('section.partial .partial-chart');
      return { calls: Number(chart?.title.match(/^(\d+) calls/)?.[1] ?? NaN), note: document.querySelector('.partial-note')?.textContent ?? '' };
    });
    assert.match(drawn.note, /\b1 lanes so far/, drawn.note);
    assert.ok(drawn.calls > 0 && drawn.calls <= 8192, `${drawn.calls} calls drawn`);
    assert.ok((await ink(page)) > 500, 'the partial timeline draws the calls');
    if (await page.evaluate(() => document.body.dataset.partial === 'yes')) {
      await saveShots(page, SHOTS, 'partial-rtrace.png');
    }
    await waitForState(page, 'ready', 120_000);
    assert.equal(await page.evaluate(() => document.body.dataset.partial), 'no');
    const timings = await page.evaluate(() => window.flamedrop.timings());
    assert.ok(timings.first_partial_ms < timings.first_draw_ms, 'the partial picture came first');
    // One worker decodes it (`Decoder::parts_pay_off`: faster and smaller than two; the split
    // and join, asked for with ?workers=2, are rtrace_parts.test.js's).
    assert.equal(timings.parts, 1, 'parts decoded');
    await page.waitForFunction(() => window.flamedrop.lanes().length > 0, null, { timeout: 30_000 });
    const draws = timings.partial_draws_ms;
    const gaps = draws.slice(1).map((at, i) => at - draws[i]);
    t.diagnostic(`sp-rtrace: first partial ${Math.round(timings.first_partial_ms)} ms, ${draws.length} pictures, gaps ${gaps.map(Math.round).join(', ')} ms, full chart ${Math.round(timings.first_draw_ms)} ms, parts ${timings.parts}, load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  }));

/** The number of the picture on screen (0, 1, …) and the progress bar's value and maximum. */
async function pictureAndProgress(page) {
  return page.evaluate(() => ({
    number: document.querySelector('section.partial')?.dataset.partial ?? null,
    read: Number(document.querySelector('section.partial #progress')?.getAttribute('value') ?? NaN),
    max: Number(document.querySelector('section.partial #progress')?.getAttribute('max') ?? NaN),
  }));
}

test('between two pictures nothing on the page changes: the chart is not painted again; at most one picture per 200 ms', (t) =>
  withPage(t, async ({ page, base }) => {
    await startBigLoad(page, base);
    // A mark in the chart's corner is erased by any paint (every frame fills the background):
    // while the same picture stays, it must stay, and so must the bytes read on the bar (they
    // move with the pictures), although the workers report progress every 8 MB.
    let checked = 0;
    const skipped = [];
    for (let attempt = 0; attempt < 40 && checked < 3; attempt++) {
      const before = await pictureAndProgress(page);
      if (before.number === null) break; // the whole trace came
      // Two frames, so that the paint of the picture just taken in is done.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const marked = await page.evaluate(() => {
        const c = document.querySelector('canvas#flamechart');
        if (!c) return false;
        const g = c.getContext('2d');
        g.save();
        g.setTransform(1, 0, 0, 1, 0, 0);
        g.fillStyle = 'rgb(255, 0, 255)';
        g.fillRect(0, 0, 3, 3);
        g.restore();
        return true;
      });
      if (!marked) break;
      await page.waitForTimeout(60);
      const stillMarked = await page.evaluate(() => {
        const c = document.querySelector('canvas#flamechart');
        if (!c) return null;
        const copy = document.createElement('canvas');
        copy.width = 1;
        copy.height = 1;
        const g = copy.getContext('2d', { willReadFrequently: true });
        g.drawImage(c, 0, 0, 1, 1, 0, 0, 1, 1);
        const [r, gr, b] = g.getImageData(0, 0, 1, 1).data;
        return r === 255 && gr === 0 && b === 255;
      });
      const now = await pictureAndProgress(page);
      // Only a check where the same picture stayed all along counts.
      if (stillMarked === null || now.number !== before.number || now.read >= now.max) {
        skipped.push(`${before.number}→${now.number} ${now.read}/${now.max} ${stillMarked}`);
        continue;
      }
      const later = await page.evaluate(() => document.querySelector('section.partial')?.dataset.partial ?? null);
      if (later !== before.number) continue;
      assert.ok(stillMarked, `the chart of picture ${before.number} was painted again while it stayed`);
      assert.equal(now.read, before.read, `the bar moved from ${before.read} to ${now.read} bytes between two pictures`);
      // A later picture draws its minimap bands on the canvas the earlier ones used.
      if (Number(before.number) >= 1 && (await page.$('canvas#minimap:not(.hidden)'))) {
        assert.ok((await ink(page, 'canvas#minimap')) > 0, `the minimap of picture ${before.number} is blank`);
      }
      checked++;
    }
    t.diagnostic(`moments between two pictures checked: ${checked}; skipped: ${skipped.join('; ')}`);
    assert.ok(checked >= 1, 'no moment between two pictures was seen');
    await waitForState(page, 'ready', 120_000);
    const draws = (await page.evaluate(() => window.flamedrop.timings())).partial_draws_ms;
    const gaps = draws.slice(1).map((at, i) => at - draws[i]);
    t.diagnostic(`${draws.length} pictures, gaps between them: ${gaps.map(Math.round).join(', ')} ms`);
    // The page takes in a new picture at most every 200 ms (two workers post every 250 ms each):
    // no more pictures than that over the time they were drawn (a paint delayed by a busy frame
    // can come closer to the next one, so single gaps are not checked).
    const span = draws[draws.length - 1] - draws[0];
    assert.ok(draws.length <= Math.floor(span / 200) + 2, `${draws.length} pictures in ${Math.round(span)} ms: more than one per 200 ms`);
  }));

test('Cancel during the partial phase goes back to the start page for good', (t) =>
  withPage(t, async ({ page, base }) => {
    await startBigLoad(page, base);
    await page.click('#cancel');
    await page.waitForFunction(() => document.body.dataset.state === 'idle', null, { timeout: 5_000, polling: 20 });
    assert.equal(await page.evaluate(() => document.body.dataset.partial), 'no');
    assert.equal(await page.$('canvas#flamechart'), null, 'the partial timeline is gone');
    // Stopped workers say nothing more: the page stays on the start page.
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle');
    assert.equal(await page.$('canvas#flamechart'), null);
  }));

test('?preview=0 loads without partial pictures', (t) =>
  withPage(t, async ({ page, base }) => {
    const dir = bigInput();
    await openEmpty(page, `${base}?preview=0`);
    await page.setInputFiles('#open-folder', dir);
    let seen = false;
    while (!['ready', 'error'].includes(await page.evaluate(() => document.body.dataset.state))) {
      seen ||= await page.evaluate(() => document.body.dataset.partial === 'yes');
      await page.waitForTimeout(50);
    }
    await waitForState(page, 'ready', 120_000);
    assert.equal(seen, false);
    assert.equal((await page.evaluate(() => window.flamedrop.timings())).first_partial_ms, null);
  }));
