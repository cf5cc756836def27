/** Export downloads: the bytes with their content type, and a stream for large files. */
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api';
import type { ManagementServer } from '../../src/devserver/management';
import { caught, clientFor, startServer } from './helpers';

let server: ManagementServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startServer();
  client = clientFor(server);
});
afterAll(() => server.close());

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('exports.content', () => {
  it('returns CSV bytes with the content type and file name', async () => {
    const content = await client.exports.content(4);
    expect(content.contentType).toBe('text/csv; charset=utf-8');
    expect(content.filename).toBe('export-4.csv');
    expect(content.bytes).toBeInstanceOf(Uint8Array);
    const text = new TextDecoder().decode(content.bytes);
    expect(text.startsWith('day,event,count\n')).toBe(true);
    expect(text.trim().split('\n')).toHaveLength(26);
    expect(server.requests.at(-1)?.path).toBe('/api/environments/1/exports/4/content/');
  });

  it('returns binary bytes unchanged', async () => {
    const content = await client.exports.content(2);
    expect(content.contentType).toBe('image/png');
    expect([...content.bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    const pdf = await client.exports.content(3);
    expect(pdf.contentType).toBe('application/pdf');
    expect(new TextDecoder().decode(pdf.bytes.slice(0, 5))).toBe('%PDF-');
  });

  it('reports a missing export as an ApiError naming the content path', async () => {
    expect(await caught(client.exports.content(4040))).toMatchObject({
      name: 'ApiError',
      status: 404,
      path: '/api/environments/1/exports/4040/content/',
      scope: 'export:read',
    });
  });
});

describe('exports.contentStream', () => {
  it('streams a large export with the same bytes as content()', async () => {
    const whole = await client.exports.content(1);
    expect(whole.bytes.byteLength).toBeGreaterThan(200_000);
    const streamed = await client.exports.contentStream(1);
    expect(streamed.contentType).toBe('text/csv; charset=utf-8');
    expect(streamed.contentLength).toBe(whole.bytes.byteLength);
    const chunks: Uint8Array[] = [];
    for await (const chunk of streamed.stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(Buffer.from(whole.bytes))).toBe(true);
  });

  it('pipes through Readable.fromWeb in Node', async () => {
    const streamed = await clientFor(server, { timeoutMs: 5_000 }).exports.contentStream(1);
    const node = Readable.fromWeb(streamed.stream as unknown as NodeReadableStream<Uint8Array>);
    let size = 0;
    for await (const chunk of node) size += (chunk as Buffer).length;
    expect(size).toBe(streamed.contentLength);
  });

  it('is not cut off by timeoutMs once the headers are in', async () => {
    // The timeout must be long enough for the headers on a loaded machine (Chromium tests run beside
    // this), and the wait must outlast it: only the caller's signal may end a download in progress.
    const streamed = await clientFor(server, { timeoutMs: 1000 }).exports.contentStream(1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    let size = 0;
    for await (const chunk of streamed.stream as unknown as AsyncIterable<Uint8Array>) size += chunk.byteLength;
    expect(size).toBe(streamed.contentLength);
  });

  it('keeps its bytes when the caller holds only the stream and memory is collected before reading', async () => {
    // Node's fetch cancels an unread body once its Response is collected; a CI run lost a whole
    // download to a collection that happened to fall in the wait above.
    const streamed = await client.exports.contentStream(1);
    for (let round = 0; round < 3; round++) {
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    let size = 0;
    for await (const chunk of streamed.stream as unknown as AsyncIterable<Uint8Array>) size += chunk.byteLength;
    expect(size).toBe(streamed.contentLength);
  });

  it('can be cancelled through the signal while reading', async () => {
    const controller = new AbortController();
    const streamed = await client.exports.contentStream(1, { signal: controller.signal });
    const reader = streamed.stream.getReader();
    await reader.read();
    controller.abort();
    const error = await caught(
      (async () => {
        for (;;) {
          const { done } = await reader.read();
          if (done) return;
        }
      })(),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});

/** A full collection on demand, without starting Node with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
