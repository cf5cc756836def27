// A page that patches JSON.stringify or Array.prototype.map to throw (issue 16, lows): hogtail's own
// microtasks (the state write, the ledger write, the queue pump) must not surface it as an uncaught
// error, and capture() keeps working.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { sdkPage, useChromiumSite } from './support/site';

describe.skipIf(!hasChromium)('a page that patches a built-in to throw', () => {
  const env = useChromiumSite();

  it('JSON.stringify: no uncaught error reaches the page', async () => {
    env.site.server.page('/patched.html', sdkPage(env.site.collector.url));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/patched.html');
    await page.evaluate(async () => {
      const original = JSON.stringify;
      JSON.stringify = () => {
        throw new Error('page patched JSON.stringify');
      };
      try {
        const hogtail = (window as any).hogtail;
        hogtail.on('error', () => {});
        hogtail.register({ plan: 'pro' });
        hogtail.capture('while patched');
        await new Promise((resolve) => setTimeout(resolve, 0)); // let hogtail's microtasks run
      } finally {
        JSON.stringify = original;
      }
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Array.prototype.map: no uncaught error reaches the page, and the events captured meanwhile still arrive', async () => {
    // flush_at 1: the microtask pump sends at once, so it builds the batch while map is patched.
    env.site.server.page('/patched-map.html', sdkPage(env.site.collector.url, { flush_at: 1 }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/patched-map.html');
    await page.evaluate(async () => {
      const original = Array.prototype.map;
      Array.prototype.map = function map() {
        throw new Error('page patched Array.prototype.map');
      };
      try {
        const hogtail = (window as any).hogtail;
        hogtail.on('error', () => {});
        hogtail.register({ plan: 'pro' });
        hogtail.capture('while map patched');
        await new Promise((resolve) => setTimeout(resolve, 0)); // let hogtail's microtasks run
      } finally {
        Array.prototype.map = original;
      }
    });
    expect(errors).toEqual([]);
    await page.evaluate(() => (window as any).hogtail.flush());
    await expect.poll(() => env.site.collector.events.some((event) => event.event === 'while map patched')).toBe(true);
    await context.close();
  });
});
