/** Both page kinds (docs/management-api.md, "Pages"), walked with iterate() across many pages. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api';
import { SEED_COUNTS, type ManagementServer } from '../../src/devserver/management';
import { caught, clientFor, KEY, startServer } from './helpers';

let server: ManagementServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startServer();
  client = clientFor(server);
});
afterAll(() => server.close());

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

function requestsDuring<T>(run: () => Promise<T>): Promise<{ result: T; requests: typeof server.requests }> {
  const before = server.requests.length;
  return run().then((result) => ({ result, requests: server.requests.slice(before) }));
}

describe('offset pages', () => {
  it('returns one page with count, next and previous', async () => {
    const page = await client.exports.list({ limit: 10, offset: 20 });
    expect(page.count).toBe(SEED_COUNTS.exports);
    expect(page.results.map((asset) => asset.id)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(page.next).toContain('offset=30');
    expect(page.previous).toContain('offset=10');
  });

  it('iterates every export over many pages, in order, without duplicates or gaps', async () => {
    const { result, requests } = await requestsDuring(() => collect(client.exports.list.iterate({ limit: 10 })));
    expect(result.map((asset) => asset.id)).toEqual(Array.from({ length: SEED_COUNTS.exports }, (_, i) => i + 1));
    expect(requests).toHaveLength(Math.ceil(SEED_COUNTS.exports / 10));
    expect(requests.map((request) => request.search)).toEqual([
      '?limit=10',
      '?limit=10&offset=10',
      '?limit=10&offset=20',
      '?limit=10&offset=30',
      '?limit=10&offset=40',
      '?limit=10&offset=50',
    ]);
  });

  it('iterates recordings and subscriptions to their counts', async () => {
    const recordings = await collect(client.sessionRecordings.list.iterate({ limit: 7 }));
    expect(new Set(recordings.map((recording) => recording.id)).size).toBe(SEED_COUNTS.sessionRecordings);
    expect(recordings).toHaveLength(SEED_COUNTS.sessionRecordings);
    const subscriptions = await collect(client.subscriptions.list.iterate({ limit: 4 }));
    expect(subscriptions.map((subscription) => subscription.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: SEED_COUNTS.subscriptions }, (_, i) => i + 1),
    );
  });

  it('iterates with the server default page size and from a starting offset', async () => {
    expect(await collect(client.sessionRecordings.list.iterate())).toHaveLength(SEED_COUNTS.sessionRecordings);
    const tail = await collect(client.exports.list.iterate({ limit: 5, offset: 50 }));
    expect(tail.map((asset) => asset.id)).toEqual([51, 52, 53, 54, 55, 56, 57]);
  });

  it('stops early without fetching more pages when the loop breaks', async () => {
    const { requests } = await requestsDuring(async () => {
      for await (const asset of client.exports.list.iterate({ limit: 10 })) if (asset.id === 3) break;
    });
    expect(requests).toHaveLength(1);
  });

  it('rejects bad page parameters with a TypeError before any request', async () => {
    const before = server.requests.length;
    await expect(client.exports.list({ limit: 0 })).rejects.toBeInstanceOf(TypeError);
    await expect(client.subscriptions.list({ offset: -1 })).rejects.toBeInstanceOf(TypeError);
    expect(() => client.sessionRecordings.list.iterate({ limit: 1.5 })).toThrow(TypeError);
    expect(server.requests.length).toBe(before);
  });
});

describe('cursor pages (groups)', () => {
  it('returns a page without count and with a cursor next link', async () => {
    const page = await client.groups.list({ group_type_index: 0 });
    expect(page).not.toHaveProperty('count');
    expect(page.results).toHaveLength(100);
    expect(page.previous).toBeNull();
    expect(new URL(page.next ?? '').searchParams.get('cursor')).toBeTruthy();
  });

  it('iterates every group of a type across pages without duplicates or gaps', async () => {
    const { result, requests } = await requestsDuring(() => collect(client.groups.list.iterate({ group_type_index: 0 })));
    const keys = result.map((group) => group.group_key);
    expect(keys).toHaveLength(SEED_COUNTS.groupsPerType[0]);
    expect(new Set(keys)).toEqual(new Set(Array.from({ length: 250 }, (_, i) => `org-${String(i + 1).padStart(3, '0')}`)));
    expect(requests).toHaveLength(3);
    expect(requests.every((request) => new URLSearchParams(request.search).get('group_type_index') === '0')).toBe(true);
    expect(result.every((group) => group.group_type_index === 0)).toBe(true);
  });

  it('walks dozens of small pages whose boundaries cut through equal timestamps', async () => {
    const small = await startServer({ groupPageSize: 7 });
    try {
      const { result, requests } = await (async () => {
        const before = small.requests.length;
        const items = await collect(clientFor(small).groups.list.iterate({ group_type_index: 0 }));
        return { result: items, requests: small.requests.slice(before) };
      })();
      expect(new Set(result.map((group) => group.group_key)).size).toBe(250);
      expect(result).toHaveLength(250);
      expect(requests).toHaveLength(Math.ceil(250 / 7));
    } finally {
      await small.close();
    }
  });

  it('passes search through every page', async () => {
    const small = await startServer({ groupPageSize: 7 });
    try {
      const before = small.requests.length;
      const found = await collect(clientFor(small).groups.list.iterate({ group_type_index: 0, search: 'org-1' }));
      expect(found.map((group) => group.group_key).sort()).toEqual(Array.from({ length: 100 }, (_, i) => `org-${100 + i}`));
      const requests = small.requests.slice(before);
      expect(requests).toHaveLength(Math.ceil(100 / 7));
      expect(requests.every((request) => new URLSearchParams(request.search).get('search') === 'org-1')).toBe(true);
    } finally {
      await small.close();
    }
  });

  it('throws a TypeError without group_type_index, before any request (spec rule 2)', async () => {
    const before = server.requests.length;
    // @ts-expect-error group_type_index is required by the types as well
    await expect(client.groups.list({})).rejects.toThrow(/group_type_index/);
    // @ts-expect-error and a call without params at all
    await expect(client.groups.list()).rejects.toBeInstanceOf(TypeError);
    // @ts-expect-error group_type_index is required
    expect(() => client.groups.list.iterate({ search: 'x' })).toThrow(TypeError);
    await expect(client.groups.list({ group_type_index: -1 })).rejects.toBeInstanceOf(TypeError);
    // @ts-expect-error a string is not an index
    await expect(client.groups.list({ group_type_index: '0' })).rejects.toBeInstanceOf(TypeError);
    expect(server.requests.length).toBe(before);
  });
});

describe('next links', () => {
  it('are followed on the configured host even when the server writes another host into them', async () => {
    const proxied = await startServer({ publicUrl: 'http://internal-posthog.invalid:8000' });
    try {
      const proxiedClient = clientFor(proxied);
      const page = await proxiedClient.exports.list({ limit: 20 });
      expect(page.next).toMatch(/^http:\/\/internal-posthog\.invalid:8000\//);
      const before = proxied.requests.length;
      const all = await collect(proxiedClient.exports.list.iterate({ limit: 20 }));
      expect(all).toHaveLength(SEED_COUNTS.exports);
      const requests = proxied.requests.slice(before);
      expect(requests).toHaveLength(3);
      expect(requests.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);
      const groups = await collect(proxiedClient.groups.list.iterate({ group_type_index: 0 }));
      expect(groups).toHaveLength(250);
    } finally {
      await proxied.close();
    }
  });
});

describe('a misbehaving server', () => {
  let odd: Server;
  let oddUrl: string;
  beforeAll(async () => {
    // Serves pages that repeat an item across a boundary, and a page whose next points to itself.
    odd = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const offset = Number(url.searchParams.get('offset') ?? 0);
      res.setHeader('Content-Type', 'application/json');
      if (url.pathname.endsWith('/exports/')) {
        const ids = offset === 0 ? [1, 2, 3] : [3, 4];
        const next = offset === 0 ? `http://elsewhere.invalid/api/environments/1/exports/?limit=3&offset=2` : null;
        res.end(JSON.stringify({ count: 4, next, previous: null, results: ids.map((id) => ({ id })) }));
      } else if (url.pathname.endsWith('/subscriptions/')) {
        res.end(
          JSON.stringify({
            count: 9,
            next: `/api/environments/1/subscriptions/?offset=3&limit=3`,
            previous: null,
            results: [{ id: offset }],
          }),
        );
      } else {
        res.end(JSON.stringify({ not: 'a page' }));
      }
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => odd.close(() => resolve())));

  const oddClient = (): ApiClient => createApiClient({ host: oddUrl, personalApiKey: KEY, projectId: 1, retries: 0 });

  it('never yields an item twice when offset pages overlap', async () => {
    const ids = (await collect(oddClient().exports.list.iterate())).map((asset) => asset.id);
    expect(ids).toEqual([1, 2, 3, 4]);
  });

  it('stops with an ApiError when next points back to a page already fetched', async () => {
    const error = await caught(collect(oddClient().subscriptions.list.iterate()));
    expect(error).toMatchObject({ name: 'ApiError', code: 'pagination_loop' });
  });

  it('reports a body that is not a page as an ApiError', async () => {
    const error = await caught(oddClient().sessionRecordings.list());
    expect(error).toMatchObject({ name: 'ApiError', code: 'invalid_response', status: 200 });
  });
});
