// Dead clicks in real Chromium, the script tag loading dist/hogtail.dead-clicks.js because the
// remote config turns it on: a click on an inert paragraph sends `$dead_click` (posthog-js's
// timings, the element chain, at the click's time); a click on a button that changes the page
// sends nothing. posthog-js on the same page, given the same clicks, judges them alike and sends
// the same `$dead_click_*` names.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openPage } from '../support/chromium';
import { ALL_ON, arrived, hogtailPage, posthogPage, ran, startVitalsSite, type VitalsSite } from './vitals-site';

describe.skipIf(!hasChromium)('dead clicks extension', () => {
  let site: VitalsSite;
  beforeAll(async () => {
    site = await startVitalsSite();
    site.remote = ALL_ON;
  });
  afterAll(() => site?.close());

  const deadFrom = (path: string) =>
    site.collector.events.filter((event) => event.event === '$dead_click' && String(event.properties.$current_url).endsWith(path));

  /** Clicks the reacting button, then the inert paragraph; resolves with the page once the file is in. */
  async function clickBoth(path: string, html: string, file?: string): Promise<Page> {
    site.server.page(path, html);
    const context = await site.browser.newContext();
    const { page } = await openPage(context);
    await page.goto(site.server.url + path);
    if (file) await ran(page, file);
    // A focus change within a second of a click makes it alive in both SDKs (the click opened or
    // woke a window), and a new page gets focus as it opens: click once that second is over.
    await page.waitForFunction(() => document.hasFocus());
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1200)));
    await page.click('#changer');
    await page.click('#inert');
    return page;
  }

  it('an inert element sends $dead_click with the element chain; a button that changes the page does not', async () => {
    const page = await clickBoth(
      '/dead.html',
      hogtailPage(site, { capture_pageview: false, autocapture: false }),
      'hogtail.dead-clicks.js',
    );
    // Checked in click order: once the later (inert) click is reported, the button's was judged.
    const dead = await arrived(site, () => deadFrom('/dead.html').length > 0 && deadFrom('/dead.html'), 'a $dead_click');
    expect(dead).toHaveLength(1);
    const { properties } = dead[0]!;
    expect(properties.$elements_chain).toMatch(/^p:.*attr__id="inert"/);
    expect(properties.$el_text).toBe('nothing happens here');
    expect(properties).toMatchObject({
      $dead_click_absolute_timeout: true,
      $dead_click_mutation_timeout: false,
      $dead_click_scroll_timeout: false,
    });
    expect(properties.$dead_click_absolute_delay_ms).toBeGreaterThanOrEqual(2750);
    expect(Date.parse(dead[0]!.timestamp as string)).toBe(properties.$dead_click_event_timestamp);
    expect(await page.evaluate(() => (window as any).errors)).toEqual([]);
    await page.context().close();
  });

  it('posthog-js on the same page reports the same click, with the same $dead_click_* names', async () => {
    const page = await clickBoth('/dead-posthog.html', posthogPage(site, { capture_dead_clicks: true }));
    const found = () => deadFrom('/dead-posthog.html').length > 0 && deadFrom('/dead-posthog.html');
    // posthog-js takes any window focus change within a second of a click as its reaction, and in
    // a headless browser shared by this file's pages one can land there under load (seen in 2 of
    // 5 loaded runs, never alone): the inert paragraph is clicked again, at most twice, before
    // posthog-js is judged to have sent nothing. It judges at about 3 s and batches up to 3 s more.
    let theirs = await site.collector.waitUntil(found, 15_000);
    for (let again = 0; !theirs && again < 2; again++) {
      await page.click('#inert');
      theirs = await site.collector.waitUntil(found, 15_000);
    }
    if (!theirs) throw new Error("posthog-js's $dead_click did not arrive after three clicks");
    expect(theirs).toHaveLength(1);
    const ours = deadFrom('/dead.html')[0]!.properties;
    const names = (props: Record<string, unknown>) => Object.keys(props).filter((key) => key.startsWith('$dead_click_'));
    // posthog-js leaves out the timings it has no value for when it serialises; so do we.
    expect(names(ours).sort()).toEqual(names(theirs[0]!.properties).sort());
    expect(JSON.stringify(theirs[0]!.properties.$elements ?? theirs[0]!.properties.$elements_chain)).toContain('inert');
    await page.context().close();
  });
});
