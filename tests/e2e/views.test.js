// (d) The views (issue 7) on the real uftrace fixtures, checked against uftrace's own output:
// the bottom-up call tree's functions equal `uftrace report` (calls, total, self), the top-down
// tree equals `uftrace graph`, the sandwich lists a function's callers as `uftrace graph` does
// (through window.flamedrop and in the page's own list), the search counts what the report
// says, the theme toggle flips the page and the canvases, and the URL fragment restores the view
// after a reload. Screenshots of every view go to tests/e2e/out/views/ (and to docs/views/ with
// FLAMEDROP_UPDATE_DOCS=1, which is how the README's pictures are made).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { fixtureDir, openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const REFERENCE = (name, file) => path.join(fixtureDir(name), '..', 'reference', file);
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));

/** A duration in ns printed as uftrace prints it (crates/core analysis::report::format_time). */
function uftraceTime(ns) {
  const [div, unit] = ns >= 1e9 ? [1e6, 's'] : ns >= 1e6 ? [1e3, 'ms'] : [1, 'us'];
  const scaled = Math.floor(ns / div);
  return `${Math.floor(scaled / 1000)}.${String(scaled % 1000).padStart(3, '0')} ${unit}`;
}

/** `uftrace report`: rows of [total, self, calls, name]. */
function reportRows(name) {
  return fs.readFileSync(REFERENCE(name, 'report.txt'), 'utf8').split('\n').slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      const f = l.trim().split(/\s+/);
      return [`${f[0]} ${f[1]}`, `${f[2]} ${f[3]}`, Number(f[4]), f.slice(5).join(' ')];
    });
}

/**
 * `uftrace graph` as a tree {name, calls, total, children}. A line drawn with "+-(" hangs below
 * the last node three columns to its left; a line without it is the single child of the line above.
 */
function parseGraph(name) {
  const nodes = [];
  const lastAtColumn = new Map();
  for (const line of fs.readFileSync(REFERENCE(name, 'graph.txt'), 'utf8').split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const time = line.slice(0, colon).trim();
    const rest = line.slice(colon + 1);
    const open = rest.indexOf('(');
    if (!time || time.startsWith('#') || open < 0) continue;
    const close = rest.indexOf(') ', open);
    const node = { name: rest.slice(close + 2).trim(), calls: Number(rest.slice(open + 1, close)), total: time, children: [] };
    const parent = nodes.length === 0 ? null
      : rest.slice(0, open).endsWith('+-') ? lastAtColumn.get(open - 3) : nodes[nodes.length - 1];
    if (parent) parent.children.push(node);
    lastAtColumn.set(open, node);
    nodes.push(node);
  }
  return nodes[0];
}

/** name -> sorted caller names, from the graph (the session root is nobody's caller). */
function graphCallers(root) {
  const out = new Map();
  const walk = (node, parent) => {
    if (!out.has(node.name)) out.set(node.name, new Set());
    if (parent) out.get(node.name).add(parent);
    for (const c of node.children) walk(c, node.name);
  };
  for (const top of root.children) walk(top, null);
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}

/** Rows of flamedrop.calltree() (pre-order with depth) back into a tree, sorted for comparison. */
function rowsToTree(rows) {
  const root = { children: [] };
  const stack = [root];
  for (const r of rows) {
    const node = { name: r.name, calls: r.calls, total: uftraceTime(r.total), children: [] };
    stack.length = r.depth;
    stack[r.depth - 1].children.push(node);
    stack[r.depth] = node;
  }
  return root.children;
}

function canonical(nodes) {
  return nodes
    .map((n) => ({ name: n.name, calls: n.calls, total: n.total, children: canonical(n.children) }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

async function openCase(page, base, name) {
  await openEmpty(page, base);
  await page.setInputFiles('#open-folder', fixtureDir(name));
  await waitForState(page, 'ready');
}

const shot = (page, file) => saveShots(page, SHOTS, file);

/** Pixels of a canvas that differ from its top-left pixel. */
async function ink(page, selector) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    if (!c || !c.width || !c.height) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 24) n++;
    }
    return n;
  }, selector);
}

const CHECKED = ['a-simple-nested', 'b-recursion-hot', 'c-pthreads-mutex', 'e-dlopen-plugin', 'f-args-explicit'];

for (const name of CHECKED) {
  test(`views of ${name} equal uftrace report and graph`, (t) =>
    withPage(t, async ({ page, base }) => {
      await openCase(page, base, name);
      // Bottom-up: one root per function, with the report's calls, total and self.
      const inverted = await page.evaluate(() => window.flamedrop.calltree({ inverted: true }));
      const functions = inverted.filter((r) => r.depth === 1)
        .map((r) => [uftraceTime(r.total), uftraceTime(r.self), r.calls, r.name]);
      const byName = (a, b) => a[3].localeCompare(b[3]);
      assert.deepEqual(functions.sort(byName), reportRows(name).sort(byName), 'bottom-up roots differ from report.txt');
      // Top-down: the graph below the session root.
      const graph = parseGraph(name);
      const topDown = await page.evaluate(() => window.flamedrop.calltree({ inverted: false }));
      assert.deepEqual(canonical(rowsToTree(topDown)), canonical(graph.children), 'top-down tree differs from graph.txt');
      // Sandwich: every function's direct callers.
      for (const [fn, callers] of graphCallers(graph)) {
        const s = await page.evaluate((f) => window.flamedrop.sandwich(f), fn);
        assert.ok(s, `sandwich(${fn}) is null`);
        assert.deepEqual(s.callers.map((c) => c.name).sort(), callers, `callers of ${fn}`);
      }
    }));
}

test('every view of c-pthreads-mutex: flame graph zoom, sandwich list, call-tree keys, screenshots', (t) =>
  withPage(t, async ({ page, base }) => {
    await openCase(page, base, 'c-pthreads-mutex');
    await shot(page, 'timeline.png');

    await page.click('[data-view="flamegraph"]');
    await page.waitForSelector('canvas#flamegraph');
    assert.ok((await ink(page, 'canvas#flamegraph')) > 1000, 'flame graph drew nothing');
    await shot(page, 'flamegraph.png');
    // The widest top-level node is at the left of row 0; clicking zooms into it.
    await page.click('canvas#flamegraph', { position: { x: 20, y: 8 } });
    await page.waitForFunction(() => document.querySelectorAll('.breadcrumbs .crumb').length === 2);
    const crumb = await page.textContent('.breadcrumbs .crumb.current');
    assert.equal(crumb, 'main', 'the widest top-level call of c-pthreads-mutex is main');
    await page.click('.breadcrumbs .crumb >> nth=0');
    await page.waitForFunction(() => document.querySelectorAll('.breadcrumbs .crumb').length === 1);

    // Sandwich of pthread_mutex_lock: its one caller, update_shared (graph.txt), in the page's list.
    await page.click('[data-view="sandwich"]');
    await page.click('#sandwich-functions tr[data-name="pthread_mutex_lock"] button');
    await page.waitForSelector('.sandwich-panes[data-function="pthread_mutex_lock"]');
    const callers = await page.$$eval('#sandwich-caller-list li', (li) => li.map((l) => l.dataset.name));
    assert.deepEqual(callers, ['update_shared']);
    assert.ok((await ink(page, 'canvas#sandwich-callers')) > 100, 'callers graph drew nothing');
    await shot(page, 'sandwich.png');

    // Call tree: a treegrid; arrows expand and collapse.
    await page.click('[data-view="calltree"]');
    await page.waitForSelector('table#calltree[role="treegrid"]');
    const first = 'table#calltree tbody tr >> nth=0';
    await page.click(first);
    const expanded = () => page.getAttribute(first, 'aria-expanded');
    assert.equal(await expanded(), 'true', 'the heaviest path starts expanded');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await expanded(), 'false', 'ArrowLeft collapses');
    await page.keyboard.press('ArrowRight');
    assert.equal(await expanded(), 'true', 'ArrowRight expands');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.getAttribute('table#calltree tbody tr >> nth=1', 'aria-selected'), 'true');
    await shot(page, 'calltree.png');
    await page.click('#calltree-bottomup');
    await page.waitForSelector('table#calltree[data-inverted="true"]');
    // Sorting by self puts the function with the most self time first (report.txt: linux:schedule (pre-empted)).
    await page.click('button.sort[data-sort="self"]');
    assert.equal(await page.getAttribute(first, 'data-name'), 'linux:schedule (pre-empted)');
    await shot(page, 'calltree-bottom-up.png');

    // Search: highlighted everywhere, counted like the report.
    await page.fill('#search', 'mutex');
    await page.waitForFunction(() => document.querySelector('#search-count').textContent.includes('functions'));
    assert.equal(await page.textContent('#search-count'), '2 functions · 1600 calls');
    await page.click('[data-view="flamegraph"]');
    await shot(page, 'search.png');

    await page.keyboard.press('?');
    await page.waitForSelector('#help');
    await shot(page, 'help.png');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#help', { state: 'detached' });
  }));

test('search counts substrings and /regex/ like the report, n jumps to matches', (t) =>
  withPage(t, async ({ page, base }) => {
    await openCase(page, base, 'c-pthreads-mutex');
    const report = await page.evaluate(() => window.flamedrop.report());
    const expect = (re) => {
      const fns = report.functions.filter((f) => re.test(f.name));
      return { functions: fns.length, calls: fns.reduce((a, f) => a + f.calls, 0) };
    };
    assert.deepEqual(await page.evaluate(() => window.flamedrop.search('PTHREAD')), expect(/pthread/i));
    assert.deepEqual(await page.evaluate(() => window.flamedrop.search('/^pthread_(join|create)$/')), expect(/^pthread_(join|create)$/));
    assert.ok((await page.evaluate(() => window.flamedrop.search('/(/'))).error, 'a bad regex is an error');
    await page.evaluate(() => window.flamedrop.search('compute'));
    // n in the timeline selects the first matching call and shows its details.
    await page.click('canvas#flamechart', { position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await page.waitForSelector('#detail');
    assert.equal(await page.textContent('#detail .detail-name'), 'compute');
  }));

test('theme toggle flips the page and the canvases', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openCase(page, base, 'a-simple-nested');
    const before = (await page.evaluate(() => window.flamedrop.theme())).background;
    assert.equal(before, '#ffffff');
    await page.click('#theme-toggle');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.waitForFunction(() => window.flamedrop.theme().background !== '#ffffff');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(22, 24, 29)');
    await page.click('[data-view="flamegraph"]');
    await shot(page, 'flamegraph-dark.png');
    await page.click('#colour-toggle');
    assert.equal(await page.getAttribute('#colour-toggle', 'aria-pressed'), 'true');
    assert.ok((await ink(page, 'canvas#flamegraph')) > 1000, 'flame graph coloured by module drew nothing');
    await page.click('#theme-toggle');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  }));

test('the URL fragment keeps view, function and search across a reload', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=c-pthreads-mutex`);
    await waitForState(page, 'ready');
    await page.click('[data-view="sandwich"]');
    await page.click('#sandwich-functions tr[data-name="update_shared"] button');
    await page.fill('#search', 'lock');
    await page.waitForFunction(() => location.hash.includes('q=lock'));
    const hash = await page.evaluate(() => location.hash);
    assert.equal(hash, '#view=sandwich&fn=update_shared&q=lock');
    assert.ok(!hash.includes('21712'), 'no trace content beyond the picked name');
    await page.reload();
    await waitForState(page, 'ready');
    const state = await page.evaluate(() => window.flamedrop.state());
    assert.equal(state.view, 'sandwich');
    assert.equal(state.function, 'update_shared');
    assert.equal(state.search, 'lock');
    await page.waitForSelector('.sandwich-panes[data-function="update_shared"]');
    assert.equal(await page.inputValue('#search'), 'lock');
    const callees = await page.$$eval('#sandwich-callee-list li', (li) => li.map((l) => l.dataset.name).sort());
    assert.deepEqual(callees, ['pthread_mutex_lock', 'pthread_mutex_unlock']);
  }));

test('a range dragged on the ruler limits the aggregated views; the views export as SVG and PNG', (t) =>
  withPage(t, async ({ page, base }) => {
    await openCase(page, base, 'c-pthreads-mutex');
    const topLevel = async () => (await page.evaluate(() => window.flamedrop.calltree({ inverted: false })))
      .filter((r) => r.depth === 1).reduce((a, r) => a + r.total, 0);
    const whole = await topLevel();
    const box = await page.locator('canvas#flamechart').boundingBox();
    await page.mouse.move(box.x + 200, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 260, box.y + 10, { steps: 4 });
    await page.mouse.up();
    const { range } = await page.evaluate(() => window.flamedrop.state());
    assert.ok(range && range[1] > range[0], `no range selected: ${JSON.stringify(range)}`);
    const report = await page.evaluate(() => window.flamedrop.report());
    const part = await topLevel();
    assert.ok(part > 0 && part < whole, `range total ${part} should be inside (0, ${whole})`);
    assert.ok(part <= (range[1] - range[0]) * report.threads.length, 'calls clipped to the range fit in it');
    await page.click('[data-view="flamegraph"]');
    await page.waitForSelector('#range');
    await shot(page, 'flamegraph-range.png');
    await page.click('#range-clear');
    assert.equal(await topLevel(), whole);

    const svg = await page.evaluate(() => window.flamedrop.svg());
    assert.match(svg, /^<svg /);
    assert.match(svg, /<title>main — total 1\.702 ms/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
    assert.equal(download.suggestedFilename(), 'flamedrop-flamegraph.png');
  }));

test('the minimap shows the whole trace and dragging it moves the timeline window', (t) =>
  withPage(t, async ({ page, base }) => {
    await openCase(page, base, 'c-pthreads-mutex');
    assert.ok((await ink(page, 'canvas#minimap')) > 100, 'minimap drew nothing');
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    const lanesBefore = await page.evaluate(() => document.querySelector('canvas#flamechart').toDataURL());
    const box = await page.locator('canvas#minimap').boundingBox();
    await page.mouse.move(box.x + box.width * 0.9, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.8, box.y + 10, { steps: 3 });
    await page.mouse.up();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const lanesAfter = await page.evaluate(() => document.querySelector('canvas#flamechart').toDataURL());
    assert.notEqual(lanesAfter, lanesBefore, 'dragging the minimap did not move the chart');
    await shot(page, 'timeline-minimap.png');
  }));

test('clicking a lane title collapses the lane to its header and expands it again', (t) =>
  withPage(t, async ({ page, base }) => {
    await openCase(page, base, 'c-pthreads-mutex');
    const lanes = () => page.evaluate(() => window.flamedrop.lanes());
    const before = await lanes();
    await page.click('canvas#flamechart', { position: { x: 30, y: before[0].top + 8 } });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const after = await lanes();
    assert.ok(after[0].height < before[0].height, `lane 0 did not collapse: ${before[0].height} -> ${after[0].height}`);
    assert.ok(after[1].top < before[1].top, 'the next lane moved up');
    await page.click('canvas#flamechart', { position: { x: 30, y: after[0].top + 8 } });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal((await lanes())[0].height, before[0].height);
  }));

test('a view switcher too wide for 1280 px shows a shadow where tabs are hidden and the wheel scrolls them in', (t) =>
  withPage(t, async ({ page, base }) => {
    // SWAP offers nine views: at 1280 px the last one starts scrolled away.
    await page.goto(`${base}?demo=swap-gallery`);
    await waitForState(page, 'ready');
    const strip = () => page.evaluate(() => {
      const nav = document.querySelector('nav.views');
      const r = nav.getBoundingClientRect();
      const last = [...nav.querySelectorAll('button.tab')].pop().getBoundingClientRect();
      return {
        overflows: nav.scrollWidth > nav.clientWidth,
        lastShows: last.right <= r.right + 1,
        scrolled: nav.scrollLeft,
        shadows: (getComputedStyle(nav).backgroundImage.match(/gradient/g) || []).length,
      };
    });
    const before = await strip();
    assert.ok(before.overflows && !before.lastShows, `the switcher fits: ${JSON.stringify(before)}`);
    assert.equal(before.shadows, 4, 'the switcher has no scroll shadows');
    const box = await page.locator('nav.views').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 400);
    await page.waitForFunction(() => document.querySelector('nav.views').scrollLeft > 0);
    const after = await strip();
    assert.ok(after.lastShows, `the wheel did not bring the last tab in: ${JSON.stringify(after)}`);
    await page.locator('nav.views button.tab').last().click();
    assert.equal(await page.locator('nav.views button.tab.selected').count(), 1);
  }));
