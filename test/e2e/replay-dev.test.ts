// `hogtail dev` plays recordings (issue #24), in real Chromium: an app page with the built script
// tag points at a real dev server, which turns session replay on in its remote config; the
// recording arrives at `/s/`, the live page lists the session, and its player page, served with
// rrweb's player by the dev server itself (no CDN), rebuilds the recorded page. Awaited, never timed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import { repoRoot } from '../support/built';
import { ensureBrowserBuild, RECORDER } from './support/build';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { tagHead } from './support/replay-site';
import { startStaticServer, type StaticServer } from './support/static-server';
import { DONE_MARK, interact, replayPage } from './replay-page';

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
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await dev?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('records the app, lists the session on the live page, and its player rebuilds the page', async () => {
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(app.url + '/app.html');
    await page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === true, undefined, { timeout: 20_000 });
    await interact(page);
    const sessionId: string = await page.evaluate(() => (window as any).hogtail.get_session_id());

    const live = await context.newPage();
    await live.goto(dev.url + '/');
    const link = live.locator(`#recordings a[title="${sessionId}"]`);
    // The list refreshes as events arrive; the recording is complete once its last change is in.
    await live.waitForFunction(
      async ([id, mark]) => {
        const answer = await (await fetch('/_dev/recordings/' + id)).json();
        return JSON.stringify(answer.events).includes(mark) && document.querySelector(`#recordings a[title="${id}"]`) !== null;
      },
      [sessionId, DONE_MARK] as const,
      { timeout: 20_000, polling: 250 },
    );
    await link.click();
    await live.waitForFunction(() => (window as any).replayer !== undefined, undefined, { timeout: 10_000 });
    const rebuilt = await live.evaluate(() => {
      const replayer = (window as any).replayer;
      replayer.pause(replayer.getMetaData().totalTime + 1);
      const doc: Document = replayer.iframe.contentDocument;
      return { route: doc.getElementById('route')?.textContent, status: doc.getElementById('status')?.textContent };
    });
    expect(rebuilt).toEqual({ route: 'settings page', status: DONE_MARK });
    expect(errors).toEqual([]);
    await context.close();
  });
});
