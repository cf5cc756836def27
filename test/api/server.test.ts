/**
 * The local management server itself, spoken to with plain fetch: the rules the client tests lean
 * on, and the mounting contract `hogtail dev` will use.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createManagementHandler,
  createManagementServer,
  createSeedFixtures,
  DEV_PERSONAL_API_KEY,
  type ManagementServer,
} from '../../src/devserver/management';
import { KEY, READ_ONLY_KEY, startServer } from './helpers';

let server: ManagementServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function call(
  path: string,
  init: RequestInit & { key?: string | null } = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const { key = KEY, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== null) headers.set('Authorization', `Bearer ${key}`);
  const response = await fetch(`${server.url}${path}`, { ...rest, headers });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text
  }
  return { status: response.status, body, headers: response.headers };
}

describe('management server', () => {
  it('listens on 127.0.0.1', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers 401 without a key and for an unknown key', async () => {
    expect(await call('/api/environments/1/exports/', { key: null })).toMatchObject({
      status: 401,
      body: { type: 'authentication_error', code: 'not_authenticated' },
    });
    expect(await call('/api/environments/1/exports/', { key: 'phx_nope' })).toMatchObject({
      status: 401,
      body: { code: 'authentication_failed' },
    });
  });

  it('answers 403 with the scope in the detail; write implies read', async () => {
    const denied = await call('/api/environments/1/exports/', { method: 'POST', key: READ_ONLY_KEY, body: '{}' });
    expect(denied).toMatchObject({ status: 403, body: { type: 'authentication_error', code: 'permission_denied' } });
    expect((denied.body as { detail: string }).detail).toContain("requires scope 'export:write'");
    const writer = await startServer({ keys: { phx_writer: ['session_recording:write'] } });
    try {
      const response = await fetch(`${writer.url}/api/environments/1/session_recordings/`, {
        headers: { Authorization: 'Bearer phx_writer' },
      });
      expect(response.status).toBe(200);
    } finally {
      await writer.close();
    }
  });

  it('wants the trailing slash', async () => {
    const response = await call('/api/environments/1/exports');
    expect(response.status).toBe(404);
    expect((response.body as { detail: string }).detail).toContain('end with a slash');
  });

  it('answers 404 for another project and 405 for an unsupported method', async () => {
    expect((await call('/api/environments/2/exports/')).status).toBe(404);
    const put = await call('/api/environments/1/exports/', { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 400 for groups without group_type_index and for malformed JSON', async () => {
    expect(await call('/api/environments/1/groups/')).toMatchObject({ status: 400, body: { attr: 'group_type_index' } });
    expect(
      await call(`/api/environments/1/session_recordings/${createSeedFixtures().sessionRecordings[0]?.id}/`, {
        method: 'PATCH',
        body: '{not json',
      }),
    ).toMatchObject({ status: 400, body: { code: 'parse_error' } });
  });

  it('pages groups by cursor both ways', async () => {
    const first = await call('/api/environments/1/groups/?group_type_index=0');
    const page1 = first.body as { next: string; previous: null; results: Array<{ group_key: string }> };
    const second = await call(new URL(page1.next).pathname + new URL(page1.next).search);
    const page2 = second.body as { previous: string; results: Array<{ group_key: string }> };
    expect(page2.results[0]?.group_key).not.toBe(page1.results[0]?.group_key);
    const back = await call(new URL(page2.previous).pathname + new URL(page2.previous).search);
    expect((back.body as { results: unknown[] }).results).toEqual(page1.results);
    expect((await call('/api/environments/1/groups/?group_type_index=0&cursor=bogus')).status).toBe(404);
  });

  it('rate-limits with Retry-After and reports 503 as plain text', async () => {
    server.setFaults({ rateLimit: { count: 1, retryAfter: '7' }, unavailable: 1 });
    const unavailable = await call('/api/environments/1/exports/');
    expect(unavailable).toMatchObject({ status: 503, body: 'Service Unavailable' });
    const limited = await call('/api/environments/1/exports/');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await call('/api/environments/1/exports/')).status).toBe(200);
  });

  it('accepts the dev key by default', async () => {
    const dev = await createManagementServer();
    try {
      const response = await fetch(`${dev.url}/api/environments/1/subscriptions/`, {
        headers: { Authorization: `Bearer ${DEV_PERSONAL_API_KEY}` },
      });
      expect(response.status).toBe(200);
    } finally {
      await dev.close();
    }
  });
});

describe('mounting the handler in another server', () => {
  it('answers its paths, leaves others to the host, and takes groups from a source', async () => {
    const received: number[] = [];
    const handler = createManagementHandler({
      keys: { phx_mount: '*' },
      groupsSource: (typeIndex) => {
        received.push(typeIndex);
        return [
          { group_type_index: typeIndex, group_key: 'acme', group_properties: { name: 'Acme' }, created_at: '2024-02-01T00:00:00Z' },
          { group_type_index: typeIndex, group_key: 'globex', group_properties: null, created_at: '2024-03-01T00:00:00Z' },
        ];
      },
    });
    const host = createServer((req, res) => {
      void handler.handle(req, res).then((handled) => {
        if (!handled) {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end('collector');
        }
      });
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${url}/batch/`)).text()).toBe('collector');
      const response = await fetch(`${url}/api/environments/1/groups/?group_type_index=2`, {
        headers: { Authorization: 'Bearer phx_mount' },
      });
      const page = (await response.json()) as { results: Array<{ group_key: string }> };
      expect(page.results.map((group) => group.group_key)).toEqual(['globex', 'acme']);
      expect(received).toEqual([2]);
    } finally {
      handler.close();
      await new Promise<void>((resolve) => host.close(() => resolve()));
    }
  });
});
