/** `hogtail api …` through runApiCommand, against the local server. */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApiCommand } from '../../src/cli/api-command';
import { seedUuid, type ManagementServer } from '../../src/devserver/management';
import { KEY, NO_SCOPE_KEY, startServer } from './helpers';

let server: ManagementServer;
let dir: string;

beforeAll(async () => {
  server = await startServer({ projectId: 7 });
  dir = await mkdtemp(join(tmpdir(), 'hogtail-api-cli-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string; json: () => unknown }> {
  let stdout = '';
  let stderr = '';
  const code = await runApiCommand(args, {
    env: { HOGTAIL_PERSONAL_API_KEY: KEY, HOGTAIL_HOST: server.url, HOGTAIL_PROJECT_ID: '7', ...env },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  expect(stdout + stderr).not.toContain(KEY);
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as unknown };
}

describe('hogtail api', () => {
  it('lists a page as JSON', async () => {
    const result = await run(['exports', 'list', '--limit', '5', '--offset=10']);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ count: 57, results: [{ id: 11 }, { id: 12 }, { id: 13 }, { id: 14 }, { id: 15 }] });
    expect(server.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/api/environments/7/exports/',
      search: '?limit=5&offset=10',
      authorization: `Bearer ${KEY}`,
    });
  });

  it('prints every item with --all', async () => {
    const result = await run(['groups', 'list', '--group-type-index', '0', '--all']);
    expect(result.code).toBe(0);
    expect(result.json()).toHaveLength(250);
    const subscriptions = await run(['subscriptions', 'list', '--limit', '10', '--all']);
    expect(subscriptions.json()).toHaveLength(45);
  });

  it('gets, updates and deletes by id or positional argument', async () => {
    const id = seedUuid(4, 60);
    expect((await run(['session-recordings', 'get', id])).json()).toMatchObject({ id });
    const updated = await run(['session-recordings', 'update', '--id', id, '--data', '{"person":{"name":"Cli"}}']);
    expect(updated.json()).toMatchObject({ person: { name: 'Cli' } });
    expect((await run(['session-recordings', 'sharing', id])).json()).toMatchObject({ enabled: false });
    expect((await run(['session-recordings', 'delete', id])).json()).toEqual({ deleted: true });
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/api/environments/7/session_recordings/${id}/` });
    const member = seedUuid(1, 3);
    expect((await run(['explicit-members', 'update', member, '--level', '8'])).json()).toMatchObject({ level: 8 });
    expect(server.requests.at(-1)?.body).toEqual({ level: 8 });
  });

  it('creates an export and finds a group', async () => {
    const created = await run(['exports', 'create', '--insight', '9', '--export-format', 'text/csv']);
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ insight: 9, export_format: 'text/csv' });
    expect((await run(['groups', 'find', '--group-type-index', '0', '--group-key', 'org-042'])).json()).toMatchObject({
      group_key: 'org-042',
    });
  });

  it('passes open query parameters of helper endpoints through', async () => {
    const result = await run(['query', 'draft-sql', '--prompt', 'weekly signups']);
    expect(result.json()).toMatchObject({ sql: expect.any(String) });
    expect(server.requests.at(-1)?.search).toBe('?prompt=weekly+signups');
    expect((await run(['sessions', 'values', '--key', '$channel_type'])).json()).toContainEqual({ name: 'Direct' });
    expect((await run(['sessions', 'property-definitions'])).code).toBe(0);
  });

  it('prints text content and saves binary content with --output', async () => {
    const text = await run(['exports', 'content', '4']);
    expect(text.code).toBe(0);
    expect(text.stdout.startsWith('day,event,count\n')).toBe(true);

    const binary = await run(['exports', 'content', '2']);
    expect(binary.code).toBe(2);
    expect(binary.stderr).toContain('--output');

    const file = join(dir, 'chart.png');
    const saved = await run(['exports', 'content', '--id', '2', '--output', file]);
    expect(saved.code).toBe(0);
    expect(saved.json()).toMatchObject({ file, contentType: 'image/png', filename: 'export-2.png' });
    expect([...(await readFile(file)).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(await readdir(dir)).toEqual(['chart.png']);
  });

  it('exits 1 with the API error on stderr; a 403 names the scope', async () => {
    const result = await run(['exports', 'list'], { HOGTAIL_PERSONAL_API_KEY: NO_SCOPE_KEY });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('export:read');
    expect(result.stderr).not.toContain(NO_SCOPE_KEY);
    const missing = await run(['exports', 'get', '999999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404');
  });

  it('reads host and project from flags over the environment', async () => {
    const result = await run(['subscriptions', 'list', '--host', server.url, '--project', '7', '--limit', '1'], {
      HOGTAIL_HOST: 'http://127.0.0.1:9',
      HOGTAIL_PROJECT_ID: '999',
    });
    expect(result.code).toBe(0);
  });

  describe('bad input exits 2 with a usage message', () => {
    const cases: Array<[string, string[], Record<string, string | undefined>, RegExp]> = [
      ['no arguments', [], {}, /Usage: hogtail api/],
      ['unknown resource', ['widgets', 'list'], {}, /unknown resource "widgets"/],
      ['unknown action', ['exports', 'explode'], {}, /unknown action "explode"/],
      ['groups list without a type', ['groups', 'list'], {}, /--group-type-index is required/],
      ['non-integer flag', ['exports', 'list', '--limit', 'ten'], {}, /--limit must be an integer/],
      ['unknown flag', ['exports', 'list', '--colour', 'red'], {}, /unknown option --colour/],
      ['flag without value', ['exports', 'get', '--id'], {}, /--id needs a value/],
      ['bad JSON', ['session-recordings', 'update', 'x', '--data', '{'], {}, /--data must be JSON/],
      ['missing key', ['exports', 'list'], { HOGTAIL_PERSONAL_API_KEY: undefined }, /HOGTAIL_PERSONAL_API_KEY/],
      ['missing host', ['exports', 'list'], { HOGTAIL_HOST: undefined }, /--host or HOGTAIL_HOST/],
      ['missing project', ['exports', 'list'], { HOGTAIL_PROJECT_ID: undefined }, /--project or HOGTAIL_PROJECT_ID/],
      ['key as a flag', ['exports', 'list', '--personal-api-key', 'phx_x'], {}, /HOGTAIL_PERSONAL_API_KEY, not as a flag/],
      ['bad host', ['exports', 'list', '--host', 'nope'], {}, /host must be an absolute http\(s\) URL/],
      ['extra argument', ['exports', 'list', 'more'], {}, /unexpected argument 'more'/],
    ];
    for (const [name, args, env, pattern] of cases) {
      it(name, async () => {
        const before = server.requests.length;
        const result = await run(args, env);
        expect(result.code).toBe(2);
        expect(result.stderr + result.stdout).toMatch(pattern);
        expect(result.stderr + result.stdout).toContain('Usage: hogtail api');
        expect(server.requests.length).toBe(before);
      });
    }
  });

  it('prints help with exit 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('session-recordings sharing');
    expect((await run(['groups', '--help'])).stdout).toContain('groups find --group-type-index <n> --group-key <value>');
  });
});
