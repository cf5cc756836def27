// Web vitals in real Chromium, the script tag loading dist/hogtail.web-vitals.js because the
// collector's remote config turns it on: a page with a large image, a layout shift and a click
// sends `$web_vitals` with LCP, CLS and FCP (INP when the browser reports one) when it is hidden,
// with posthog-js's property names; the same page on posthog-js sends the same names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openPage } from '../support/chromium';
import { ALL_ON, hide, hogtailPage, posthogPage, startVitalsSite, until, type VitalsSite } from './vitals-site';

const METRICS = ['LCP', 'CLS', 'FCP'];

describe.skipIf(!hasChromium)('web vitals extension', () => {
  let site: VitalsSite;
  beforeAll(async () => {
    site = await startVitalsSite();
  });
  afterAll(() => site?.close());

  /** Loads `path`, waits for the shift, clicks the button, hides the page, then leaves it. */
  async function visit(path: string, html: string) {
    site.server.page(path, html);
    const context = await site.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + path);
    await until(page, () => (window as any).shifted, 'the layout shift');
    await page.click('#changer');
    // The click's frame is painted (INP is measured to the next paint) before the page is hidden.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    await hide(page);
    await page.goto('about:blank');
    await context.close();
    return errors;
  }

  const vitalsFrom = (url: string) =>
    site.collector.events.filter((event) => event.event === '$web_vitals' && String(event.properties.$current_url).includes(url));

  it('sends LCP, CLS and FCP (and INP) with posthog-js property names when the page is hidden', async () => {
    site.remote = ALL_ON;
    const errors = await visit('/vitals.html', hogtailPage(site, { capture_pageview: false }));
    const merged = await site.collector.waitUntil(() => {
      const props = Object.assign({}, ...vitalsFrom('/vitals.html').map((event) => event.properties));
      return METRICS.every((name) => `$web_vitals_${name}_value` in props) && props;
    }, 15_000);
    expect(merged, 'a $web_vitals with LCP, CLS and FCP').toBeTruthy();
    for (const name of METRICS) {
      expect(typeof merged[`$web_vitals_${name}_value`]).toBe('number');
      expect(merged[`$web_vitals_${name}_event`]).toMatchObject({ name, rating: expect.any(String), id: expect.any(String) });
      expect(merged[`$web_vitals_${name}_event`]).not.toHaveProperty('entries');
    }
    expect(merged.$web_vitals_CLS_value).toBeGreaterThan(0);
    // LCP's attribution (posthog-js attributes LCP and INP by default) names the image.
    expect(merged.$web_vitals_LCP_event.attribution).toMatchObject({
      target: expect.stringContaining('img#hero'),
      url: expect.stringContaining('/big.png'),
    });
    if (merged.$web_vitals_INP_event) {
      expect(merged.$web_vitals_INP_event.attribution).toMatchObject({
        interactionTarget: expect.stringContaining('button#changer'),
        interactionType: 'pointer',
      });
    }
    expect(errors).toEqual([]);
  });

  it('posthog-js on the same page sends the same property names', async () => {
    site.remote = ALL_ON;
    await visit('/vitals-posthog.html', posthogPage(site, { capture_pageview: false, capture_performance: { web_vitals: true } }));
    const merged = await site.collector.waitUntil(() => {
      const props = Object.assign({}, ...vitalsFrom('/vitals-posthog.html').map((event) => event.properties));
      return METRICS.every((name) => `$web_vitals_${name}_value` in props) && props;
    }, 15_000);
    expect(merged, "posthog-js's $web_vitals with LCP, CLS and FCP").toBeTruthy();
    const ours = Object.assign({}, ...vitalsFrom('/vitals.html').map((event) => event.properties));
    for (const name of METRICS)
      expect(Object.keys(merged[`$web_vitals_${name}_event`]).sort()).toEqual(
        expect.arrayContaining(Object.keys(ours[`$web_vitals_${name}_event`]).filter((k) => k !== '$session_id')),
      );
  });
});
