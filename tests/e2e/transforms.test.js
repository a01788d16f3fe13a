// Firefox Profiler's transforms from a node's right-click menu and from its keys (issue 16): on a
// real uftrace recording and a real Scaler trace, every transform chosen in the menu of a node of
// the timeline, the flame graph or the call tree (and with its key on the selected node) pushes
// the step the node calls for, and then `window.flamedrop.report()` equals what the CLI prints
// with the same step (`flamedrop report --json --transform TEXT PATH`); popping the breadcrumb
// gives back the report from before exactly. The open menu is kept as screenshots in both themes
// (tests/e2e/out/transforms/).
'use strict';
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { cliPath, fixtureDir, nextFrames, openEmpty, pageReport, waitForState, withPage, withoutSources } = require('./lib.js');

const SHOTS = path.join(__dirname, 'out', 'transforms');
const UFTRACE = fixtureDir('b-recursion-hot');
const SELOGGER = path.join(__dirname, '..', 'fixtures', 'selogger', 'demo-v060-omni-text');
const FLAME_ROW = 18; // src/render/flamegraph.rs ROW

/** A name as the stack's text form writes it (crates/core transform/text.rs `encode`). */
function encode(name) {
  return [...Buffer.from(name, 'utf8')]
    .map((b) => (/[A-Za-z0-9._-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}
const step = (code, ...names) => `${code}:${names.map(encode).join(',')}`;

/** `flamedrop report --json --transform TEXT PATH`, parsed. */
function cliReport(text, input) {
  const out = execFileSync(cliPath(), ['report', '--json', '--transform', text, input], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

async function open(page, base, dir) {
  await openEmpty(page, base);
  await page.setInputFiles('#open-folder', dir);
  await waitForState(page, 'ready');
}

/** Waits until the page shows the stack `text` (applied, not busy) and the report is its. */
async function settled(page, text) {
  await page.waitForFunction(async (want) => {
    const n = await window.flamedrop.narrowing();
    return n && !n.busy && n.stack === want;
  }, text, { timeout: 60_000 }).catch(async (e) => {
    const n = await page.evaluate(() => window.flamedrop.narrowing());
    throw new Error(`the page never showed the stack ${JSON.stringify(text)}: narrowing() is ${JSON.stringify(n)} (${e.message})`);
  });
  await nextFrames(page);
}

async function view(page, name) {
  await page.click(`[data-view="${name}"]`);
  if (name === 'timeline') await page.waitForSelector('.timeline:not(.hidden) canvas#flamechart');
  else await page.waitForSelector(`section.aggregate[data-view="${name}"]`);
  await nextFrames(page);
}

/**
 * The flame graph's node named `name` at `depth` (0: top level), from flamedrop.svg() (the same
 * rectangles as the canvas): its centre in page coordinates and its call path.
 */
async function flameNode(page, name, depth) {
  const svg = await page.evaluate(() => window.flamedrop.svg());
  const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  const rects = [...svg.matchAll(/<title>(.*?) — total [^<]*<\/title><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"/g)]
    .map((m) => ({ name: unescape(m[1]), x: Number(m[2]), depth: Math.round(Number(m[3]) / FLAME_ROW), w: Number(m[4]) }));
  const node = rects.filter((r) => r.name === name && r.depth === depth).sort((a, b) => b.w - a.w)[0];
  assert.ok(node, `no flame graph node ${name} at depth ${depth}: ${rects.filter((r) => r.depth < 3).map((r) => `${r.name}@${r.depth}`)}`);
  const path = [node.name];
  for (let d = depth - 1; d >= 0; d--) {
    const up = rects.find((r) => r.depth === d && r.x <= node.x + 1 && r.x + r.w >= node.x + node.w - 1);
    path.unshift(up.name);
  }
  const box = await page.locator('canvas#flamegraph').boundingBox();
  return { x: box.x + node.x + node.w / 2, y: box.y + depth * FLAME_ROW + FLAME_ROW / 2, path };
}

/** The timeline span named `name`, found by right-clicking down the middle of the first lane. */
async function timelineSpan(page, name) {
  const [lane] = await page.evaluate(() => window.flamedrop.lanes());
  const box = await page.locator('canvas#flamechart').boundingBox();
  const x = box.x + box.width / 2;
  for (let y = box.y + lane.top + 2; y < box.y + lane.top + lane.height; y += 5) {
    await page.mouse.click(x, y, { button: 'right' });
    const title = await page.locator('#node-menu .menu-title').textContent({ timeout: 500 }).catch(() => null);
    if (title !== null) await page.keyboard.press('Escape');
    await page.waitForSelector('#node-menu', { state: 'detached' });
    if (title === name) return { x, y };
  }
  throw new Error(`no span ${name} down the middle of the first lane`);
}

/** Screenshots the menu opened at `at`, in the light and the dark theme (left light). */
async function shootMenu(page, at, what) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const theme of ['light', 'dark']) {
    const dark = await page.evaluate(() => document.documentElement.dataset.theme === 'dark' || (!document.documentElement.dataset.theme && matchMedia('(prefers-color-scheme: dark)').matches));
    if (dark !== (theme === 'dark')) await page.click('#theme-toggle');
    await nextFrames(page);
    await page.mouse.click(at.x, at.y, { button: 'right' });
    await page.locator('#node-menu').waitFor();
    await page.screenshot({ path: path.join(SHOTS, `menu-${what}-${theme}.png`) });
    await page.keyboard.press('Escape');
    await page.locator('#node-menu').waitFor({ state: 'detached' });
  }
  await page.click('#theme-toggle');
}

/** Opens the menu at page point `at`, checks its title, chooses the item of `key`. */
async function choose(page, at, name, key) {
  await page.mouse.click(at.x, at.y, { button: 'right' });
  const menu = page.locator('#node-menu');
  await menu.waitFor();
  assert.equal(await menu.locator('.menu-title').textContent(), name);
  const keys = await menu.locator('.menu-item').evaluateAll((items) => items.map((i) => i.dataset.key));
  assert.deepEqual(keys, ['m', 'M', 'f', 'F', 'S', 'c', 'C', 'r', 'R', 'd'], "the items in Firefox Profiler's order");
  const item = menu.locator(`.menu-item[data-key="${key}"]`);
  assert.equal(await item.getAttribute('aria-disabled'), null, `item ${key} of ${name} is disabled: ${await item.getAttribute('title')}`);
  await item.click();
  await menu.waitFor({ state: 'detached' });
}

/** Right-clicks `row` of the call tree and chooses `key`. */
async function chooseRow(page, name, key) {
  const row = page.locator(`table#calltree tbody tr[data-name="${name}"]`).first();
  const box = await row.boundingBox();
  await choose(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, name, key);
}

/**
 * Checks one transform: `act` pushes it; then the stack is `text`, report() equals the CLI's with
 * `--transform text`, and popping the breadcrumb gives `before` back exactly.
 */
async function check(t, page, input, before, text, act) {
  await act();
  await settled(page, text);
  const got = await pageReport(page);
  const want = withoutSources(cliReport(text, input), input);
  assert.deepEqual(got, want, `report() after ${text} differs from the CLI's`);
  assert.notDeepEqual(got, before, `${text} changed nothing`);
  await page.click('#narrow-breadcrumb .crumb[data-keep="0"]');
  await settled(page, '');
  assert.deepEqual(await pageReport(page), before, `popping ${text} does not restore report()`);
  t.diagnostic(`${text}: ${want.functions.length} functions`);
}

test('uftrace b-recursion-hot: every transform from the menu and from the keys changes report() as the CLI does', { timeout: 600_000 }, (t) =>
  withPage(t, async ({ page, base }) => {
    await open(page, base, UFTRACE);
    const before = await pageReport(page);
    assert.deepEqual(before, JSON.parse(execFileSync(cliPath(), ['report', '--json', UFTRACE], { encoding: 'utf8' })));
    // The decoder's symbols table places main in the executable: "Collapse b_recursion" from the
    // call tree's menu key.
    await view(page, 'calltree');
    await check(t, page, UFTRACE, before, step('cr', 'b_recursion'), () => chooseRow(page, 'main', 'C'));

    // The menu of flame-graph nodes (the wide ones: a thin node is hard to point at).
    await view(page, 'flamegraph');
    const loop = await flameNode(page, 'hot_loop', 1);
    assert.deepEqual(loop.path, ['main', 'hot_loop']);
    await shootMenu(page, loop, 'flamegraph');
    await check(t, page, UFTRACE, before, step('f', 'main', 'hot_loop'), () => choose(page, loop, 'hot_loop', 'f'));
    await check(t, page, UFTRACE, before, step('fs', 'hot_loop'), () => choose(page, loop, 'hot_loop', 'S'));
    const hot = await flameNode(page, 'hot', 2);
    assert.deepEqual(hot.path, ['main', 'hot_loop', 'hot']);
    await check(t, page, UFTRACE, before, step('mcn', 'main', 'hot_loop', 'hot'), () => choose(page, hot, 'hot', 'M'));
    await check(t, page, UFTRACE, before, step('cfs', 'hot_loop'), () => choose(page, loop, 'hot_loop', 'c'));

    // The menu of call-tree rows (top-down: main's callees are open).
    await view(page, 'calltree');
    for (const [key, code, name] of [['m', 'mf', 'hot'], ['F', 'ff', 'recurse'], ['r', 'drec', 'recurse'], ['R', 'rec', 'mutual_a'], ['d', 'df', 'mutual_a']]) {
      await check(t, page, UFTRACE, before, step(code, name), () => chooseRow(page, name, key));
    }

    // The menu of timeline spans.
    await view(page, 'timeline');
    const span = await timelineSpan(page, 'hot_loop');
    await shootMenu(page, span, 'timeline');
    await check(t, page, UFTRACE, before, step('cfs', 'hot_loop'), () => choose(page, span, 'hot_loop', 'c'));
    await check(t, page, UFTRACE, before, step('df', 'hot_loop'), () => choose(page, span, 'hot_loop', 'd'));

    // The keys: on the selected span, the zoomed flame-graph node, the focused call-tree row.
    for (const [key, code] of [['m', 'mf'], ['c', 'cfs'], ['F', 'ff']]) {
      await check(t, page, UFTRACE, before, step(code, 'hot_loop'), async () => {
        await page.mouse.click(span.x, span.y);
        await page.keyboard.press(key);
      });
    }
    await view(page, 'flamegraph');
    for (const [key, code, node] of [['f', 'f', hot], ['M', 'mcn', hot], ['F', 'ff', loop], ['S', 'fs', loop], ['c', 'cfs', loop], ['d', 'df', hot]]) {
      const text = ['f', 'mcn'].includes(code) ? step(code, ...node.path) : step(code, node.path[node.path.length - 1]);
      await check(t, page, UFTRACE, before, text, async () => {
        await page.mouse.click(node.x, node.y); // zooms in: the node is the selected one
        await page.keyboard.press(key);
      });
    }
    await view(page, 'calltree');
    for (const [key, code, name] of [['M', 'mcn', 'hot'], ['m', 'mf', 'hot'], ['r', 'drec', 'recurse'], ['R', 'rec', 'mutual_a']]) {
      const row = page.locator(`table#calltree tbody tr[data-name="${name}"]`).first();
      const text = code === 'mcn' ? step(code, 'main', 'hot_loop', 'hot') : step(code, name);
      await check(t, page, UFTRACE, before, text, async () => {
        await row.click();
        await page.keyboard.press(key);
      });
    }
  }));

test('uftrace: items that cannot apply are disabled with the reason; the menu works from the keyboard', (t) =>
  withPage(t, async ({ page, base }) => {
    await open(page, base, UFTRACE);
    await view(page, 'calltree');
    await page.click('#calltree-bottomup');
    await page.waitForSelector('table#calltree[data-inverted="true"]');
    await page.click('table#calltree tbody tr[data-name="hot"]', { button: 'right' });
    const menu = page.locator('#node-menu');
    await menu.waitFor();
    for (const key of ['M', 'f']) {
      const item = menu.locator(`.menu-item[data-key="${key}"]`);
      assert.equal(await item.getAttribute('aria-disabled'), 'true', `${key} is disabled in the bottom-up tree`);
      assert.match(await item.locator('.menu-reason').textContent(), /bottom-up/);
    }
    const recursion = menu.locator('.menu-item[data-key="R"]');
    assert.equal(await recursion.getAttribute('aria-disabled'), 'true', 'hot never recurses');
    assert.match(await recursion.getAttribute('title'), /hot never calls itself/);
    // Focus starts on the first item; arrows skip the disabled ones; Escape closes.
    assert.equal(await page.evaluate(() => document.activeElement.dataset.key), 'm');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.key), 'F');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.key), 'd');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    // A click outside closes it; Enter on an item chooses it.
    await page.click('table#calltree tbody tr[data-name="hot"]', { button: 'right' });
    await menu.waitFor();
    await page.mouse.click(5, 5);
    await menu.waitFor({ state: 'detached' });
    await page.click('table#calltree tbody tr[data-name="hot"]', { button: 'right' });
    await menu.waitFor();
    await page.keyboard.press('End');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.key), 'd');
    await page.keyboard.press('Enter');
    await settled(page, step('df', 'hot'));
  }));

test('uftrace: a long press opens the menu', (t) =>
  withPage(t, async ({ page, base }) => {
    await open(page, base, UFTRACE);
    await view(page, 'flamegraph');
    const node = await flameNode(page, 'hot_loop', 1);
    await page.mouse.move(node.x, node.y);
    await page.mouse.down();
    await page.waitForSelector('#node-menu', { timeout: 10_000 });
    await page.mouse.up();
    assert.equal(await page.locator('#node-menu .menu-title').textContent(), 'hot_loop');
    assert.equal(await page.locator('.flamegraph-view .crumb.current').textContent(), 'all', 'the long press did not also zoom');
    await page.keyboard.press('Escape');
    // A short click is still a click: no menu. Pressed and released in one task, so a slow
    // machine cannot stretch it into a long press between the two.
    await page.evaluate(({ x, y }) => {
      const canvas = document.elementFromPoint(x, y);
      const at = { clientX: x, clientY: y, bubbles: true, pointerId: 1, isPrimary: true };
      canvas.dispatchEvent(new PointerEvent('pointerdown', at));
      canvas.dispatchEvent(new PointerEvent('pointerup', at));
      canvas.dispatchEvent(new MouseEvent('click', at));
    }, node);
    await page.waitForTimeout(700);
    assert.equal(await page.locator('#node-menu').count(), 0);

    // A held row of the call tree, a held span of the timeline.
    const hold = async (at, name) => {
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      await page.waitForSelector('#node-menu', { timeout: 10_000 });
      await page.mouse.up();
      assert.equal(await page.locator('#node-menu .menu-title').textContent(), name);
      await page.keyboard.press('Escape');
      await page.waitForSelector('#node-menu', { state: 'detached' });
    };
    await view(page, 'calltree');
    const row = await page.locator('table#calltree tbody tr[data-name="hot_loop"]').first().boundingBox();
    await hold({ x: row.x + row.width / 2, y: row.y + row.height / 2 }, 'hot_loop');
    await view(page, 'timeline');
    const span = await timelineSpan(page, 'hot_loop');
    await hold(span, 'hot_loop');
  }));

test('selogger demo-v060-omni-text: transforms from the menu and the keys change report() as the CLI does', { timeout: 600_000 }, (t) =>
  withPage(t, async ({ page, base }) => {
    await open(page, base, SELOGGER);
    const before = await pageReport(page);
    // The bottom-up tree lists every method at its first level.
    await view(page, 'calltree');
    await page.click('#calltree-bottomup');
    await page.waitForSelector('table#calltree[data-inverted="true"]');
    const fib = 'demo.MathUtil.fib';
    const callFib = 'call demo.MathUtil.fib';
    const deposit = 'demo.Bank.deposit';
    // SELogger records each method's class: "Collapse demo.Bank" is on.
    await page.click(`table#calltree tbody tr[data-name="${deposit}"]`, { button: 'right' });
    assert.equal(await page.locator('#node-menu .menu-item[data-key="C"] .menu-label').textContent(), 'Collapse demo.Bank');
    await page.keyboard.press('Escape');
    const menu = [
      ['m', 'mf', callFib], ['F', 'ff', fib], ['S', 'fs', 'demo.Bank.withdraw'], ['c', 'cfs', 'demo.TraceDemo.threads'],
      ['R', 'rec', fib], ['d', 'df', 'call java.lang.Thread.yield'], ['C', 'cr', deposit],
    ];
    for (const [key, code, name] of menu) {
      const text = code === 'cr' ? step(code, 'demo.Bank') : step(code, name);
      await check(t, page, SELOGGER, before, text, () => chooseRow(page, name, key));
    }
    for (const [key, code, name] of [['m', 'mf', fib], ['R', 'rec', fib], ['C', 'cr', deposit], ['d', 'df', deposit]]) {
      const text = code === 'cr' ? step(code, 'demo.Bank') : step(code, name);
      await check(t, page, SELOGGER, before, text, async () => {
        await page.locator(`table#calltree tbody tr[data-name="${name}"]`).first().click();
        await page.keyboard.press(key);
      });
    }
  }));

test('the sandwich and the diff view open the menu on their nodes too', (t) =>
  withPage(t, async ({ page, base }) => {
    const first = path.join(__dirname, '..', 'fixtures', 'uftrace-diff', 'base', 'uftrace.data');
    const second = path.join(__dirname, '..', 'fixtures', 'uftrace-diff', 'new', 'uftrace.data');
    await open(page, base, first);
    const before = await pageReport(page);
    const menu = page.locator('#node-menu');

    // The sandwich's function list: no call path there.
    await view(page, 'sandwich');
    const row = page.locator('#sandwich-functions tbody tr').first();
    const name = await row.getAttribute('data-name');
    await row.locator('button').click({ button: 'right' });
    await menu.waitFor();
    assert.equal(await menu.locator('.menu-title').textContent(), name);
    assert.equal(await menu.locator('.menu-item[data-key="f"]').getAttribute('aria-disabled'), 'true');
    assert.match(await menu.locator('.menu-item[data-key="f"] .menu-reason').textContent(), /sandwich/);
    await check(t, page, first, before, step('mf', name), async () => {
      await menu.locator('.menu-item[data-key="m"]').click();
    });
    // Its key acts on the sandwich's function.
    await check(t, page, first, before, step('ff', name), async () => {
      await row.locator('button').click();
      await page.keyboard.press('F');
    });

    // The differential flame graph's top node.
    await page.click('#compare');
    await page.waitForSelector('#compare-panel');
    await page.setInputFiles('#compare-folder', second);
    await page.waitForSelector('[data-view="diff"]');
    await view(page, 'diff');
    const canvas = await page.locator('canvas#diff-flamegraph').boundingBox();
    await page.mouse.click(canvas.x + 40, canvas.y + FLAME_ROW / 2, { button: 'right' });
    await menu.waitFor();
    const top = await menu.locator('.menu-title').textContent();
    await check(t, page, first, before, step('f', top), async () => {
      await menu.locator('.menu-item[data-key="f"]').click();
    });
  }));
