// Clicks right before the page goes: a reload, a tab close, or a crash of the page's process (no
// pagehide, nothing runs after it). The durable queue writes each task's events before the task ends
// (ledger.ts), so each click is in localStorage before the next one, and nothing can leave the page
// itself (no request: flush_at and flush_interval far away; no beacon): every click must arrive,
// once, from the next page of the origin. The crash case fails if the write is ever deferred.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { autocapturePage } from './autocapture-page';
import { hasChromium, openPage } from './support/chromium';
import type { RecordingCollector } from './support/recording-collector';
import { useChromiumSite } from './support/site';

const CLICKS = 8;
const BUTTONS = Array.from({ length: CLICKS }, (_, n) => `<button id="b${n}" data-ph-capture-attribute-n="${n}">Button ${n}</button>`).join(
  '',
);
const QUIET = { flush_at: 1000, flush_interval: 600_000 };

/** In the page that clicks: no beacon, so only what is stored can reach the next page. */
function noBeacon(path: string) {
  if (location.pathname === path) navigator.sendBeacon = () => false;
}

/** Clicks every button with the mouse; after each click its event is already stored. */
async function clickAll(context: BrowserContext, url: string, errors: string[]) {
  const { page } = await openPage(context, errors);
  await page.goto(url);
  await page.waitForFunction(() => (window as any).hogtail?.__loaded);
  for (let n = 0; n < CLICKS; n++) {
    await page.click(`#b${n}`);
    const stored = await page.evaluate(
      () => Object.keys(localStorage).filter((key) => key.includes('|q|') && localStorage.getItem(key)!.includes('$autocapture')).length,
    );
    expect(stored).toBe(n + 1);
  }
  return page;
}

/** For each button: the uuids its click arrived with. */
async function arrived(
  collector: RecordingCollector,
  done = (found: Map<string, Set<string>>) => found.size >= CLICKS,
): Promise<Map<string, Set<string>>> {
  const byButton = (): Map<string, Set<string>> => {
    const found = new Map<string, Set<string>>();
    for (const event of collector.events) {
      if (event.event !== '$autocapture') continue;
      const n = String(event.properties.n);
      found.set(n, (found.get(n) ?? new Set()).add(event.uuid ?? ''));
    }
    return found;
  };
  await collector.waitUntil(() => done(byButton()), 30_000);
  return byButton();
}

const expectEveryClickOnce = (byButton: Map<string, Set<string>>) =>
  expect([...byButton].map(([n, uuids]) => [n, uuids.size]).sort()).toEqual(Array.from({ length: CLICKS }, (_, n) => [String(n), 1]));

type Site = ReturnType<typeof useChromiumSite>;

/** Serves `path` with the buttons, clicks them all in a fresh context, then lets `leave` end the page. */
async function clickThenLeave(env: Site, path: string, leave: (page: Page, context: BrowserContext, errors: string[]) => Promise<void>) {
  env.site.collector.clear();
  env.site.server.page(path, autocapturePage(env.site, BUTTONS, { config: QUIET }));
  env.site.server.page('/next-tab.html', autocapturePage(env.site, '', {}));
  const context = await env.browser.newContext();
  await context.addInitScript(noBeacon, path);
  const errors: string[] = [];
  await leave(await clickAll(context, env.site.server.url + path, errors), context, errors);
  return { context, errors };
}

/** A new tab of the origin: it adopts and sends what the gone page stored. */
const openNextTab = async (env: Site, context: BrowserContext, errors: string[]) =>
  (await openPage(context, errors)).page.goto(env.site.server.url + '/next-tab.html');

describe.skipIf(!hasChromium)('clicks just before the page goes', () => {
  const env = useChromiumSite();

  it('clicked, then an immediate reload: every click arrives from the next page', async () => {
    const { context, errors } = await clickThenLeave(env, '/reload-clicks.html', async (page) => void (await page.reload()));
    expectEveryClickOnce(await arrived(env.site.collector));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('clicked, then the tab closes: every click arrives with the next tab of the origin', async () => {
    const { context, errors } = await clickThenLeave(env, '/close-clicks.html', async (page, context, errors) => {
      await page.close({ runBeforeUnload: true });
      await openNextTab(env, context, errors);
    });
    expectEveryClickOnce(await arrived(env.site.collector));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("clicked, then the page's process crashes (no pagehide): every click arrives with the next tab", async () => {
    const { context, errors } = await clickThenLeave(env, '/crash-clicks.html', async (page, context, errors) => {
      // One more click, then the crash in the same breath: no later task of the page ever runs.
      const cdp = await context.newCDPSession(page);
      const crashed = new Promise((resolve) => page.once('crash', resolve));
      await page.evaluate(() => document.getElementById('b0')!.click());
      cdp.send('Page.crash').catch(() => {}); // never answered: the page is gone
      await crashed;
      await openNextTab(env, context, errors);
    });
    // The ninth click (b0 again, right before the crash) arrived too, as an event of its own.
    const byButton = await arrived(env.site.collector, (found) => (found.get('0')?.size ?? 0) >= 2);
    expect([...byButton].map(([n, uuids]) => [n, uuids.size]).sort()).toEqual(
      Array.from({ length: CLICKS }, (_, n) => [String(n), n === 0 ? 2 : 1]),
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
