/** Every endpoint of docs/management-api.md: method, exact path (trailing slash included), Bearer header, typed result. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api';
import { seedUuid, type ManagementServer } from '../../src/devserver/management';
import { caught, clientFor, KEY, startServer } from './helpers';

let server: ManagementServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startServer({ projectId: 42 });
  client = clientFor(server);
});
afterAll(() => server.close());

function lastRequest(): (typeof server.requests)[number] {
  const request = server.requests[server.requests.length - 1];
  if (request === undefined) throw new Error('no request reached the server');
  return request;
}

const base = '/api/environments/42';
const member = seedUuid(1, 2);
const recording = seedUuid(4, 3);

describe('each endpoint sends the right method, path and Authorization header', () => {
  const cases: Array<{ name: string; call: () => Promise<unknown>; method: string; path: string; search?: string }> = [
    {
      name: 'explicitMembers.get',
      call: () => client.explicitMembers.get(member),
      method: 'GET',
      path: `${base}/explicit_members/${member}/`,
    },
    {
      name: 'explicitMembers.update',
      call: () => client.explicitMembers.update(member, { level: 8 }),
      method: 'PATCH',
      path: `${base}/explicit_members/${member}/`,
    },
    {
      name: 'exports.list',
      call: () => client.exports.list({ limit: 5, offset: 10 }),
      method: 'GET',
      path: `${base}/exports/`,
      search: '?limit=5&offset=10',
    },
    {
      name: 'exports.create',
      call: () => client.exports.create({ insight: 7, export_format: 'text/csv' }),
      method: 'POST',
      path: `${base}/exports/`,
    },
    { name: 'exports.get', call: () => client.exports.get(3), method: 'GET', path: `${base}/exports/3/` },
    { name: 'exports.content', call: () => client.exports.content(3), method: 'GET', path: `${base}/exports/3/content/` },
    {
      name: 'groups.list',
      call: () => client.groups.list({ group_type_index: 1, search: 'type1-1' }),
      method: 'GET',
      path: `${base}/groups/`,
      search: '?group_type_index=1&search=type1-1',
    },
    {
      name: 'groups.find',
      call: () => client.groups.find({ group_key: 'org-007', group_type_index: 0 }),
      method: 'GET',
      path: `${base}/groups/find/`,
      search: '?group_key=org-007&group_type_index=0',
    },
    {
      name: 'query.draftSql',
      call: () => client.query.draftSql({ prompt: 'signups per day' }),
      method: 'GET',
      path: `${base}/query/draft_sql/`,
      search: '?prompt=signups+per+day',
    },
    {
      name: 'sessionRecordings.list',
      call: () => client.sessionRecordings.list({ limit: 3 }),
      method: 'GET',
      path: `${base}/session_recordings/`,
      search: '?limit=3',
    },
    {
      name: 'sessionRecordings.get',
      call: () => client.sessionRecordings.get(recording),
      method: 'GET',
      path: `${base}/session_recordings/${recording}/`,
    },
    {
      name: 'sessionRecordings.update',
      call: () => client.sessionRecordings.update(recording, { person: { name: 'Renamed' } }),
      method: 'PATCH',
      path: `${base}/session_recordings/${recording}/`,
    },
    {
      name: 'sessionRecordings.sharing',
      call: () => client.sessionRecordings.sharing(recording),
      method: 'GET',
      path: `${base}/session_recordings/${recording}/sharing/`,
    },
    {
      name: 'sessions.propertyDefinitions',
      call: () => client.sessions.propertyDefinitions(),
      method: 'GET',
      path: `${base}/sessions/property_definitions/`,
    },
    {
      name: 'sessions.values',
      call: () => client.sessions.values({ key: '$channel_type' }),
      method: 'GET',
      path: `${base}/sessions/values/`,
      search: '?key=%24channel_type',
    },
    { name: 'subscriptions.list', call: () => client.subscriptions.list(), method: 'GET', path: `${base}/subscriptions/` },
    {
      name: 'sessionRecordings.delete',
      call: () => client.sessionRecordings.delete(recording),
      method: 'DELETE',
      path: `${base}/session_recordings/${recording}/`,
    },
    {
      name: 'explicitMembers.delete',
      call: () => client.explicitMembers.delete(member),
      method: 'DELETE',
      path: `${base}/explicit_members/${member}/`,
    },
  ];

  for (const { name, call, method, path, search } of cases) {
    it(name, async () => {
      const before = server.requests.length;
      await call();
      expect(server.requests.length).toBe(before + 1);
      const request = lastRequest();
      expect(request.method).toBe(method);
      expect(request.path).toBe(path);
      expect(request.search).toBe(search ?? '');
      expect(request.authorization).toBe(`Bearer ${KEY}`);
    });
  }
});

describe('results', () => {
  it('reads and updates an explicit member', async () => {
    const uuid = seedUuid(1, 4);
    const got = await client.explicitMembers.get(uuid);
    expect(got.user.uuid).toBe(uuid);
    expect(got.user_uuid).toBe(uuid);
    const updated = await client.explicitMembers.update(uuid, { level: 8 });
    expect(updated.level).toBe(8);
    expect(lastRequest().body).toEqual({ level: 8 });
  });

  it('deletes with 204 and resolves undefined; the resource is then gone', async () => {
    const uuid = seedUuid(1, 5);
    await expect(client.explicitMembers.delete(uuid)).resolves.toBeUndefined();
    const error = await caught(client.explicitMembers.get(uuid));
    expect(error).toMatchObject({ name: 'ApiError', status: 404, code: 'not_found', method: 'GET' });
  });

  it('creates an export with 201 and the body it was given', async () => {
    const created = await client.exports.create({ dashboard: 5, export_format: 'application/pdf', export_context: { note: 'weekly' } });
    expect(lastRequest().body).toEqual({ dashboard: 5, export_format: 'application/pdf', export_context: { note: 'weekly' } });
    expect(created).toMatchObject({ dashboard: 5, export_format: 'application/pdf', export_context: { note: 'weekly' } });
    expect(await client.exports.get(created.id)).toEqual(created);
  });

  it('reports a validation error of a create as an ApiError with the server detail', async () => {
    const error = await caught(client.exports.create({ insight: 1, export_format: 'video/mp4' }));
    expect(error).toMatchObject({ name: 'ApiError', status: 400, code: 'invalid_choice', method: 'POST', path: `${base}/exports/` });
    expect((error as Error).message).toContain('video/mp4');
  });

  it('updates a recording person and reads its sharing configuration', async () => {
    const id = seedUuid(4, 9);
    const updated = await client.sessionRecordings.update(id, { person: { name: 'Jane' } });
    expect(updated.person.name).toBe('Jane');
    expect((await client.sessionRecordings.get(id)).person.name).toBe('Jane');
    const sharing = await client.sessionRecordings.sharing(id);
    expect(sharing).toEqual({ created_at: expect.any(String), enabled: false, access_token: expect.any(String) });
  });

  it('finds a group by key', async () => {
    expect(await client.groups.find({ group_key: 'org-123', group_type_index: 0 })).toMatchObject({
      group_type_index: 0,
      group_key: 'org-123',
    });
  });

  it('returns the helper endpoints bodies untyped', async () => {
    expect(await client.query.draftSql<{ sql: string }>({ prompt: 'x' })).toEqual({ sql: expect.stringContaining('SELECT') });
    const definitions = await client.sessions.propertyDefinitions<{ results: Array<{ name: string }> }>({ search: 'duration' });
    expect(definitions.results.map((d) => d.name)).toEqual(['$session_duration']);
    expect(await client.sessions.values({ key: '$channel_type' })).toContainEqual({ name: 'Direct' });
  });

  it('URL-encodes path parameters as one segment', async () => {
    await caught(client.explicitMembers.get('a/b c?d'));
    expect(lastRequest().path).toBe(`${base}/explicit_members/a%2Fb%20c%3Fd/`);
    expect(lastRequest().search).toBe('');
  });

  it('refuses "." and ".." path parameters before any request', async () => {
    const before = server.requests.length;
    await expect(client.exports.get('..')).rejects.toBeInstanceOf(TypeError);
    await expect(client.sessionRecordings.delete('.')).rejects.toBeInstanceOf(TypeError);
    await expect(client.explicitMembers.get('')).rejects.toBeInstanceOf(TypeError);
    expect(server.requests.length).toBe(before);
  });

  it('keeps a path prefix of the host and encodes the project id', async () => {
    const prefixed = clientFor(server, { host: `${server.url}/posthog/`, projectId: 'a b' });
    // The server owns only /api/environments/, so it answers 404; the error names the path that was sent.
    const error = await caught(prefixed.subscriptions.list());
    expect(error).toMatchObject({ name: 'ApiError', status: 404, path: '/posthog/api/environments/a%20b/subscriptions/' });
  });
});
