// Which extension files the script tag fetches, in real Chromium: with web vitals, heatmaps and
// dead clicks off in the remote config nothing extra is fetched; on in the remote config but off in
// init() (init options win, as in posthog-js), nothing either; off remotely but on in init(), all three.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openPage } from '../support/chromium';
import { ALL_OFF, ALL_ON, hogtailPage, startVitalsSite, type VitalsSite } from './vitals-site';

const FILES = ['/hogtail.dead-clicks.js', '/hogtail.heatmaps.js', '/hogtail.web-vitals.js'];

describe.skipIf(!hasChromium)('extension loader', () => {
  let site: VitalsSite;
  beforeAll(async () => {
    site = await startVitalsSite();
  });
  afterAll(() => site?.close());

  /** The extension files the page asked for once its flags answer (and remote config) was handled. */
  async function fetched(remote: Record<string, unknown>, config: Record<string, unknown>): Promise<string[]> {
    site.remote = remote;
    const path = `/loader-${Math.random().toString(36).slice(2)}.html`;
    site.server.page(path, hogtailPage(site, { capture_pageview: false, ...config }));
    const context = await site.browser.newContext();
    const { page, errors } = await openPage(context);
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(site.server.url + path);
    // The remote config is handled with the flags answer, before onFeatureFlags' callbacks run.
    await page.evaluate(() => new Promise<void>((resolve) => (window as any).hogtail.onFeatureFlags(() => setTimeout(resolve))));
    expect(await page.evaluate(() => (window as any).errors)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    return asked.filter((each) => FILES.includes(each)).sort();
  }

  it('all three off in the remote config: nothing extra is fetched', async () => {
    expect(await fetched(ALL_OFF, {})).toEqual([]);
  });

  it('on in the remote config, off in init(): the init options win, nothing is fetched', async () => {
    expect(await fetched(ALL_ON, { capture_performance: false, enable_heatmaps: false, capture_dead_clicks: false })).toEqual([]);
  });

  it('off in the remote config, on in init(): each file is fetched', async () => {
    expect(
      await fetched(ALL_OFF, { capture_performance: { web_vitals: true }, capture_heatmaps: true, capture_dead_clicks: true }),
    ).toEqual(FILES);
  });

  it('on in the remote config: each file is fetched', async () => {
    expect(await fetched(ALL_ON, {})).toEqual(FILES);
  });
});
