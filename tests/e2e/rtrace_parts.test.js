// sp-rtrace decoded by two workers (issue 20.3): in the shared-memory build (an isolated run) a
// big sp-rtrace file is split by byte range, part 1's decoder state is left in shared memory and
// part 0 joins it before building the one trace (src/worker/join.rs, src/wire/join.rs); the
// copying build (?shared=0, or a run that is not isolated) decodes it in one worker. Either way
// the page must show the same trace: report() equals the CLI's, and the summary (but for its
// isolation and hand-off lines) equals the one-worker copying build's. Cancel stops a joined load
// at any moment and the page loads the next file. The input is generated (bench/make-big.js: the
// c-leaks recording's calls repeated), ?workers=2 splits it whatever its size.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { test } = require('node:test');
const { ISOLATED, cliReport, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const REPO = path.resolve(__dirname, '../..');
const SOURCE = path.join(REPO, 'tests/fixtures/rtrace/c-leaks/20315-0.rtrace');

/** A c-leaks recording grown to about `mb` MB, made once per machine (kept in the temp folder). */
function grown(mb) {
  const file = path.join(os.tmpdir(), `flamedrop-e2e-rtrace-parts-${mb}`, 'grown.rtrace');
  if (!fs.existsSync(file) || fs.statSync(file).size < mb * (1 << 20) * 0.99) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync(process.execPath, [path.join(REPO, 'bench/make-big.js'), 'rtrace', SOURCE, file, String(mb)]);
  }
  return file;
}

/** The summary's text, without the lines that say how this page runs (isolated, model). */
async function summaryText(page) {
  return page.evaluate(() => {
    const summary = document.querySelector('#summary');
    if (!summary) return null;
    const copy = summary.cloneNode(true);
    for (const id of ['isolated', 'model-handoff']) {
      const dd = copy.querySelector(`#${id}`);
      dd?.previousElementSibling?.remove();
      dd?.remove();
    }
    return copy.innerText;
  });
}

/** Opens `file` at `query` and says what the page made of it. */
async function load(page, base, query, file) {
  await openEmpty(page, `${base}${query}`);
  await page.setInputFiles('#open-files', file);
  await waitForState(page, 'ready', 120_000);
  const { parts, phases } = await page.evaluate(() => window.flamedrop.timings());
  return {
    parts,
    phases: phases.map(([name]) => name),
    model: await page.evaluate(() => document.documentElement.dataset.model),
    report: await pageReport(page),
    summary: await summaryText(page),
  };
}

test('sp-rtrace in two workers: joined in shared memory when isolated, the same trace as one copying worker', (t) =>
  withPage(t, async ({ page, base }) => {
    const file = grown(3);
    const expected = cliReport(file);
    const two = await load(page, base, '?workers=2', file);
    t.diagnostic(`two workers: model ${two.model}, parts ${two.parts}, phases ${two.phases.join(', ')}`);
    // Isolated, the shared-memory build joins the two parts; else one copying worker decodes it.
    assert.equal(two.parts, ISOLATED ? 2 : 1, 'parts decoded and joined');
    assert.equal(two.phases.includes('worker join'), ISOLATED, 'part 0 joined part 1 (phase "worker join")');
    assert.deepEqual(two.report, expected, 'report() with two workers differs from the CLI');
    const one = await load(page, base, '?shared=0&workers=1', file);
    assert.equal(one.parts, 1);
    assert.equal(one.phases.includes('worker columns'), true, 'the one-worker run copied the model');
    assert.deepEqual(one.report, two.report, 'one copying worker and two workers disagree');
    assert.ok(one.summary && one.summary.includes('sp-rtrace'), 'the summary is shown');
    assert.equal(two.summary, one.summary, 'the summaries differ');
  }));

test('Cancel stops a two-worker sp-rtrace load at any moment, and the next file loads', (t) =>
  withPage(t, async ({ page, base }) => {
    const big = grown(60);
    for (const after of [0, 150, 400]) {
      await openEmpty(page, `${base}?workers=2`);
      await page.setInputFiles('#open-files', big);
      await page.waitForTimeout(after);
      // Clicked in the page: the load may end between a look and a click from outside.
      const clicked = await page.evaluate(() => {
        const cancel = document.querySelector('#cancel');
        if (document.body.dataset.state !== 'loading' || !cancel) return false;
        cancel.click();
        return true;
      });
      if (!clicked) {
        t.diagnostic(`after ${after} ms the load was over: nothing to cancel`);
        continue;
      }
      await page.waitForFunction(() => document.body.dataset.state === 'idle', null, { timeout: 5_000, polling: 20 });
      // Stopped workers say nothing more: the page stays on the start page.
      await page.waitForTimeout(500);
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle', `after a cancel at ${after} ms`);
    }
    // The workers that were cancelled freed what they held and let go of the allocator.
    const small = grown(3);
    await page.setInputFiles('#open-files', small);
    await waitForState(page, 'ready', 120_000);
    assert.deepEqual(await pageReport(page), cliReport(small));
  }));
