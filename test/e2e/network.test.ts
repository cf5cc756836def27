// Offline spells and server outages: sending pauses or retries, and everything arrives after.
import { describe, expect, it } from 'vitest';
import { sendText } from '../../src/devserver/http/respond';
import { hasChromium, openPage } from './support/chromium';
import { problems, sdkPage, useChromiumSite, waitForIndexes } from './support/site';

describe.skipIf(!hasChromium)('network trouble', () => {
  const env = useChromiumSite();

  it('offline: nothing is sent; back online: all 50 arrive', async () => {
    env.site.server.page('/offline.html', sdkPage(env.site.collector.url, { flush_at: 5 }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/offline.html');
    await context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    const requestsBefore = env.site.collector.requests;
    await page.evaluate(() => {
      for (let i = 0; i < 50; i++) (window as any).hogtail.capture('offline test', { i });
    });
    expect((await waitForIndexes(env.site.collector, 'offline test', 1, 2_000)).size).toBe(0);
    expect(env.site.collector.requests).toBe(requestsBefore);
    // Paused, not failing: no retry was spent while the browser knew it was offline.
    expect(await page.evaluate(() => (window as any).hogtail.stats().retries)).toBe(0);

    await context.setOffline(false);
    const seen = await waitForIndexes(env.site.collector, 'offline test', 50, 15_000);
    expect(problems(seen, 50)).toEqual({ missing: [], reissued: [] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a server outage (503 to the first three attempts): retried with backoff, all 100 arrive after it', async () => {
    // Counted in attempts, not seconds: a timed outage could end before a slow machine's page had
    // even loaded, and the test would prove nothing.
    let refused = 0;
    env.site.collector.setFault((exchange) => {
      if (exchange.outcome.kind !== 'accepted' || refused === 3) return false;
      refused++;
      sendText(exchange.req, exchange.res, 503, 'injected outage');
      return true;
    });
    env.site.server.page('/outage.html', sdkPage(env.site.collector.url));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/outage.html');
    await page.evaluate(() => {
      for (let i = 0; i < 100; i++) (window as any).hogtail.capture('outage test', { i });
    });

    const seen = await waitForIndexes(env.site.collector, 'outage test', 100, 60_000);
    env.site.collector.setFault(undefined);
    expect(refused).toBe(3);
    expect(problems(seen, 100)).toEqual({ missing: [], reissued: [] });
    const stats = await page.evaluate(() => (window as any).hogtail.stats());
    expect(stats.retries).toBeGreaterThanOrEqual(3);
    expect(stats.dropped).toEqual({});
    expect(errors).toEqual([]);
    await context.close();
  });
});
