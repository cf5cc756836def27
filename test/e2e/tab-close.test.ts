// A tab closed right after capturing: events go out with the closing page (keepalive request or
// beacon) or, when they could not, with the next page of the origin.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { problems, sdkPage, useChromiumSite, waitForIndexes } from './support/site';

describe.skipIf(!hasChromium)('tab close', () => {
  const env = useChromiumSite();

  it('200 events, then the tab closes: all 200 arrive', async () => {
    env.site.server.page('/close.html', sdkPage(env.site.collector.url));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/close.html');
    await page.evaluate(() => {
      for (let i = 0; i < 200; i++) (window as any).hogtail.capture('close test', { i });
    });
    await page.close({ runBeforeUnload: true });

    const seen = await waitForIndexes(env.site.collector, 'close test', 200, 30_000);
    expect(problems(seen, 200)).toEqual({ missing: [], reissued: [] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('200 events held back, the tab closes with no beacon: the next page of the origin sends them', async () => {
    env.site.server.page('/held.html', sdkPage(env.site.collector.url, { flush_at: 1000, flush_interval: 600_000 }));
    env.site.server.page('/next.html', sdkPage(env.site.collector.url));
    const context = await env.browser.newContext();
    await context.addInitScript(() => {
      if (location.pathname === '/held.html') navigator.sendBeacon = () => false;
    });
    const first = await openPage(context);
    await first.page.goto(env.site.server.url + '/held.html');
    await first.page.evaluate(() => {
      for (let i = 0; i < 200; i++) (window as any).hogtail.capture('held test', { i });
    });
    await first.page.close({ runBeforeUnload: true });
    // Nothing could have left with the closed tab.
    expect((await waitForIndexes(env.site.collector, 'held test', 1, 1_000)).size).toBe(0);

    const next = await openPage(context, first.errors);
    await next.page.goto(env.site.server.url + '/next.html');
    const seen = await waitForIndexes(env.site.collector, 'held test', 200, 30_000);
    expect(problems(seen, 200)).toEqual({ missing: [], reissued: [] });
    expect(first.errors).toEqual([]);
    await context.close();
  });
});
