// Session replay records the page's network requests and canvas as posthog-js does (issue #24), in
// real Chromium, the built script tag and recorder file against a real collector whose flags
// answer carries the project's settings: with headers and bodies on, fetch and XHR calls arrive as
// `rrweb/network@1` plugin events with method, status, timings, headers and bodies, never the
// Authorization or Cookie values nor the SDK's own requests; with network timing alone, timings
// without headers or bodies; with the settings off, nothing of the network; canvas frames only when
// canvas recording is on. The page's own calls get their answers unchanged throughout.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { snapshots, tagHead, useReplaySite } from './support/replay-site';
import { DONE_MARK } from './replay-page';
import {
  ANSWER,
  API_PATH,
  callAndDraw,
  canvasFrames,
  FETCH_BODY,
  networkPage,
  networkRecords,
  SECRETS,
  serveApi,
  XHR_BODY,
  type NetworkRecord,
} from './replay-network-page';

const PAYLOADS = { recordHeaders: true, recordBody: true };
const byVia = (records: NetworkRecord[], via: string) => records.filter((record) => record.name.endsWith(API_PATH + '?via=' + via));

describe.skipIf(!hasChromium)('session replay: network requests and canvas', () => {
  const env = useReplaySite();
  let pages = 0;

  /**
   * Opens the page with `remote` as the project's settings, makes the calls, draws, marks the end;
   * resolves once the mark arrived and `until` holds for the session's recorded events.
   */
  async function record(remote: Record<string, unknown>, until: (events: any[]) => boolean = () => true) {
    const { browser, server, collector } = env;
    env.remote = remote;
    serveApi(server);
    const path = `/network-${++pages}.html`;
    server.page(path, networkPage(tagHead(collector.url)));
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(server.url + path);
    await page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === true);
    const seen = await callAndDraw(page);
    await page.evaluate((mark) => void (document.getElementById('status')!.textContent = mark), DONE_MARK);
    const sessionId: string = await page.evaluate(() => (window as any).hogtail.get_session_id());
    const events = () =>
      snapshots(collector)
        .filter((event) => event.properties.$session_id === sessionId)
        .flatMap((event) => event.properties.$snapshot_data) as any[];
    const arrived = await collector.waitUntil(() => JSON.stringify(events()).includes(DONE_MARK) && until(events()), 20_000);
    expect(arrived, 'the recording arrived with what the test waits for').toBe(true);
    await context.close();
    return { events: events(), seen, errors, collectorUrl: collector.url };
  }

  it('with headers and bodies on: fetch and XHR with method, status, timings, headers, bodies; no credential, no SDK request; canvas frames', async () => {
    const both = (events: any[]) => {
      const records = networkRecords(events);
      return byVia(records, 'fetch').length > 0 && byVia(records, 'xhr').length > 0 && canvasFrames(events).length > 0;
    };
    const { events, seen, errors, collectorUrl } = await record(
      {
        sessionRecording: { endpoint: '/s/', networkPayloadCapture: PAYLOADS, recordCanvas: true, canvasFps: 4 },
        capturePerformance: { network_timing: true },
      },
      both,
    );
    expect(seen).toEqual({ fetched: ANSWER, xhr: ANSWER });
    const records = networkRecords(events);
    const [viaFetch] = byVia(records, 'fetch');
    const [viaXhr] = byVia(records, 'xhr');
    expect(viaFetch).toMatchObject({
      entryType: 'resource',
      initiatorType: 'fetch',
      method: 'POST',
      status: 200,
      requestBody: FETCH_BODY,
      responseBody: ANSWER,
    });
    expect(viaXhr).toMatchObject({
      entryType: 'resource',
      initiatorType: 'xmlhttprequest',
      method: 'POST',
      status: 200,
      requestBody: XHR_BODY,
      responseBody: ANSWER,
    });
    // fetch's headers come lower-cased by the browser; XHR's as the page wrote them (as in posthog-js).
    expect(viaFetch!.requestHeaders).toMatchObject({ 'content-type': 'application/json', authorization: 'redacted' });
    expect(viaXhr!.requestHeaders).toMatchObject({ 'Content-Type': 'application/json', Authorization: 'redacted' });
    for (const record of [viaFetch!, viaXhr!]) {
      expect(record.responseHeaders?.['content-type']).toBe('application/json');
      expect(Number.isInteger(record.timestamp)).toBe(true);
      expect(record.endTime! >= record.startTime!).toBe(true);
    }
    expect(viaFetch!.requestHeaders?.['x-trace']).toBe('trace-1');
    // Recorded once each: the wrapped calls' timing entries are not recorded again by the observer.
    expect(byVia(records, 'fetch')).toHaveLength(1);
    expect(byVia(records, 'xhr')).toHaveLength(1);
    // Network timing on: the document and the scripts loaded before recording started, as one initial payload.
    const initial = records.filter((record) => record.isInitial);
    expect(initial.some((record) => record.entryType === 'navigation')).toBe(true);
    expect(initial.some((record) => record.name.endsWith('/hogtail.iife.js'))).toBe(true);
    expect(records.filter((record) => record.name.startsWith(collectorUrl))).toEqual([]);
    const wire = JSON.stringify(events);
    for (const secret of Object.values(SECRETS)) expect(wire).not.toContain(secret);
    expect(errors).toEqual([]);
  });

  it('with network timing alone: timings of the calls, no headers, no bodies; no canvas', async () => {
    const { events, seen, errors } = await record(
      { sessionRecording: { endpoint: '/s/' }, capturePerformance: { network_timing: true } },
      (events) => byVia(networkRecords(events), 'xhr').length > 0 && byVia(networkRecords(events), 'fetch').length > 0,
    );
    expect(seen).toEqual({ fetched: ANSWER, xhr: ANSWER });
    for (const record of [...byVia(networkRecords(events), 'fetch'), ...byVia(networkRecords(events), 'xhr')]) {
      expect(record.entryType).toBe('resource');
      expect(typeof record.duration).toBe('number');
      for (const field of ['requestHeaders', 'responseHeaders', 'requestBody', 'responseBody']) expect(record).not.toHaveProperty(field);
    }
    expect(canvasFrames(events)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('with the settings off: nothing of the network, no canvas, the calls answered as ever', async () => {
    const { events, seen, errors } = await record({ sessionRecording: { endpoint: '/s/' }, capturePerformance: false });
    expect(seen).toEqual({ fetched: ANSWER, xhr: ANSWER });
    expect(networkRecords(events)).toEqual([]);
    expect(events.filter((event) => event.type === 6)).toEqual([]);
    expect(canvasFrames(events)).toEqual([]);
    expect(JSON.stringify(events)).not.toContain('rr_dataURL');
    expect(errors).toEqual([]);
  });
});
