// Two tabs of one origin share localStorage. Each owns what it captured; a tab that goes away
// leaves its events to the other. Nothing may be lost and no event may ride in two requests at once.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { problems, sdkPage, useChromiumSite, waitForIndexes } from './support/site';

describe.skipIf(!hasChromium)('two tabs', () => {
  const env = useChromiumSite();

  it('two tabs capturing 500 each, one of them reloading half-way: none lost, none in two concurrent requests', async () => {
    // Small batches and a short interval: many requests from both tabs, overlapping in time.
    env.site.server.page('/tab.html', sdkPage(env.site.collector.url, { flush_at: 10, flush_interval: 50 }));
    const context = await env.browser.newContext();
    const errors: string[] = [];
    const [a, b] = await Promise.all([openPage(context, errors), openPage(context, errors)]);
    await Promise.all([a.page.goto(env.site.server.url + '/tab.html'), b.page.goto(env.site.server.url + '/tab.html')]);

    const run = (page: typeof a.page, name: string, from: number, to: number) =>
      page.evaluate(
        async ({ name, from, to }) => {
          for (let i = from; i < to; i++) {
            (window as any).hogtail.capture(name, { i });
            if (i % 25 === 24) await new Promise((resolve) => setTimeout(resolve, 20));
          }
        },
        { name, from, to },
      );

    await Promise.all([
      run(a.page, 'tab a', 0, 500),
      (async () => {
        await run(b.page, 'tab b', 0, 250);
        await b.page.reload();
        await run(b.page, 'tab b', 250, 500);
      })(),
    ]);

    const [seenA, seenB] = await Promise.all([
      waitForIndexes(env.site.collector, 'tab a', 500, 30_000),
      waitForIndexes(env.site.collector, 'tab b', 500, 30_000),
    ]);
    expect(problems(seenA, 500)).toEqual({ missing: [], reissued: [] });
    expect(problems(seenB, 500)).toEqual({ missing: [], reissued: [] });
    expect(env.site.collector.spans.length).toBeGreaterThan(10);
    expect(env.site.collector.overlaps()).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
