// capture_console_errors in the script tag users get (issue 27, item 2): console.error called with
// arguments that cannot become text (a null-prototype object, a Symbol, an object whose toString
// throws, a revoked Proxy) must never throw into the app, must reach the page's own console.error
// with the same arguments, and is still captured. posthog-js runs the same calls on its own page.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { KEY, sdkPage, useChromiumSite } from './support/site';

const POSTHOG_JS = fileURLToPath(new URL('../../node_modules/posthog-js/dist/array.full.no-external.js', import.meta.url));

/**
 * Installed before any SDK: the page's own console.error, which records `this` and the arguments of
 * every call (an SDK wraps it, so this is "the original" to the SDK).
 */
const RECORDING_CONSOLE = `<script>window.__printed = []; window.__recorder = console.error = function (...args) { window.__printed.push([this, ...args]); };</script>`;

/** Whether an SDK wrapped the page's console.error. */
const wrapped = (page: Page) => page.evaluate(() => console.error !== (window as unknown as { __recorder: unknown }).__recorder);

const KINDS = ['null-prototype object', 'Symbol', 'throwing toString', 'revoked Proxy'];

/**
 * Calls console.error('bad params', x) and console.error(x) for each kind: what threw, whether the
 * page's console got the same arguments, and whether it got them with the console as `this`.
 */
function callHostile(page: Page) {
  return page.evaluate((kinds) => {
    const make: Record<string, () => unknown> = {
      'null-prototype object': () => Object.create(null),
      Symbol: () => Symbol('params'),
      'throwing toString': () => ({
        toString() {
          throw new Error('no text');
        },
      }),
      'revoked Proxy': () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
    };
    const w = window as unknown as { __printed: unknown[][] };
    return kinds.map((kind) => {
      const arg = make[kind]!();
      const before = w.__printed.length;
      const thrown: string[] = [];
      for (const args of [['bad params', arg], [arg]]) {
        try {
          console.error(...args);
        } catch (error) {
          thrown.push(String(error));
        }
      }
      const printed = w.__printed.slice(before);
      const same = printed.length === 2 && printed[0]![1] === 'bad params' && printed[0]![2] === arg && printed[1]![1] === arg;
      return { kind, thrown, same, console: printed[0]?.[0] === console };
    });
  }, KINDS);
}

describe.skipIf(!hasChromium)('console.error wrapped by capture_console_errors', () => {
  const env = useChromiumSite();

  it('hogtail: nothing throws, the console gets the same arguments, and every call is captured', async () => {
    const { site } = env;
    site.collector.clear();
    site.server.page(
      '/console.html',
      sdkPage(site.collector.url, { flush_at: 1, capture_exceptions: { capture_console_errors: true } }, RECORDING_CONSOLE),
    );
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + '/console.html');
    expect(await wrapped(page)).toBe(true);

    expect(await callHostile(page)).toEqual(KINDS.map((kind) => ({ kind, thrown: [], same: true, console: true })));
    // At least the four two-argument calls, each with the app's message.
    await site.collector.waitForEvents(4, 10_000);
    const values = site.collector.events
      .filter((e) => e.event === '$exception')
      .map((e) => (e.properties.$exception_list as { value: string }[])[0]!.value);
    expect(values.filter((value) => value.startsWith('bad params ')).length).toBe(4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('posthog-js on the same calls: nothing throws either (it captures what it can read)', async () => {
    const { site } = env;
    site.server.file('/posthog-full.js', POSTHOG_JS);
    site.server.page(
      '/console-peer.html',
      `<!doctype html><html><head><meta charset="utf-8">${RECORDING_CONSOLE}<script src="/posthog-full.js"></script>
<script>window.__ph = []; posthog.init(${JSON.stringify(KEY)}, { api_host: ${JSON.stringify(site.collector.url)}, autocapture: false,
  capture_pageview: false, capture_pageleave: false, disable_session_recording: true, disable_surveys: true, advanced_disable_flags: true,
  persistence: 'memory', opt_out_useragent_filter: true, capture_exceptions: { capture_console_errors: true },
  before_send: (event) => { window.__ph.push(event.event); return null; } });</script></head><body>peer</body></html>`,
    );
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + '/console-peer.html');
    await expect.poll(() => wrapped(page)).toBe(true);
    // posthog-js calls the original without the console as `this` (hogtail keeps it).
    expect((await callHostile(page)).map(({ kind, thrown, same }) => ({ kind, thrown, same }))).toEqual(
      KINDS.map((kind) => ({ kind, thrown: [], same: true })),
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
