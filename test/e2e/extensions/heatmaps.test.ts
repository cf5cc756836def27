// Heatmaps in real Chromium, the script tag loading dist/hogtail.heatmaps.js because the remote
// config turns it on: clicks after a scroll arrive as `$$heatmap` data keyed by the page URL at
// the clicked page coordinates (the fixed bar's in screen coordinates, marked `target_fixed`), on
// posthog-js's schedule while the page stays open, and the `$pageleave` carries the scroll depth
// PostHog's scroll heatmap reads. posthog-js on the same page, given the same clicks, sends the
// same points and the same scroll-depth names.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedEvent } from '../../../src/devserver';
import { hasChromium, openPage } from '../support/chromium';
import { ALL_ON, arrived, hogtailPage, posthogPage, ran, startVitalsSite, type VitalsSite } from './vitals-site';

interface Point {
  x: number;
  y: number;
  target_fixed: boolean;
  type: string;
}

const SCROLL = 300;

describe.skipIf(!hasChromium)('heatmaps extension', () => {
  let site: VitalsSite;
  beforeAll(async () => {
    site = await startVitalsSite();
    site.remote = ALL_ON;
  });
  afterAll(() => site?.close());

  /** Scrolls, clicks the inert paragraph and the fixed bar by their screen position; returns where. */
  async function clickAfterScroll(page: Page) {
    await page.evaluate((y) => window.scrollTo(0, y), SCROLL);
    await page.waitForFunction((y) => window.scrollY === y, SCROLL);
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const inert = await box('#inert');
    const bar = await box('#fixed');
    const clicks = [
      { x: Math.round(inert.x + 20), y: Math.round(inert.y + 10) },
      { x: Math.round(bar.x + 10), y: Math.round(bar.y + 10) },
    ];
    for (const { x, y } of clicks) await page.mouse.click(x, y);
    return clicks;
  }

  const pointsFrom = (events: ReceivedEvent[], path: string): Point[] =>
    events
      .filter((event) => event.event === '$$heatmap')
      .flatMap((event) =>
        Object.entries(event.properties.$heatmap_data as Record<string, Point[]>)
          .filter(([url]) => url.endsWith(path))
          .flatMap(([, points]) => points),
      );

  async function visit(path: string, html: string) {
    site.server.page(path, html);
    const context = await site.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + path);
    return { page, errors, context };
  }

  it('clicks after a scroll arrive as $$heatmap at page coordinates, the fixed bar marked, without leaving the page', async () => {
    const { page, errors, context } = await visit('/heat.html', hogtailPage(site, { capture_pageview: false, autocapture: false }));
    await ran(page, 'hogtail.heatmaps.js');
    const [inert, bar] = await clickAfterScroll(page);
    // Sent on the 5 s schedule while the page is open: no leaving, no flush call.
    const points = await site.collector.waitUntil(() => {
      const found = pointsFrom(site.collector.events, '/heat.html').filter((point) => point.type === 'click');
      return found.length >= 2 && found;
    }, 15_000);
    expect(points).toEqual([
      { x: inert!.x, y: inert!.y + SCROLL, target_fixed: false, type: 'click' },
      { x: bar!.x, y: bar!.y, target_fixed: true, type: 'click' },
    ]);
    expect(await page.evaluate(() => (window as any).errors)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('posthog-js on the same page sends the same points, and both send the scroll depth on $pageleave', async () => {
    const sent = async (path: string, html: string) => {
      const { page, context } = await visit(path, html);
      const clicks = await clickAfterScroll(page);
      await page.goto('about:blank');
      await context.close();
      return clicks;
    };
    await sent('/heat-ours.html', hogtailPage(site, { autocapture: false, enable_heatmaps: true }));
    await sent('/heat-posthog.html', posthogPage(site, { enable_heatmaps: true }));
    const both = await arrived(
      site,
      () => {
        const ours = pointsFrom(site.collector.events, '/heat-ours.html');
        const theirs = pointsFrom(site.collector.events, '/heat-posthog.html');
        return ours.length >= 2 && theirs.length >= 2 && { ours, theirs };
      },
      'both SDKs’ points',
    );
    const clicksOf = (points: Point[]) => points.filter((point) => point.type === 'click');
    expect(clicksOf(both.ours)).toEqual(clicksOf(both.theirs));
    const leave = (path: string) =>
      site.collector.events.find((event) => event.event === '$pageleave' && String(event.properties.$current_url).endsWith(path));
    const depth = await arrived(
      site,
      () => {
        const ours = leave('/heat-ours.html');
        const theirs = leave('/heat-posthog.html');
        return ours && theirs && { ours: ours.properties, theirs: theirs.properties };
      },
      'both SDKs’ $pageleave',
    );
    for (const props of [depth.ours, depth.theirs]) {
      expect(props.$prev_pageview_max_scroll).toBe(SCROLL);
      expect(props.$prev_pageview_max_scroll_percentage).toBeGreaterThan(0);
    }
    expect(depth.ours.$prev_pageview_max_scroll_percentage).toBeCloseTo(depth.theirs.$prev_pageview_max_scroll_percentage as number, 5);
  });

  it('mask_personal_data_properties: both key the points by the page URL with its click ids masked', async () => {
    const options = { enable_heatmaps: true, mask_personal_data_properties: true };
    for (const [path, html] of [
      ['/mask-ours.html', hogtailPage(site, { autocapture: false, ...options })],
      ['/mask-posthog.html', posthogPage(site, options)],
    ] as const) {
      site.server.page(path, html);
      const context = await site.browser.newContext();
      const { page } = await openPage(context);
      await page.goto(`${site.server.url}${path}?gclid=secret-click&keep=1`);
      await clickAfterScroll(page);
      await page.goto('about:blank');
      await context.close();
    }
    const urlsOf = (path: string) => [
      ...new Set(
        site.collector.events
          .filter((event) => event.event === '$$heatmap')
          .flatMap((event) => Object.keys(event.properties.$heatmap_data as object))
          .filter((url) => url.includes(path)),
      ),
    ];
    const urls = await arrived(
      site,
      () =>
        urlsOf('/mask-ours.html').length > 0 &&
        urlsOf('/mask-posthog.html').length > 0 && [urlsOf('/mask-ours.html'), urlsOf('/mask-posthog.html')],
      'both SDKs’ points on a masked URL',
    );
    expect(urls).toEqual([
      [`${site.server.url}/mask-ours.html?gclid=<masked>&keep=1`],
      [`${site.server.url}/mask-posthog.html?gclid=<masked>&keep=1`],
    ]);
  });
});
