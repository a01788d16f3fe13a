// SELogger values (issue 19): in demo-v060-omnibinary opened through input#open-folder, the first
// call of `primitives` selected with search + n shows, in the detail panel's "Values in this
// call", the seven arguments LogPrinter prints for that call (reference/LogPrinter.txt.gz,
// EventId 1156-1162 as CALL_PARAM, 1164-1170 as METHOD_PARAM: the same values). Screenshot:
// docs/views/selogger-values-detail.png (with FLAMEDROP_UPDATE_DOCS=1).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { test } = require('node:test');
const { openEmpty, saveShots, waitForState, withPage } = require('./lib.js');

const CASE = path.join(__dirname, '..', 'fixtures', 'selogger', 'demo-v060-omnibinary');
const SHOTS = [path.join(__dirname, 'out', 'views')];
if (process.env.FLAMEDROP_UPDATE_DOCS) SHOTS.push(path.join(__dirname, '..', '..', 'docs', 'views'));

/** The values LogPrinter prints for the METHOD_PARAM events of the first primitives call. */
function referenceArguments() {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(CASE, 'reference', 'LogPrinter.txt.gz'))).toString();
  return text
    .split('\n')
    .filter((l) => l.includes('EventType=METHOD_PARAM,') && l.includes(',demo/TraceDemo:primitives,'))
    .slice(0, 7)
    .map((l) => l.split(',Value=')[1].split(',demo/')[0]);
}

test('selogger values: the detail panel lists a call\'s values as LogPrinter prints them', (t) =>
  withPage(t, async ({ page, base }) => {
    const expected = referenceArguments();
    assert.deepEqual(expected.slice(0, 3), ['-7', '300', '90']);
    await openEmpty(page, base);
    await page.setInputFiles('#open-folder', CASE);
    await waitForState(page, 'ready');
    await page.evaluate(() => window.flamedrop.search('/primitives/'));
    await page.click('canvas#flamechart', { position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await page.waitForSelector('#detail-values');
    assert.match(await page.textContent('#detail .detail-name'), /primitives/);
    const values = await page.$$eval('#detail-values dd', (els) => els.map((e) => e.textContent));
    assert.deepEqual(values.slice(0, 7), expected);
    await saveShots(page, SHOTS, 'selogger-values-detail.png');
  }));
