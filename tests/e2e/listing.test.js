// The Listing view (key 6): for a uftrace, a SELogger and an sp-rtrace fixture the rows
// window.flamedrop.listing(from, count) gives — the first 200 and the last 200 — equal the rows
// `flamedrop replay` prints (its header and footer lines equal listingStatus().header/footer) and
// the rows the original tool printed (the fixture's reference/), or the view says why the trace
// has no listing, in the CLI's words; Save gives the CLI's bytes; the -f columns rebuild it as
// `replay -f` does, the filter stack narrows it as `replay -D` does; a click on a row selects its
// span (the sidebar's details) and a span clicked in the timeline is the listing's selected row; n moves
// through the rows whose text matches the search; a fold hides a call's rows; the help lists 6;
// sp-rtrace's -l and -c and SELogger's -processparams switches give the tools' text.
'use strict';
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { test } = require('node:test');
const { cliPath, fixtureDir, nextFrames, openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const FIXTURES = path.resolve(__dirname, '../fixtures');
// Each case's reference: what the format's own tool printed (uftrace replay, LogPrinter,
// sp-rtrace-postproc), in the fixture's reference/ folder.
const CASES = [
  {
    name: 'uftrace c-pthreads-mutex',
    dir: () => fixtureDir('c-pthreads-mutex'),
    reference: 'uftrace/c-pthreads-mutex/reference/replay.txt',
  },
  {
    name: 'selogger demo-v060-omnibinary',
    dir: () => path.join(FIXTURES, 'selogger/demo-v060-omnibinary'),
    reference: 'selogger/demo-v060-omnibinary/reference/LogPrinter.txt.gz',
  },
  {
    name: 'rtrace c-leaks',
    dir: () => path.join(FIXTURES, 'rtrace/c-leaks'),
    reference: 'rtrace/c-leaks/reference/postproc.txt',
  },
];
const EDGE = 200;
// Screenshots go to tests/e2e/out/views/ (and docs/views/ with FLAMEDROP_UPDATE_DOCS=1).
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));

/** `flamedrop replay DIR [args]`: { lines } (no final empty line) or { error } (its message). */
function cliReplay(dir, ...args) {
  const cli = cliPath();
  assert.ok(fs.existsSync(cli), `CLI not found at ${cli}: build it with 'cargo build -p flamedrop-cli' (or set FLAMEDROP_CLI)`);
  const run = spawnSync(cli, ['replay', dir, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (run.status !== 0) return { error: run.stderr.trim().replace(/^flamedrop: /, '') };
  assert.ok(run.stdout.endsWith('\n'), 'the CLI ends its last line');
  return { text: run.stdout, lines: run.stdout.slice(0, -1).split('\n') };
}

/** Opens `dir` as a folder, then the Listing view with key 6; waits for its rows or its note. */
async function openListing(page, base, dir) {
  await openEmpty(page, base);
  await page.setInputFiles('#open-folder', dir);
  await waitForState(page, 'ready');
  await page.click('body', { position: { x: 5, y: 5 } });
  await page.keyboard.press('6');
  await page.waitForSelector('#listing');
  await page.waitForFunction(() => {
    const s = window.flamedrop.listingStatus();
    return !s.building && (s.rows != null || s.error != null);
  });
  await nextFrames(page);
  assert.equal(await page.evaluate(() => window.flamedrop.state().view), 'listing');
}

/** Asserts the page's listing equals the CLI's lines: header, first and last rows, footer. */
async function assertRowsEqual(page, expected, what) {
  const status = await page.evaluate(() => window.flamedrop.listingStatus());
  assert.equal(status.error, null);
  const { header, footer } = status;
  assert.deepEqual(expected.lines.slice(0, header.length), header, `${what}: header lines`);
  const rows = expected.lines.slice(header.length, expected.lines.length - footer.length);
  assert.deepEqual(expected.lines.slice(expected.lines.length - footer.length), footer, `${what}: footer lines`);
  assert.equal(await page.evaluate(() => window.flamedrop.listingLength()), rows.length, `${what}: rows`);
  assert.equal(status.rows, rows.length);
  const first = await page.evaluate((n) => window.flamedrop.listing(0, n), EDGE);
  assert.deepEqual(first, rows.slice(0, EDGE), `${what}: the first ${EDGE} rows`);
  const from = Math.max(0, rows.length - EDGE);
  const last = await page.evaluate(([f, n]) => window.flamedrop.listing(f, n), [from, EDGE]);
  assert.deepEqual(last, rows.slice(from), `${what}: the last ${EDGE} rows`);
  return rows;
}

for (const c of CASES) {
  test(`listing ${c.name}: the CLI's rows, or its reason for having none`, (t) =>
    withPage(t, async ({ page, context, base }) => {
      const dir = c.dir();
      const expected = cliReplay(dir);
      await openListing(page, base, dir);
      if (expected.error) {
        t.diagnostic(`the CLI has no listing: ${expected.error}`);
        const status = await page.evaluate(() => window.flamedrop.listingStatus());
        assert.equal(status.error, expected.error);
        assert.equal(await page.evaluate(() => window.flamedrop.listing(0, 10)), null);
        const note = await page.textContent('#listing-note');
        assert.equal(note.toLowerCase(), `${expected.error.toLowerCase()}.`, 'the view says why');
        return;
      }
      const rows = await assertRowsEqual(page, expected, c.name);
      // The rows are those the original tool printed (its header lines may differ: sp-rtrace's
      // heap statistics are not all in the trace).
      const bytes = fs.readFileSync(path.join(FIXTURES, c.reference));
      const text = (c.reference.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8');
      const reference = text.replace(/\n$/, '').split('\n');
      const { header, footer } = await page.evaluate(() => window.flamedrop.listingStatus());
      const toolRows = reference.slice(header.length, reference.length - footer.length);
      assert.equal(rows.length, toolRows.length, `${c.name}: as many rows as ${c.reference}`);
      assert.deepEqual(rows.slice(0, EDGE), toolRows.slice(0, EDGE), `${c.name}: the first rows of ${c.reference}`);
      assert.deepEqual(rows.slice(-EDGE), toolRows.slice(-EDGE), `${c.name}: the last rows of ${c.reference}`);
      // The rows on screen are the listing's first rows, in a virtual list.
      const shown = await page.$$eval('#listing-scroll .listing-lines .listing-row .text', (els) => els.map((e) => e.textContent));
      assert.ok(shown.length > 10 && shown.length < 100, `a window of rows, not all of them (${shown.length})`);
      assert.equal(shown[0], rows[0]);
      // Save gives the CLI's bytes.
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#listing-save')]);
      assert.equal(download.suggestedFilename(), 'flamedrop-listing.txt');
      const saved = fs.readFileSync(await download.path(), 'utf8');
      assert.equal(saved, expected.text, 'Save writes what the CLI prints');
      // So does Copy, onto the clipboard.
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.click('#listing-copy');
      await page.waitForFunction(() => /^copied/.test(document.querySelector('#listing-status')?.textContent || ''));
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected.text, 'Copy gives what the CLI prints');
    }));
}

test('listing: columns as -f, folds, the help lists key 6', (t) =>
  withPage(t, async ({ page, base }) => {
    const dir = fixtureDir('a-simple-nested');
    await openListing(page, base, dir);
    await page.click('#listing-field-time');
    await page.waitForFunction(() => window.flamedrop.listingStatus().rows != null);
    assert.equal(await page.textContent('#listing-fields-spec'), '-f duration,tid,time');
    await assertRowsEqual(page, cliReplay(dir, '-f', 'duration,tid,time'), '-f duration,tid,time');
    await page.click('#listing-field-tid');
    await page.waitForFunction(() => window.flamedrop.listingStatus().rows != null);
    await assertRowsEqual(page, cliReplay(dir, '-f', 'duration,time'), '-f duration,time');
    await page.click('#listing-field-duration');
    await page.click('#listing-field-time');
    await page.waitForFunction(() => window.flamedrop.listingStatus().rows != null);
    assert.equal(await page.textContent('#listing-fields-spec'), '-f none');
    await assertRowsEqual(page, cliReplay(dir, '-f', 'none'), '-f none');
    await page.click('#listing-field-duration');
    await page.click('#listing-field-tid');
    await page.waitForFunction(() => window.flamedrop.listingStatus().rows != null);

    // Folding main() hides every row up to its exit.
    const total = await page.evaluate(() => window.flamedrop.listingLength());
    const main = page.locator('.listing-row', { hasText: 'main() {' });
    await main.locator('.fold').click();
    await nextFrames(page);
    const rows = await page.$$eval('.listing-lines .listing-row', (els) => els.map((e) => e.textContent));
    assert.ok(rows.every((r) => !/leaf\(\)/.test(r)), `the calls inside main() are hidden: ${rows.join('\n')}`);
    assert.match(await page.textContent('#listing-count'), new RegExp(`^\\d+ of ${total} rows$`));
    await main.locator('.fold').click();
    await nextFrames(page);
    assert.equal(await page.textContent('#listing-count'), `${total} rows`);

    await page.keyboard.press('?');
    assert.match(await page.textContent('#help'), /6[^]*listing/i);
    await page.keyboard.press('Escape');

    // The filter stack narrows the listing as the CLI's filters do.
    await page.evaluate(() => window.flamedrop.narrow('u:-D%202'));
    await page.waitForFunction(() => {
      const s = window.flamedrop.listingStatus();
      return !s.building && s.rows != null;
    });
    await assertRowsEqual(page, cliReplay(dir, '-D', '2'), 'narrowed by -D 2');
  }));

test('listing: a row selects its span, a span selected in the timeline is the selected row, n finds rows', (t) =>
  withPage(t, async ({ page, base }) => {
    await openListing(page, base, fixtureDir('a-simple-nested'));
    // Row → span.
    await page.locator('.listing-row', { hasText: 'mid() {' }).first().click();
    await page.waitForSelector('#detail');
    assert.equal(await page.textContent('#detail .detail-name'), 'mid');
    assert.match(await page.textContent('.listing-row.selected'), /mid\(\) \{/);

    // Span → row: a click on a span in the timeline.
    await page.keyboard.press('1');
    const [lane] = await page.evaluate(() => window.flamedrop.lanes());
    const box = await page.locator('canvas#flamechart').boundingBox();
    let name = null;
    for (let y = box.y + lane.top + 30; y < box.y + lane.top + lane.height && !name; y += 6) {
      await page.mouse.click(box.x + box.width * 0.3, y);
      await nextFrames(page);
      name = await page.locator('#detail .detail-name').textContent({ timeout: 300 }).catch(() => null);
      if (name === 'mid') name = null; // the row's span: look for another
    }
    assert.ok(name, 'a click in the first lane selects a span');
    await page.keyboard.press('6');
    await page.waitForSelector('.listing-row.selected');
    const selected = await page.textContent('.listing-row.selected');
    assert.ok(selected.includes(`${name}(`), `the selected row is the span's: ${selected} (span ${name})`);

    // n / N move through the rows whose text matches.
    await page.evaluate(() => window.flamedrop.search('printf'));
    await page.click('#listing-scroll');
    await page.keyboard.press('n');
    await page.waitForFunction(() => /printf/.test(document.querySelector('.listing-row.selected')?.textContent || ''));
    assert.equal(await page.textContent('#detail .detail-name'), 'printf');
    await saveShots(page, SHOTS, 'listing.png');
  }));

test('listing rtrace c-leaks: -l and -c give what sp-rtrace-postproc printed', (t) =>
  withPage(t, async ({ page, base }) => {
    const dir = path.join(FIXTURES, 'rtrace/c-leaks');
    await openListing(page, base, dir);
    for (const [option, file] of [['l', 'postproc-l.txt'], ['c', 'postproc-c.txt']]) {
      await page.click(`#listing-opt-${option}`);
      await page.waitForFunction(() => {
        const s = window.flamedrop.listingStatus();
        return !s.building && s.rows != null;
      });
      const { header, footer } = await page.evaluate(() => window.flamedrop.listingStatus());
      const rows = await page.evaluate(() => window.flamedrop.listing(0));
      const expected = fs.readFileSync(path.join(dir, 'reference', file), 'utf8');
      assert.equal([...header, ...rows, ...footer].join('\n') + '\n', expected, `-${option} equals ${file}`);
      await page.click(`#listing-opt-${option}`);
    }
  }));

test('listing selogger demo-v060-omnibinary: -processparams gives what LogPrinter printed', (t) =>
  withPage(t, async ({ page, base }) => {
    const dir = path.join(FIXTURES, 'selogger/demo-v060-omnibinary');
    await openListing(page, base, dir);
    await page.click('#listing-opt-processparams');
    await page.waitForFunction(() => {
      const s = window.flamedrop.listingStatus();
      return !s.building && s.rows != null;
    });
    const { header, footer } = await page.evaluate(() => window.flamedrop.listingStatus());
    const rows = await page.evaluate(() => window.flamedrop.listing(0));
    const expected = zlib.gunzipSync(fs.readFileSync(path.join(dir, 'reference/LogPrinter-processparams.txt.gz'))).toString('utf8');
    assert.equal([...header, ...rows, ...footer].join('\n') + '\n', expected, '-processparams equals LogPrinter-processparams.txt');
  }));

test('listing: the ruler’s time range narrows the rows to those in it', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', fixtureDir('c-pthreads-mutex'));
    await waitForState(page, 'ready');
    const box = await page.locator('canvas#flamechart').boundingBox();
    // A range where the threads run (between 200 and 260 px the main thread only waits).
    await page.mouse.move(box.x + 200, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 500, box.y + 10, { steps: 4 });
    await page.mouse.up();
    const { range } = await page.evaluate(() => window.flamedrop.state());
    assert.ok(range && range[1] > range[0], `no range selected: ${JSON.stringify(range)}`);
    await page.keyboard.press('6');
    await page.waitForSelector('#listing-range');
    await page.click('#listing-field-time');
    await page.waitForFunction(() => window.flamedrop.listingStatus().rows != null);
    await nextFrames(page);
    const all = await page.evaluate(() => window.flamedrop.listing(0));
    const count = /^(\d+) of (\d+) rows$/.exec(await page.textContent('#listing-count'));
    assert.ok(count, 'the count says how many rows the range keeps');
    const [shown, total] = [Number(count[1]), Number(count[2])];
    assert.equal(total, all.length);
    assert.ok(shown > 0 && shown < total, `${shown} of ${total} rows in the range ${range}`);
    const first = Number(await page.getAttribute('.listing-lines .listing-row', 'data-row'));
    // uftrace's time column: seconds and nanoseconds of the row's timestamp.
    const time = (row) => {
      const m = /(\d+)\.(\d{9})/.exec(all[row]);
      return BigInt(m[1]) * 1_000_000_000n + BigInt(m[2]);
    };
    const [from, to] = range.map(BigInt);
    assert.ok(time(first) >= from && (first === 0 || time(first - 1) < from), 'the first row is the first in the range');
    const last = first + shown - 1;
    assert.ok(time(last) <= to && (last + 1 === total || time(last + 1) > to), 'the last row is the last in the range');
    await page.click('#listing-range button');
    await page.waitForFunction((n) => document.querySelector('#listing-count')?.textContent === `${n} rows`, total);
  }));
