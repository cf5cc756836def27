// Web vitals in real Chromium, the script tag loading dist/hogtail.web-vitals.js because the
// collector's remote config turns it on: a page with a large image, a layout shift and a click
// sends `$web_vitals` with LCP, CLS and FCP (INP when the browser reports one) when it is hidden,
// with posthog-js's property names; posthog-js (which uses Google's web-vitals) on the same page
// load measures the same values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openPage } from '../support/chromium';
import { ALL_ON, arrived, bothPage, hide, hogtailPage, startVitalsSite, until, type VitalsSite } from './vitals-site';

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

  it('posthog-js (Google’s web-vitals inside) on the same page load measures the same values, under the same names', async () => {
    site.remote = ALL_ON;
    await visit(
      '/vitals-both.html',
      bothPage(
        site,
        { capture_pageview: false, autocapture: false },
        { capture_pageview: false, capture_performance: { web_vitals: true } },
      ),
    );
    const byLib = (lib: string) =>
      Object.assign(
        {},
        ...vitalsFrom('/vitals-both.html')
          .filter((event) => event.properties.$lib === lib)
          .map((event) => event.properties),
      );
    const both = await arrived(
      site,
      () => {
        const ours = byLib('hogtail-web');
        const theirs = byLib('web');
        const complete = (props: Record<string, unknown>) => METRICS.every((name) => `$web_vitals_${name}_value` in props);
        // INP where the browser reports it: then both must have it. Each SDK may send it in a later
        // event than the others, so the wait is for both to agree (a real disagreement times out).
        const inp = (props: Record<string, unknown>) => '$web_vitals_INP_value' in props;
        return complete(ours) && complete(theirs) && inp(ours) === inp(theirs) && { ours, theirs };
      },
      `both SDKs’ web vitals (got ${JSON.stringify(vitalsFrom('/vitals-both.html').map((e) => [e.properties.$lib, Object.keys(e.properties).filter((k) => k.endsWith('_value'))]))})`,
    );
    expect('$web_vitals_INP_value' in both.ours).toBe('$web_vitals_INP_value' in both.theirs);
    for (const name of [...METRICS, 'INP']) {
      if (!(`$web_vitals_${name}_value` in both.theirs)) continue;
      expect(both.ours[`$web_vitals_${name}_value`], name).toBeCloseTo(both.theirs[`$web_vitals_${name}_value`], 6);
      const ours = both.ours[`$web_vitals_${name}_event`];
      const theirs = both.theirs[`$web_vitals_${name}_event`];
      expect(ours.rating, name).toBe(theirs.rating);
      expect(ours.navigationType, name).toBe(theirs.navigationType);
      // Every field posthog-js sends on a metric, we send (its $window_id is on our event instead).
      const missing = Object.keys(theirs).filter((key) => !(key in ours) && key !== '$window_id');
      expect(missing, name).toEqual([]);
      if (theirs.attribution) expect(Object.keys(ours.attribution).sort(), name).toEqual(Object.keys(theirs.attribution).sort());
    }
  });
});
