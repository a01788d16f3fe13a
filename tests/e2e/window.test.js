// Bigger than the tab (issue 20.6): with a small input limit (?max_input_mb=), a uftrace folder
// over it gets the "too big" message and, from the pre-scan of its metadata, the part dialog:
// each thread with its size (those that fit ticked) and a time window that fits. Picking two
// threads and a window loads only those: the lanes are those threads, the summary says which part
// was loaded, and the listing's rows are what `uftrace replay --tid 21713,21714 -r A~B` printed
// (reference/window/replay-tid-r-f.txt; 21714 has no record in that window). Screenshot: docs/views/window-dialog.png (with
// FLAMEDROP_UPDATE_DOCS=1; always tests/e2e/out/views/).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');
const { cliReport, fixtureDir, nextFrames, openEmpty, pageReport, saveShots, waitForState, withPage, withoutSources } = require('./lib.js');

const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));
const allowConsoleError = /too big|more than a browser tab/;

// The window of the reference, in uftrace's ns timestamps.
const FROM_NS = 266560716000n;
const UNTIL_NS = 266560900000n;

/** The first record's time over every task data file of `data` (little-endian, as recorded). */
function firstRecordNs(data) {
  return fs
    .readdirSync(data)
    .filter((f) => /^\d+\.dat$/.test(f))
    .map((f) => fs.readFileSync(path.join(data, f)).readBigUInt64LE(0))
    .reduce((a, b) => (a < b ? a : b));
}

/** ns after `first` as the dialog's ms field takes it (exact to the ns). */
function msAfter(ns, first) {
  const d = ns - first;
  return `${d / 1000000n}.${String(d % 1000000n).padStart(6, '0')}`;
}

test('too big: the part dialog loads only the chosen threads and time window', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      const dir = fixtureDir('c-pthreads-mutex');
      await openEmpty(page, `${base}?max_input_mb=0.2`);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'error');
      assert.match(await page.locator('#error').textContent(), /more than a browser tab can safely hold.*load a part of it \(below\)/);
      await page.waitForSelector('#part-choice');
      // Every task with its size; the ones that fit in 0.2 MB beside the metadata are ticked.
      const rows = await page.$$eval('.part-thread input', (boxes) =>
        boxes.map((b) => ({ tid: b.dataset.tid, ticked: b.checked, text: b.parentElement.textContent.trim() })),
      );
      assert.deepEqual(rows.map((r) => r.tid), ['21710', '21712', '21713', '21714', '21715']);
      assert.deepEqual(rows.filter((r) => r.ticked).map((r) => r.tid), ['21710', '21712', '21713']);
      assert.equal(rows[1].text, '21712 c_threads — 25.6 KB');
      assert.match(await page.textContent('#part-estimate'), /fits/);
      assert.ok(await page.isEnabled('#load-anyway'));
      await saveShots(page, SHOTS, 'window-dialog.png');

      // Threads 21713 and 21714, and the reference's window.
      for (const tid of ['21710', '21712', '21713', '21714', '21715']) {
        await page.setChecked(`.part-thread input[data-tid="${tid}"]`, tid === '21713' || tid === '21714');
      }
      await page.setChecked('#part-by-window', true);
      const first = firstRecordNs(path.join(dir));
      await page.fill('#part-from-ms', msAfter(FROM_NS, first));
      await page.dispatchEvent('#part-from-ms', 'change');
      await page.fill('#part-until-ms', msAfter(UNTIL_NS, first));
      await page.dispatchEvent('#part-until-ms', 'change');
      await nextFrames(page);
      assert.match(await page.textContent('#part-estimate'), /fits/);
      await saveShots(page, SHOTS, 'window-dialog-chosen.png');
      await page.click('#part-load');
      await waitForState(page, 'ready');

      const lanes = await page.evaluate(() => window.flamedrop.lanes().map((l) => l.thread_id));
      // Only the chosen threads (21714, with no record in the window, may have no lane).
      assert.ok(lanes.includes('21713') && lanes.every((id) => id === '21713' || id === '21714'), `lanes ${lanes}`);
      assert.equal(
        (await page.textContent('#partial-load')).trim(),
        'Only a part of the recording was loaded: 2 of 5 threads (21713, 21714); time window 266.560716000~266.560900000',
      );
      // The listing is uftrace's own for that part.
      await page.click('body', { position: { x: 5, y: 5 } });
      await page.keyboard.press('6');
      await page.waitForFunction(() => {
        const s = window.flamedrop.listingStatus();
        return s && !s.building && (s.rows != null || s.error != null);
      });
      const status = await page.evaluate(() => window.flamedrop.listingStatus());
      const text = fs.readFileSync(path.join(dir, '..', 'reference', 'window', 'replay-tid-r-f.txt'), 'utf8');
      const reference = text.replace(/\n$/, '').split('\n');
      const expected = reference.slice(status.header.length, reference.length - status.footer.length);
      assert.deepEqual(reference.slice(0, status.header.length), status.header);
      assert.deepEqual(reference.slice(reference.length - status.footer.length), status.footer);
      const got = await page.evaluate((n) => window.flamedrop.listing(0, n), expected.length);
      assert.deepEqual(got, expected);
    },
    { allowConsoleError },
  ));

// A single-stream trace (sp-rtrace, SWAP, SELogger's event files) has no threads or times to offer
// before decoding: the dialog offers the stream's beginning, set to what fits. Loading it decodes
// the first bytes only, exactly as the CLI decodes a copy of the files cut there (its report, the
// cut-off record's diagnostic included), and the summary says what was loaded.
for (const [format, fixture, stream] of [
  ['sp-rtrace', 'rtrace/c-threads-contexts/20325-0.rtrace', '20325-0.rtrace'],
  ['swap', 'swap/demo.swap', 'demo.swap'],
  ['selogger', 'selogger/demo-v060-omnibinary', 'log-00001.slg'],
]) {
  test(`too big: the beginning of a ${format} stream`, (t) =>
    withPage(
      t,
      async ({ page, base }) => {
        const input = path.join(__dirname, '..', 'fixtures', fixture);
        const folder = fs.statSync(input).isDirectory();
        const streamFile = folder ? path.join(input, stream) : input;
        const streamSize = fs.statSync(streamFile).size;
        const others = (folder ? folderBytes(input) : streamSize) - streamSize;
        // A limit that leaves 60 % of the stream beside the other files, in MiB as the URL takes it.
        const limit = Math.floor(others + streamSize * 0.6);
        await openEmpty(page, `${base}?max_input_mb=${limit / 2 ** 20}`);
        await page.setInputFiles(folder ? '#open-folder' : '#open-files', input);
        await waitForState(page, 'error');
        await page.waitForSelector('#part-first-mb');
        assert.match(await page.textContent('#error'), /flamedrop report.*, load only its beginning \(below\), or try/);
        assert.match(await page.textContent('#part-choice'), new RegExp(`${stream} is one stream`));
        assert.match(await page.textContent('#part-estimate'), /fits/);
        const first = Math.round(Number(await page.inputValue('#part-first-mb')) * 1e6);
        // (The page counts fewer other files: a folder's program sources are not decoded.)
        assert.ok(first > 0 && first < streamSize, `offered ${first} of ${streamSize} bytes`);
        await saveShots(page, SHOTS, `window-stream-${format}.png`);
        await page.click('#part-load');
        await waitForState(page, 'ready');

        const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'flamedrop-cut-'));
        const target = folder ? path.join(copy, path.basename(input)) : path.join(copy, stream);
        fs.cpSync(input, target, { recursive: true });
        const cut = folder ? path.join(target, stream) : target;
        fs.writeFileSync(cut, fs.readFileSync(streamFile).subarray(0, first));
        assert.deepEqual(await pageReport(page), folder ? withoutSources(cliReport(target), target) : cliReport(target));
        assert.match((await page.textContent('#partial-load')).trim(), new RegExp(`the first .* of .* \\((.*/)?${stream.replace('.', '\\.')}\\)`));
        fs.rmSync(copy, { recursive: true, force: true });
      },
      { allowConsoleError },
    ));
}

/** Bytes of every file below `dir`, as the page adds them up. */
function folderBytes(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => {
    const p = path.join(dir, e.name);
    return sum + (e.isDirectory() ? folderBytes(p) : fs.statSync(p).size);
  }, 0);
}
