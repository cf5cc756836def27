/** The error family: what each failure becomes, what it says, and that the key is never in it. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ApiNetworkError, ApiTimeoutError, createApiClient, ENDPOINT_SCOPES, type ApiClient } from '../../src/api';
import { seedUuid, type ManagementServer } from '../../src/devserver/management';
import { caught, clientFor, everyTextOf, KEY, NO_SCOPE_KEY, READ_ONLY_KEY, startServer, useOwnServer } from './helpers';

let server: ManagementServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startServer();
  client = clientFor(server);
});
afterAll(() => server.close());

describe('401', () => {
  it('says the personal API key is invalid or missing, without repeating it', async () => {
    const wrongKey = 'phx_notAKeyThisServerKnows_987654321';
    const error = await caught(clientFor(server, { personalApiKey: wrongKey }).exports.list());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 401,
      code: 'authentication_failed',
      type: 'authentication_error',
      method: 'GET',
      path: '/api/environments/1/exports/',
    });
    expect((error as Error).message).toMatch(/personal API key is invalid or missing/);
    expect(everyTextOf(error)).not.toContain(wrongKey);
  });

  it('is not retried', async () => {
    const before = server.requests.length;
    await caught(clientFor(server, { personalApiKey: 'phx_unknown' }).sessionRecordings.list());
    expect(server.requests.length).toBe(before + 1);
  });
});

describe('403', () => {
  it('names the scope the endpoint needs, from the client table', async () => {
    const error = await caught(clientFor(server, { personalApiKey: NO_SCOPE_KEY }).exports.list());
    expect(error).toMatchObject({ name: 'ApiError', status: 403, code: 'permission_denied', scope: 'export:read' });
    expect((error as Error).message).toContain('"export:read"');
    expect((error as ApiError).detail).toContain("requires scope 'export:read'");
  });

  it('names the write scope for a write with a read-only key', async () => {
    const readOnly = clientFor(server, { personalApiKey: READ_ONLY_KEY });
    const recording = seedUuid(4, 30);
    await expect(readOnly.sessionRecordings.get(recording)).resolves.toMatchObject({ id: recording });
    const error = await caught(readOnly.sessionRecordings.delete(recording));
    expect(error).toMatchObject({ status: 403, scope: 'session_recording:write', method: 'DELETE' });
    expect((error as Error).message).toContain('session_recording:write');
    const created = await caught(readOnly.exports.create({ insight: 1, export_format: 'text/csv' }));
    expect((created as Error).message).toContain('export:write');
  });

  it('keeps the spec scope column as data', () => {
    expect(ENDPOINT_SCOPES['groups.list']).toBe('group:read');
    expect(ENDPOINT_SCOPES['sessionRecordings.sharing']).toBe('sharing_configuration:read');
    expect(ENDPOINT_SCOPES['subscriptions.list']).toBe('subscription:read');
    expect(ENDPOINT_SCOPES['groups.find']).toBeNull();
  });
});

describe('network failures', () => {
  // Each test sets a fault and counts requests: on a server of its own (see useOwnServer).
  const own = useOwnServer();

  it('a closed port is an ApiNetworkError with the cause attached', async () => {
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    const unreachable = createApiClient({ host: url, personalApiKey: KEY, projectId: 1, retries: 1, retryDelayMs: 1 });
    const error = await caught(unreachable.subscriptions.list());
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ name: 'ApiNetworkError', method: 'GET', path: '/api/environments/1/subscriptions/' });
    expect((error as Error).cause).toBeDefined();
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(everyTextOf(error)).not.toContain(KEY);
  });

  it('no answer within timeoutMs is an ApiTimeoutError with the cause attached', async () => {
    own.server.setFaults({ stall: 1 });
    const error = await caught(clientFor(own.server, { timeoutMs: 150, retries: 0 }).exports.get(1));
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ name: 'ApiTimeoutError', timeoutMs: 150, method: 'GET', path: '/api/environments/1/exports/1/' });
    expect((error as Error).cause).toBeDefined();
    expect(everyTextOf(error)).not.toContain(KEY);
  });

  it('a timed-out GET is retried', async () => {
    own.server.setFaults({ stall: 1 });
    const before = own.server.requests.length;
    // The deadline holds for the retry too, which must be answered in time: 150 ms was too short for a
    // loaded machine (CI saw the retry time out as well); only the stalled first attempt should reach it.
    await expect(clientFor(own.server, { timeoutMs: 2_000, retries: 1 }).exports.get(1)).resolves.toMatchObject({ id: 1 });
    expect(own.server.requests.length).toBe(before + 2);
  });

  it('a per-call timeoutMs overrides the client one', async () => {
    own.server.setFaults({ stall: 1 });
    const error = await caught(own.client.exports.get(1, { timeoutMs: 100, retry: false }));
    expect(error).toMatchObject({ name: 'ApiTimeoutError', timeoutMs: 100 });
  });
});

describe('AbortSignal', () => {
  const own = useOwnServer();

  async function untilRequests(count: number): Promise<void> {
    while (own.server.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  it('cancels a request in flight with the signal reason', async () => {
    own.server.setFaults({ stall: 1 });
    const controller = new AbortController();
    const before = own.server.requests.length;
    const pending = caught(own.client.exports.get(2, { signal: controller.signal }));
    await untilRequests(before + 1);
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(own.server.requests.length).toBe(before + 1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const before = own.server.requests.length;
    const reason = new Error('user navigated away');
    const error = await caught(own.client.sessionRecordings.list({}, { signal: AbortSignal.abort(reason) }));
    expect(error).toBe(reason);
    expect(own.server.requests.length).toBe(before);
  });

  it('cancels the wait between retries', async () => {
    own.server.setFaults({ unavailable: 5 });
    const slowRetries = clientFor(own.server, { retryDelayMs: 30_000, retries: 3 });
    const controller = new AbortController();
    const before = own.server.requests.length;
    const pending = caught(slowRetries.subscriptions.list({}, { signal: controller.signal }));
    await untilRequests(before + 1);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(own.server.requests.length).toBe(before + 1);
    own.server.setFaults({});
  });

  it('cancels an iteration between pages', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const error = await caught(
      (async () => {
        for await (const asset of own.client.exports.list.iterate({ limit: 5 }, { signal: controller.signal })) {
          seen.push(asset.id);
          if (asset.id === 7) controller.abort();
        }
      })(),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('the personal API key', () => {
  it('is never in a URL, only in the Authorization header', async () => {
    await client.exports.list.iterate({ limit: 20 }).next();
    await client.groups.find({ group_key: 'org-001', group_type_index: 0 });
    await caught(client.exports.content(99_999));
    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) {
      expect(`${request.path}${request.search}`).not.toContain(KEY);
      expect(JSON.stringify(request.body ?? null)).not.toContain(KEY);
    }
  });

  it('is never in an error message, whatever failed', async () => {
    const errors: unknown[] = [];
    errors.push(await caught(client.exports.get(123_456)));
    errors.push(await caught(client.exports.create({ export_format: 'nope' })));
    server.setFaults({ unavailable: 1 });
    errors.push(await caught(client.explicitMembers.delete(seedUuid(1, 1))));
    server.setFaults({ rateLimit: { count: 1, retryAfter: '3600' } });
    errors.push(await caught(client.subscriptions.list()));
    server.setFaults({ stall: 1 });
    errors.push(await caught(client.exports.list({}, { timeoutMs: 50, retry: false })));
    errors.push(await caught(client.groups.list.iterate({ group_type_index: 99, cursor: 'garbage' }).next()));
    expect(errors.map((error) => (error as Error).name)).toEqual([
      'ApiError',
      'ApiError',
      'ApiError',
      'ApiError',
      'ApiTimeoutError',
      'ApiError',
    ]);
    for (const error of errors) expect(everyTextOf(error)).not.toContain(KEY);
  });

  it('is scrubbed from server text that echoes the Authorization header', async () => {
    const echo: Server = createServer((req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ type: 'validation_error', code: 'bad', detail: `you sent ${req.headers.authorization}` }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const echoClient = createApiClient({
        host: `http://127.0.0.1:${(echo.address() as AddressInfo).port}`,
        personalApiKey: KEY,
        projectId: 1,
      });
      const error = await caught(echoClient.exports.list());
      expect((error as ApiError).detail).toBe('you sent Bearer [redacted]');
      expect(everyTextOf(error)).not.toContain(KEY);
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  it('is not visible on the client object', () => {
    expect(JSON.stringify(client)).not.toContain(KEY);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
  });

  it('is not quoted when it is unusable', () => {
    const withNewline = 'phx_secret\nInjected: header';
    let message = '';
    try {
      createApiClient({ host: server.url, personalApiKey: withNewline, projectId: 1 });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/TypeError/);
    expect(message).not.toContain('phx_secret');
  });

  it('is refused when it is a project key', () => {
    expect(() => createApiClient({ host: server.url, personalApiKey: 'phc_projectKey', projectId: 1 })).toThrow(/project API key/);
  });
});

describe('options', () => {
  it('are checked when the client is created', () => {
    const ok = { host: server.url, personalApiKey: KEY, projectId: 1 };
    expect(() => createApiClient({ ...ok, host: 'us.posthog.com' })).toThrow(TypeError);
    expect(() => createApiClient({ ...ok, host: 'ftp://example.com' })).toThrow(TypeError);
    expect(() => createApiClient({ ...ok, host: `http://user:${KEY}@example.com` })).toThrow(TypeError);
    expect(() => createApiClient({ ...ok, personalApiKey: '' })).toThrow(/personalApiKey/);
    expect(() => createApiClient({ ...ok, projectId: '..' })).toThrow(TypeError);
    expect(() => createApiClient({ ...ok, timeoutMs: -1 })).toThrow(TypeError);
    expect(() => createApiClient({ ...ok, retries: 1.5 })).toThrow(TypeError);
  });
});
