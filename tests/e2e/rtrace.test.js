// sp-rtrace in the browser: every fixture case opened through input#open-folder reaches `ready`,
// window.flamedrop.report() equals `flamedrop report --json`, and its leak numbers per resource type
// equal the leaked calls of sp-rtrace-postproc's `-l` output (reference/postproc-l.txt). A trace
// opened through input#open-files with the traced program's ELF file gets function names; the
// bundled demo opens with ?demo=rtrace-c-leaks.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { assertDrawn, cliReport, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const RTRACE = path.resolve(__dirname, '../fixtures/rtrace');
const CASES = fs
  .readdirSync(RTRACE)
  .filter((d) => fs.existsSync(path.join(RTRACE, d, 'reference', 'postproc-l.txt')))
  .sort();

/** Leaked blocks and bytes per resource type, from the call lines of postproc -l. */
function postprocLeaks(caseName) {
  const text = fs.readFileSync(path.join(RTRACE, caseName, 'reference', 'postproc-l.txt'), 'utf8');
  const types = text
    .split('\n')
    .filter((l) => l.startsWith('<'))
    .map((l) => l.split(' : ')[1].split(' (')[0]);
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^\d+\. (?:@\w+ )?(?:\[[^\]]*\] )?[^<(]+(?:<([^>]+)>)?\((\d+)\) = 0x/.exec(line);
    if (!m) continue;
    const type = m[1] || types[0];
    out[type] = out[type] || { live_blocks: 0, live_bytes: 0 };
    out[type].live_blocks += 1;
    out[type].live_bytes += Number(m[2]);
  }
  return out;
}

function pageLeaks(report) {
  const out = {};
  for (const r of report.resources) {
    if (r.live_blocks > 0) out[r.resource] = { live_blocks: r.live_blocks, live_bytes: r.live_bytes };
  }
  return out;
}

test('every sp-rtrace case is a known case', () => {
  assert.deepEqual(CASES, ['c-files-i686-proto14', 'c-files-multi', 'c-leaks', 'c-leaks-i686', 'c-threads-contexts']);
});

for (const name of CASES) {
  test(`open-folder rtrace/${name}`, (t) =>
    withPage(t, async ({ page, base }) => {
      const dir = path.join(RTRACE, name);
      const expected = cliReport(dir);
      await openEmpty(page, base);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      const report = await pageReport(page);
      assert.deepEqual(report, expected, 'report() differs from the CLI');
      assert.equal(report.format, 'sp-rtrace');
      assert.deepEqual(pageLeaks(report), postprocLeaks(name), 'leaks differ from postproc -l');
      assert.ok(report.leaks.length > 0, 'no leak groups');
      await assertDrawn(page, report);
    }));
}

test('open-files: trace plus the ELF file names the frames', (t) =>
  withPage(t, async ({ page, base }) => {
    const files = [path.join(RTRACE, 'c-leaks', '20315-0.rtrace'), path.join(RTRACE, 'elf', 'leaks')];
    await openEmpty(page, base);
    await page.setInputFiles('#open-files', files);
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    assert.deepEqual(report, cliReport(...files));
    const frames = report.leaks.flatMap((l) => l.frames);
    assert.ok(frames.some((f) => f.startsWith('remember_name+0x')), `no named frame in ${frames}`);
  }));

test('?demo=rtrace-c-leaks', (t) =>
  withPage(t, async ({ page, base }) => {
    await page.goto(`${base}?demo=rtrace-c-leaks`);
    await waitForState(page, 'ready');
    const report = await pageReport(page);
    assert.equal(report.format, 'sp-rtrace');
    assert.deepEqual(pageLeaks(report), postprocLeaks('c-leaks'));
    await assertDrawn(page, report);
  }));
