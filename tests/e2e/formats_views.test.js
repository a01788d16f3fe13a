// (g) The views (issue 7) on a real fixture of every format besides uftrace (views.test.js), checked
// against the original tools' own output:
// - sp-rtrace (issue 5): every case's allocation flame graphs — all and leaks only, by bytes and by
//   count — total what sp-rtrace-postproc printed (postproc.txt, postproc-l.txt); the Tables tab
//   lists the leak groups of postproc-lc.txt;
// - Scaler: the bottom-up calls per function equal reference/tree.txt, each function's callers in
//   the sandwich plus its top-level calls add up to its calls, a sync-objects row highlights its calls;
// - SELogger (issue 4): omniscient — the bottom-up calls of every method equal its METHOD_ENTRY count
//   in SELogger's LogPrinter output; near-omniscient and frequency — the flame graph opens on the
//   event-frequency samples and totals the README's event count, the tables are listed, and the
//   timeline says why it is empty;
// - SWAP (issue 6): the demo stream's function lanes and counter tracks are drawn and its CPU-sample
//   flame graphs total the samples of report().
// On each, the Sandwich and Call tree views are driven in the page on the source checked (their
// lists equal the bottom-up and top-down trees), and the search count is checked. Screenshots of each format's timeline and one aggregated view
// go to tests/e2e/out/formats/ (and to docs/formats/ with FLAMEDROP_UPDATE_DOCS=1, for the README).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { test } = require('node:test');
const { assertDrawn, nextFrames, openEmpty, pageReport, saveShots, waitForState, withPage } = require('./lib.js');

const FIXTURES = path.resolve(__dirname, '../fixtures');
const SHOTS = [path.join(__dirname, 'out', 'formats')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'formats'));
// SELogger's main thread nests 31 levels: every lane fits in a tall window.
const TALL = { viewport: { width: 1280, height: 1800 } };

const frames = nextFrames;

const shot = (page, file) => saveShots(page, SHOTS, file);

/** Pixels of a canvas (CSS px box `[y0, y1)`, whole height by default) that differ from `bg` (#rrggbb) or its top-left pixel. */
async function ink(page, selector, box = null) {
  await frames(page);
  return page.evaluate(async ({ sel, box }) => {
    const c = document.querySelector(sel);
    if (!c || !c.width || !c.height) return 0;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d', { willReadFrequently: true });
    g.drawImage(c, 0, 0);
    const sy = c.height / c.getBoundingClientRect().height;
    const y0 = box ? Math.max(0, Math.floor(box[0] * sy)) : 0;
    const y1 = box ? Math.min(c.height, Math.ceil(box[1] * sy)) : c.height;
    if (y1 <= y0) return 0;
    const d = g.getImageData(0, y0, c.width, y1 - y0).data;
    const hex = /^#([0-9a-f]{6})$/i.exec(window.flamedrop.theme()?.background || '');
    const bg = hex ? [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16)) : [d[0], d[1], d[2]];
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 24) n++;
    }
    return n;
  }, { sel: selector, box });
}

async function openFolder(page, base, dir) {
  await openEmpty(page, base);
  await page.setInputFiles('#open-folder', dir);
  await waitForState(page, 'ready');
}

/** Opens `view` and returns the data sources its picker offers, `[{value, label}]`. */
async function openView(page, view) {
  await page.click(`[data-view="${view}"]`);
  await page.waitForSelector(`section.aggregate[data-view="${view}"]`);
  return page.$$eval('#source option', (os) => os.map((o) => ({ value: o.value, label: o.textContent })));
}

/** Picks a source in the page's own picker and waits for the view to use it. */
async function pickSource(page, value) {
  await page.selectOption('#source', value);
  await page.waitForSelector(`section.aggregate[data-source="${value}"]`);
}

/** The top-level total of a source's top-down tree: what its flame graph spans. */
async function treeTotal(page, source) {
  const rows = await page.evaluate((s) => window.flamedrop.calltree({ source: s, inverted: false }), source);
  return rows.filter((r) => r.depth === 1).reduce((a, r) => a + r.total, 0);
}

/** Bottom-up roots of a source: name -> calls. */
async function bottomUpCalls(page, source) {
  const rows = await page.evaluate((s) => window.flamedrop.calltree({ source: s, inverted: true }), source);
  const out = new Map();
  for (const r of rows.filter((r) => r.depth === 1)) out.set(r.name, (out.get(r.name) || 0) + r.calls);
  return out;
}

/**
 * Drives the Sandwich and Call tree views on the current source: the sandwich lists the bottom-up
 * tree's functions, heaviest first, and shows the picked one; the table's top rows are the tree's.
 * Returns to `back`.
 */
async function driveSandwichAndCallTree(page, back) {
  const { source } = await page.evaluate(() => window.flamedrop.state());
  const roots = (await page.evaluate((s) => window.flamedrop.calltree({ source: s, inverted: true }), source)).filter((r) => r.depth === 1);
  assert.ok(roots.length > 0, `source ${source} holds nothing`);
  await page.click('[data-view="sandwich"]');
  await page.waitForSelector(`section.aggregate[data-view="sandwich"][data-source="${source}"]`);
  const listed = await page.$$eval('#sandwich-functions tr[data-name]', (rows) => rows.map((r) => r.dataset.name));
  assert.ok(listed.length > 0, 'the sandwich lists no function');
  assert.deepEqual(listed, roots.slice(0, listed.length).map((r) => r.name), 'sandwich functions');
  await page.locator('#sandwich-functions tr[data-name] button').first().click();
  await page.waitForFunction((n) => document.querySelector('.sandwich-panes')?.dataset.function === n, roots[0].name);
  await page.click('[data-view="calltree"]');
  await page.waitForSelector(`section.aggregate[data-view="calltree"][data-source="${source}"] table#calltree`);
  const top = (await page.evaluate(() => window.flamedrop.calltree({}))).filter((r) => r.depth === 1);
  const shown = await page.$$eval('table#calltree tbody tr[aria-level="1"]', (rows) => rows.map((r) => r.dataset.name));
  assert.deepEqual(shown.slice(0, 5), top.slice(0, 5).map((r) => r.name), 'call-tree rows');
  await page.click(`[data-view="${back}"]`);
  return { source, functions: roots.length };
}

/**
 * Types `query` in the search box; the count it shows must be the functions (call names and stack
 * frames of every source) and calls (report()) it matches.
 */
async function checkSearch(page, report, sources, query, re) {
  const names = new Set(report.functions.map((f) => f.name).filter((n) => re.test(n)));
  for (const s of sources) {
    for (const n of (await bottomUpCalls(page, s.value)).keys()) if (re.test(n)) names.add(n);
  }
  const calls = report.functions.filter((f) => re.test(f.name)).reduce((a, f) => a + f.calls, 0);
  assert.ok(names.size > 0, `search '${query}' matches nothing: pick another query`);
  const want = `${names.size} functions · ${calls} calls`;
  await page.fill('#search', query);
  await page.waitForFunction((w) => document.querySelector('#search-count')?.textContent === w, want, { timeout: 10_000 })
    .catch(async () => assert.equal(await page.textContent('#search-count'), want, `search count of '${query}'`));
  return { functions: names.size, calls };
}

// ---- sp-rtrace

const RTRACE = path.join(FIXTURES, 'rtrace');
const RTRACE_CASES = fs.readdirSync(RTRACE).filter((d) => fs.existsSync(path.join(RTRACE, d, 'reference', 'postproc-l.txt'))).sort();

/** Allocation calls per resource type of a postproc listing: { type: { count, bytes } }. */
function postprocAllocations(caseName, file) {
  const text = fs.readFileSync(path.join(RTRACE, caseName, 'reference', file), 'utf8');
  const types = text.split('\n').filter((l) => l.startsWith('<')).map((l) => l.split(' : ')[1].split(' (')[0]);
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^\d+\. (?:@\w+ )?(?:\[[^\]]*\] )?[^<(]+(?:<([^>]+)>)?\((\d+)\) = 0x/.exec(line);
    if (!m) continue;
    const type = m[1] || types[0];
    out[type] = out[type] || { count: 0, bytes: 0 };
    out[type].count += 1;
    out[type].bytes += Number(m[2]);
  }
  return out;
}

/** `-c` groups of postproc-lc.txt: one `# allocation summary` line each. */
function postprocLeakGroups(caseName) {
  const text = fs.readFileSync(path.join(RTRACE, caseName, 'reference', 'postproc-lc.txt'), 'utf8');
  return text.split('\n').filter((l) => l.startsWith('# allocation summary:')).length;
}

for (const name of RTRACE_CASES) {
  test(`views of sp-rtrace ${name}: allocation flame graphs equal sp-rtrace-postproc`, (t) =>
    withPage(t, async ({ page, base }) => {
      await openFolder(page, base, path.join(RTRACE, name));
      const report = await pageReport(page);
      const sources = await openView(page, 'flamegraph');
      const all = postprocAllocations(name, 'postproc.txt');
      const leaked = postprocAllocations(name, 'postproc-l.txt');
      assert.deepEqual(report.resources.map((r) => r.resource).sort(), Object.keys(all).sort(), 'resource types');
      const got = {};
      for (const r of report.resources) {
        const key = (what, by) => sources.find((s) => s.label === `${r.resource} ${what} by ${by}`)?.value;
        for (const [what, ref] of [['allocations', all], ['leaks', leaked]]) {
          const count = key(what, 'count');
          assert.ok(count, `no '${r.resource} ${what} by count' source in ${JSON.stringify(sources)}`);
          got[`${r.resource} ${what} count`] = await treeTotal(page, count);
          const want = ref[r.resource] || { count: 0, bytes: 0 };
          assert.equal(got[`${r.resource} ${what} count`], want.count, `${r.resource} ${what} by count`);
          // By bytes is offered for resources sized in bytes (not for file descriptors).
          if (key(what, 'bytes')) {
            got[`${r.resource} ${what} bytes`] = await treeTotal(page, key(what, 'bytes'));
            assert.equal(got[`${r.resource} ${what} bytes`], want.bytes, `${r.resource} ${what} by bytes`);
          }
        }
      }
      t.diagnostic(`${name}: ${JSON.stringify(got)}`);

      // The leaks-only graph in the page's own picker draws.
      const leaks = sources.find((s) => s.label === 'memory leaks by bytes') || sources.find((s) => / leaks by count$/.test(s.label));
      await pickSource(page, leaks.value);
      assert.ok((await ink(page, 'canvas#flamegraph')) > 500, 'the leak flame graph drew nothing');
      t.diagnostic(`${name}: sandwich and call tree of ${JSON.stringify(await driveSandwichAndCallTree(page, 'flamegraph'))}`);

      // The leak list: one row per postproc -c group, over every resource type.
      const tables = await page.evaluate(() => window.flamedrop.tables());
      const leakTables = tables.filter((tb) => tb.id.startsWith('leaks-'));
      assert.ok(leakTables.some((tb) => tb.id === 'leaks-memory') || !leaked.memory, 'no leaks-memory table');
      const groups = leakTables.reduce((a, tb) => a + tb.rows.length, 0);
      assert.equal(groups, postprocLeakGroups(name), 'leak groups differ from postproc-lc.txt');
      await page.getByRole('tab', { name: 'Tables' }).click();
      for (const tb of leakTables) {
        assert.equal(await page.locator(`#table-${tb.id} tbody tr`).count(), tb.rows.length, `rows of #table-${tb.id}`);
      }
      t.diagnostic(`${name}: ${groups} leak groups`);

      const search = await checkSearch(page, report, sources, 'alloc', /alloc/i);
      t.diagnostic(`${name}: search 'alloc' ${JSON.stringify(search)}`);
      if (name === 'c-leaks') {
        await shot(page, 'rtrace-leaks-flamegraph.png');
        await page.fill('#search', '');
        await page.click('[data-view="timeline"]');
        await assertDrawn(page, report);
        // The live-memory counter track below the lane draws its bars.
        const live = (await page.evaluate(() => window.flamedrop.counters())).find((c) => c.name === 'live memory');
        assert.ok(live, 'no live memory counter track');
        assert.ok((await ink(page, 'canvas#flamechart', [live.top + live.header, live.top + live.height])) > 0, 'live memory track drew nothing');
        await shot(page, 'rtrace-timeline.png');
      }
    }));
}

// ---- Scaler

const SCALER = path.join(FIXTURES, 'scaler');
const SCALER_CASES = fs.readdirSync(SCALER).filter((n) => fs.existsSync(path.join(SCALER, n, 'reference/tree.txt'))).sort();

/** Calls per function of reference/tree.txt (nameless nodes as `file<id>/func<id>`). */
function scalerCalls(name) {
  const calls = {};
  for (const line of fs.readFileSync(path.join(SCALER, name, 'reference/tree.txt'), 'utf8').split('\n')) {
    const node = /^\s*\[(\d+)\]\s/.exec(line);
    if (!node || node[1] === '0') continue;
    const field = (k) => new RegExp(`\\b${k}=(\\S+)`).exec(line)[1];
    let fn = field('name');
    if (fn === '-') {
      const id = (v) => (v === '-1' ? '?' : v);
      fn = `file${id(field('fileID'))}/func${id(field('funcID'))}`;
    }
    calls[fn] = (calls[fn] || 0) + 1;
  }
  return calls;
}

for (const name of SCALER_CASES) {
  test(`views of scaler ${name}: call tree equals reference/tree.txt`, (t) =>
    withPage(t, async ({ page, base }) => {
      await openFolder(page, base, path.join(SCALER, name));
      const report = await pageReport(page);
      const sources = await openView(page, 'calltree');
      await page.click('#calltree-bottomup');
      await page.waitForSelector('table#calltree[data-inverted="true"]');
      const bottomUp = await bottomUpCalls(page, 'spans');
      const want = scalerCalls(name);
      assert.deepEqual(Object.fromEntries([...bottomUp].sort()), Object.fromEntries(Object.entries(want).sort()), 'bottom-up calls differ from tree.txt');
      const shown = await page.$$eval('table#calltree tbody tr[aria-level="1"]', (rows) => rows.length);
      assert.equal(shown, bottomUp.size, 'the table lists every function');
      t.diagnostic(`${name}: ${bottomUp.size} functions, ${[...bottomUp.values()].reduce((a, b) => a + b, 0)} calls`);

      // Sandwich: a function's direct callers plus its top-level calls are all its calls.
      const topDown = await page.evaluate(() => window.flamedrop.calltree({ inverted: false }));
      const topLevel = new Map();
      for (const r of topDown.filter((r) => r.depth === 1)) topLevel.set(r.name, (topLevel.get(r.name) || 0) + r.calls);
      for (const [fn, calls] of bottomUp) {
        const s = await page.evaluate((f) => window.flamedrop.sandwich(f), fn);
        assert.ok(s, `sandwich(${fn}) is null`);
        for (const c of s.callers) assert.ok(bottomUp.has(c.name), `caller ${c.name} of ${fn} is no function`);
        const viaCallers = s.callers.reduce((a, c) => a + c.calls, 0);
        assert.equal(viaCallers + (topLevel.get(fn) || 0), calls, `callers of ${fn} account for its calls`);
      }
      await driveSandwichAndCallTree(page, 'calltree');

      // Search the heaviest function's name.
      const query = report.functions[0].name;
      const escaped = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
      const search = await checkSearch(page, report, sources.filter((s) => s.value === 'spans'), query, escaped);
      t.diagnostic(`${name}: search '${query}' ${JSON.stringify(search)}`);
      if (name !== 'a-prodcons-mutex-cond-sem') return;

      await page.click('[data-view="sandwich"]');
      await page.click('#sandwich-functions tr[data-name="pthread_mutex_lock"] button');
      await page.waitForSelector('.sandwich-panes[data-function="pthread_mutex_lock"]');
      await shot(page, 'scaler-sandwich.png');

      // A sync object's row highlights its calls on the timeline.
      await page.fill('#search', '');
      await page.click('[data-view="timeline"]');
      const sync = (await page.evaluate(() => window.flamedrop.tables())).find((tb) => tb.id === 'sync-objects');
      await page.getByRole('tab', { name: 'Tables' }).click();
      const row = page.locator('#table-sync-objects tbody tr.selectable').first();
      await row.click();
      const lit = await page.evaluate(() => window.flamedrop.highlight());
      const index = Number(await row.getAttribute('data-row'));
      const callsColumn = sync.columns.findIndex((c) => c.name === 'calls');
      assert.equal(lit.spans, Number(sync.rows[index][callsColumn]), "highlighted calls = the row's calls");
      await assertDrawn(page, report);
      await shot(page, 'scaler-timeline.png');
    }));
}

// ---- SELogger

const SELOGGER = path.join(FIXTURES, 'selogger');

/** METHOD_ENTRY events per `class.method` of SELogger's LogPrinter output. */
function logPrinterEntries(name) {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(SELOGGER, name, 'reference', 'LogPrinter.txt.gz'))).toString('utf8');
  const out = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith('EventId=') || !line.includes(',EventType=METHOD_ENTRY,')) continue;
    const row = line.split(',method:')[1].split(',');
    const key = `${row[2].replace(/\//g, '.')}.${row[3]}`;
    out.set(key, (out.get(key) || 0) + 1);
  }
  return out;
}

/** A `key=value` number of a near-omniscient or frequency case's README facts line. */
function readmeFact(name, key) {
  const text = fs.readFileSync(path.join(SELOGGER, name, 'README.md'), 'utf8');
  const m = new RegExp(`\\b${key}=(\\d+)`).exec(text);
  assert.ok(m, `no ${key}= in ${name}/README.md`);
  return Number(m[1]);
}

test('views of selogger demo-v060-omnibinary: bottom-up calls equal LogPrinter METHOD_ENTRY counts', (t) =>
  withPage(t, async ({ page, base }) => {
    await openFolder(page, base, path.join(SELOGGER, 'demo-v060-omnibinary'));
    const report = await pageReport(page);
    await assertDrawn(page, report);
    await shot(page, 'selogger-timeline.png');
    const sources = await openView(page, 'calltree');
    const bottomUp = await bottomUpCalls(page, 'spans');
    const entries = logPrinterEntries('demo-v060-omnibinary');
    assert.ok(entries.size > 5, 'LogPrinter lists methods');
    for (const [method, count] of entries) {
      // Overloaded methods carry their parameters: `demo.Bank.deposit(int)`.
      let calls = 0;
      for (const [n, c] of bottomUp) if (n === method || n.startsWith(`${method}(`)) calls += c;
      assert.equal(calls, count, `bottom-up calls of ${method}`);
    }
    const total = [...entries.values()].reduce((a, b) => a + b, 0);
    t.diagnostic(`${entries.size} methods, ${total} METHOD_ENTRY events`);
    // Weights are events, printed as such.
    await page.click('[data-view="flamegraph"]');
    await page.waitForSelector('canvas#flamegraph');
    assert.ok((await ink(page, 'canvas#flamegraph')) > 1000, 'flame graph drew nothing');
    await driveSandwichAndCallTree(page, 'flamegraph');
    const svg = await page.evaluate(() => window.flamedrop.svg());
    assert.match(svg, /total \d+ events/, 'flame graph weights are not labelled as events');
    const search = await checkSearch(page, report, sources.filter((s) => s.value === 'spans'), 'Bank', /bank/i);
    t.diagnostic(`search 'Bank' ${JSON.stringify(search)}`);
    await shot(page, 'selogger-flamegraph.png');
  }, TALL));

for (const [name, near] of [['demo-v060-nearomni-json', true], ['demo-v060-freq', false]]) {
  test(`views of selogger ${name}: event-frequency flame graph and tables, the missing timeline explained`, (t) =>
    withPage(t, async ({ page, base }) => {
      await openFolder(page, base, path.join(SELOGGER, name));
      const report = await pageReport(page);
      assert.equal(report.threads.length, 0);
      await page.waitForSelector('#no-timeline', { state: 'visible' });
      const why = await page.textContent('#no-timeline');
      assert.match(why, /near-omniscient and frequency outputs keep per-location counts/, 'the timeline does not say why it is empty');
      if (near) await shot(page, 'selogger-nearomni-timeline.png');

      // The aggregated views open on the event-frequency samples.
      const sources = await openView(page, 'flamegraph');
      const freq = sources.find((s) => s.label === 'event frequency (events)');
      assert.ok(freq, `no event-frequency source in ${JSON.stringify(sources)}`);
      assert.equal((await page.evaluate(() => window.flamedrop.state())).source, freq.value, 'the default source is the sample set');
      const total = await treeTotal(page, freq.value);
      assert.equal(total, readmeFact(name, 'total_freq'), 'the flame graph total differs from the README');
      assert.ok((await ink(page, 'canvas#flamegraph')) > 1000, 'flame graph drew nothing');
      t.diagnostic(`${name}: event-frequency total ${total}`);
      // Merged calls hold nothing here: the view says so instead of drawing an empty canvas.
      await pickSource(page, 'spans');
      assert.match(await page.textContent('#empty-view'), /^Nothing to show: no calls to merge here/);
      await pickSource(page, freq.value);
      await driveSandwichAndCallTree(page, 'flamegraph');

      // Hot methods, event frequencies and (near-omniscient only) recent values, in the Tables tab.
      const tables = await page.evaluate(() => window.flamedrop.tables());
      const ids = tables.map((tb) => tb.id);
      assert.deepEqual(ids.filter((id) => id !== 'recent-values'), ['event-frequency', 'hot-methods']);
      assert.equal(ids.includes('recent-values'), near);
      const freqRows = tables.find((tb) => tb.id === 'event-frequency').rows;
      assert.equal(freqRows.length, readmeFact(name, 'entries'), 'event-frequency rows');
      await page.getByRole('tab', { name: 'Tables' }).click();
      for (const tb of tables) {
        assert.equal(await page.locator(`#table-${tb.id} tbody tr`).count(), tb.rows.length, `rows of #table-${tb.id}`);
      }
      if (near) {
        const recent = tables.find((tb) => tb.id === 'recent-values');
        const kept = recent.rows.reduce((a, r) => a + Number(r[4]), 0);
        assert.equal(kept, readmeFact(name, 'values_kept'), 'recent values kept');
        t.diagnostic(`${name}: ${recent.rows.length} locations with recent values, ${kept} values kept`);
      }
      const search = await checkSearch(page, report, sources, 'Bank', /bank/i);
      t.diagnostic(`${name}: search 'Bank' ${JSON.stringify(search)}`);
      if (near) await shot(page, 'selogger-nearomni-flamegraph.png');
    }));
}

// ---- SWAP

test('views of the SWAP demo: function lanes, counter tracks, CPU-sample flame graphs', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=swap-gallery`);
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    assert.equal(report.format, 'swap');
    const lanes = await assertDrawn(page, report);
    assert.ok(lanes.length >= 2, 'function lanes of 2+ threads');
    // Counter tracks: one per counter, each drawing bars below its title row.
    const stacked = await page.evaluate(() => window.flamedrop.counters());
    assert.ok(stacked.length > 0, 'no counter tracks');
    const last = stacked[stacked.length - 1];
    await page.setViewportSize({ width: 1280, height: Math.ceil(last.top + last.height) + 400 });
    await frames(page);
    const counters = await page.evaluate(() => window.flamedrop.counters());
    const blank = [];
    for (const c of counters) {
      if ((await ink(page, 'canvas#flamechart', [c.top + c.header, c.top + c.height])) === 0) blank.push(`${c.name} @${c.top}`);
    }
    assert.deepEqual(blank, [], `counter tracks without bars (of ${counters.length})`);
    t.diagnostic(`${lanes.length} lanes, ${counters.length} counter tracks drawn`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'swap-timeline.png');

    // One CPU-sample set per thread; each flame graph totals that thread's samples.
    const sources = await openView(page, 'flamegraph');
    const cpu = sources.filter((s) => s.label.startsWith('CPU samples: '));
    assert.ok(cpu.length > 0, `no CPU-samples source in ${JSON.stringify(sources)}`);
    let samples = 0;
    for (const s of cpu) {
      const th = report.threads.find((x) => s.label.includes(`tid ${x.id} (`));
      assert.ok(th, `${s.label} names no thread of report()`);
      const total = await treeTotal(page, s.value);
      assert.equal(total, th.samples, `${s.label}: flame graph total`);
      samples += total;
    }
    assert.equal(samples, report.threads.reduce((a, th) => a + th.samples, 0), 'every sample is in a flame graph');
    assert.ok(samples > 0);
    t.diagnostic(`${cpu.length} CPU-sample sets, ${samples} samples`);
    const main = cpu.reduce((a, s) => (report.threads.find((x) => s.label.includes(`tid ${x.id} (`)).samples
      > report.threads.find((x) => a.label.includes(`tid ${x.id} (`)).samples ? s : a));
    await pickSource(page, main.value);
    assert.ok((await ink(page, 'canvas#flamegraph')) > 1000, 'the sample flame graph drew nothing');
    await driveSandwichAndCallTree(page, 'flamegraph');
    // The README's demo has 4 memory leaks.
    const leaks = sources.find((s) => s.label === 'memory leaks by count');
    assert.equal(await treeTotal(page, leaks.value), 4, 'memory leaks of the demo');
    const search = await checkSearch(page, report, sources, 'gallery+0x3', /gallery\+0x3/i);
    t.diagnostic(`search 'gallery+0x3' ${JSON.stringify(search)}`);
    await shot(page, 'swap-samples-flamegraph.png');
  }));
