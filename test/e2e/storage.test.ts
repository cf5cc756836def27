// localStorage that is full, throws on write, or throws on access: the page must not notice, and
// events still go out (held in memory for the page).
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { problems, sdkPage, waitForIndexes, useChromiumSite } from './support/site';

/** Runs in the page: fills localStorage until it refuses. */
function fillStorage(): number {
  const chunk = 'x'.repeat(256 * 1024);
  let n = 0;
  try {
    for (; n < 1000; n++) localStorage.setItem('filler-' + n, chunk);
  } catch {
    // full
  }
  for (let size = 1024; size >= 1; size >>= 1) {
    try {
      for (;;) localStorage.setItem('filler-small-' + n++, 'x'.repeat(size));
    } catch {
      // this size no longer fits; try a smaller one
    }
  }
  return n;
}

const breakages: [string, () => void][] = [
  ['full before the page loads', fillStorage],
  [
    'setItem throws',
    () => {
      Storage.prototype.setItem = () => {
        throw new DOMException('writes are blocked', 'SecurityError');
      };
    },
  ],
  [
    'reading window.localStorage throws',
    () => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('access is denied', 'SecurityError');
        },
      });
    },
  ],
];

describe.skipIf(!hasChromium)('broken localStorage', () => {
  const env = useChromiumSite();

  for (const [name, breakIt] of breakages) {
    it(`${name}: no page error, all 50 events arrive`, async () => {
      const event = 'storage ' + name;
      env.site.server.page('/storage.html', sdkPage(env.site.collector.url, { flush_at: 10, capture_pageview: true }));
      const context = await env.browser.newContext();
      await context.addInitScript(breakIt);
      const { page, errors } = await openPage(context);
      await page.goto(env.site.server.url + '/storage.html');
      const unsaved = await page.evaluate((event) => {
        const hogtail = (window as any).hogtail;
        for (let i = 0; i < 50; i++) hogtail.capture(event, { i });
        return new Promise((resolve) => queueMicrotask(() => resolve(hogtail.stats().unsaved)));
      }, event);
      // Proof the breakage reached the SDK: what was captured is held in memory only.
      expect(unsaved).toBeGreaterThan(0);
      const seen = await waitForIndexes(env.site.collector, event, 50, 15_000);
      expect(problems(seen, 50)).toEqual({ missing: [], reissued: [] });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('storage filling up after init: the events that no longer fit are kept in memory and sent', async () => {
    env.site.server.page('/fills.html', sdkPage(env.site.collector.url, { flush_at: 1000, flush_interval: 500 }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/fills.html');
    const unsaved = await page.evaluate(
      ({ fill }) => {
        const hogtail = (window as any).hogtail;
        for (let i = 0; i < 20; i++) hogtail.capture('fills up', { i });
        new Function(`(${fill})()`)();
        for (let i = 20; i < 50; i++) hogtail.capture('fills up', { i });
        return new Promise((resolve) => queueMicrotask(() => resolve(hogtail.stats().unsaved)));
      },
      { fill: fillStorage.toString() },
    );
    // The test is only meaningful if the later events really could not be stored.
    expect(unsaved).toBeGreaterThan(0);
    const seen = await waitForIndexes(env.site.collector, 'fills up', 50, 15_000);
    expect(problems(seen, 50)).toEqual({ missing: [], reissued: [] });
    expect(errors).toEqual([]);
    await context.close();
  });
});
