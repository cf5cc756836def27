// Session replay (issue #24) in real Chromium, the built script tag against a real collector whose
// flags answer turns recording on: the tag loads dist/hogtail.recorder.js from next to itself,
// `$snapshot` events arrive at the config's endpoint gzip'd, with the session and window ids of
// the page's other events, and rrweb's own replayer rebuilds the page from them; what was typed
// into the form and the `.ph-no-capture` block never appear in what was sent.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { snapshots, tagHead, useReplaySite } from './support/replay-site';
import { BLOCKED_TEXT, DONE_MARK, interact, MASKED_TEXT, replayPage, TYPED, visibleState } from './replay-page';

/** Replays `events` in rrweb's replayer to their end; the rebuilt page's state, as visibleState reads it. */
async function replay(page: Page, events: unknown[]) {
  return page.evaluate((recorded) => {
    const { Replayer } = (window as unknown as { rrwebReplay: { Replayer: new (e: unknown[], c: object) => any } }).rrwebReplay;
    const replayer = new Replayer(recorded, { root: document.body, showWarning: false, mouseTail: false });
    replayer.pause(replayer.getMetaData().totalTime + 1);
    const doc: Document = replayer.iframe.contentDocument;
    return {
      route: doc.getElementById('route')?.textContent ?? '',
      list: [...doc.querySelectorAll('#list li')].map((li) => li.textContent ?? ''),
      status: doc.getElementById('status')?.textContent ?? '',
      // rrweb keeps a blocked element as an empty box of its size (its class stays, its id does not).
      secret: doc.querySelector('.ph-no-capture')?.textContent ?? 'missing',
      panelScroll: doc.getElementById('panel')?.scrollTop ?? -1,
    };
  }, events);
}

describe.skipIf(!hasChromium)('session replay', () => {
  const env = useReplaySite();

  it('records the realistic page as PostHog expects; rrweb replays it to the same DOM; nothing typed or blocked is sent', async () => {
    const { browser, server, collector } = env;
    collector.clear();
    env.remote = { sessionRecording: { endpoint: '/s/' } };
    const snapshotUrls: string[] = [];
    collector.setFault(({ req }) => {
      if (req.url?.startsWith('/s/')) snapshotUrls.push(req.url);
      return false;
    });
    server.page('/form.html', replayPage(tagHead(collector.url, { session_recording: { maskTextSelector: '.private-note' } })));
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(server.url + '/form.html');
    await page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === true);
    await interact(page);
    await page.evaluate(() => (window as any).hogtail.capture('page event'));
    const seen = await collector.waitUntil(() => snapshots(collector).some((event) => JSON.stringify(event).includes(DONE_MARK)), 20_000);
    expect(seen, 'the last change arrived in a snapshot').toBe(true);

    const sent = snapshots(collector);
    const ids = await page.evaluate(() => ({ sessionId: (window as any).hogtail.get_session_id() }));
    await collector.waitForDistinct('page event', 1, 10_000);
    const pageEvent = collector.events.find((event) => event.event === 'page event')!;
    for (const event of sent) {
      expect(event.endpoint).toBe('/s/');
      expect(event.properties.$session_id).toBe(ids.sessionId);
      expect(event.properties.$window_id).toBe(pageEvent.properties.$window_id);
      expect(event.properties.$snapshot_bytes).toBeGreaterThan(0);
      expect(Array.isArray(event.properties.$snapshot_data)).toBe(true);
    }
    expect(pageEvent.properties.$session_id).toBe(ids.sessionId);
    collector.setFault(undefined);
    expect(snapshotUrls.length).toBeGreaterThan(0);
    expect(
      snapshotUrls.every((url) => url.includes('compression=gzip-js')),
      snapshotUrls.join(),
    ).toBe(true);

    const wire = JSON.stringify(sent);
    for (const secret of [TYPED.name, TYPED.email, TYPED.password, BLOCKED_TEXT, MASKED_TEXT]) expect(wire).not.toContain(secret);

    const events = sent.flatMap((event) => event.properties.$snapshot_data).sort((a, b) => a.timestamp - b.timestamp);
    const player = await context.newPage();
    await player.goto(server.url + '/player.html');
    const replayed = await replay(player, events);
    const original = await visibleState(page);
    expect({ route: replayed.route, list: replayed.list, status: replayed.status }).toEqual(original);
    expect(replayed.secret).toBe('');
    expect(replayed.panelScroll).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
