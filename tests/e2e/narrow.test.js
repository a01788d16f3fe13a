// The narrowing stack in the page (issue 16): the filter bar takes uftrace's options and
// window.flamedrop.report() then prints what `flamedrop report --json <options>` prints (and the
// functions and call counts the real `uftrace report <options>` printed, recorded under the
// fixture's reference/filters/); the breadcrumb pops back to exactly the previous report(); a
// reload restores the stack from the URL fragment (`narrow=`); a bad option or pattern is shown
// beside the filter box and leaves the stack as it was; flamedrop.narrow(text) narrows from a
// script. The demo c-pthreads-mutex is the fixture tests/fixtures/uftrace/c-pthreads-mutex.
'use strict';
const assert = require('node:assert/strict');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { cliPath, fixtureDir, pageReport, saveShots, waitForState, withPage } = require('./lib.js');

const CASE = 'c-pthreads-mutex';
const OUT = path.join(__dirname, 'out');

/** `flamedrop report --json <args> <fixture>`, parsed. */
function cli(...args) {
  const out = execFileSync(cliPath(), ['report', '--json', ...args, fixtureDir(CASE)], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out);
}

/** [name, calls] rows of a `uftrace report` text the real uftrace printed (reference/filters/). */
function uftraceRows(file) {
  const text = fs.readFileSync(path.join(fixtureDir(CASE), '..', 'reference', 'filters', file), 'utf8');
  return text
    .split('\n')
    .map((line) => line.trim().match(/^\S+ \S+\s+\S+ \S+\s+(\d+)\s+(\S+)$/))
    .filter(Boolean)
    .map((m) => [m[2], Number(m[1])])
    .sort();
}

/** report()'s functions as sorted [name, calls] rows. */
function rows(report) {
  return report.functions.map((f) => [f.name, f.calls]).sort();
}

/** Waits until no narrowing runs and the applied stack is not `before`; returns narrowing(). */
async function settled(page, before) {
  await page.waitForFunction(
    (b) => {
      const n = window.flamedrop.narrowing();
      return !n.busy && (n.stack !== b || n.error != null);
    },
    before,
    { timeout: 60_000 },
  );
  return page.evaluate(() => window.flamedrop.narrowing());
}

/** Types `line` into the filter box and presses Enter. */
async function typeFilter(page, line) {
  await page.fill('#narrow-filter', line);
  await page.press('#narrow-filter', 'Enter');
}

async function crumbs(page) {
  return page.$$eval('#narrow-breadcrumb .crumb', (list) => list.map((c) => c.textContent));
}

async function openDemo(page, base, fragment = '') {
  await page.goto(`${base}?demo=${CASE}${fragment}`);
  await waitForState(page, 'ready');
}

test('filter bar: -F then -N narrow report() as the CLI and uftrace; the breadcrumb pops back exactly', (t) =>
  withPage(t, async ({ page, base }) => {
    await openDemo(page, base);
    const full = await pageReport(page);
    assert.deepEqual(full, cli(), 'the whole trace differs from the CLI');
    assert.deepEqual(await crumbs(page), ['Full trace']);

    await typeFilter(page, '-F worker');
    let n = await settled(page, '');
    assert.equal(n.error, null);
    const filtered = await pageReport(page);
    assert.deepEqual(filtered, cli('-F', 'worker'), 'report() after -F worker differs from the CLI');
    assert.deepEqual(rows(filtered), uftraceRows('F.txt'), 'functions and calls differ from uftrace report -F worker');
    assert.equal(await page.inputValue('#narrow-filter'), '', 'the box empties once the step is pushed');
    assert.match(new URL(page.url()).hash, /narrow=u:-F%20worker/);
    await saveShots(page, [OUT], 'narrow-light.png');

    const first = n.stack;
    await typeFilter(page, '-N update_shared');
    n = await settled(page, first);
    assert.equal(n.steps.length, 2);
    const both = await pageReport(page);
    assert.deepEqual(both, cli('--transform', n.stack), 'report() after two steps differs from the CLI');
    assert.ok(!both.functions.some((f) => f.name === 'update_shared'));
    assert.deepEqual(await crumbs(page), ['Full trace', 'uftrace -F worker', 'uftrace -N update_shared']);
    await page.click('#theme-toggle');
    await saveShots(page, [OUT], 'narrow-dark.png');
    await page.evaluate(() => window.flamedrop.view('flamegraph'));
    await saveShots(page, [OUT], 'narrow-flamegraph-dark.png');
    await page.evaluate(() => window.flamedrop.view('timeline'));

    // Back one step (a kept result: nothing to carry out), then to the whole trace.
    await page.click('#narrow-breadcrumb .crumb[data-keep="1"]');
    n = await settled(page, n.stack);
    assert.equal(n.stack, first);
    assert.deepEqual(await pageReport(page), filtered, 'popping one step does not give the previous report()');
    await page.click('#narrow-breadcrumb .crumb[data-keep="0"]');
    n = await settled(page, first);
    assert.equal(n.stack, '');
    assert.deepEqual(await pageReport(page), full, 'popping to the full trace does not give its report()');
    assert.doesNotMatch(new URL(page.url()).hash, /narrow=/);
  }));

test('a reload restores the stack from the URL fragment', (t) =>
  withPage(t, async ({ page, base }) => {
    const stack = 'u:-D%202~u:--tid%2021712';
    await openDemo(page, base, `#view=calltree&narrow=${stack}`);
    let n = await settled(page, '');
    assert.equal(n.error, null);
    assert.equal(n.stack, stack);
    const narrowed = await pageReport(page);
    assert.deepEqual(narrowed, cli('--transform', stack));
    assert.deepEqual(rows(narrowed), rows(cli('-D', '2', '--tid', '21712')));
    await page.reload();
    await waitForState(page, 'ready');
    n = await settled(page, '');
    assert.equal(n.stack, stack);
    assert.deepEqual(await pageReport(page), narrowed, 'the reloaded page shows another report()');
    assert.deepEqual(await crumbs(page), ['Full trace', 'uftrace -D 2', 'uftrace --tid 21712']);
    assert.equal(await page.evaluate(() => window.flamedrop.state().view), 'calltree');
  }));

test('a link whose stack cannot apply shows the trace whole, says why and drops the stack from the URL', (t) =>
  withPage(t, async ({ page, base }) => {
    await openDemo(page, base, '#view=flamegraph&narrow=mf:compute~u:-F%20worker(');
    await page.waitForSelector('#narrow-error');
    const n = await page.evaluate(() => window.flamedrop.narrowing());
    assert.equal(n.stack, '');
    assert.match(n.error, /^step 2 \(uftrace -F worker\(\): failed to set filter or trigger/);
    assert.deepEqual(await pageReport(page), cli());
    assert.equal(new URL(page.url()).hash, '#view=flamegraph');
  }));

test('a bad option or pattern is shown beside the box and leaves the stack as it was', (t) =>
  withPage(t, async ({ page, base }) => {
    await openDemo(page, base);
    const full = await pageReport(page);
    await typeFilter(page, '-F');
    await page.waitForSelector('#narrow-error');
    assert.match(await page.textContent('#narrow-error'), /requires an argument/);
    assert.equal(await page.getAttribute('#narrow-filter', 'aria-invalid'), 'true');
    await typeFilter(page, '-F worker(');
    await page.waitForFunction(() => /worker\(/.test(document.querySelector('#narrow-error')?.textContent || ''));
    assert.match(await page.textContent('#narrow-error'), /^failed to set filter or trigger: worker\( \(.+\)$/);
    assert.equal(await page.inputValue('#narrow-filter'), '-F worker(', 'the bad line stays in the box');
    await saveShots(page, [OUT], 'narrow-error.png');
    const rejected = (text) =>
      page.evaluate((t) => window.flamedrop.narrow(t).then(() => null, (e) => e.message), text);
    assert.match(await rejected('zz:1'), /unknown step/);
    assert.match(await rejected('u:-N%20%5B'), /^step 1 \(uftrace -N \[\): failed to set filter or trigger: \[/);
    const n = await page.evaluate(() => window.flamedrop.narrowing());
    assert.equal(n.stack, '', 'a bad step was pushed');
    assert.match(n.error, /^step 1/);
    assert.deepEqual(await pageReport(page), full);
    assert.deepEqual(await crumbs(page), ['Full trace']);

    // A pattern that matches nothing in this trace applies, and says so beside the breadcrumb.
    await page.fill('#narrow-filter', '');
    await typeFilter(page, '-F no_such_function');
    const noted = await settled(page, '');
    assert.equal(noted.error, null);
    assert.equal(noted.notes.length, 1);
    assert.match(await page.textContent('#narrow-notes'), /^Step 1: failed to set filter or trigger: no_such_function/);
    await saveShots(page, [OUT], 'narrow-note.png');
    await typeFilter(page, '-D x');
    await page.waitForSelector('#narrow-error');
    await page.click('#theme-toggle');
    await saveShots(page, [OUT], 'narrow-note-error-dark.png');
  }));

test('flamedrop.narrow(text) narrows from a script and resolves once report() shows it', (t) =>
  withPage(t, async ({ page, base }) => {
    await openDemo(page, base);
    const full = await pageReport(page);
    const text = await page.evaluate(() => window.flamedrop.narrow('u:-C%20compute'));
    assert.equal(text, 'u:-C%20compute');
    assert.equal(await page.evaluate(() => window.flamedrop.narrow()), text);
    const narrowed = await pageReport(page);
    assert.deepEqual(narrowed, cli('-C', 'compute'));
    assert.deepEqual(rows(narrowed), uftraceRows('C.txt'), 'functions and calls differ from uftrace report -C compute');
    assert.equal(await page.evaluate(() => window.flamedrop.narrow('')), '');
    assert.deepEqual(await pageReport(page), full);
  }));

test('the diff compares both traces narrowed by the stack', (t) =>
  withPage(t, async ({ page, base }) => {
    const diffCase = path.join(__dirname, '..', 'fixtures', 'uftrace-diff');
    const [before, after] = ['base', 'new'].map((side) => path.join(diffCase, side, 'uftrace.data'));
    const report = (dir, ...args) =>
      JSON.parse(execFileSync(cliPath(), ['report', '--json', ...args, dir], { encoding: 'utf8', maxBuffer: 64 << 20 }));
    await page.goto(base);
    await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop);
    await page.setInputFiles('#open-folder', before);
    await waitForState(page, 'ready');
    await page.click('#compare');
    await page.waitForSelector('#compare-panel');
    await page.setInputFiles('#compare-folder', after);
    await page.waitForFunction(() => window.flamedrop.diff() != null, null, { timeout: 60_000 });
    const whole = await page.evaluate(() => window.flamedrop.diff());
    assert.ok(whole.functions.some((f) => f.name === 'parse'), 'parse is compared before narrowing');

    await page.evaluate(() => window.flamedrop.narrow('u:-F%20compute'));
    // The comparison trace is narrowed in a task of its own after the trace on screen.
    await page.waitForFunction(() => !window.flamedrop.diff().functions.some((f) => f.name === 'parse'), null, {
      timeout: 60_000,
    });
    const narrowed = await page.evaluate(() => window.flamedrop.diff());
    const calls = (r) => new Map(r.functions.map((f) => [f.name, f.calls]));
    const [b, a] = [calls(report(before, '-F', 'compute')), calls(report(after, '-F', 'compute'))];
    assert.deepEqual(new Set(narrowed.functions.map((f) => f.name)), new Set([...b.keys(), ...a.keys()]));
    for (const f of narrowed.functions) {
      assert.equal(f.base.calls, b.get(f.name) || 0, `${f.name}: base calls`);
      assert.equal(f.new.calls, a.get(f.name) || 0, `${f.name}: new calls`);
    }
    await page.click('#view-diff');
    await saveShots(page, [OUT], 'narrow-diff.png');
    await page.evaluate(() => window.flamedrop.narrow(''));
    await page.waitForFunction(() => window.flamedrop.diff().functions.some((f) => f.name === 'parse'));
    assert.deepEqual(await page.evaluate(() => window.flamedrop.diff()), whole, 'popping back does not give the whole diff');
  }));

test('every kind of step set from a script gives the report() and the notes `flamedrop report --transform` gives', (t) =>
  withPage(t, async ({ page, base }) => {
    await openDemo(page, base);
    const full = await pageReport(page);
    const stacks = [
      'mf:update_shared',
      'mcn:main,pthread_create',
      'f:worker,update_shared',
      'ff:update_shared',
      'fs:update_shared',
      'cfs:update_shared',
      'cr:libc.so.6',
      'drec:worker',
      'rec:worker',
      'df:compute',
      'u:-H%20update_shared~ff:compute~u:-D%202',
      'u:-t%201us~mf:worker',
      'u:-r%20568.292us%7E1.137ms',
    ];
    for (const stack of stacks) {
      const run = spawnSync(cliPath(), ['report', '--json', '--transform', stack, fixtureDir(CASE)], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
      assert.equal(run.status, 0, `${stack}: ${run.stderr}`);
      const notes = run.stderr.split('\n').filter((l) => /note: --transform step/.test(l)).length;
      const applied = await page.evaluate((s) => window.flamedrop.narrow(s), stack);
      assert.equal(applied, stack);
      assert.deepEqual(await pageReport(page), JSON.parse(run.stdout), `report() differs from the CLI for ${stack}`);
      const n = await page.evaluate(() => window.flamedrop.narrowing());
      assert.equal(n.notes.length, notes, `${stack}: notes ${JSON.stringify(n.notes)} against the CLI's ${run.stderr}`);
      assert.equal(await page.evaluate(() => window.flamedrop.narrow('')), '');
    }
    assert.deepEqual(await pageReport(page), full);
  }));
