// (i) Offline: after a first visit the service worker has cached the app; with the network cut
// (Playwright's setOffline) the page still opens from the cache, at / and under the sub-path,
// and decodes a dropped trace. Also checks the Content-Security-Policy stays strict.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { ISOLATED, SUBPATH, assertDrawn, cliReport, dropFiles, fixtureFiles, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

/** Waits until the service worker controls the page and has cached the app's wasm. */
async function waitForCache(page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
  });
  const cached = await page.evaluate(async () => {
    const keys = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) keys.push(request.url);
    }
    return keys;
  });
  assert.ok(cached.some((u) => /app-[0-9a-f]{16}_bg\.wasm$/.test(u)), `the app's wasm is not cached: ${cached}`);
  assert.ok(cached.some((u) => u.endsWith('/worker_bg.wasm')), `the worker's wasm is not cached: ${cached}`);
}

for (const where of ['/', SUBPATH]) {
  // Offline use needs the service worker, which the non-isolated run blocks.
  const skip = !ISOLATED && 'service workers are blocked in this run (FLAMEDROP_E2E_ISOLATION=off)';
  test(`offline at ${where}: the cached page opens and decodes a dropped trace`, { skip }, (t) =>
    withPage(
      t,
      async ({ page, context, base }) => {
        const url = new URL(where, base).href;
        await openEmpty(page, url);
        await waitForCache(page);
        await context.setOffline(true);
        // A same-origin file the cache does not hold cannot be fetched: the network is cut.
        const online = await page.evaluate(() => fetch(`./not-cached-${Date.now()}`).then(() => true, () => false));
        assert.equal(online, false, 'the network is not cut');
        await page.reload();
        await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop, null, { timeout: 30_000 });
        const paths = fixtureFiles('a-simple-nested');
        const expected = cliReport(...paths);
        await dropFiles(page, paths.map((f) => ({ name: path.basename(f), bytes: fs.readFileSync(f) })));
        await waitForState(page, 'ready');
        assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
        await assertDrawn(page, expected);
      },
      // The probe of the cut network fails, as it should.
      { allowConsoleError: /not-cached-|ERR_INTERNET_DISCONNECTED|FetchEvent/ },
    ));
}

test('the Content-Security-Policy allows nothing from other origins and no eval beyond wasm', (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content || '');
    const directives = Object.fromEntries(
      csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]),
    );
    assert.deepEqual(directives['default-src'], ["'self'"]);
    assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
    for (const [name, values] of Object.entries(directives)) {
      for (const v of values) {
        assert.ok(!/unsafe-inline|'unsafe-eval'|\*|https?:|data:.*script/.test(v) || (name === 'img-src' && v === 'data:'), `${name} allows ${v}`);
      }
    }
    // An inline script (what an injected trace name would try) is refused by the policy.
    const blocked = await page.evaluate(async () => {
      const violation = new Promise((resolve) => document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true }));
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.append(s);
      const directive = await Promise.race([violation, new Promise((r) => setTimeout(() => r('none'), 2000))]);
      return { ran: window.__inlineRan === true, directive };
    });
    assert.equal(blocked.ran, false, 'an inline script ran despite the CSP');
    assert.match(blocked.directive, /^script-src/);
  }, { allowConsoleError: /Content Security Policy|unsafe-eval/ }));
