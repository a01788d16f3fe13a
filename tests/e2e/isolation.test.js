// Cross-origin isolation from our own service worker (www/sw.js adds COOP/COEP to what it serves,
// www/boot.js reloads the page once on the first visit): the first visit reloads exactly once and
// ends isolated (page and decoding worker, SharedArrayBuffer there), at / and under the sub-path;
// with service workers blocked the page does not reload, is not isolated and still loads a trace;
// the reload guard (a sessionStorage flag) stops a second reload; and this run's mode
// (FLAMEDROP_E2E_ISOLATION, see lib.js) is what the other test files get.
'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { ISOLATED, SUBPATH, assertDrawn, cliReport, fixtureDir, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

/** Counts the main frame's navigations (the first visit, then each reload). */
function countNavigations(page) {
  const seen = { count: 0 };
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.count++;
  });
  return seen;
}

/** What the page says about its isolation, everywhere it says it. */
async function isolationOf(page) {
  return page.evaluate(async () => ({
    crossOriginIsolated: window.crossOriginIsolated,
    api: await window.flamedrop.isolated(),
    sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
    why: document.documentElement.dataset.isolation,
    summary: document.querySelector('#summary #isolated')?.textContent ?? null,
    controlled: Boolean(navigator.serviceWorker?.controller),
    model: document.documentElement.dataset.model,
    modelSummary: document.querySelector('#summary #model-handoff')?.textContent ?? null,
  }));
}

/** The named phases of the last load: where the trace was copied, or taken over in place. */
async function handOffPhases(page) {
  const { phases } = await page.evaluate(() => window.flamedrop.timings());
  const names = phases.map(([name]) => name);
  return ['worker columns', 'page columns', 'page merge'].filter((name) => names.includes(name));
}

/** `self.crossOriginIsolated` in every worker the page started (the decoding workers). A load's
 * workers end with it and idle ones stop while it runs, so after a load this waits for the
 * workers the page starts for the next one (a few seconds after the trace is shown). */
async function workersIsolated(page) {
  for (let waited = 0; waited < 10_000 && page.workers().length === 0; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const workers = page.workers();
  assert.ok(workers.length > 0, 'the page started no worker');
  return Promise.all(workers.map((w) => w.evaluate(() => self.crossOriginIsolated && typeof SharedArrayBuffer === 'function')));
}

for (const where of ['/', SUBPATH]) {
  test(`first visit at ${where}: one reload, then isolated, and a demo loads under COEP`, (t) =>
    withPage(
      t,
      async ({ page, base }) => {
        const navigations = countNavigations(page);
        await page.goto(`${new URL(where, base)}?demo=a-simple-nested`);
        await waitForState(page, 'ready');
        assert.equal(navigations.count, 2, 'the first visit should load the page, then reload it once');
        const got = await isolationOf(page);
        assert.deepEqual(got, {
          crossOriginIsolated: true,
          api: true,
          sharedArrayBuffer: true,
          why: 'yes',
          summary: 'yes',
          controlled: true,
          model: 'shared',
          modelSummary: 'shared with the workers',
        });
        assert.deepEqual(await workersIsolated(page), page.workers().map(() => true), 'a decoding worker is not isolated');
        // The shared-memory build: the worker left the trace in place, nothing was copied.
        assert.deepEqual(await handOffPhases(page), ['page merge']);
        // Everything the page needs (app and worker wasm, demo, fonts, icon) loaded under COEP:
        // withPage fails on any HTTP error or console error, and the chart is drawn.
        await assertDrawn(page, await pageReport(page));
        // A later visit in the same tab is isolated at once: no second reload.
        await page.goto(new URL(where, base).href);
        await page.waitForFunction(() => document.body.dataset.state === 'idle' && window.flamedrop, null, { timeout: 30_000 });
        assert.equal(navigations.count, 3, 'a visit after the first reloaded again');
        assert.equal(await page.evaluate(() => window.crossOriginIsolated), true);
      },
      { serviceWorkers: 'allow', pathPrefix: where === SUBPATH ? SUBPATH : undefined },
    ));
}

test('service workers blocked: no reload, not isolated, a dropped folder still loads', (t) =>
  withPage(
    t,
    async ({ page, base }) => {
      const navigations = countNavigations(page);
      const dir = fixtureDir('a-simple-nested');
      const expected = cliReport(dir);
      await openEmpty(page, base);
      await page.setInputFiles('#open-folder', dir);
      await waitForState(page, 'ready');
      assert.equal(navigations.count, 1, 'the page reloaded without a service worker');
      assert.deepEqual(await isolationOf(page), {
        crossOriginIsolated: false,
        api: false,
        sharedArrayBuffer: false,
        why: 'no: no service worker',
        summary: 'no',
        controlled: false,
        model: 'copied',
        modelSummary: 'copied from the workers',
      });
      assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
      await assertDrawn(page, expected);
      assert.deepEqual(await handOffPhases(page), ['worker columns', 'page columns'], 'the copying build');
    },
    { serviceWorkers: 'block' },
  ));

test('the reload guard: a tab that already reloaded once does not reload again', (t) =>
  withPage(
    t,
    async ({ page, context, base }) => {
      // As if this tab had reloaded once already and still was not isolated.
      await context.addInitScript(() => {
        if (!sessionStorage.getItem('flamedrop-e2e-seeded')) {
          sessionStorage.setItem('flamedrop-e2e-seeded', '1');
          sessionStorage.setItem('flamedrop-isolation-reload', '1');
        }
      });
      const navigations = countNavigations(page);
      await page.goto(`${base}?demo=a-simple-nested`);
      await waitForState(page, 'ready');
      assert.equal(navigations.count, 1, 'the guard did not stop the reload');
      const first = await isolationOf(page);
      assert.equal(first.crossOriginIsolated, false);
      assert.equal(first.why, 'no: reloaded once already');
      assert.equal(first.summary, 'no');
      // The worker registered meanwhile: the next load of the page comes through it, isolated,
      // and clears the flag.
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.reload();
      await waitForState(page, 'ready');
      assert.equal(navigations.count, 2);
      assert.equal((await isolationOf(page)).crossOriginIsolated, true);
      assert.equal(await page.evaluate(() => sessionStorage.getItem('flamedrop-isolation-reload')), null);
    },
    { serviceWorkers: 'allow' },
  ));

test(`this run's mode: a page opened like in every other test is ${ISOLATED ? '' : 'not '}isolated`, (t) =>
  withPage(t, async ({ page, base }) => {
    await openEmpty(page, base);
    assert.equal(await page.evaluate(() => window.crossOriginIsolated), ISOLATED);
    assert.equal(await page.evaluate(() => window.flamedrop.isolated()), ISOLATED);
  }));
