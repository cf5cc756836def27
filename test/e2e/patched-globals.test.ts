// A page that patches JSON.stringify to throw (issue 16, lows): hogtail's own microtasks (the state
// write, the ledger write) must not surface it as an uncaught error, and capture() keeps working.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { sdkPage, useChromiumSite } from './support/site';

describe.skipIf(!hasChromium)('a page with a throwing JSON.stringify', () => {
  const env = useChromiumSite();

  it('no uncaught error reaches the page', async () => {
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
});
