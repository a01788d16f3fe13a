// (b) A fixture's files dropped flat on #dropzone (synthetic dragenter/dragover/drop), and the same
// via input#open-files (multiple), give the same report as the CLI given the same loose files
// (`flamedrop report --json <file>...`) and a drawn flame chart.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { assertDrawn, cliReport, dropFiles, fixtureFiles, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

test('drop c-pthreads-mutex files on #dropzone', (t) =>
  withPage(t, async ({ page, base }) => {
    const paths = fixtureFiles('c-pthreads-mutex');
    const expected = cliReport(...paths);
    const files = paths.map((f) => ({ name: path.basename(f), bytes: fs.readFileSync(f) }));
    await openEmpty(page, base);
    await dropFiles(page, files);
    await waitForState(page, 'ready');
    assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
    await assertDrawn(page, expected);
  }));

test('open-files a-simple-nested (multiple loose files)', (t) =>
  withPage(t, async ({ page, base }) => {
    const paths = fixtureFiles('a-simple-nested');
    const expected = cliReport(...paths);
    await openEmpty(page, base);
    await page.setInputFiles('#open-files', paths);
    await waitForState(page, 'ready');
    assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
    await assertDrawn(page, expected);
  }));
