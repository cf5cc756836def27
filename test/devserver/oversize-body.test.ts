// A body over the 20 MiB cap gets its 413 answer, read by the client, before the connection closes:
// not EPIPE or a reset mid-upload, which an SDK would take for a network failure and retry for ever.
import { request } from 'node:http';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';

let collector: Collector;
beforeEach(async () => {
  collector = await createCollector();
});
afterEach(() => collector.close());

const SIZE = 21 * 1024 * 1024;
const CHUNK = Buffer.alloc(256 * 1024, 0x20);

/**
 * Uploads like an SDK without keep-alive does (`Connection: close`): a stream of writes honouring
 * backpressure, then reads the answer. Settles when the request is done, so an EPIPE or reset that
 * comes after the answer counts too.
 */
function upload(declareLength: boolean): Promise<{ status?: number; text?: string; error?: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', Connection: 'close' };
    if (declareLength) headers['Content-Length'] = SIZE;
    const result: { status?: number; text?: string; error?: string } = {};
    const req = request(`${collector.url}/batch/`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => Object.assign(result, { status: res.statusCode ?? 0, text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (result.error ??= error.code ?? error.message));
    req.on('close', () => setImmediate(() => resolve(result)));
    let sent = 0;
    const write = (): void => {
      while (sent < SIZE) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

it.each([
  ['with a Content-Length', true],
  ['chunked', false],
])('answers 413 to a 21 MiB upload sent %s, and the client reads it', async (_label, declared) => {
  const reply = await upload(declared);
  expect(reply.error).toBeUndefined();
  expect(reply.status).toBe(413);
  expect(reply.text).toMatch(/over the 20971520 byte limit/);
});
