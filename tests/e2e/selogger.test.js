// SELogger: every omniscient fixture folder (binary and text stream, 0.4/0.5/0.6) opened through
// input#open-folder reaches `ready`, window.flamedrop.report() equals `flamedrop report --json`,
// and its per-thread event counts equal the README's; a near-omniscient and a frequency folder
// (no timeline) reach `ready` too; the bundled SELogger demo opens and draws.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { assertDrawn, cliReport, openEmpty, pageReport, waitForState, withPage, withoutSources } = require('./lib.js');

const SELOGGER = path.resolve(__dirname, '../fixtures/selogger');
// The main thread nests 31 levels (methods and their call sites): every lane fits in a tall window.
const TALL = { viewport: { width: 1280, height: 1800 } };
const OMNI = [
  'demo-v040-omni',
  'demo-v051-omnibinary',
  'demo-v051-omni-text',
  'demo-v060-omnibinary',
  'demo-v060-omni-text',
  'demo-v060-omni-text-timestamp',
  'bridge-v060-omnibinary',
  'bridge-v060-omni-text',
];

/** `events: **N**; per SELogger thread ID: 0: a, 1: b` from a case README, as { id: count }. */
function readmeThreadEvents(dir) {
  const line = fs.readFileSync(path.join(dir, 'README.md'), 'utf8').split('\n').find((l) => l.startsWith('- events: **'));
  assert.ok(line, `no events line in ${dir}/README.md`);
  const pairs = line.split('per SELogger thread ID: ')[1].split(', ');
  return Object.fromEntries(pairs.map((p) => p.split(': ').map((s) => s.trim())).map(([id, n]) => [id, Number(n)]));
}

for (const name of OMNI) {
  test(`selogger open-folder ${name}`, (t) =>
    withPage(t, async ({ page, base }) => {
      const dir = path.join(SELOGGER, name);
      const expected = withoutSources(cliReport(dir), dir);
      await openEmpty(page, base);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      const report = await pageReport(page);
      assert.deepEqual(report, expected, 'report() differs from the CLI');
      assert.equal(report.format, 'selogger');
      assert.equal(report.time_unit, 'events');
      const events = Object.fromEntries(report.threads.map((th) => [String(th.id), th.events]));
      assert.deepEqual(events, readmeThreadEvents(dir), 'per-thread events differ from the README');
      await assertDrawn(page, report);
    }, TALL));
}

for (const name of ['demo-v060-nearomni-json', 'bridge-v060-freq']) {
  test(`selogger open-folder ${name} (no timeline)`, (t) =>
    withPage(t, async ({ page, base }) => {
      const dir = path.join(SELOGGER, name);
      const expected = withoutSources(cliReport(dir), dir);
      await openEmpty(page, base);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      const report = await pageReport(page);
      assert.deepEqual(report, expected, 'report() differs from the CLI');
      assert.equal(report.threads.length, 0);
      assert.ok(report.diagnostics.some((d) => /no timeline/.test(d.message)), 'the missing timeline is explained');
    }));
}

test('?demo=selogger-v060-omnibinary', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=selogger-v060-omnibinary`);
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    assert.equal(report.format, 'selogger');
    assert.equal(report.threads.reduce((n, th) => n + th.events, 0), 7394);
    await assertDrawn(page, report);
  }, TALL));
