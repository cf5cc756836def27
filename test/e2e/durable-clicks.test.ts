// Clicks right before a reload or a tab close. The durable queue keeps new events in memory for up
// to WRITE_DELAY_MS before it writes them (ledger.ts), so pagehide must write them. Here the page's
// write timer is held back and nothing can leave before the page goes (no request: flush_at and
// flush_interval far away; no beacon): only that pagehide write can save the clicks, and every one
// must arrive, once, from the next page of the origin.
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { WRITE_DELAY_MS } from '../../src/browser/ledger';
import { autocapturePage } from './autocapture-page';
import { hasChromium, openPage } from './support/chromium';
import type { RecordingCollector } from './support/recording-collector';
import { useChromiumSite } from './support/site';

const CLICKS = 8;
const BUTTONS = Array.from({ length: CLICKS }, (_, n) => `<button id="b${n}" data-ph-capture-attribute-n="${n}">Button ${n}</button>`).join('');
const QUIET = { flush_at: 1000, flush_interval: 600_000 };

/** In the page that clicks: no beacon, and the durable queue's write timer never fires. */
function holdBack({ path, delay }: { path: string; delay: number }) {
  if (location.pathname !== path) return;
  navigator.sendBeacon = () => false;
  const setTimer = window.setTimeout;
  // A real id (the ledger tests it), for a timer that never fires.
  window.setTimeout = ((fn: TimerHandler, ms?: number, ...rest: unknown[]) =>
    ms === delay ? setTimer(() => undefined, 2 ** 31 - 1) : setTimer(fn, ms, ...rest)) as typeof setTimeout;
}

/** Clicks every button with the mouse and checks that none of the events is stored yet. */
async function clickAll(context: BrowserContext, url: string, errors: string[]) {
  const { page } = await openPage(context, errors);
  await page.goto(url);
  await page.waitForFunction(() => (window as any).hogtail?.__loaded);
  for (let n = 0; n < CLICKS; n++) await page.click(`#b${n}`);
  const stored = await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('|q|') && localStorage.getItem(key)!.includes('$autocapture')));
  // Proof the test exercises the window: only the pagehide write can keep these clicks.
  expect(stored).toEqual([]);
  return page;
}

/** For each button: the uuids its click arrived with. */
async function arrived(collector: RecordingCollector): Promise<Map<string, Set<string>>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const byButton = new Map<string, Set<string>>();
    for (const event of collector.events) {
      if (event.event !== '$autocapture') continue;
      const n = String(event.properties.n);
      byButton.set(n, (byButton.get(n) ?? new Set()).add(event.uuid ?? ''));
    }
    if (byButton.size >= CLICKS || Date.now() > deadline) return byButton;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const expectEveryClickOnce = (byButton: Map<string, Set<string>>) =>
  expect([...byButton].map(([n, uuids]) => [n, uuids.size]).sort()).toEqual(Array.from({ length: CLICKS }, (_, n) => [String(n), 1]));

describe.skipIf(!hasChromium)('clicks just before the page goes', () => {
  const env = useChromiumSite();

  it('clicked, then an immediate reload: every click arrives from the next page', async () => {
    env.site.collector.clear();
    env.site.server.page('/reload-clicks.html', autocapturePage(env.site, BUTTONS, { config: QUIET }));
    const context = await env.browser.newContext();
    await context.addInitScript(holdBack, { path: '/reload-clicks.html', delay: WRITE_DELAY_MS });
    const errors: string[] = [];
    const page = await clickAll(context, env.site.server.url + '/reload-clicks.html', errors);
    await page.reload();
    expectEveryClickOnce(await arrived(env.site.collector));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('clicked, then the tab closes: every click arrives with the next tab of the origin', async () => {
    env.site.collector.clear();
    env.site.server.page('/close-clicks.html', autocapturePage(env.site, BUTTONS, { config: QUIET }));
    env.site.server.page('/next-tab.html', autocapturePage(env.site, '', {}));
    const context = await env.browser.newContext();
    await context.addInitScript(holdBack, { path: '/close-clicks.html', delay: WRITE_DELAY_MS });
    const errors: string[] = [];
    const page = await clickAll(context, env.site.server.url + '/close-clicks.html', errors);
    await page.close({ runBeforeUnload: true });
    const next = await openPage(context, errors);
    await next.page.goto(env.site.server.url + '/next-tab.html');
    expectEveryClickOnce(await arrived(env.site.collector));
    expect(errors).toEqual([]);
    await context.close();
  });
});
