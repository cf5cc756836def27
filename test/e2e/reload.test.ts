// A reload right after capturing: whatever was in flight, beaconed or only stored must arrive,
// each event under the uuid it was captured with.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { problems, sdkPage, useChromiumSite, waitForIndexes } from './support/site';

describe.skipIf(!hasChromium)('reload', () => {
  const env = useChromiumSite();

  it('200 events captured, then an immediate reload: all 200 arrive', async () => {
    env.site.server.page('/reload.html', sdkPage(env.site.collector.url));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/reload.html');
    await page.evaluate(() => {
      for (let i = 0; i < 200; i++) (window as any).hogtail.capture('reload test', { i });
    });
    await page.reload();

    const seen = await waitForIndexes(env.site.collector, 'reload test', 200, 30_000);
    expect(problems(seen, 200)).toEqual({ missing: [], reissued: [] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('nothing sent and no beacon before the reload: the next page sends all 200 from storage', async () => {
    // Batching held back and sendBeacon refusing: only localStorage and the next page can save them.
    env.site.server.page('/stored.html', sdkPage(env.site.collector.url, { flush_at: 1000, flush_interval: 600_000 }));
    const context = await env.browser.newContext();
    await context.addInitScript(() => {
      navigator.sendBeacon = () => false;
    });
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/stored.html');
    await page.evaluate(() => {
      for (let i = 0; i < 200; i++) (window as any).hogtail.capture('stored test', { i });
    });
    const requestsBefore = env.site.collector.spans.length;
    await page.reload();

    const seen = await waitForIndexes(env.site.collector, 'stored test', 200, 30_000);
    expect(problems(seen, 200)).toEqual({ missing: [], reissued: [] });
    // They came from the reloaded page's queue, not from the first page.
    expect(env.site.collector.spans.slice(requestsBefore).some((span) => !span.beacon)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
