// (h) Archives of a fixture folder — a .zip (Info-ZIP) and a .tar.gz (GNU tar), from
// tests/fixtures/archives — load to `ready` with the same report as the CLI gives for the folder;
// a gzip-compressed single file among loose files is expanded too; an empty archive says so.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { test } = require('node:test');
const { assertDrawn, cliReport, dropFiles, fixtureDir, fixtureFiles, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const ARCHIVES = path.resolve(__dirname, '../fixtures/archives');

for (const name of ['a-simple-nested.zip', 'a-simple-nested.tar.gz']) {
  test(`archive ${name} loads like its folder`, (t) =>
    withPage(t, async ({ page, base }) => {
      const expected = cliReport(fixtureDir('a-simple-nested'));
      await openEmpty(page, base);
      await page.setInputFiles('#open-files', path.join(ARCHIVES, name));
      await waitForState(page, 'ready');
      assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI on the folder');
      await assertDrawn(page, expected);
    }));
}

test('dropped .tgz and gzip-compressed loose files load', (t) =>
  withPage(t, async ({ page, base }) => {
    const expected = cliReport(fixtureDir('c-pthreads-mutex'));
    await openEmpty(page, base);
    await dropFiles(page, [{ name: 'c-pthreads-mutex.tgz', bytes: fs.readFileSync(path.join(ARCHIVES, 'c-pthreads-mutex.tgz')) }]);
    await waitForState(page, 'ready');
    assert.deepEqual(await pageReport(page), expected, 'report() of the .tgz differs from the CLI on the folder');

    const loose = fixtureFiles('a-simple-nested');
    const files = loose.map((f) => {
      const bytes = fs.readFileSync(f);
      return f.endsWith('.dat') ? { name: `${path.basename(f)}.gz`, bytes: zlib.gzipSync(bytes) } : { name: path.basename(f), bytes };
    });
    await dropFiles(page, files);
    await waitForState(page, 'ready');
    assert.deepEqual(await pageReport(page), cliReport(...loose), 'report() with .dat.gz files differs from the CLI');
  }));

test('an empty zip says it holds no files', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      await openEmpty(page, base);
      const empty = Buffer.from('504b0506' + '00'.repeat(18), 'hex');
      await page.setInputFiles('#open-files', { name: 'empty.zip', mimeType: 'application/zip', buffer: empty });
      await waitForState(page, 'error');
      assert.match(await page.locator('#error').textContent(), /empty\.zip: the archive holds no files/);
    },
    { allowConsoleError: /holds no files/ },
  ));
