// The scenarios of replay-durable.test.ts that posthog-js can run, against posthog-js itself in the
// same Chromium, on the same pages, its recordings stored and unpacked by a real `hogtail dev`:
// the first page of a session held back by its minimum duration is sent once the session is long
// enough; a URL trigger and an event trigger hold for the rest of their session across pages; and
// sampling keeps the sessions its function keeps (the same function hogtail now uses). The 413
// split has no posthog-js counterpart to run: posthog-js does not split a refused batch.
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/built';
import { hasChromium, openPage } from './support/chromium';
import { POSTHOG_KEY, usePosthogReplaySite } from './support/posthog-replay-site';

const posthogSampling = createRequire(import.meta.url)(repoRoot + 'node_modules/posthog-js/lib/src/extensions/sampling.js') as {
  sampleOnProperty(value: string, percent: number): boolean;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const recording = (page: Page) =>
  page.waitForFunction(() => (window as any).posthog.sessionRecordingStarted?.() === true, undefined, { timeout: 20_000 });
/** Puts `text` on the page, then clicks: posthog-js holds a fresh recording back until the user does something. */
const setStatus = async (page: Page, text: string) => {
  await page.evaluate((value) => (document.getElementById('status')!.textContent = value), text);
  await page.click('#add');
};
const sessionOf = (page: Page): Promise<string> => page.evaluate(() => (window as any).posthog.get_session_id());

let pages = 0;

describe.skipIf(!hasChromium)('the same session replay scenarios against posthog-js', () => {
  const site = usePosthogReplaySite();

  /** A fresh page of the site (posthog-js on it), opened in `page`, recording with the test's settings. */
  async function open(page: Page, name: string): Promise<void> {
    const path = `/${name}-${++pages}.html`;
    site.page(path);
    await page.goto(site.app.url + path);
    await recording(page);
    // The scenario runs only if posthog-js took the settings from the remote config the proxy answered.
    const applied = await page.evaluate(() => (window as any).posthog.get_property('$session_recording_remote_config'));
    expect(applied).toMatchObject(site.recording);
  }

  /** Waits until the dev server holds a recording of the page's session with `text` in it (or 15 s). */
  async function recordedWith(page: Page, text: string): Promise<string> {
    const sessionId = await sessionOf(page);
    for (const deadline = Date.now() + 15_000; ; await sleep(100)) {
      const recorded = await site.recorded(sessionId);
      if (recorded.includes(text) || Date.now() > deadline) return recorded;
    }
  }

  async function withPage(fn: (page: Page, context: BrowserContext) => Promise<void>, clock = false): Promise<void> {
    const context = await site.browser.newContext();
    if (clock) await context.clock.install();
    const { page, errors } = await openPage(context);
    try {
      await fn(page, context);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it('minimum duration: the first page of a session that gets long enough on its second page is sent too', async () => {
    site.recording = { minimumDurationMilliseconds: 60_000 };
    await withPage(async (page) => {
      await open(page, 'ph-first');
      await setStatus(page, 'seen on the first page');
      await open(page, 'ph-second');
      await setStatus(page, 'seen on the second page');
      await page.clock.fastForward('01:30');
      await page.click('#add');
      const recorded = await recordedWith(page, 'seen on the second page');
      expect(recorded).toContain('seen on the second page');
      expect(recorded).toContain('seen on the first page');
    }, true);
  });

  it('a URL trigger holds for the rest of its session: the pages after the trigger page are sent', async () => {
    site.recording = { urlTriggers: [{ url: '/ph-checkout-', matching: 'regex' }] };
    await withPage(async (page) => {
      await open(page, 'ph-checkout');
      await setStatus(page, 'on the trigger page');
      expect(await recordedWith(page, 'on the trigger page')).toContain('on the trigger page');
      await open(page, 'ph-plain');
      await setStatus(page, 'on a page after the trigger');
      expect(await recordedWith(page, 'on a page after the trigger')).toContain('on a page after the trigger');
    });
  });

  it('an event trigger holds across a reload', async () => {
    site.recording = { eventTriggers: ['checkout started'] };
    await withPage(async (page) => {
      await open(page, 'ph-event');
      await page.evaluate(() => (window as any).posthog.capture('checkout started'));
      await setStatus(page, 'after the trigger');
      expect(await recordedWith(page, 'after the trigger')).toContain('after the trigger');
      await page.reload();
      await recording(page);
      await setStatus(page, 'after the reload');
      expect(await recordedWith(page, 'after the reload')).toContain('after the reload');
    });
  });

  it('sampling at 0.5 keeps the session its function keeps: the session hogtail keeps too', async () => {
    site.recording = { sampleRate: 0.5 };
    const sessionId = '0190f0e0-1111-7000-8000-000000000000'; // sampled in by the rule (replay-durable.test.ts has its pair)
    expect(posthogSampling.sampleOnProperty(sessionId, 0.5)).toBe(true);
    await withPage(async (page, context) => {
      // A session this visitor already has, in posthog-js's own record.
      const record = JSON.stringify({ distinct_id: 'sampled-visitor', $sesid: [Date.now(), sessionId, Date.now()] });
      await context.addInitScript(
        ([key, value]) => {
          if (location.protocol === 'http:' && !localStorage.getItem(key)) localStorage.setItem(key, value);
        },
        [`ph_${POSTHOG_KEY}_posthog`, record] as const,
      );
      await open(page, 'ph-sampled');
      expect(await sessionOf(page)).toBe(sessionId);
      await setStatus(page, 'in a sampled session');
      expect(await recordedWith(page, 'in a sampled session')).toContain('in a sampled session');
    });
  });
});
