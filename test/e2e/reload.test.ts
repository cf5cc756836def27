// A reload right after capturing: whatever was in flight, beaconed or only stored must arrive,
// each event under the uuid it was captured with.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { problems, sdkPage, startSite, waitForIndexes, type Site } from './support/site';

describe.skipIf(!hasChromium)('reload', () => {
  let browser: Browser;
  let site: Site;

  beforeAll(async () => {
    [browser, site] = await Promise.all([launchChromium(), startSite()]);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('200 events captured, then an immediate reload: all 200 arrive', async () => {
    site.server.page('/reload.html', sdkPage(site.collector.url));
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + '/reload.html');
    await page.evaluate(() => {
      for (let i = 0; i < 200; i++) (window as any).hogtail.capture('reload test', { i });
    });
    await page.reload();

    const seen = await waitForIndexes(site.collector, 'reload test', 200, 30_000);
    expect(problems(seen, 200)).toEqual({ missing: [], reissued: [] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('nothing sent and no beacon before the reload: the next page sends all 200 from storage', async () => {
    // Batching held back and sendBeacon refusing: only localStorage and the next page can save them.
    site.server.page('/stored.html', sdkPage(site.collector.url, { flush_at: 1000, flush_interval: 600_000 }));
    const context = await browser.newContext();
    await context.addInitScript(() => {
      navigator.sendBeacon = () => false;
    });
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + '/stored.html');
    await page.evaluate(() => {
      for (let i = 0; i < 200; i++) (window as any).hogtail.capture('stored test', { i });
    });
    const requestsBefore = site.collector.spans.length;
    await page.reload();

    const seen = await waitForIndexes(site.collector, 'stored test', 200, 30_000);
    expect(problems(seen, 200)).toEqual({ missing: [], reissued: [] });
    // They came from the reloaded page's queue, not from the first page.
    expect(site.collector.spans.slice(requestsBefore).some((span) => !span.beacon)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
