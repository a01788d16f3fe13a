// (g) `flamedrop convert --to speedscope` output loads in speedscope itself: the npm package's
// release build is served locally with the converted file beside it, opened through its
// `#profileURL=` hash parameter, and must render a flame chart without its error screen.
// One entry per format: a decoder's branch appends its fixture to CONVERTED.
'use strict';
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');
const { cliPath, fixtureDir, withPage } = require('./lib.js');
const { startServer } = require('./server.js');

const SPEEDSCOPE = path.dirname(require.resolve('speedscope/package.json'));
const CONVERTED = [
  { format: 'uftrace', name: 'a-simple-nested', input: () => fixtureDir('a-simple-nested') },
  { format: 'uftrace', name: 'c-pthreads-mutex', input: () => fixtureDir('c-pthreads-mutex') },
  { format: 'scaler', name: 'b-nested-callbacks-sync', input: () => repoFixture('scaler/b-nested-callbacks-sync') },
  { format: 'selogger', name: 'demo-v060-omnibinary', input: () => repoFixture('selogger/demo-v060-omnibinary') },
  { format: 'selogger', name: 'demo-v060-freq', input: () => repoFixture('selogger/demo-v060-freq') },
  { format: 'sp-rtrace', name: 'c-leaks', input: () => repoFixture('rtrace/c-leaks/20315-0.rtrace') },
  { format: 'swap', name: 'demo', input: () => repoFixture('swap/demo.swap') },
];

/** A path under the repository's tests/fixtures (any format). */
function repoFixture(relative) {
  const p = path.join(__dirname, '..', 'fixtures', relative);
  assert.ok(fs.existsSync(p), `fixture missing: ${p}`);
  return p;
}

/** A temporary copy of speedscope's release build, served on its own port. */
async function serveSpeedscope() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flamedrop-speedscope-'));
  fs.cpSync(path.join(SPEEDSCOPE, 'dist/release'), dir, { recursive: true });
  const { server, base } = await startServer(dir);
  server.unref();
  return { dir, base, stop: () => server.close() };
}

for (const c of CONVERTED) {
  test(`speedscope loads the converted ${c.format} ${c.name}`, async (t) => {
    const site = await serveSpeedscope();
    try {
      const file = `${c.format}-${c.name}.speedscope.json`;
      execFileSync(cliPath(), ['convert', c.input(), '--to', 'speedscope', '-o', path.join(site.dir, file)]);
      const doc = JSON.parse(fs.readFileSync(path.join(site.dir, file), 'utf8'));
      assert.ok(doc.profiles.length > 0, 'the converted file has no profiles');
      await withPage(
        t,
        async ({ page, base }) => {
          const dialogs = [];
          page.on('dialog', (d) => {
            dialogs.push(d.message());
            d.dismiss().catch(() => {});
          });
          await page.goto(`${base}#profileURL=${encodeURIComponent(base + file)}`);
          // speedscope names the tab after the loaded profile; its error screen says "Something went wrong".
          await page.waitForFunction(
            () => / - speedscope$/.test(document.title) || /Something went wrong/.test(document.body.innerText),
            null,
            { timeout: 60_000 },
          );
          const text = await page.evaluate(() => document.body.innerText);
          assert.doesNotMatch(text, /Something went wrong/, 'speedscope could not read the file');
          assert.deepEqual(dialogs, [], 'speedscope raised an alert');
          const canvases = await page.evaluate(() =>
            [...document.querySelectorAll('canvas')].filter((c) => c.width > 0 && c.height > 0).length,
          );
          assert.ok(canvases > 0, 'speedscope drew no canvas');
          assert.ok(text.includes(doc.profiles[0].name), `speedscope does not show the profile ${doc.profiles[0].name}`);
          if (doc.profiles.length > 1) {
            // The profile selector says "1/N": every profile of the file was imported.
            assert.match(text, new RegExp(`\\b1/${doc.profiles.length}\\b`), `speedscope did not list ${doc.profiles.length} profiles`);
          }
        },
        { base: site.base },
      );
    } finally {
      site.stop();
      fs.rmSync(site.dir, { recursive: true, force: true });
    }
  });
}
