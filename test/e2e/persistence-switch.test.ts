// set_config({ persistence }) after init, in real Chromium with real storage and cookies, hogtail
// and posthog-js on the same steps (issue 28): a consent flow starts in memory (nothing stored),
// switches to 'localStorage+cookie' once the visitor agrees, and the next page still knows them,
// super properties included; switching back to memory removes what was stored and keeps the
// visitor for the rest of the page. Both SDKs are bundled by esbuild for the page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/built';
import { hasChromium, launchChromium, openPage } from './support/chromium';

const TOKEN = 'phc_switchTest';
const SDKS = {
  hogtail: `import hogtail from './src/browser/index'; window.sdk = hogtail; hogtail.on('error', () => {});`,
  posthog: `import posthog from 'posthog-js'; window.sdk = posthog;`,
};

let browser: Browser | undefined;
let server: Server | undefined;
let origin = '';
const scripts: Record<string, string> = {};

beforeAll(async () => {
  if (!hasChromium) return;
  for (const [name, source] of Object.entries(SDKS)) {
    const result = await build({
      stdin: { contents: source, resolveDir: repoRoot, loader: 'ts' },
      bundle: true,
      format: 'iife',
      write: false,
    });
    scripts[`/${name}.js`] = result.outputFiles[0]!.text;
  }
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (scripts[path]) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(scripts[path]);
    if (scripts[`${path}.js`])
      return res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><script src="${path}.js"></script>`);
    // The SDKs' own requests (events, flags): a quiet server that takes everything.
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"Ok"}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

/** Loads the SDK's page and initialises it with `persistence`. */
async function start(page: Page, sdk: string, persistence: string): Promise<string> {
  await page.goto(`${origin}/${sdk}`);
  return page.evaluate(
    ([token, persistence]) => {
      const client = (window as any).sdk;
      client.init(token, {
        api_host: location.origin,
        persistence,
        autocapture: false,
        capture_pageview: false,
        capture_pageleave: false,
        advanced_disable_flags: true,
        disable_session_recording: true,
        disable_surveys: true,
      });
      return client.get_distinct_id() as string;
    },
    [TOKEN, persistence] as const,
  );
}

/** Where the visitor's id is kept now: the cookies and localStorage entries whose value holds it. */
async function keptIn(page: Page, id: string): Promise<{ cookies: string[]; storage: string[] }> {
  // A task later: both SDKs write storage at the end of the task that changed it.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  const cookies = (await page.context().cookies()).filter((cookie) => decodeURIComponent(cookie.value).includes(id));
  const storage = await page.evaluate(
    (id) => Object.keys(localStorage).filter((key) => (localStorage.getItem(key) ?? '').includes(id)),
    id,
  );
  return { cookies: cookies.map((cookie) => cookie.name), storage };
}

const call = (page: Page, method: string, ...args: unknown[]) =>
  page.evaluate(([method, args]) => (window as any).sdk[method as string](...(args as unknown[])), [method, args] as const);

describe.runIf(hasChromium)('set_config({ persistence }) after init', () => {
  it.each(['hogtail', 'posthog'])(
    '%s: memory → localStorage+cookie keeps the visitor for the next page; → memory removes what was stored',
    async (sdk) => {
      const context = await browser!.newContext();
      const { page, errors } = await openPage(context);
      const id = await start(page, sdk, 'memory');
      await call(page, 'register', { plan: 'pro' });
      expect(await keptIn(page, id)).toEqual({ cookies: [], storage: [] });

      await call(page, 'set_config', { persistence: 'localStorage+cookie' });
      expect(await call(page, 'get_distinct_id')).toBe(id);
      const stored = await keptIn(page, id);
      expect(stored.cookies).toEqual([`ph_${TOKEN}_posthog`]);
      expect(stored.storage.length).toBeGreaterThan(0);

      // The next page, now started with storage: the same visitor, and what they registered.
      expect(await start(page, sdk, 'localStorage+cookie')).toBe(id);
      expect(await call(page, 'get_property', 'plan')).toBe('pro');

      await call(page, 'set_config', { persistence: 'memory' });
      expect(await call(page, 'get_distinct_id')).toBe(id);
      expect(await call(page, 'get_property', 'plan')).toBe('pro');
      expect(await keptIn(page, id)).toEqual({ cookies: [], storage: [] });

      // Nothing was left behind: a page started in memory meets a new visitor.
      expect(await start(page, sdk, 'memory')).not.toBe(id);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
