// The official snippet queues calls while array.js loads; hogtail, loaded in its place, must run
// them in the order they were made (before its first $pageview) and then be window.posthog.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { KEY, useChromiumSite } from './support/site';
import { officialSnippet } from './support/snippet';

const calls = `
  posthog.capture('first', { i: 0 });
  posthog.register({ plan: 'pro' });
  posthog.capture('second', { i: 1 });
  posthog.identify('user-42', { email: 'a@example.com' });
  posthog.capture('third', { i: 2 });
  posthog.group('company', 'acme', { name: 'Acme' });
  posthog.capture('fourth', { i: 3 });
`;

describe.skipIf(!hasChromium)('official snippet', () => {
  const env = useChromiumSite();

  const variants = [
    // The snippet's array.js address pointed at our file: the swap a site makes.
    [
      'array.js swapped for hogtail',
      (collector: string) => `<script>${officialSnippet('/hogtail.iife.js')}
      posthog.init('${KEY}', { api_host: '${collector}', person_profiles: 'identified_only' });${calls}</script>`,
    ],
    // The snippet untouched (its array.js request fails) and our script tag after it.
    [
      'untouched snippet, hogtail script tag after it',
      (collector: string) => `<script>${officialSnippet()}
      posthog.init('${KEY}', { api_host: '${collector}', person_profiles: 'identified_only' });${calls}</script>
      <script src="/hogtail.iife.js" async></script>`,
    ],
  ] as const;

  for (const [name, html] of variants) {
    it(`${name}: calls made before load are replayed in order, then hogtail is window.posthog`, async () => {
      env.site.collector.clear();
      const path = `/snippet-${name.length}.html`;
      env.site.server.page(path, `<!doctype html><html><head>${html(env.site.collector.url)}</head><body></body></html>`);
      const context = await env.browser.newContext();
      const { page, errors } = await openPage(context);
      await page.goto(env.site.server.url + path);
      await page.waitForFunction(() => (window as any).posthog === (window as any).hogtail);
      expect(await page.evaluate(() => (window as any).posthog.get_distinct_id())).toBe('user-42');
      await page.evaluate(() => (window as any).posthog.flush());

      // The queue runs before the first $pageview (as posthog-js runs its own), so it is on the identity the queue left.
      const names = ['first', 'second', '$identify', 'third', '$groupidentify', 'fourth', '$pageview'];
      await env.site.collector.waitForEvents(names.length, 15_000);
      // UUIDv7s from one page sort in capture order.
      // $pageleave (on by default with page views) also comes from the previous test's page closing.
      const events = env.site.collector.events.filter((e) => e.event !== '$pageleave').sort((a, b) => (a.uuid! < b.uuid! ? -1 : 1));
      expect(events.map((e) => e.event)).toEqual(names);
      const [first, second, identify, third, groupidentify, fourth, pageview] = events;
      const anonymous = first!.distinct_id;
      expect(pageview!.distinct_id).toBe('user-42');
      expect(first!.properties.plan).toBeUndefined();
      expect(first!.properties.$process_person_profile).toBe(false);
      expect(second!.properties.plan).toBe('pro');
      expect(identify!.distinct_id).toBe('user-42');
      expect(identify!.properties.$anon_distinct_id).toBe(anonymous);
      expect(identify!.properties.$set).toEqual({ email: 'a@example.com' });
      expect(third!.distinct_id).toBe('user-42');
      expect(third!.properties.$process_person_profile).toBe(true);
      expect(groupidentify!.properties).toMatchObject({ $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } });
      expect(fourth!.properties.$groups).toEqual({ company: 'acme' });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
