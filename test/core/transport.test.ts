import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY } from '../../src/core/backoff';
import { classifyResponse, parseRetryAfter } from '../../src/core/transport';

const response = (status: number, body = '', retryAfter: string | null = null) => ({ status, body, retryAfter });

describe('classifyResponse: the real server rules (docs/wire-protocol.md)', () => {
  it.each([200, 204])('%i is delivered', (status) => {
    expect(classifyResponse(response(status), 'http://collector').kind).toBe('ok');
  });

  it.each([
    ['the batch answer', '{"status":"Ok"}'],
    ['an older answer', '{"status":1}'],
    ['a beacon 204, empty', ''],
  ])('a 2xx with %s is delivered', (_name, body) => {
    expect(classifyResponse(response(200, body), 'http://collector').kind).toBe('ok');
  });

  it('a 2xx whose body is not a PostHog answer (an HTML page at a wrong host) keeps the events and names the host', () => {
    expect(classifyResponse(response(200, '<!doctype html><title>My shop</title>'), 'https://shop.example')).toMatchObject({
      kind: 'retry',
      misconfigured: true,
      message: 'https://shop.example answered 200: an HTML page (no content type), not a PostHog answer; events kept; check the host',
    });
  });

  it('an HTML page is named by its content type, never dumped; plain text is one line, cut short', () => {
    const messageOf = (answer: Parameters<typeof classifyResponse>[0], host: string) =>
      (classifyResponse(answer, host) as { message: string }).message;
    const page = `<!DOCTYPE html>\n<html>\n<head><title>\n  404 Not Found\n</title></head>\n<body>${'<p>lost</p>\n'.repeat(500)}</body></html>`;
    const html = { status: 404, body: page, retryAfter: null, contentType: 'text/html; charset=utf-8' };
    expect(messageOf(html, 'https://app.example')).toBe(
      'https://app.example answered 404: an HTML page (text/html; charset=utf-8); no events accepted there; check the host',
    );
    const untitled = { status: 502, body: '<html><body>Bad gateway</body></html>', retryAfter: null, contentType: 'text/html' };
    expect(messageOf(untitled, 'https://app.example')).toBe('the server answered 502: an HTML page (text/html)');
    const text = messageOf(response(400, `bad\nuuid ${'x'.repeat(1000)}`), 'http://collector');
    expect(text).toMatch(/^the server answered 400: bad uuid x+$/);
    expect(text.length).toBeLessThan(330);
  });

  it.each([408, 429, 500, 502, 503, 504])('%i is retried', (status) => {
    expect(classifyResponse(response(status, 'busy'), 'http://collector')).toMatchObject({
      kind: 'retry',
      status,
      message: expect.stringContaining(`${status}: busy`),
    });
  });

  it('a 429 or 503 carries its Retry-After to the backoff', () => {
    expect(classifyResponse(response(429, '', '7'), 'http://collector')).toMatchObject({ kind: 'retry', retryAfterMs: 7000 });
    expect(classifyResponse(response(503), 'http://collector')).toMatchObject({ kind: 'retry', retryAfterMs: undefined });
  });

  it('400 and 413 split the batch to isolate the bad event', () => {
    expect(classifyResponse(response(400, 'bad uuid'), 'http://collector')).toMatchObject({ kind: 'split', status: 400 });
    expect(classifyResponse(response(413), 'http://collector')).toMatchObject({ kind: 'split', status: 413 });
  });

  it('a refused key, a wrong host or a redirect is refused for every event, with what to fix', () => {
    expect(classifyResponse(response(401), 'http://collector')).toMatchObject({
      kind: 'reject',
      message: expect.stringMatching(/project API key.*phc_/),
    });
    for (const status of [301, 302, 307, 308, 403, 404, 405]) {
      expect(classifyResponse(response(status), 'http://collector')).toMatchObject({
        kind: 'reject',
        status,
        message: expect.stringMatching(/check the host/),
      });
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2024, 4, 1, 10, 0, 0);
  it('reads delta seconds and HTTP dates; absent or unreadable is undefined', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Wed, 01 May 2024 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 01 May 2024 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('  ', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('backoffDelay: exponential, capped, jittered; Retry-After wins', () => {
  const retry = { ...DEFAULT_RETRY, initialDelayMs: 100, maxDelayMs: 1_000 };

  it('doubles per attempt up to the cap, between half and all of it', () => {
    const low = [1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, retry, () => 0));
    const high = [1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, retry, () => 1));
    expect(high).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(low).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it('spreads clients out: different random draws give different delays within the range', () => {
    const draws = [0.1, 0.4, 0.9].map((r) => backoffDelay(3, retry, () => r));
    expect(new Set(draws).size).toBe(3);
    for (const delay of draws) {
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });

  it('a huge attempt count does not overflow', () => {
    expect(backoffDelay(5_000, retry, () => 1)).toBe(1000);
  });

  it("the server's Retry-After replaces the backoff, bounded by maxRetryAfterMs", () => {
    expect(backoffDelay(1, retry, () => 1, 7_000)).toBe(7_000);
    expect(backoffDelay(1, { ...retry, maxRetryAfterMs: 5_000 }, () => 1, 7_000)).toBe(5_000);
  });
});
