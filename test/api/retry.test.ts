/** Retries: GETs retry 429 and 5xx honouring Retry-After; writes only when asked. Timings are never asserted. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api';
import { parseRetryAfter, backoffDelay, isRetryableStatus } from '../../src/api/retry';
import { seedUuid, type ManagementServer } from '../../src/devserver/management';
import { clientFor, startServer } from './helpers';

let server: ManagementServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startServer();
  client = clientFor(server);
});
afterEach(() => server.setFaults({}));
afterAll(() => server.close());

async function countRequests<T>(run: () => Promise<T>): Promise<{ outcome: T | unknown; requests: number }> {
  const before = server.requests.length;
  let outcome: T | unknown;
  try {
    outcome = await run();
  } catch (error) {
    outcome = error;
  }
  return { outcome, requests: server.requests.length - before };
}

describe('GET', () => {
  it('waits out a 429 with Retry-After in seconds, then succeeds', async () => {
    server.setFaults({ rateLimit: { count: 1, retryAfter: '1' } });
    const { outcome, requests } = await countRequests(() => client.exports.get(4));
    expect(outcome).toMatchObject({ id: 4 });
    expect(requests).toBe(2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    server.setFaults({ rateLimit: { count: 2, retryAfter: new Date(Date.now() - 1000).toUTCString() } });
    const { outcome, requests } = await countRequests(() => client.subscriptions.list({ limit: 2 }));
    expect(outcome).toMatchObject({ results: [{ id: 1 }, { id: 2 }] });
    expect(requests).toBe(3);
  });

  it('fails at once when Retry-After asks for longer than maxRetryDelayMs', async () => {
    server.setFaults({ rateLimit: { count: 1, retryAfter: '120' } });
    const { outcome, requests } = await countRequests(() => client.exports.get(4));
    expect(outcome).toMatchObject({ name: 'ApiError', status: 429, code: 'throttled' });
    expect(requests).toBe(1);
  });

  it('retries 503 and succeeds', async () => {
    server.setFaults({ unavailable: 2 });
    const { outcome, requests } = await countRequests(() => client.groups.list({ group_type_index: 1 }));
    expect(outcome).toMatchObject({ results: expect.any(Array) });
    expect(requests).toBe(3);
  });

  it('gives up after `retries` extra attempts with the last error', async () => {
    server.setFaults({ unavailable: 10 });
    const { outcome, requests } = await countRequests(() => client.exports.list());
    expect(outcome).toMatchObject({ name: 'ApiError', status: 503, code: 'http_503', detail: 'Service Unavailable' });
    expect(requests).toBe(3);
  });

  it('can be told not to retry', async () => {
    server.setFaults({ unavailable: 1 });
    const { outcome, requests } = await countRequests(() => client.exports.list({}, { retry: false }));
    expect(outcome).toMatchObject({ status: 503 });
    expect(requests).toBe(1);
    server.setFaults({ unavailable: 1 });
    const none = await countRequests(() => clientFor(server, { retries: 0 }).exports.list());
    expect(none.requests).toBe(1);
  });

  it('retries inside an iteration, losing no page', async () => {
    const iterator = client.exports.list.iterate({ limit: 20 });
    const ids: number[] = [];
    for await (const asset of iterator) {
      ids.push(asset.id);
      if (asset.id === 20) server.setFaults({ unavailable: 1, rateLimit: { count: 1, retryAfter: '0' } });
    }
    expect(ids).toEqual(Array.from({ length: 57 }, (_, i) => i + 1));
  });
});

describe('writes', () => {
  const writes: Array<{ name: string; call: (options?: { retry?: boolean }) => Promise<unknown> }> = [
    { name: 'PATCH', call: (options) => client.sessionRecordings.update(seedUuid(4, 50), { person: { name: 'n' } }, options) },
    { name: 'POST', call: (options) => client.exports.create({ insight: 2, export_format: 'text/csv' }, options) },
    { name: 'DELETE', call: (options) => client.sessionRecordings.delete(seedUuid(4, 51), options) },
  ];

  for (const { name, call } of writes) {
    it(`${name} is not retried on 503 by default`, async () => {
      server.setFaults({ unavailable: 1 });
      const { outcome, requests } = await countRequests(() => call());
      expect(outcome).toMatchObject({ name: 'ApiError', status: 503 });
      expect(requests).toBe(1);
    });

    it(`${name} is not retried on 429 by default`, async () => {
      server.setFaults({ rateLimit: { count: 1, retryAfter: '0' } });
      const { outcome, requests } = await countRequests(() => call());
      expect(outcome).toMatchObject({ status: 429 });
      expect(requests).toBe(1);
    });

    it(`${name} is retried with retry: true`, async () => {
      server.setFaults({ unavailable: 1 });
      const { outcome, requests } = await countRequests(() => call({ retry: true }));
      expect(outcome).not.toBeInstanceOf(Error);
      expect(requests).toBe(2);
    });
  }

  it('4xx other than 408/429 is never retried, even with retry: true', async () => {
    const { outcome, requests } = await countRequests(() => client.exports.create({ export_format: 'bad' }, { retry: true }));
    expect(outcome).toMatchObject({ status: 400 });
    expect(requests).toBe(1);
  });
});

describe('retry policy', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2024-05-01T10:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 May 2024 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 01 May 2024 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-4', now)).toBeUndefined();
    // Stricter than core's reading (which takes these as numbers): not forms the header allows.
    expect(parseRetryAfter('1e3', now)).toBeUndefined();
    expect(parseRetryAfter('0x10', now)).toBeUndefined();
    expect(parseRetryAfter('Infinity', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffDelay(0, 500, 60_000, () => 0)).toBe(250);
    expect(backoffDelay(0, 500, 60_000, () => 1)).toBe(500);
    expect(backoffDelay(3, 500, 60_000, () => 1)).toBe(4000);
    expect(backoffDelay(20, 500, 60_000, () => 1)).toBe(60_000);
  });

  it('treats 408, 429 and transient 5xx as retryable', () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 501, 505].some(isRetryableStatus)).toBe(false);
  });
});
