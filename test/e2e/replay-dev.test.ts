// `hogtail dev` plays recordings (issue #24), in real Chromium: an app page with the built script
// tag points at a real dev server, which turns session replay on in its remote config; the
// recording arrives at `/s/`, the live page lists the session, and its player page, served with
// rrweb's player by the dev server itself (no CDN), rebuilds the recorded page. Awaited, never timed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import type { RecordingSummary } from '../../src/devserver/replay/recordings';
import { repoRoot } from '../support/built';
import { ensureBrowserBuild, RECORDER } from './support/build';
import { hasChromium, launchChromium, openPage, type WatchedPage } from './support/chromium';
import { recordingText, untilRecorded } from './support/dev-recordings';
import { tagHead } from './support/replay-site';
import { startStaticServer, type StaticServer } from './support/static-server';
import { BLOCKED_TEXT, DONE_MARK, interact, replayPage, TYPED } from './replay-page';

/** posthog-js with its recorder bundled in (array.full.js), recording with its defaults; the rest off. */
const POSTHOG_HEAD = (host: string) => `<script src="/posthog.js"></script><script>posthog.init('phc_devReplay', { api_host: '${host}',
  capture_pageview: false, capture_pageleave: false, autocapture: false, disable_surveys: true, capture_performance: false,
  capture_dead_clicks: false, enable_heatmaps: false, opt_out_useragent_filter: true })</script>`;

/**
 * Awaits the player page's replay until the recorded page shows `mark`. The recording held the
 * mark before the player opened, so a player that plays to its end without it fails, saying what
 * it played.
 */
async function playedTo(player: Page, mark: string): Promise<void> {
  const outcome = await player.waitForFunction(
    (mark) => {
      const replayer = (window as any).replayer;
      if (replayer?.iframe.contentDocument?.getElementById('status')?.textContent === mark) return 'shown';
      // rrweb's replayer pauses itself once its last event is applied (its `finish`).
      const ended = replayer !== undefined && replayer.service.state.matches('paused') && replayer.getCurrentTime() > 0;
      return ended ? `played to its end without it: ${document.getElementById('status')?.textContent}` : false;
    },
    mark,
    { timeout: 60_000, polling: 250 },
  );
  expect(await outcome.jsonValue()).toBe('shown');
}

describe.skipIf(!hasChromium)('hogtail dev plays session recordings', () => {
  let browser: Browser;
  let app: StaticServer;
  let dev: DevServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hogtail-dev-replay-'));
    const [iife] = await Promise.all([ensureBrowserBuild(), launchChromium().then((b) => (browser = b))]);
    dev = await startDevServer({ dataDir });
    app = await startStaticServer();
    app.file('/hogtail.iife.js', iife);
    app.file('/hogtail.recorder.js', repoRoot + RECORDER);
    app.page('/app.html', replayPage(tagHead(dev.url)));
    app.file('/posthog.js', repoRoot + 'node_modules/posthog-js/dist/array.full.js');
    app.page('/posthog-app.html', replayPage(POSTHOG_HEAD(dev.url)));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await dev?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Records `path` with `sdk` (its global), then plays the session on the dev server's player page. */
  async function recordAndPlay(path: string, sdk: 'hogtail' | 'posthog') {
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(app.url + path);
    await page.waitForFunction((name) => (window as any)[name].sessionRecordingStarted() === true, sdk, { timeout: 20_000 });
    await interact(page);
    const sessionId: string = await page.evaluate((name) => (window as any)[name].get_session_id(), sdk);

    await untilRecorded(async () => (await recordingText(dev, sessionId)).includes(DONE_MARK), `${sdk}'s last change`);
    const recorded = await recordingText(dev, sessionId);
    const live = await context.newPage();
    await live.goto(dev.url + '/');
    // The list refreshes as recordings arrive; the click waits for the session's link.
    await live.locator(`#recordings a[title="${sessionId}"]`).click();
    await playedTo(live, DONE_MARK);
    const rebuilt = await live.evaluate(() => {
      const doc: Document = (window as any).replayer.iframe.contentDocument;
      return { route: doc.getElementById('route')?.textContent, status: doc.getElementById('status')?.textContent };
    });
    expect(errors).toEqual([]);
    await context.close();
    return { rebuilt, recorded };
  }

  it('records the app, lists the session on the live page, and its player rebuilds the page', async () => {
    const { rebuilt, recorded } = await recordAndPlay('/app.html', 'hogtail');
    expect(rebuilt).toEqual({ route: 'settings page', status: DONE_MARK });
    for (const secret of [TYPED.email, TYPED.password, BLOCKED_TEXT]) expect(recorded).not.toContain(secret);
  });

  it('the same for posthog-js: its packed snapshots are unpacked and play; it masks the same fields', async () => {
    const { rebuilt, recorded } = await recordAndPlay('/posthog-app.html', 'posthog');
    expect(rebuilt).toEqual({ route: 'settings page', status: DONE_MARK });
    for (const secret of [TYPED.email, TYPED.password, BLOCKED_TEXT]) expect(recorded).not.toContain(secret);
  });

  it('a session recorded in two tabs plays one tab at a time, the other a click away', async () => {
    const SECOND_MARK = 'the second tab';
    const context = await browser.newContext();
    const tabs: WatchedPage[] = [];
    for (const mark of [DONE_MARK, SECOND_MARK]) {
      const tab = await openPage(context);
      tabs.push(tab);
      await tab.page.goto(app.url + '/app.html');
      await tab.page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === true, undefined, { timeout: 20_000 });
      if (mark === DONE_MARK) await interact(tab.page);
      else await tab.page.evaluate((text) => (document.getElementById('status')!.textContent = text), mark);
    }
    const sessionIds = await Promise.all(tabs.map(({ page }) => page.evaluate(() => (window as any).hogtail.get_session_id() as string)));
    expect(sessionIds[1]).toBe(sessionIds[0]);
    const sessionId = sessionIds[0]!;

    const tabIds = async () => {
      const { recordings } = (await (await fetch(`${dev.url}/_dev/recordings`)).json()) as { recordings: RecordingSummary[] };
      return recordings.find((recording) => recording.sessionId === sessionId)?.tabs.map((tab) => tab.windowId) ?? [];
    };
    await untilRecorded(async () => {
      const ids = await tabIds();
      return (
        ids.length === 2 &&
        (await recordingText(dev, sessionId, ids[0])).includes(DONE_MARK) &&
        (await recordingText(dev, sessionId, ids[1])).includes(SECOND_MARK)
      );
    }, "both tabs' last changes");
    const player = await context.newPage();
    await player.goto(`${dev.url}/_dev/replay/${sessionId}`);
    await playedTo(player, DONE_MARK);
    expect(await player.textContent('#tabs')).toBe('Recorded in 2 tabs; this is tab 1. Play tab: 2');
    await player.click('#tabs a');
    await playedTo(player, SECOND_MARK);
    expect(await player.textContent('#tabs')).toBe('Recorded in 2 tabs; this is tab 2. Play tab: 1');
    expect(tabs.flatMap(({ errors }) => errors)).toEqual([]);
    await context.close();
  });
});
