// The official snippet's queue and its named instances, with hogtail's script tag and with
// posthog-js's array.js in its place, on the same page (issue 28):
// - a reset() queued before the library loads runs before the first $pageview, which is then on
//   the new visitor (posthog-js runs its queue before its page view, so the page view never lands
//   on an id the page threw away);
// - `posthog.init(token, config, 'name')` makes a second client, `posthog.name`, that sends to its
//   own project; calls queued on `posthog.name` go to it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { KEY, useChromiumSite } from './support/site';
import { officialSnippet } from './support/snippet';

const POSTHOG_JS = fileURLToPath(new URL('../../node_modules/posthog-js/dist/array.full.no-external.js', import.meta.url));
const NAMED_KEY = `${KEY}_named`;
/** Options both SDKs take; the products that would fetch more files are off. */
const COMMON = `autocapture: false, capture_pageleave: false, disable_session_recording: true, disable_surveys: true, advanced_disable_flags: true`;
/** posthog-js also drops the events of a browser whose user agent says headless, unless told not to. */
const OPTIONS = { hogtail: COMMON, 'posthog-js': `${COMMON}, opt_out_useragent_filter: true` };

describe.skipIf(!hasChromium)('the snippet queue, hogtail and posthog-js side by side', () => {
  const env = useChromiumSite();
  const arrays = { hogtail: '/hogtail.iife.js', 'posthog-js': '/posthog-array.js' } as const;

  async function load(sdk: keyof typeof arrays, body: string) {
    env.site.server.file('/posthog-array.js', POSTHOG_JS);
    env.site.collector.clear();
    const path = `/snippet-order-${sdk}-${Math.random().toString(36).slice(2)}.html`;
    env.site.server.page(
      path,
      `<!doctype html><html><head><script>${officialSnippet(arrays[sdk])}\n${body}</script></head><body></body></html>`,
    );
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + path);
    await page.waitForFunction(() => (window as any).posthog.__loaded === true);
    return { context, page, errors };
  }

  for (const sdk of ['hogtail', 'posthog-js'] as const) {
    it(`${sdk}: a queued reset() runs before the first $pageview, which is on the new visitor`, async () => {
      const url = env.site.collector.url;
      const { context, page, errors } = await load(
        sdk,
        `posthog.init('${KEY}', { api_host: '${url}', ${OPTIONS[sdk]}, capture_pageview: true });
         posthog.reset();
         posthog.capture('after reset');`,
      );
      const id = await page.evaluate(() => (window as any).posthog.get_distinct_id());
      const events = await env.site.collector.waitForEvents(2, 20_000);
      // UUIDv7s of one page sort in capture order.
      const sorted = [...events].sort((a, b) => (a.uuid! < b.uuid! ? -1 : 1));
      expect(sorted.map((event) => event.event)).toEqual(['after reset', '$pageview']);
      expect(sorted.map((event) => event.distinct_id)).toEqual([id, id]);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`${sdk}: init(token, config, 'named') makes posthog.named, which sends to its own project`, async () => {
      const url = env.site.collector.url;
      const { context, page, errors } = await load(
        sdk,
        `posthog.init('${NAMED_KEY}', { api_host: '${url}', ${OPTIONS[sdk]}, capture_pageview: false }, 'named');
         posthog.init('${KEY}', { api_host: '${url}', ${OPTIONS[sdk]}, capture_pageview: false });
         posthog.named.capture('queued on named');
         posthog.capture('queued on default');`,
      );
      await page.waitForFunction(() => (window as any).posthog.named?.__loaded === true);
      const ids = await page.evaluate(() => {
        const posthog = (window as any).posthog;
        posthog.named.capture('loaded on named');
        return [posthog.get_distinct_id(), posthog.named.get_distinct_id(), posthog.named === posthog];
      });
      const events = await env.site.collector.waitForEvents(3, 20_000);
      const keyOf = (name: string) => events.find((event) => event.event === name)?.api_key;
      expect([keyOf('queued on named'), keyOf('loaded on named'), keyOf('queued on default')]).toEqual([NAMED_KEY, NAMED_KEY, KEY]);
      expect(ids[2]).toBe(false);
      expect(events.find((event) => event.event === 'loaded on named')!.distinct_id).toBe(ids[1]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
