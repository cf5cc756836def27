// Session replay's sessions and settings in real Chromium against a real collector (issue #24): a
// session idle past 30 minutes rotates, and the new session's recording starts with a full
// snapshot; the URL blocklist leaves out what happens on its pages; an event trigger starts the
// recording; console logs are recorded when asked; a page that changes its DOM faster than a
// recording can carry stops the recording and says so.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium';
import { useReplaySite, visitPage } from './support/replay-site';

const ON = { sessionRecording: { endpoint: '/s/' } };
const FULL_SNAPSHOT = 2;
const PLUGIN = 6;
const recording = (page: Page) => page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === true);
const setStatus = (page: Page, text: string) => page.evaluate((value) => (document.getElementById('status')!.textContent = value), text);

describe.skipIf(!hasChromium)('session replay: sessions and settings', () => {
  const env = useReplaySite();

  it('a session idle for 30 minutes rotates: the next recording has a new session id and starts with a full snapshot', async () => {
    const context = await env.browser.newContext();
    await context.clock.install();
    const ids: string[] = [];
    const { all } = await visitPage(
      env,
      {},
      ON,
      async (page) => {
        await recording(page);
        await page.click('#add');
        ids.push(await page.evaluate(() => (window as any).hogtail.get_session_id()));
        await page.clock.fastForward('31:00');
        await page.click('#add'); // the user is back: a new session
        await setStatus(page, 'after the idle spell');
        ids.push(await page.evaluate(() => (window as any).hogtail.get_session_id()));
      },
      context,
    );
    await context.close();
    expect(ids[0]).not.toBe(ids[1]);
    const second = all.filter((event) => event.properties.$session_id === ids[1]).flatMap((event) => event.properties.$snapshot_data);
    expect(second.some((event) => event.type === FULL_SNAPSHOT)).toBe(true);
    expect(JSON.stringify(second)).toContain('after the idle spell');
    expect(all.some((event) => event.properties.$session_id === ids[0])).toBe(true);
  });

  it('the URL blocklist: nothing happening on a blocklisted page is recorded; leaving it records again', async () => {
    const { sent } = await visitPage(
      env,
      {},
      { sessionRecording: { endpoint: '/s/', urlBlocklist: [{ url: '/admin', matching: 'regex' }] } },
      async (page) => {
        await recording(page);
        await page.evaluate(() => history.pushState({}, '', '/admin'));
        await page.click('#add');
        await setStatus(page, 'seen on the admin page');
        await setStatus(page, ''); // gone before leaving: the page shown after it is not the admin page's
        await page.evaluate(() => history.pushState({}, '', '/home'));
        await page.click('#add');
        await setStatus(page, 'seen back home');
      },
    );
    const wire = JSON.stringify(sent);
    expect(wire).not.toContain('seen on the admin page');
    expect(wire).toContain('seen back home');
  });

  it('an event trigger starts the recording of its session, with what was recorded before it', async () => {
    const remote = { sessionRecording: { endpoint: '/s/', eventTriggers: ['checkout started'] } };
    const waiting = await visitPage(env, {}, remote, async (page) => {
      await recording(page);
      await setStatus(page, 'before any trigger');
    });
    expect(waiting.sent).toEqual([]);
    const triggered = await visitPage(env, {}, remote, async (page) => {
      await recording(page);
      await setStatus(page, 'before the trigger');
      await page.evaluate(() => (window as any).hogtail.capture('checkout started'));
      await setStatus(page, 'after the trigger');
    });
    const wire = JSON.stringify(triggered.sent);
    expect(wire).toContain('before the trigger');
    expect(wire).toContain('after the trigger');
  });

  it("console logs are in the recording as rrweb's console plugin events when enable_recording_console_log is on", async () => {
    const { sent } = await visitPage(env, { enable_recording_console_log: true }, ON, async (page) => {
      await recording(page);
      await page.evaluate(() => console.warn('replay log line', { order: 42 }));
    });
    const logs = sent.flatMap((event) => event.properties.$snapshot_data).filter((event) => event.type === PLUGIN);
    expect(logs.map((event) => (event as unknown as { data: unknown }).data)).toContainEqual({
      plugin: 'rrweb/console@1',
      payload: expect.objectContaining({ level: 'warn', payload: ['replay log line', '{"order":42}'] }),
    });
  });

  it('a page that changes its DOM faster than a recording can carry stops the recording, says so, and sends what it had', async () => {
    const { sent } = await visitPage(env, {}, ON, async (page) => {
      await page.evaluate(() =>
        (window as any).hogtail.on('error', (error: Error) => ((window as any).reported ||= []).push(error.message)),
      );
      await recording(page);
      await page.evaluate(() => {
        const big = 'x'.repeat(20_000);
        for (let i = 0; i < 200; i++) document.getElementById('list')!.appendChild(document.createElement('li')).textContent = big + i;
      });
      await page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === false);
      expect(await page.evaluate(() => (window as any).reported)).toEqual([
        expect.stringContaining('session replay stopped: the page changes its DOM faster'),
      ]);
    });
    const custom = sent.flatMap((event) => event.properties.$snapshot_data).filter((event) => event.type === 5);
    expect(custom).toContainEqual(expect.objectContaining({ data: { tag: 'recording paused', payload: { reason: 'mutation rate' } } }));
  });

  it('snapshots the server refuses are counted in stats().dropped.rejected and reported, not lost in silence', async () => {
    env.collector.setFault(({ req, res }) => {
      if (!req.url?.startsWith('/s/')) return false;
      res.writeHead(400, { 'Access-Control-Allow-Origin': '*' }).end('refused on purpose');
      return true;
    });
    try {
      await visitPage(env, {}, ON, async (page) => {
        await page.evaluate(() =>
          (window as any).hogtail.on('error', (error: Error) => ((window as any).reported ||= []).push(error.message)),
        );
        await recording(page);
        await page.click('#add');
        await page.waitForFunction(() => ((window as any).hogtail.stats().dropped.rejected ?? 0) > 0, undefined, { timeout: 15_000 });
        const reported: string[] = await page.evaluate(() => (window as any).reported);
        expect(reported.some((message) => /session replay: \d+ snapshot event\(s\) not sent/.test(message))).toBe(true);
      });
    } finally {
      env.collector.setFault(undefined);
    }
  });
});
