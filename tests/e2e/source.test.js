// The Source view (issue 19, SELogger): demo-v060-omnibinary opened through input#open-folder
// carries its `source/TraceDemo.java` to the page (kept as demo/TraceDemo.java, not an ignored
// file); the view of demo/TraceDemo:primitives shows the file with, on each line, the values
// reference/LogPrinter.txt.gz prints for the data ids of that line (Line= is the number after
// `TraceDemo.java:`), with their counts; clicking a value selects its event and marks the call.
// Without sources the same values sit in the class/method/line rows of dataids.txt, with a note.
// A sources .jar picked with the trace's files, a sources .zip inside a picked folder (both written
// by this test from the fixture's TraceDemo.java) and the .java file dropped with the trace's files
// work too. With primitives' method span selected in the timeline, the view opens on that method
// with the call's lines marked; the bundled SELogger demo carries its source. Screenshots:
// docs/views/source.png, source-dark.png and source-dataids.png (with FLAMEDROP_UPDATE_DOCS=1).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { test } = require('node:test');
const { dropFiles, openEmpty, pageReport, saveShots, waitForState, withPage } = require('./lib.js');

const CASE = path.join(__dirname, '..', 'fixtures', 'selogger', 'demo-v060-omnibinary');
const JAVA = path.join(CASE, 'source', 'TraceDemo.java');
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));
const WIDE = { viewport: { width: 1500, height: 900 } };
const METHOD = 'demo/TraceDemo:primitives';
const LINES = [62, 63, 64, 65, 66];
// Event types whose values LogPrinter prints for the program's variables on these lines.
const VARIABLES = ['METHOD_PARAM', 'LOCAL_LOAD', 'LOCAL_STORE'];

/** LogPrinter's events of `method`: { id, type, dataId, value, line }. */
function referenceEvents(method) {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(CASE, 'reference', 'LogPrinter.txt.gz'))).toString();
  const tail = `,${method},TraceDemo.java:`;
  return text.split('\n').filter((l) => l.includes(tail)).map((l) => {
    const field = (name) => l.split(`,${name}=`)[1].split(',')[0];
    const value = l.split(',Value=')[1];
    return {
      id: Number(l.split(',')[0].slice('EventId='.length)),
      type: field('EventType'),
      dataId: Number(field('DataId')),
      value: value.slice(0, value.lastIndexOf(tail)),
      line: Number(l.slice(l.lastIndexOf(tail) + tail.length).split(':')[0]),
    };
  });
}

/** Per data id of line `line`: its distinct values in first-seen order with counts. */
function referenceLine(events, line) {
  const sites = new Map();
  for (const e of events.filter((e) => e.line === line)) {
    if (!sites.has(e.dataId)) sites.set(e.dataId, { type: e.type, values: new Map() });
    const values = sites.get(e.dataId).values;
    values.set(e.value, (values.get(e.value) || 0) + 1);
  }
  return sites;
}

/** The entries the page shows on line `line`: { dataId: [[value, count], ...] }. */
async function shownLine(page, line) {
  return page.$$eval(`#source-lines tr[data-line="${line}"] .source-entry`, (entries) =>
    Object.fromEntries(entries.map((e) => [e.dataset.dataId, [...e.querySelectorAll('button.source-value')]
      .map((b) => [b.dataset.value, Number(b.dataset.count)])])));
}

async function openSourceView(page, method) {
  await page.click('#view-source');
  await page.waitForSelector('#source-view');
  await page.fill('#source-method', method);
  await page.press('#source-method', 'Enter');
  await page.waitForSelector(`#source-lines tr[data-line="${LINES[0]}"]`);
}

/** Every shown value of LINES equals LogPrinter's, and every variable LogPrinter names there is shown. */
async function assertLinesAsLogPrinter(page) {
  const events = referenceEvents(METHOD);
  assert.ok(events.length >= 60, `LogPrinter has ${events.length} events of ${METHOD}`);
  let compared = 0;
  for (const line of LINES) {
    const want = referenceLine(events, line);
    const shown = await shownLine(page, line);
    for (const [dataId, values] of Object.entries(shown)) {
      const site = want.get(Number(dataId));
      assert.ok(site, `line ${line}: data id ${dataId} is not on that line in LogPrinter`);
      assert.deepEqual(values, [...site.values], `line ${line}, data id ${dataId} (${site.type})`);
      compared += values.length;
    }
    for (const [dataId, site] of want) {
      if (VARIABLES.includes(site.type)) assert.ok(dataId in shown, `line ${line}: ${site.type} data id ${dataId} not shown`);
    }
  }
  assert.ok(compared >= 15, `only ${compared} values compared`);
  // A value worked out by the program: mixed = f * 2 + d + b + s + c on line 64.
  assert.ok(Object.values(await shownLine(page, 64)).flat().some(([v]) => v === '383.1415926535898'));
}

test('source view: the method\'s file with LogPrinter\'s values on their lines', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', CASE);
    await waitForState(page, 'ready');
    // Kept as a source, not reported as an ignored file.
    const report = await pageReport(page);
    assert.ok(!JSON.stringify(report.diagnostics).includes('TraceDemo.java'));
    await openSourceView(page, METHOD);
    assert.equal(await page.textContent('#source-file'), 'demo/TraceDemo.java');
    assert.equal(await page.$('#source-note'), null);
    const source = fs.readFileSync(JAVA, 'utf8').split('\n');
    for (const line of [61, 64, 68]) {
      const code = await page.textContent(`#source-lines tr[data-line="${line}"] .source-code`);
      assert.equal(code, source[line - 1], `line ${line}'s code`);
    }
    assert.equal(await page.$$eval('#source-lines tr', (rows) => rows.length), source.length + (source.at(-1) === '' ? 0 : 1));
    await assertLinesAsLogPrinter(page);
    // The method is scrolled into view.
    const top = await page.$eval('#source-scroll', (s) => s.scrollTop);
    assert.ok(top > 0, 'scrolled to the method');

    // Clicking a value selects its event: that call's values and lines are marked.
    await page.click('#source-lines tr[data-line="64"] button.source-value[data-value="383.1415926535898"]');
    await page.waitForSelector('#source-lines tr[data-line="64"] button.source-value.selected');
    const hit = await page.$$eval('#source-lines tr.hit', (rows) => rows.map((r) => Number(r.dataset.line)));
    const called = new Set(referenceEvents(METHOD).map((e) => e.line));
    assert.ok(hit.every((l) => called.has(l)) && LINES.every((l) => hit.includes(l)), `the call's lines: ${hit}`);
    assert.equal(await page.$$eval('#source-lines tr[data-line="64"] button.source-value:not(.in-call)', (b) => b.length), 0);

    // A method called many times: the selected call's values stand out among all calls'.
    await openSourceView(page, 'demo/Bank:deposit');
    const deposit = referenceEvents('demo/Bank:deposit');
    const chip = await page.$('#source-lines tr.in-method button.source-value[data-count]:not([data-count="1"])');
    assert.ok(chip, 'a value seen by several calls');
    await chip.click();
    await page.waitForSelector('#source-lines button.source-value.selected');
    const inCall = await page.$$eval('button.source-value.in-call', (b) => b.length);
    const all = await page.$$eval('#source-lines button.source-value', (b) => b.length);
    assert.ok(inCall > 0 && inCall < all, `${inCall} of ${all} values are this call's`);
    assert.ok(deposit.length > 0);
    await saveShots(page, SHOTS, 'source.png');
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await saveShots(page, SHOTS, 'source-dark.png');
  }, WIDE));

test('source view without sources: dataids.txt\'s class/method/line rows with the same values', (t) =>
  withPage(t, async ({ page, base }) => {
    const files = fs.readdirSync(CASE).map((f) => path.join(CASE, f)).filter((f) => fs.statSync(f).isFile());
    await openEmpty(page, base);
    await page.setInputFiles('#open-files', files);
    await waitForState(page, 'ready');
    await openSourceView(page, METHOD);
    assert.match(await page.textContent('#source-note'), /No sources were opened.*Drop the program's \.java files/);
    assert.equal(await page.textContent('#source-lines tr[data-line="64"] .source-class'), 'demo/TraceDemo');
    assert.equal(await page.textContent('#source-lines tr[data-line="64"] .source-method'), 'primitives');
    await assertLinesAsLogPrinter(page);
    await saveShots(page, SHOTS, 'source-dataids.png');
  }, WIDE));

/** CRC-32 (IEEE), for the zip written below. */
function crc32(bytes) {
  let crc = ~0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A zip of stored entries: [[name, Buffer]]. */
function storedZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const n = Buffer.from(name);
    const sizes = Buffer.alloc(12);
    sizes.writeUInt32LE(crc32(data), 0);
    sizes.writeUInt32LE(data.length, 4);
    sizes.writeUInt32LE(data.length, 8);
    const local = Buffer.concat([Buffer.from('504b03041400000000000000000000', 'hex').subarray(0, 14), sizes, Buffer.from([n.length, 0, 0, 0]), n, data]);
    const at = Buffer.alloc(4);
    at.writeUInt32LE(offset, 0);
    centrals.push(Buffer.concat([Buffer.from('504b01021400140000000000000000', 'hex').subarray(0, 16), sizes, Buffer.from([n.length, 0]), Buffer.alloc(12), at, n]));
    locals.push(local);
    offset += local.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, central, end]);
}

test('source view: sources from a .jar picked with the trace, a .zip inside a picked folder, a dropped .java', (t) =>
  withPage(t, async ({ page, base }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flamedrop-sources-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const archive = storedZip([['META-INF/MANIFEST.MF', Buffer.from('Manifest-Version: 1.0\n')], ['demo/TraceDemo.java', fs.readFileSync(JAVA)]]);
    const traceFiles = fs.readdirSync(CASE).filter((f) => fs.statSync(path.join(CASE, f)).isFile());
    const jar = path.join(dir, 'demo-sources.jar');
    fs.writeFileSync(jar, archive);
    const folder = path.join(dir, 'trace-with-zip');
    fs.mkdirSync(folder);
    for (const f of traceFiles) fs.copyFileSync(path.join(CASE, f), path.join(folder, f));
    fs.writeFileSync(path.join(folder, 'demo-sources.zip'), archive);
    const source = fs.readFileSync(JAVA, 'utf8').split('\n');
    for (const open of [
      () => page.setInputFiles('#open-files', [...traceFiles.map((f) => path.join(CASE, f)), jar]),
      () => page.setInputFiles('#open-folder', folder),
      // Dropped loose files (bare names): the .java file is found by its package line.
      () => dropFiles(page, [...traceFiles, 'source/TraceDemo.java'].map((f) => ({ name: path.basename(f), bytes: fs.readFileSync(path.join(CASE, f)) }))),
    ]) {
      await openEmpty(page, base);
      await open();
      await waitForState(page, 'ready');
      const report = await pageReport(page);
      assert.ok(!/demo-sources|TraceDemo\.java/.test(JSON.stringify(report.diagnostics)), 'the archive is not an ignored file');
      await openSourceView(page, METHOD);
      assert.equal(await page.textContent('#source-file'), 'demo/TraceDemo.java');
      assert.equal(await page.textContent('#source-lines tr[data-line="64"] .source-code'), source[63]);
    }
  }, WIDE));

test('source view: the selected call\'s method is shown, its lines and values marked', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', CASE);
    await waitForState(page, 'ready');
    // The first call of primitives, as in selogger_values.test.js.
    await page.evaluate(() => window.flamedrop.search('/primitives/'));
    await page.click('canvas#flamechart', { position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await page.waitForSelector('#detail-values');
    // The call site in main comes first (its values are main's); the next match is the method's span.
    const first = await page.textContent('#detail .detail-name');
    await page.keyboard.press('n');
    await page.waitForFunction((was) => document.querySelector('#detail .detail-name')?.textContent !== was, first);
    assert.match(await page.textContent('#detail .detail-name'), /primitives/);
    await page.click('#view-source');
    await page.waitForSelector('#source-lines tr[data-line="64"]');
    assert.equal(await page.inputValue('#source-method'), METHOD);
    const hit = await page.$$eval('#source-lines tr.hit', (rows) => rows.map((r) => Number(r.dataset.line)));
    assert.ok(LINES.every((l) => hit.includes(l)), `the call's lines are marked: ${hit}`);
    const mixed = await page.$('#source-lines tr[data-line="64"] button.source-value.in-call[data-value="383.1415926535898"]');
    assert.ok(mixed, 'the call\'s value of mixed is marked');
  }, WIDE));

test('source view: the SELogger demo carries its program\'s source', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=selogger-v060-omnibinary`);
    await waitForState(page, 'ready');
    await openSourceView(page, METHOD);
    assert.equal(await page.textContent('#source-file'), 'demo/TraceDemo.java');
    assert.equal(await page.textContent('#source-lines tr[data-line="64"] .source-code'), fs.readFileSync(JAVA, 'utf8').split('\n')[63]);
  }, WIDE));
