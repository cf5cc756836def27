// Session replay loses nothing across pages, server limits and sampling (issue #24), in real
// Chromium with the built script tag against a real collector:
// - a session held back by `minimumDurationMilliseconds` keeps its first page's recording across a
//   navigation and sends it once the session is long enough, never into another session;
// - a URL trigger, an event trigger and startSessionRecording()'s overrides hold for the rest of
//   the session across pages, and a new session starts untriggered;
// - a snapshot batch the server refuses as too large (413) is split and delivered; a single
//   snapshot event still too large is dropped and counted `too_large`; one it refuses for what it
//   carries (400) is found the same way and dropped alone, counted `rejected`;
// - sampling keeps exactly the sessions posthog-js keeps (its function, from its own package).
// Every wait is on an outcome (a page state, an event at the collector), never on a duration.
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/built';
import { hasChromium } from './support/chromium';
import { snapshots, tagHead, useReplaySite, visitPage, type ReplaySite, type Snapshot } from './support/replay-site';
import { KEY } from './support/site';
import { replayPage } from './replay-page';

const posthogSampling = createRequire(import.meta.url)(repoRoot + 'node_modules/posthog-js/lib/src/extensions/sampling.js') as {
  sampleOnProperty(value: string, percent: number): boolean;
};

const recording = (page: Page) => page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === true);
const setStatus = (page: Page, text: string) => page.evaluate((value) => (document.getElementById('status')!.textContent = value), text);
const sessionOf = (page: Page): Promise<string> => page.evaluate(() => (window as any).hogtail.get_session_id());
const wire = (events: readonly Snapshot[]) => JSON.stringify(events.map((event) => event.properties.$snapshot_data));

let pages = 0;
/** A second page of the site with the same tag and options; resolves once it records. */
async function goToAnotherPage(env: ReplaySite, page: Page, name: string, config: Record<string, unknown> = {}): Promise<void> {
  const path = `/${name}-${++pages}.html`;
  env.server.page(path, replayPage(tagHead(env.collector.url, config)));
  await page.goto(env.server.url + path);
  await recording(page);
}

/** Waits until a snapshot of the page's session carrying `text` has arrived (the recording was sent). */
async function arrived(env: ReplaySite, page: Page, text: string): Promise<void> {
  const sessionId = await sessionOf(page);
  const found = await env.collector.waitUntil(
    () => wire(snapshots(env.collector).filter((event) => event.properties.$session_id === sessionId)).includes(text),
    15_000,
  );
  expect(found, `a snapshot with "${text}"`).toBe(true);
}

/**
 * Holds the page's first snapshot request until `release()`, so the snapshot events recorded meanwhile
 * go out together in one batch; a request whose events `refusal` gives a status for is answered with it.
 */
function holdFirstSnapshotRequest(env: ReplaySite, refusal: (events: string) => number | undefined) {
  let holding = false;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  env.collector.setFault((exchange) => {
    if (!exchange.req.url?.startsWith('/s/') || exchange.outcome.kind !== 'accepted') return false;
    const status = refusal(JSON.stringify(exchange.outcome.events));
    if (status !== undefined) {
      exchange.res.writeHead(status, { 'Access-Control-Allow-Origin': '*' }).end(`refused with ${status}`);
      return true;
    }
    if (holding) return false;
    holding = true;
    void released.then(() => (exchange.record(), exchange.respond()));
    return true;
  });
  return { release, holding: () => holding };
}

/** Appends a list item of `size` characters after `mark` (in the page). */
const chunk = ([mark, size]: readonly [string, number]) =>
  void (document.getElementById('list')!.appendChild(document.createElement('li')).textContent = mark + 'x'.repeat(size));

describe.skipIf(!hasChromium)('session replay across pages, server limits and sampling', () => {
  const env = useReplaySite();

  it('minimum duration: the first page of a session that gets long enough on its second page is sent too', async () => {
    const context = await env.browser.newContext();
    await context.clock.install();
    const remote = { sessionRecording: { endpoint: '/s/', minimumDurationMilliseconds: 60_000 } };
    const { sent } = await visitPage(
      env,
      {},
      remote,
      async (page) => {
        await recording(page);
        await setStatus(page, 'seen on the first page');
        await goToAnotherPage(env, page, 'second');
        await setStatus(page, 'seen on the second page');
        await page.clock.fastForward('01:30');
        await page.click('#add'); // the session is now past its minimum
        await arrived(env, page, 'seen on the second page');
      },
      context,
    );
    await context.close();
    expect(wire(sent)).toContain('seen on the first page');
  });

  it("minimum duration: what a page kept is never sent with another session's recording", async () => {
    const context = await env.browser.newContext();
    await context.clock.install();
    const remote = { sessionRecording: { endpoint: '/s/', minimumDurationMilliseconds: 60_000 } };
    const { all, sent } = await visitPage(
      env,
      {},
      remote,
      async (page) => {
        await recording(page);
        await setStatus(page, 'kept for the first session');
        await page.clock.fastForward('31:00'); // idle: the next page starts a new session
        await goToAnotherPage(env, page, 'after-idle');
        await setStatus(page, 'seen in the new session');
        await page.clock.fastForward('01:30');
        await page.click('#add');
        await arrived(env, page, 'seen in the new session');
      },
      context,
    );
    await context.close();
    expect(sent.length).toBeGreaterThan(0);
    expect(wire(all)).not.toContain('kept for the first session');
  });

  it('a URL trigger holds for the rest of its session: the pages after the trigger page are sent', async () => {
    const remote = { sessionRecording: { endpoint: '/s/', urlTriggers: [{ url: '/checkout-', matching: 'regex' }] } };
    const { sent } = await visitPage(env, {}, remote, async (page) => {
      await goToAnotherPage(env, page, 'checkout');
      await setStatus(page, 'on the trigger page');
      await arrived(env, page, 'on the trigger page');
      await goToAnotherPage(env, page, 'plain');
      await setStatus(page, 'on a page after the trigger');
    });
    expect(wire(sent)).toContain('on a page after the trigger');
  });

  it('an event trigger holds across a reload; a new session starts untriggered', async () => {
    const remote = { sessionRecording: { endpoint: '/s/', eventTriggers: ['checkout started'] } };
    let triggeredSession = '';
    const { sent, all } = await visitPage(env, {}, remote, async (page) => {
      await recording(page);
      await page.evaluate(() => (window as any).hogtail.capture('checkout started'));
      await setStatus(page, 'after the trigger');
      await arrived(env, page, 'after the trigger');
      await page.reload();
      await recording(page);
      await setStatus(page, 'after the reload');
      await arrived(env, page, 'after the reload');
      triggeredSession = await sessionOf(page);
      await page.evaluate(() => (window as any).hogtail.reset()); // a new session
      await page.reload();
      await recording(page);
      await setStatus(page, 'in a new session');
    });
    expect(wire(all.filter((event) => event.properties.$session_id === triggeredSession))).toContain('after the reload');
    expect(sent).toEqual([]);
  });

  it("startSessionRecording()'s overrides hold for the session: a linked flag that is off does not stop it after a reload", async () => {
    const remote = { sessionRecording: { endpoint: '/s/', linkedFlag: 'replay-flag' } };
    const { sent } = await visitPage(env, {}, remote, async (page) => {
      await page.evaluate(() => (window as any).hogtail.startSessionRecording({ linked_flag: true }));
      await recording(page);
      await setStatus(page, 'asked for on the first page');
      await arrived(env, page, 'asked for on the first page');
      await page.reload();
      await page.waitForFunction(() => (window as any).flagsIn === true);
      await recording(page);
      await setStatus(page, 'after the reload');
    });
    expect(wire(sent)).toContain('after the reload');
  });

  it('413: a batch the server finds too large is split and delivered; a single snapshot event too large is dropped, counted too_large', async () => {
    const LIMIT = 800_000;
    const request = holdFirstSnapshotRequest(env, (events) => (events.length > LIMIT ? 413 : undefined));
    try {
      const { sent } = await visitPage(env, {}, { sessionRecording: { endpoint: '/s/' } }, async (page) => {
        await recording(page);
        await env.collector.waitUntil(request.holding, 15_000);
        for (const mark of ['first-300k', 'second-300k', 'third-300k']) await page.evaluate(chunk, [mark, 300_000] as const);
        await page.evaluate(chunk, ['huge-950k', 950_000] as const);
        request.release();
        await page.waitForFunction(() => ((window as any).hogtail.stats().dropped.too_large ?? 0) > 0, undefined, { timeout: 15_000 });
        await arrived(env, page, 'third-300k');
        expect(await page.evaluate(() => (window as any).hogtail.stats().dropped.rejected ?? 0)).toBe(0);
      });
      const text = wire(sent);
      for (const mark of ['first-300k', 'second-300k', 'third-300k']) expect(text).toContain(mark);
      expect(text).not.toContain('huge-950k');
    } finally {
      env.collector.setFault(undefined);
    }
  });

  it('400: the snapshot event the server refuses is found and dropped, counted rejected; the rest of its batch is delivered', async () => {
    const request = holdFirstSnapshotRequest(env, (events) => (events.includes('refused-mark') ? 400 : undefined));
    try {
      const { sent } = await visitPage(env, {}, { sessionRecording: { endpoint: '/s/' } }, async (page) => {
        await recording(page);
        await env.collector.waitUntil(request.holding, 15_000);
        // Two snapshot events in one request (the first request is held meanwhile): one the server refuses.
        await page.evaluate(chunk, ['refused-mark', 500_000] as const);
        await page.evaluate(chunk, ['delivered-mark', 500_000] as const);
        request.release();
        await page.waitForFunction(() => ((window as any).hogtail.stats().dropped.rejected ?? 0) > 0, undefined, { timeout: 15_000 });
        await arrived(env, page, 'delivered-mark');
        expect(await page.evaluate(() => (window as any).hogtail.stats().dropped.rejected)).toBe(1);
      });
      expect(wire(sent)).not.toContain('refused-mark');
    } finally {
      env.collector.setFault(undefined);
    }
  });

  it("sampling keeps exactly the sessions posthog-js's own function keeps", async () => {
    // Two session ids on either side of posthog-js's rule at 0.5 (one of them on the other side of an earlier hogtail hash).
    for (const sessionId of ['0190f0e0-1111-7000-8000-000000000000', '0190f0e0-1111-7000-8000-000000000010']) {
      const context: BrowserContext = await env.browser.newContext();
      // The session a visitor started under posthog-js, which hogtail carries on.
      await context.addInitScript(
        ([key, id]) => {
          if (location.protocol !== 'http:' || localStorage.getItem(key)) return;
          localStorage.setItem(key, JSON.stringify({ distinct_id: 'sampled-visitor', $sesid: [Date.now(), id, Date.now()] }));
        },
        [`ph_${KEY}_posthog`, sessionId] as const,
      );
      let seen = '';
      const { sent } = await visitPage(
        env,
        {},
        { sessionRecording: { endpoint: '/s/', sampleRate: 0.5 } },
        async (page) => {
          seen = await sessionOf(page);
          await page.click('#add');
        },
        context,
      );
      await context.close();
      expect(seen).toBe(sessionId);
      expect({ sessionId, sent: sent.length > 0 }).toEqual({ sessionId, sent: posthogSampling.sampleOnProperty(sessionId, 0.5) });
    }
  });
});
