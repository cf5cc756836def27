// Beyond the stored cap (issue 16, item 5): 5,000 events captured, then an immediate reload. The
// first 2,000 are stored and sent by the next page; the unload beacon carries what no storage holds
// (not the stored ones); whatever it cannot carry is counted and reported on the next page. So every
// event either arrives or is in the next page's count: none is lost silently.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { KEY, problems, useChromiumSite, waitForIndexes } from './support/site';

const COUNT = 5_000;

describe.skipIf(!hasChromium)('more pending events than storage holds, then a reload', () => {
  const env = useChromiumSite();

  it('5,000 captured then an immediate reload: each one arrives or is counted and reported on the next page', async () => {
    const config = JSON.stringify({ api_host: env.site.collector.url, capture_pageview: false, capture_pageleave: false });
    env.site.server.page(
      '/surplus.html',
      `<!doctype html><html><head><script src="/hogtail.iife.js"></script><script>
window.reports = [];
hogtail.on('error', (e) => e.name === 'DroppedEventsError' && window.reports.push({ reason: e.reason, count: e.count }));
hogtail.init(${JSON.stringify(KEY)}, ${config});
</script></head><body></body></html>`,
    );
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/surplus.html');
    await page.evaluate((count) => {
      for (let i = 0; i < count; i++) (window as any).hogtail.capture('surplus test', { i, padding: 'x'.repeat(200) });
    }, COUNT);
    await page.reload();

    const lost = await page.evaluate(() => (window as any).hogtail.stats().dropped.queue_full ?? 0);
    const reports = await page.evaluate(() => (window as any).reports);
    const seen = await waitForIndexes(env.site.collector, 'surplus test', COUNT - lost, 60_000);
    const { missing } = problems(seen, COUNT);
    expect(missing.length).toBe(lost);
    expect(lost).toBeGreaterThan(0); // 3,000 over the cap cannot all fit one beacon
    expect(reports).toEqual([{ reason: 'queue_full', count: lost }]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
