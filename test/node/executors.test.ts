// Both executors every request goes through (node:http's, and the one fetch executor of the page,
// the edge client and the `fetch` option) against a real server on 127.0.0.1: the method and body
// as given, the response cap of each request (an endless body costs the cap, then the connection
// is dropped), and the headers the callers read.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchExecutor } from '../../src/core/fetch-executor';
import type { HttpExecutor } from '../../src/core/transport';
import { createNodeExecutor } from '../../src/node/http-executor';

let server: Server;
let url: string;
const seen: Array<{ method: string; body: string; contentLength: string | undefined }> = [];
/** Resolves when the client of the endless route has gone away. */
let endlessClosed: Promise<void> = Promise.resolve();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', body: Buffer.concat(chunks).toString(), contentLength: req.headers['content-length'] });
      const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size'));
      if (req.url?.startsWith('/endless')) {
        endlessClosed = new Promise((resolve) => res.on('close', () => resolve()));
        const chunk = 'x'.repeat(64 * 1024);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.writeHead(200);
        return pump();
      }
      res.writeHead(200, { ETag: '"v1"', 'Retry-After': '7' }).end('é'.repeat(size / 2));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  node.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const node = createNodeExecutor();
const executors: Array<[string, HttpExecutor]> = [
  ['node:http', node.execute],
  ['fetch', createFetchExecutor((target, init) => fetch(target, init))],
];

describe.each(executors)('the %s executor', (_, execute) => {
  it('sends a GET without a body and a POST with one', async () => {
    seen.length = 0;
    await execute({ url: `${url}/get?size=2`, method: 'GET', headers: {}, timeoutMs: 5000, maxResponseBytes: 1024 });
    await execute({
      url: `${url}/post?size=2`,
      method: 'POST',
      body: '{"a":1}',
      headers: { 'Content-Type': 'application/json' },
      timeoutMs: 5000,
      maxResponseBytes: 1024,
    });
    expect(seen.map(({ method, body }) => [method, body])).toEqual([
      ['GET', ''],
      ['POST', '{"a":1}'],
    ]);
  });

  it('reads a body up to its cap exactly, says when there was more, and hands over ETag and Retry-After', async () => {
    const exact = await execute({ url: `${url}/a?size=4096`, method: 'GET', headers: {}, timeoutMs: 5000, maxResponseBytes: 4096 });
    expect(exact).toMatchObject({ status: 200, body: 'é'.repeat(2048), retryAfter: '7', etag: '"v1"' });
    expect(exact.truncated).toBeFalsy();
    const over = await execute({ url: `${url}/a?size=4096`, method: 'GET', headers: {}, timeoutMs: 5000, maxResponseBytes: 4094 });
    expect(over).toMatchObject({ status: 200, body: 'é'.repeat(2047), truncated: true });
  });

  it('stops reading an endless body at the cap and drops the connection', async () => {
    const cap = 8 * 1024 * 1024;
    const answer = await execute({ url: `${url}/endless`, method: 'GET', headers: {}, timeoutMs: 30_000, maxResponseBytes: cap });
    expect(answer).toMatchObject({ status: 200, truncated: true });
    expect(answer.body).toHaveLength(cap);
    // The connection is dropped, not left open with a stalled reader: the endless writer sees it close.
    await endlessClosed;
  });
});
