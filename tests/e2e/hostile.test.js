// (k) Hostile names: function names, a process name and a file name carrying HTML, script,
// right-to-left text and emoji show as text and never run: no injected element appears, no
// injected script sets its flag, and the names reach report() unchanged. A hostile file name in
// an error message stays text too.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { assertDrawn, dropFiles, fixtureFiles, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const HOSTILE = {
  leaf: '<img src=x onerror="window.__pwned=1">',
  mid: '\u202edim\u202c_rtl_\u05e9\u05dc\u05d5\u05dd',
  top: '🔥top🧵"quoted"&amp;',
  say: '</script><script>window.__pwned=2</script>',
};
const PROCESS = "/tmp/<svg onload='window.__pwned=3'>";
const FILE = '<img src=y onerror="window.__pwned=4">.txt';

async function assertNothingRan(page) {
  const seen = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    injected: document.querySelectorAll('img[src=x], img[src=y], svg[onload], script:not([src])').length,
  }));
  assert.deepEqual(seen, { pwned: null, injected: 0 }, 'injected markup became part of the page');
}

test('hostile names are shown as text, never run', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      const files = fixtureFiles('a-simple-nested').map((f) => {
        let bytes = fs.readFileSync(f);
        const name = path.basename(f);
        if (name === 'a_simple.sym') {
          let text = bytes.toString('utf8');
          for (const [from, to] of Object.entries(HOSTILE)) text = text.replace(` ${from}\n`, ` ${to}\n`);
          bytes = Buffer.from(text, 'utf8');
        } else if (name === 'task.txt') {
          bytes = Buffer.from(bytes.toString('utf8').replace('exename="/tmp/uft/progs/a_simple"', `exename="${PROCESS}"`), 'utf8');
        }
        return { name, bytes };
      });
      files.push({ name: FILE, bytes: Buffer.from('not part of the recording\n') });
      await openEmpty(page, base);
      await dropFiles(page, files);
      await waitForState(page, 'ready');
      const report = await pageReport(page);
      const names = report.functions.map((f) => f.name);
      for (const name of Object.values(HOSTILE)) assert.ok(names.includes(name), `${JSON.stringify(name)} missing from report(): ${names}`);
      await assertDrawn(page, report);
      const text = await page.evaluate(() => document.body.innerText);
      assert.ok(text.includes('<svg onload='), 'the process name is not shown as text');
      await assertNothingRan(page);
    },
    { allowConsoleError: /Content Security Policy/ },
  ));

test('a hostile file name in an error message stays text', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      await openEmpty(page, base);
      await page.setInputFiles('#open-files', { name: FILE, mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await waitForState(page, 'error');
      assert.ok((await page.locator('#error').textContent()).includes(FILE), '#error does not show the file name as text');
      await assertNothingRan(page);
    },
    { allowConsoleError: /./ },
  ));
