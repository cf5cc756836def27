// The management client in real Chromium (issue 16, item 11): a personal key is refused in every
// browser context, not only a page: dedicated, shared and service workers have no window or
// document, and used to get a working client. allowBrowser: true still lets a trusted tool opt in.
import { build } from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../support/built';
import { hasChromium, launchChromium } from '../e2e/support/chromium';
import { startStaticServer, type StaticServer } from '../e2e/support/static-server';

const KEY = 'phx_workerTestKey_0123456789abcdef';

/** Runs in each context: tries to create a client, answers what happened. */
const TRY_CREATE = `
function tryCreate(allowBrowser) {
  try {
    HogtailApi.createApiClient({ host: 'https://us.posthog.com', personalApiKey: '${KEY}', projectId: 1, allowBrowser });
    return 'created';
  } catch (error) {
    return error.name + ': ' + error.message;
  }
}`;

const PAGE = `<!doctype html><script src="/api.js"></script><script>
${TRY_CREATE}
function ask(target, allowBrowser) {
  return new Promise((resolve) => {
    const port = target.port ?? target;
    port.onmessage = (event) => resolve(event.data);
    port.postMessage(allowBrowser);
  });
}
window.results = async () => {
  const dedicated = new Worker('/dedicated.js');
  const shared = new SharedWorker('/shared.js');
  const registration = await navigator.serviceWorker.register('/service.js');
  await navigator.serviceWorker.ready;
  const service = {
    postMessage: (data) => registration.active.postMessage(data),
    set onmessage(handler) { navigator.serviceWorker.onmessage = handler; },
  };
  const results = {};
  for (const [name, target] of [['dedicated', dedicated], ['shared', shared], ['service', service]]) {
    results[name] = await ask(target, false);
    results[name + 'Allowed'] = await ask(target, true);
  }
  results.page = tryCreate(false);
  results.pageAllowed = tryCreate(true);
  return results;
};
</script>`;

const DEDICATED = `importScripts('/api.js');${TRY_CREATE}
onmessage = (event) => postMessage(tryCreate(event.data));`;
const SHARED = `importScripts('/api.js');${TRY_CREATE}
onconnect = (event) => { const port = event.ports[0]; port.onmessage = (message) => port.postMessage(tryCreate(message.data)); };`;
const SERVICE = `importScripts('/api.js');${TRY_CREATE}
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => event.source.postMessage(tryCreate(event.data)));`;

describe.skipIf(!hasChromium)('the management client in a real browser', () => {
  let browser: Browser;
  let server: StaticServer;
  let page: Page;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [repoRoot + 'src/api/index.ts'],
      bundle: true,
      format: 'iife',
      globalName: 'HogtailApi',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const api = bundle.outputFiles[0]!.text;
    server = await startStaticServer();
    server.page('/', PAGE);
    // Scripts are served from files, with a JavaScript type (a service worker insists on one).
    const dir = mkdtempSync(join(tmpdir(), 'hogtail-api-browser-'));
    for (const [path, text] of [
      ['/api.js', api],
      ['/dedicated.js', DEDICATED],
      ['/shared.js', SHARED],
      ['/service.js', SERVICE],
    ] as const) {
      writeFileSync(join(dir, path), text);
      server.file(path, join(dir, path));
    }
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(server.url + '/');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('refuses a personal key in the page and in dedicated, shared and service workers; allowBrowser opts in', async () => {
    const results = (await page.evaluate('window.results()')) as Record<string, string>;
    for (const context of ['dedicated', 'shared', 'service', 'page']) {
      expect(results[context], context).toMatch(/^ApiBrowserError: refusing to create a management API client in a browser/);
      expect(results[context], context).not.toContain(KEY);
      expect(results[`${context}Allowed`], context).toBe('created');
    }
  });
});
