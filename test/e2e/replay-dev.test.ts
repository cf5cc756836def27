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
import { repoRoot } from '../support/built';
import { ensureBrowserBuild, RECORDER } from './support/build';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { tagHead } from './support/replay-site';
import { startStaticServer, type StaticServer } from './support/static-server';
import { BLOCKED_TEXT, DONE_MARK, interact, replayPage, TYPED } from './replay-page';

/** posthog-js with its recorder bundled in (array.full.js), recording with its defaults; the rest off. */
const POSTHOG_HEAD = (host: string) => `<script src="/posthog.js"></script><script>posthog.init('phc_devReplay', { api_host: '${host}',
  capture_pageview: false, capture_pageleave: false, autocapture: false, disable_surveys: true, capture_performance: false,
  capture_dead_clicks: false, enable_heatmaps: false, opt_out_useragent_filter: true })</script>`;

/**
 * Awaits the player page's replay until its last change (the mark) is on screen. The player reads
 * the recording once, when it opens; under load posthog-js's last batch can still be on its way
 * then, and that player plays to its end without the mark. Such a player is opened again (as a
 * user reloads it) until it shows the mark, for as long as the test has: a player that never shows
 * it fails the test, saying what it played.
 */
async function untilPlayedToTheMark(player: Page): Promise<void> {
  for (;;) {
    const outcome = await player.waitForFunction(
      (mark) => {
        const replayer = (window as any).replayer;
        if (replayer?.iframe.contentDocument?.getElementById('status')?.textContent === mark) return 'shown';
        // rrweb's replayer pauses itself once its last event is applied (its `finish`).
        const ended = replayer !== undefined && replayer.service.state.matches('paused') && replayer.getCurrentTime() > 0;
        return ended ? `played to its end without it: ${document.getElementById('status')?.textContent}` : false;
      },
      DONE_MARK,
      { timeout: 60_000, polling: 250 },
    );
    const shown = await outcome.jsonValue();
    if (shown === 'shown') return;
    console.log(`the player ${shown}; opening it again`);
    await player.reload();
  }
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

    const live = await context.newPage();
    await live.goto(dev.url + '/');
    // The list refreshes as events arrive; the recording is complete once its last change is in.
    await live.waitForFunction(
      async ([id, mark]) => {
        const answer = await (await fetch('/_dev/recordings/' + id)).json();
        return JSON.stringify(answer.events).includes(mark) && document.querySelector(`#recordings a[title="${id}"]`) !== null;
      },
      [sessionId, DONE_MARK] as const,
      { timeout: 20_000, polling: 250 },
    );
    const recorded = JSON.stringify(await live.evaluate(async (id) => (await fetch('/_dev/recordings/' + id)).json(), sessionId));
    await live.locator(`#recordings a[title="${sessionId}"]`).click();
    await untilPlayedToTheMark(live);
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
});
