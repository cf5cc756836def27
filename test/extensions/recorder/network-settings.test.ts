// When a recording carries network requests and canvas (issue #24), read as posthog-js reads the
// project's settings and the init options: timings from `capture_performance` / `capturePerformance`,
// headers and bodies from `session_recording` / `networkPayloadCapture` (an explicit false in the
// init options wins), canvas from `recordCanvas`/`canvasFps`/`canvasQuality` or `captureCanvas`;
// and which bodies are read (content types, kinds, blob URLs, denied hosts, the size cap).
import { describe, expect, it, vi } from 'vitest';
import type { HogtailConfig, RemoteConfig } from '../../../src/browser/index';
import { deniedHostNote, requestBodyText, responseBodyText, wantsBody } from '../../../src/extensions/recorder/network/body';
import { MAX_BODY_BYTES } from '../../../src/extensions/recorder/network/request-mask';
import { readNetworkSettings } from '../../../src/extensions/recorder/network/settings';
import { readSettings } from '../../../src/extensions/recorder/settings';

const network = (remote: RemoteConfig, config: HogtailConfig = {}) => readNetworkSettings(remote, config);
const payload = (networkPayloadCapture: unknown, rest: RemoteConfig = {}) => ({ sessionRecording: { networkPayloadCapture }, ...rest });

describe('network settings', () => {
  it('are off unless timing, headers or bodies are asked for', () => {
    expect(network({ sessionRecording: { endpoint: '/s/' } })).toBeUndefined();
    expect(network({ capturePerformance: { web_vitals: true, network_timing: false } })).toBeUndefined();
    expect(network(payload({ recordHeaders: false, recordBody: false }))).toBeUndefined();
  });

  it('take timing from the project (true or { network_timing }) unless capture_performance says yes or no', () => {
    expect(network({ capturePerformance: true })?.timing).toBe(true);
    expect(network({ capturePerformance: { network_timing: true } })?.timing).toBe(true);
    expect(network({ capturePerformance: true }, { capture_performance: false })).toBeUndefined();
    expect(network({ capturePerformance: true }, { capture_performance: { network_timing: false } })).toBeUndefined();
    expect(network({}, { capture_performance: true })?.timing).toBe(true);
  });

  it('take headers and bodies from the project unless the init options say false', () => {
    expect(network(payload({ recordHeaders: true, recordBody: true }))).toMatchObject({ timing: false, headers: true, body: true });
    expect(network(payload({ recordHeaders: true, recordBody: true }), { session_recording: { recordBody: false } })).toMatchObject({
      headers: true,
      body: false,
    });
    expect(network({}, { session_recording: { recordHeaders: { request: true }, recordBody: ['application/json'] } })).toMatchObject({
      headers: { request: true },
      body: ['application/json'],
    });
  });

  it('join the project payload host deny-list to posthog-js defaults', () => {
    const denied = network(payload({ recordBody: true, payloadHostDenyList: ['.internal.example'] }))!.payloadHostDenyList;
    expect(denied).toContain('.internal.example');
    expect(denied).toContain('.ingest.sentry.io');
  });

  it('use maskCapturedNetworkRequestFn over the older maskNetworkRequestFn, and say so when both are set', () => {
    const newer = () => null;
    const both = network(
      {},
      { capture_performance: true, session_recording: { maskCapturedNetworkRequestFn: newer, maskNetworkRequestFn: () => null } },
    );
    expect(both?.mask).toBe(newer);
    expect(both?.warning).toMatch(/only maskCapturedNetworkRequestFn is used/);
    const older = network(
      {},
      { capture_performance: true, session_recording: { maskNetworkRequestFn: ({ url }: { url: string }) => ({ url: url + '#x' }) } },
    );
    expect(older?.mask?.({ name: 'https://a.example/' })?.name).toBe('https://a.example/#x');
  });

  it('no longer warn that networkPayloadCapture or the network options are unsupported', () => {
    const settings = readSettings(payload({ recordHeaders: true }), {
      session_recording: { recordHeaders: true, recordBody: true, maskCapturedNetworkRequestFn: () => null, captureCanvas: {} },
    });
    expect(settings.unsupported).toEqual([]);
    expect(settings.network?.headers).toBe(true);
  });
});

describe('canvas settings', () => {
  it('turn rrweb canvas recording on with the project fps and quality (clamped, strings read)', () => {
    const { rrweb } = readSettings({ sessionRecording: { recordCanvas: true, canvasFps: 30, canvasQuality: '0.6' } }, {});
    expect(rrweb).toMatchObject({ recordCanvas: true, sampling: { canvas: 12 }, dataURLOptions: { type: 'image/webp', quality: 0.6 } });
  });

  it('default to 4 fps at quality 0.4; the init option wins field by field and keeps the app sampling', () => {
    expect(readSettings({ sessionRecording: { recordCanvas: true } }, {}).rrweb).toMatchObject({
      sampling: { canvas: 4 },
      dataURLOptions: { quality: 0.4 },
    });
    const own = readSettings(
      { sessionRecording: { recordCanvas: true, canvasFps: 2 } },
      { session_recording: { captureCanvas: { canvasQuality: 0.9 }, sampling: { scroll: 150 } } },
    ).rrweb;
    expect(own).toMatchObject({ sampling: { canvas: 2, scroll: 150 }, dataURLOptions: { quality: 0.9 } });
    expect(
      readSettings({ sessionRecording: { recordCanvas: true } }, { session_recording: { captureCanvas: { recordCanvas: false } } }).rrweb,
    ).not.toHaveProperty('recordCanvas');
  });

  it('are off by default', () => {
    expect(readSettings({ sessionRecording: {} }, {}).rrweb).not.toHaveProperty('recordCanvas');
  });
});

describe('which bodies are read', () => {
  const json = { 'content-type': 'application/json' };
  it('never binary or media, nor a blob URL; by kind or content type as the settings say', () => {
    expect(wantsBody('response', true, json, 'https://a.example/x')).toBe(true);
    expect(wantsBody('response', true, { 'Content-Type': 'image/png' }, 'https://a.example/x')).toBe(false);
    expect(wantsBody('response', true, { 'content-type': 'application/octet-stream' }, 'https://a.example/x')).toBe(false);
    expect(wantsBody('response', true, json, 'blob:https://a.example/1')).toBe(false);
    expect(wantsBody('request', { request: true, response: false }, json, 'https://a.example/x')).toBe(true);
    expect(wantsBody('response', { request: true, response: false }, json, 'https://a.example/x')).toBe(false);
    expect(wantsBody('response', ['application/json'], json, 'https://a.example/x')).toBe(true);
    expect(wantsBody('response', ['application/json'], { 'content-type': 'text/html' }, 'https://a.example/x')).toBe(false);
    expect(wantsBody('response', false, json, 'https://a.example/x')).toBe(false);
  });

  it('not from a denied host', () => {
    expect(deniedHostNote('https://o1.ingest.sentry.io/api/1/envelope/', ['.ingest.sentry.io'])).toBe(
      'o1.ingest.sentry.io is in deny list',
    );
    expect(deniedHostNote('https://app.example.com/', ['.ingest.sentry.io'])).toBeUndefined();
  });

  it('as text where the page handed text, named where it did not', () => {
    const form = new FormData();
    form.append('q', 'a b');
    expect(requestBodyText('plain')).toBe('plain');
    expect(requestBodyText(new URLSearchParams({ a: '1' }))).toBe('a=1');
    expect(requestBodyText(form)).toBe('q=a%20b');
    expect(requestBodyText(new ArrayBuffer(4))).toMatch(/Cannot read body of type ArrayBuffer/);
    expect(requestBodyText(null)).toBeNull();
  });

  it('a response from a clone (the page still reads it), capped in bytes', async () => {
    const response = new Response('{"ok":true}', { headers: json });
    expect(await responseBodyText(response)).toBe('{"ok":true}');
    expect(await response.text()).toBe('{"ok":true}');
    const declared = new Response('x', { headers: { 'content-length': String(MAX_BODY_BYTES + 1) } });
    expect(await responseBodyText(declared)).toMatch(/too large/);
    const streamed = new Response('z'.repeat(MAX_BODY_BYTES + 10));
    expect(await responseBodyText(streamed)).toMatch(/too large/);
  });

  it('a response that never finishes is given up, not waited for', async () => {
    vi.useFakeTimers();
    try {
      const endless = new Response(new ReadableStream({ pull: () => new Promise(() => undefined) }));
      const text = responseBodyText(endless);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await text).toMatch(/Timeout/);
    } finally {
      vi.useRealTimers();
    }
  });
});
