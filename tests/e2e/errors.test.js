// (e) Files that are not traces (a PNG, random bytes) give state `error` with a visible message in
// #error and no crash; the page then still opens a real trace.
'use strict';
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { test } = require('node:test');
const { assertDrawn, cliReport, fixtureDir, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

// A valid 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
// The app may log the decode failure; a panic or wasm trap still fails (see lib.js).
const allowConsoleError = /./;

async function expectError(page) {
  await waitForState(page, 'error');
  const error = page.locator('#error');
  assert.ok(await error.isVisible(), '#error is not visible');
  assert.ok((await error.textContent()).trim().length > 0, '#error is empty');
}

test('error: PNG file, then a real trace still opens', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      await openEmpty(page, base);
      await page.setInputFiles('#open-files', { name: 'picture.png', mimeType: 'image/png', buffer: PNG });
      await expectError(page);
      const dir = fixtureDir('a-simple-nested');
      const expected = cliReport(dir);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
      await assertDrawn(page, expected);
    },
    { allowConsoleError },
  ));

test('error: random bytes', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      await openEmpty(page, base);
      // 64 KiB of fixed pseudo-random bytes (the same on every run).
      const bytes = Buffer.concat(
        Array.from({ length: 2048 }, (_, i) => crypto.createHash('sha256').update(`flamedrop-${i}`).digest()),
      );
      await page.setInputFiles('#open-files', { name: 'unknown', mimeType: 'application/octet-stream', buffer: bytes });
      await expectError(page);
    },
    { allowConsoleError },
  ));
