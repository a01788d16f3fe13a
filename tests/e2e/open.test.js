// `flamedrop open FIXTURE --no-browser`: the CLI serves the viewer built into it and the trace on
// 127.0.0.1; the page it prints reaches `ready` with that trace (report() deep-equals
// `flamedrop report --json FIXTURE`, every lane drawn), every request the browser makes stays on
// loopback (and on the CLI's own origin), and the CLI stops by itself once the tab is closed.
// Needs a CLI built after `trunk build --release` (scripts/check.sh builds dist/ first): a CLI
// built without dist/ says so and the test fails with that message.
'use strict';
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { test } = require('node:test');
const { assertDrawn, cliPath, cliReport, fixtureDir, pageReport, saveShots, waitForState, withPage } = require('./lib.js');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Starts `flamedrop open ...args`; resolves to { child, url, exited } once it printed its URL. */
function startOpen(args) {
  const child = spawn(cliPath(), ['open', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  const url = new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    exited.then(({ code }) => reject(new Error(`flamedrop open exited (${code}) before printing a URL: ${stderr}`)));
    child.on('error', reject);
  });
  return url.then((u) => ({ child, url: u, exited, stderr: () => stderr }));
}

/** Resolves to what `exited` gives, or rejects after `ms`. */
function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

test('flamedrop open FIXTURE --no-browser: ready with that trace, loopback only, stops when the tab closes', async (t) => {
  const fixture = fixtureDir('c-pthreads-mutex');
  const expected = cliReport(fixture);
  const served = await startOpen([fixture, '--no-browser', '--idle-timeout', '120']);
  t.after(() => served.child.exitCode === null && served.child.kill());
  const url = new URL(served.url);
  assert.equal(url.hostname, '127.0.0.1', `not a loopback URL: ${served.url}`);
  assert.match(url.search, /^\?trace=[0-9a-f]{32}$/);

  let requests;
  await withPage(
    t,
    async ({ context, requests: seen }) => {
      requests = seen;
      // A tab of its own, so closing it is closing the tab (the test's page stays for the screenshot).
      const tab = await context.newPage();
      await tab.goto(served.url);
      await waitForState(tab, 'ready');
      assert.deepEqual(await pageReport(tab), expected, 'report() differs from `flamedrop report --json`');
      await assertDrawn(tab, expected);
      const summary = await tab.evaluate(() => document.body.innerText);
      assert.match(summary, /uftrace\.data\//, 'the page names the opened folder');
      await saveShots(tab, [path.join(__dirname, 'out')], 'open-served-trace.png');
      await tab.close({ runBeforeUnload: true });
      const { code, stderr } = await within(served.exited, 20_000, 'flamedrop open stopping after the tab closed');
      assert.equal(code, 0, stderr);
      assert.match(stderr, /the page was closed; stopped/);
    },
    { base: served.url },
  );
  assert.ok(requests.some((u) => new URL(u).pathname.includes('/file/')), 'the trace was fetched from the server');
  const offLoopback = requests.filter((u) => /^(https?|wss?):/.test(u) && !LOOPBACK.has(new URL(u).hostname));
  assert.deepEqual(offLoopback, [], 'requests outside loopback');
});

test('flamedrop open with no page opened stops after --idle-timeout', async () => {
  const served = await startOpen([fixtureDir('a-simple-nested'), '--no-browser', '--idle-timeout', '1']);
  const { code, stderr } = await within(served.exited, 15_000, 'flamedrop open stopping when idle');
  assert.equal(code, 0, stderr);
  assert.match(stderr, /no page open for the idle timeout; stopped/);
});
