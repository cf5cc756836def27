// Two tabs of one origin share localStorage. Each owns what it captured; a tab that goes away
// leaves its events to the other. Nothing may be lost and no event may ride in two requests of
// live pages at once. (A page that went away may still have a keepalive request or its unload
// beacon on the way while the tab that took its events sends them: by design, a duplicate with the
// same uuid, docs/guarantees.md §2; how often that happens depends only on the machine's speed.)
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { problems, sdkPage, useChromiumSite, waitForIndexes } from './support/site';

describe.skipIf(!hasChromium)('two tabs', () => {
  const env = useChromiumSite();

  it('two tabs capturing 500 each, one of them reloading half-way: none lost, none in two concurrent requests', async () => {
    // Small batches and a short interval: many requests from both tabs, overlapping in time.
    // Each page load names itself in its URL (tab, then its load in this tab) and sends it as the
    // Referer of its requests, so the collector knows which page sent what.
    const nameLoad = `<meta name="referrer" content="unsafe-url"><script>
      history.replaceState(null, '', location.pathname + location.search.split('&')[0] + '&load=' + (sessionStorage.loads = +(sessionStorage.loads || 0) + 1));
    </script>`;
    env.site.server.page('/tab.html', sdkPage(env.site.collector.url, { flush_at: 10, flush_interval: 50 }, nameLoad));
    const context = await env.browser.newContext();
    const errors: string[] = [];
    const [a, b] = await Promise.all([openPage(context, errors), openPage(context, errors)]);
    await Promise.all([a.page.goto(env.site.server.url + '/tab.html?a'), b.page.goto(env.site.server.url + '/tab.html?b')]);

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
    const sentBy = (load: string) => env.site.collector.spans.filter((span) => span.referer?.endsWith(`/tab.html?${load}`));
    // Both pages alive to the end sent requests while the other did (each yields every 25 events
    // with flush_at 10, so each sends more than one request however slow the machine is)...
    const live = [...sentBy('a&load=1'), ...sentBy('b&load=2')];
    expect(sentBy('a&load=1').length).toBeGreaterThan(1);
    expect(sentBy('b&load=2').length).toBeGreaterThan(1);
    expect(sentBy('b&load=1').length).toBeGreaterThan(0);
    // ...and never the same event at the same time, the reloaded tab's left events included.
    expect(env.site.collector.overlaps(live)).toEqual([]);
    expect(live.length + sentBy('b&load=1').length).toBe(env.site.collector.spans.length);
    expect(errors).toEqual([]);
    await context.close();
  });
});
