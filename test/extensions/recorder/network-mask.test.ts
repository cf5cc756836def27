// Session replay's network records (issue #24), what may leave the page: the SDK's own requests
// never, credential headers redacted whatever the app's mask function does, bodies capped in size
// and scrubbed of credentials and card numbers unless the app masks them itself, and an initial
// request the app drops kept as timing only.
import { describe, expect, it } from 'vitest';
import {
  isDeniedHeader,
  isOwnRequest,
  MAX_BODY_BYTES,
  maskRequest,
  overLimit,
  REDACTED,
  scrubBody,
} from '../../../src/extensions/recorder/network/request-mask';
import type { CapturedRequest } from '../../../src/extensions/recorder/network/request-record';

const HOST = 'https://eu.example.com/ingest';
const request = (fields: Partial<CapturedRequest> = {}): CapturedRequest => ({
  name: 'https://app.example.com/api/orders',
  entryType: 'resource',
  initiatorType: 'fetch',
  startTime: 10,
  endTime: 30,
  duration: 20,
  timestamp: 1_700_000_000_010,
  method: 'POST',
  status: 200,
  ...fields,
});
const mask = (fields: Partial<CapturedRequest>, fn?: (r: CapturedRequest) => CapturedRequest | null | undefined) =>
  maskRequest(request(fields), HOST, '/s/', fn);

describe('the SDK own requests', () => {
  it('are never recorded: events, snapshots, flags, extension files and surveys under api_host', () => {
    for (const path of [
      '/s/?compression=gzip-js',
      '/batch/',
      '/e/',
      '/i/v0/e/',
      '/flags/?v=2',
      '/decide/?v=3',
      '/static/hogtail.recorder.js',
      '/api/surveys/?token=x',
    ]) {
      expect(isOwnRequest(HOST + path, HOST), path).toBe(true);
      expect(mask({ name: HOST + path }), path).toBeUndefined();
    }
    expect(isOwnRequest(HOST + '/replay/', HOST, '/replay/')).toBe(true);
  });

  it('leaves the app requests alone, on the same host too (a proxy at the site root)', () => {
    expect(isOwnRequest('https://app.example.com/api/orders', 'https://app.example.com')).toBe(false);
    expect(isOwnRequest('https://app.example.com/batch-jobs', HOST)).toBe(false);
    expect(isOwnRequest('https://eu.example.com/other/s/', HOST)).toBe(false);
    expect(mask({})?.name).toBe('https://app.example.com/api/orders');
  });
});

describe('headers', () => {
  it('redacts the deny-list and any name that looks like a credential, keeping the name', () => {
    for (const name of [
      'Authorization',
      'cookie',
      'Set-Cookie',
      'x-api-key',
      'X-CSRF-Token',
      'x-user-token',
      'x-session-id',
      'Proxy-Authorization',
      'forwarded',
    ]) {
      expect(isDeniedHeader(name), name).toBe(true);
    }
    for (const name of ['content-type', 'accept', 'x-request-id', 'cache-control']) expect(isDeniedHeader(name), name).toBe(false);
    const out = mask({
      requestHeaders: { authorization: 'Bearer sk_live_1', 'content-type': 'application/json' },
      responseHeaders: { 'set-cookie': 'sid=1', 'x-request-id': 'abc' },
    });
    expect(out?.requestHeaders).toEqual({ authorization: REDACTED, 'content-type': 'application/json' });
    expect(out?.responseHeaders).toEqual({ 'set-cookie': REDACTED, 'x-request-id': 'abc' });
  });

  it('stay redacted whatever the app mask function returns', () => {
    const out = mask({ requestHeaders: { authorization: 'Bearer sk_live_1' } }, (r) => ({
      ...r,
      requestHeaders: { ...r.requestHeaders, authorization: 'Bearer sk_live_1', cookie: 'sid=2' },
    }));
    expect(JSON.stringify(out)).not.toContain('sk_live_1');
    expect(JSON.stringify(out)).not.toContain('sid=2');
  });
});

describe('bodies', () => {
  it('over the cap are replaced by a note saying so (counted in UTF-8 bytes)', () => {
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    const out = mask({ requestBody: big, responseBody: 'ok' });
    expect(out?.requestBody).toMatch(/Request body too large to record/);
    expect(out?.responseBody).toBe('ok');
    expect(overLimit('é'.repeat(MAX_BODY_BYTES / 2))).toBe(false);
    expect(overLimit('€'.repeat(MAX_BODY_BYTES / 2))).toBe(true); // 3 bytes each
  });

  it('are scrubbed by default when they may hold a credential or a card or social security number', () => {
    expect(scrubBody('{"user":"ann","password":"hunter2"}', 'Request')).toMatch(/redacted as it may contain: password/);
    expect(scrubBody('{"access_token":"abc"}', 'Response')).toMatch(/redacted as it may contain: token/);
    expect(scrubBody('{"card":"4111 1111 1111 1111"}', 'Request')).toMatch(/card or social security number/);
    expect(scrubBody('{"ssn":"078-05-1120"}', 'Request')).toMatch(/redacted/);
    expect(scrubBody('{"items":[1,2,3]}', 'Request')).toBe('{"items":[1,2,3]}');
    expect(mask({ requestBody: 'password=hunter2' })?.requestBody).not.toContain('hunter2');
  });

  it('are left to the app mask function when it has one (no default scrub), still capped', () => {
    const out = mask({ requestBody: 'token=abc', responseBody: 'y'.repeat(MAX_BODY_BYTES + 1) }, (r) => r);
    expect(out?.requestBody).toBe('token=abc');
    expect(out?.responseBody).toMatch(/too large/);
  });
});

describe('the app mask function', () => {
  it('changes or drops a request', () => {
    expect(mask({}, (r) => ({ ...r, name: 'https://app.example.com/api/:id' }))?.name).toBe('https://app.example.com/api/:id');
    expect(mask({}, () => null)).toBeUndefined();
  });

  it('cannot drop the timing of a request made before recording, only what names it', () => {
    const out = mask({ isInitial: true, requestBody: 'a', responseHeaders: { a: 'b' } }, () => undefined);
    expect(out).toEqual({
      name: '',
      entryType: 'resource',
      startTime: 10,
      duration: 20,
      endTime: 30,
      timeOrigin: undefined,
      timestamp: 1_700_000_000_010,
      isInitial: true,
      requestHeaders: undefined,
      responseHeaders: undefined,
    });
  });

  it('gets a copy: what it changes in place does not reach the initial fallback', () => {
    const out = mask({ isInitial: true }, (r) => {
      r.startTime = 99;
      return null;
    });
    expect(out?.startTime).toBe(10);
  });
});
