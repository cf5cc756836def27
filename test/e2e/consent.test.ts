// Each consent mode in a real page (issue 13): what reaches the collector, and what the page wrote
// to localStorage and cookies. A negative ("never arrived") is checked after a later event of the
// same page arrived, so nothing sent earlier can still be on its way.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sendText } from '../../src/devserver/http/respond';
import { hasChromium, openPage } from './support/chromium';
import { sdkPage, useChromiumSite } from './support/site';

const COOKIELESS = '$posthog_cookieless';

/** Everything the page's origin persisted: localStorage as text, cookies as `name=value`. */
async function persisted(page: Page, context: BrowserContext): Promise<{ local: string; cookies: string[] }> {
  const local = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
  const cookies = (await context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`);
  return { local, cookies };
}

const capture = (page: Page, event: string) => page.evaluate((name) => (window as any).hogtail.capture(name), event);
const distinctId = (page: Page) => page.evaluate(() => (window as any).hogtail.get_distinct_id() as string);

describe.skipIf(!hasChromium)('consent modes', () => {
  const env = useChromiumSite();
  const received = (event: string) => env.site.collector.events.filter((e) => e.event === event);

  it("cookieless_mode 'always': events arrive as $posthog_cookieless and nothing is stored", async () => {
    env.site.collector.clear();
    env.site.server.page('/always.html', sdkPage(env.site.collector.url, { cookieless_mode: 'always' }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/always.html');
    await capture(page, 'always one');
    await capture(page, 'always two');

    expect(await env.site.collector.waitForDistinct('always two', 1, 10_000)).toBe(1);
    expect(received('always one').map((e) => e.distinct_id)).toEqual([COOKIELESS]);
    expect(received('always two').map((e) => e.distinct_id)).toEqual([COOKIELESS]);
    // Not the identity, not the queue, not even a consent record: the origin holds nothing.
    expect(await persisted(page, context)).toEqual({ local: '[]', cookies: [] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("cookieless_mode 'on_reject': nothing before the choice, identity after opt-in, cookieless after opt-out", async () => {
    env.site.collector.clear();
    env.site.server.page('/on-reject.html', sdkPage(env.site.collector.url, { cookieless_mode: 'on_reject' }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/on-reject.html');
    await capture(page, 'before choice');
    const pending = await persisted(page, context);
    expect(pending).toEqual({ local: '[]', cookies: [] });

    await page.evaluate(() => (window as any).hogtail.opt_in_capturing());
    const id = await distinctId(page);
    expect(id).not.toBe(COOKIELESS);
    await capture(page, 'after opt in');
    expect(await env.site.collector.waitForDistinct('after opt in', 1, 10_000)).toBe(1);
    expect(received('$opt_in').map((e) => e.distinct_id)).toEqual([id]);
    expect(received('after opt in').map((e) => e.distinct_id)).toEqual([id]);
    // The identity now persists: the distinct id is in storage, and a reload keeps it.
    const granted = await persisted(page, context);
    expect(granted.local + granted.cookies.join(';')).toContain(id);
    await page.reload();
    expect(await distinctId(page)).toBe(id);

    await page.evaluate(() => (window as any).hogtail.opt_out_capturing());
    await capture(page, 'after opt out');
    expect(await env.site.collector.waitForDistinct('after opt out', 1, 10_000)).toBe(1);
    // Like posthog-js, a refusal under 'on_reject' means cookieless capture, not no capture.
    expect(received('after opt out').map((e) => e.distinct_id)).toEqual([COOKIELESS]);
    // The refusal forgets the stored identity, in localStorage and in the identity cookie alike.
    const denied = await persisted(page, context);
    expect(denied.local).toContain('denied');
    expect(denied.local).not.toContain(id);
    expect(denied.cookies.join(';')).not.toContain(id);
    // What was captured before anyone chose never left the page.
    expect(received('before choice')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opt_out_capturing_by_default: nothing is sent until opt_in_capturing()', async () => {
    env.site.collector.clear();
    env.site.server.page('/opt-out-default.html', sdkPage(env.site.collector.url, { opt_out_capturing_by_default: true }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/opt-out-default.html');
    expect(await page.evaluate(() => (window as any).hogtail.has_opted_out_capturing())).toBe(true);
    await capture(page, 'before opt in');

    await page.evaluate(() => (window as any).hogtail.opt_in_capturing());
    await capture(page, 'after opt in');
    expect(await env.site.collector.waitForDistinct('after opt in', 1, 10_000)).toBe(1);
    expect(env.site.collector.events.map((e) => e.event)).toEqual(['$opt_in', 'after opt in']);
    // Opted in, the identity is stored as usual.
    const stored = await persisted(page, context);
    expect(stored.local + stored.cookies.join(';')).toContain(await distinctId(page));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("respect_dnt with navigator.doNotTrack '1': nothing is sent; the same page without DNT sends", async () => {
    env.site.collector.clear();
    env.site.server.page('/dnt.html', sdkPage(env.site.collector.url, { respect_dnt: true }));
    const tracked = await env.browser.newContext();
    await tracked.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1', configurable: true });
    });
    const dnt = await openPage(tracked);
    await dnt.page.goto(env.site.server.url + '/dnt.html');
    expect(await dnt.page.evaluate(() => navigator.doNotTrack)).toBe('1');
    expect(await dnt.page.evaluate(() => (window as any).hogtail.has_opted_out_capturing())).toBe(true);
    await capture(dnt.page, 'dnt page');
    // Closing the tab is the last chance for anything queued to leave (beacon).
    await dnt.page.close({ runBeforeUnload: true });

    // The control: the same page in a browser without DNT, loaded after the DNT tab closed.
    const plain = await env.browser.newContext();
    const control = await openPage(plain);
    await control.page.goto(env.site.server.url + '/dnt.html');
    await capture(control.page, 'plain page');
    expect(await env.site.collector.waitForDistinct('plain page', 1, 10_000)).toBe(1);
    expect(received('dnt page')).toEqual([]);
    expect([...dnt.errors, ...control.errors]).toEqual([]);
    await tracked.close();
    await plain.close();
  });

  it('opt_out_capturing() while the host is down (opt_out_persistence_by_default): what was not sent is dropped, counted, gone from storage and never sent', async () => {
    env.site.collector.clear();
    let down = true;
    let refused = 0;
    env.site.collector.setFault((exchange) => {
      if (!down || exchange.outcome.kind !== 'accepted' || exchange.outcome.beacon) return false;
      refused++;
      sendText(exchange.req, exchange.res, 503, 'host down');
      return true;
    });
    try {
      env.site.server.page('/opt-out-down.html', sdkPage(env.site.collector.url, { opt_out_persistence_by_default: true, flush_at: 1 }));
      const context = await env.browser.newContext();
      const { page, errors } = await openPage(context);
      await page.goto(env.site.server.url + '/opt-out-down.html');
      await page.evaluate(() => {
        for (let i = 0; i < 5; i++) (window as any).hogtail.capture('while down', { i });
      });
      await expect.poll(() => refused).toBeGreaterThan(0);
      expect((await persisted(page, context)).local).toContain('while down');

      await page.evaluate(() => (window as any).hogtail.opt_out_capturing());
      await expect.poll(() => page.evaluate(() => (window as any).hogtail.stats().dropped.opted_out)).toBe(5);
      expect((await persisted(page, context)).local).not.toContain('while down');

      // The host is back. Opting in sends $opt_in: anything still queued from before would go ahead of it.
      down = false;
      await page.evaluate(() => (window as any).hogtail.opt_in_capturing());
      expect(await env.site.collector.waitForDistinct('$opt_in', 1, 10_000)).toBe(1);
      // Nor does the next page of the origin find them.
      await page.reload();
      await capture(page, 'next page');
      expect(await env.site.collector.waitForDistinct('next page', 1, 10_000)).toBe(1);
      expect(received('while down')).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      env.site.collector.setFault(undefined);
    }
  });
});
