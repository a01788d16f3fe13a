// The installable app (issue 22, item 2): the web app manifest passes Chromium's own
// installability check (DevTools protocol `Page.getInstallabilityErrors`), Chromium parses its
// file handlers and launch handler as written, and files the OS hands to the installed app through
// the Launch Queue load as dropped files do (the same report as `flamedrop report --json` of the
// same files), including a second launch into the page already showing a trace
// (`client_mode: focus-existing`).
//
// A headless browser cannot be "opened with" a file, so the Launch Queue is replaced by an init
// script that keeps the consumer the page sets; the test then calls it as Chromium does, with
// launch params whose `files` are file handles (`kind`, `name`, `getFile()`).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { assertDrawn, cliReport, fixtureFiles, openEmpty, pageReport, waitForState, withPage } = require('./lib.js');

const REPO = path.resolve(__dirname, '../..');
const RTRACE = path.join(REPO, 'tests/fixtures/rtrace/c-leaks/20315-0.rtrace');
const MANIFEST = JSON.parse(fs.readFileSync(path.join(REPO, 'www/manifest.webmanifest'), 'utf8'));

/** Runs in the page before its scripts: a Launch Queue that keeps the page's consumer. */
function fakeLaunchQueue() {
  Object.defineProperty(window, 'launchQueue', {
    configurable: true,
    value: {
      setConsumer(consumer) {
        window.__launchConsumer = consumer;
      },
    },
  });
}

/** Hands `paths` to the page's Launch Queue consumer as one launch, the way Chromium does. */
async function launch(page, paths) {
  await page.waitForFunction(() => typeof window.__launchConsumer === 'function', null, { timeout: 10_000 });
  const files = paths.map((p) => ({ name: path.basename(p), b64: fs.readFileSync(p).toString('base64') }));
  await page.evaluate((list) => {
    const handles = list.map(({ name, b64 }) => ({
      kind: 'file',
      name,
      getFile: async () => new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name),
    }));
    window.__launchConsumer({ targetURL: location.href, files: handles });
  }, files);
}

test('the manifest passes Chromium installability check', (t) =>
  withPage(t, async ({ page, context, base }) => {
    await openEmpty(page, base);
    const cdp = await context.newCDPSession(page);
    const app = await cdp.send('Page.getAppManifest');
    assert.equal(app.url, new URL('manifest.webmanifest', base).href);
    assert.deepEqual(app.errors, [], 'Chromium reported manifest errors');
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'Chromium says the app is not installable');

    // What Chromium made of the manifest: the launch handler (Chromium 156 names the mode by its
    // C++ enum, kFocusExisting) and the icons. Its DevTools answer leaves file handlers out, so
    // those are checked in the manifest the page links to, as served.
    const parsed = app.manifest;
    assert.ok(parsed, 'Page.getAppManifest gave no parsed manifest');
    assert.match(String(parsed.launchHandler?.clientMode), /^(focus-existing|kFocusExisting)$/);
    assert.ok(parsed.icons.some((i) => i.type === 'image/png' && i.sizes === '512x512'), 'no 512x512 PNG icon');
    const served = JSON.parse(app.data);
    assert.deepEqual(served, MANIFEST);
    assert.equal(served.file_handlers.length, 1);
    const [handler] = served.file_handlers;
    assert.equal(new URL(handler.action, app.url).href, new URL('./', base).href);
    assert.equal(handler.launch_type, 'single-client');
    const extensions = Object.values(handler.accept).flat();
    for (const ext of ['.rtrace', '.slg', '.dat', '.swap', '.bin', '.zip', '.tar', '.tar.gz', '.tgz', '.gz', '.json', '.txt']) {
      assert.ok(extensions.includes(ext), `no file handler for ${ext}`);
    }
    if (parsed.fileHandlers) {
      // A Chromium that reports them must have kept every accepted type.
      const accepted = parsed.fileHandlers.flatMap((h) => h.accepts.flatMap((a) => a.fileExtensions));
      assert.deepEqual([...new Set(accepted)].sort(), [...new Set(extensions)].sort());
    }
  }));

test('a .rtrace launched into the installed app loads as a dropped one', (t) =>
  withPage(t, async ({ page, context, base }) => {
    await context.addInitScript(fakeLaunchQueue);
    await openEmpty(page, base);
    const expected = cliReport(RTRACE);
    await launch(page, [RTRACE]);
    await waitForState(page, 'ready');
    assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
    assert.equal(await page.title(), '20315-0.rtrace — flamedrop');
  }));

test('a second launch replaces the trace on screen (focus-existing)', (t) =>
  withPage(t, async ({ page, context, base }) => {
    await context.addInitScript(fakeLaunchQueue);
    await openEmpty(page, base);
    // A launch without files (the app opened from its icon) leaves the page as it is.
    await page.waitForFunction(() => typeof window.__launchConsumer === 'function', null, { timeout: 10_000 });
    await page.evaluate(() => window.__launchConsumer({ targetURL: location.href, files: [] }));
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle');

    await launch(page, [RTRACE]);
    await waitForState(page, 'ready');
    assert.deepEqual(await pageReport(page), cliReport(RTRACE));

    // Several files in one launch (launch_type single-client): a uftrace folder's files.
    const uftrace = fixtureFiles('c-pthreads-mutex');
    const expected = cliReport(...uftrace);
    await launch(page, uftrace);
    // The title names what is shown once the new trace is ready ("N files" for loose files).
    await page.waitForFunction((title) => document.title === title, `${uftrace.length} files — flamedrop`, { timeout: 60_000 });
    await waitForState(page, 'ready');
    assert.deepEqual(await pageReport(page), expected, 'report() differs from the CLI');
    await assertDrawn(page, expected);
  }));
