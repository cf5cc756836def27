// The personal key against servers that hand it back (issue 16): cut into an error body, or carried
// by a `next` link. It must never reach an error, a log or a URL, whole or in part.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createApiClient } from '../../src/api';
import { caught, everyTextOf, KEY } from './helpers';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const clientAt = (host: string) => createApiClient({ host, personalApiKey: KEY, projectId: 1, retries: 0 });
/** Enough of the key to be a leak: its first ten characters. */
const KEY_START = KEY.slice(0, 10);

it('an error body with the key across the 300th character: no part of the key is in the error', async () => {
  // The key starts at character 290, so a cut at 300 leaves its first ten characters.
  const host = await serve((_req, res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('x'.repeat(290) + KEY + ' was sent'));
  const error = await caught(clientAt(host).exports.list());
  expect(error).toMatchObject({ name: 'ApiError', status: 500 });
  expect(everyTextOf(error)).not.toContain(KEY_START);
  expect((error as { detail: string }).detail).toBe('x'.repeat(290) + '[redacted]');
});

it('a success body that is not JSON, with the key across the 300th character: no part of the key is in the error', async () => {
  const host = await serve((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('y'.repeat(290) + KEY));
  const error = await caught(clientAt(host).exports.list());
  expect(error).toMatchObject({ name: 'ApiError', code: 'invalid_response' });
  expect(everyTextOf(error)).not.toContain(KEY_START);
});

it('a next link carrying the key is followed without the key in the URL', async () => {
  const urls: string[] = [];
  const host = await serve((req, res) => {
    urls.push(req.url ?? '');
    const offset = new URL(req.url ?? '/', 'http://x').searchParams.get('offset');
    const next = offset === null ? `http://127.0.0.1/api/environments/1/exports/?offset=1&personal_api_key=${KEY}&token=${KEY}` : null;
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ count: 2, next, previous: null, results: [{ id: offset === null ? 1 : 2 }] }));
  });
  const ids: number[] = [];
  for await (const asset of clientAt(host).exports.list.iterate()) ids.push(asset.id);
  expect(ids).toEqual([1, 2]);
  expect(urls).toHaveLength(2);
  expect(urls[1]).toBe('/api/environments/1/exports/?offset=1');
  for (const url of urls) expect(url).not.toContain(KEY_START);
});
