// @vitest-environment happy-dom
// Hostile or broken networks (issue 16, lows): a fetch that never settles and ignores its
// AbortSignal must not wedge the queue: the executor has its own deadline. (The endless response
// body is test/e2e/hostile-server.test.ts: happy-dom's fetch buffers whole bodies.)
import { afterEach, describe, expect, it } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !check(); await sleep(10)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

let tests = 0;
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('the browser executor under a hostile network', () => {
  it('a fetch that never settles and ignores its AbortSignal: timed out, retried, delivered', async () => {
    let calls = 0;
    globalThis.fetch = (async (url: string) => {
      if (String(url).includes('/batch/') && ++calls === 1) return new Promise(() => {}); // never settles
      return { status: 200, headers: { get: () => null }, text: async () => '{"status":"Ok"}' } as unknown as Response;
    }) as typeof fetch;
    const client = createHogtail();
    client.on('error', () => {});
    client.init(`phc_hostile_${++tests}`, {
      api_host: 'https://collector.test',
      capture_pageview: false,
      advanced_disable_flags: true,
      flush_at: 1,
      request_timeout: 50,
    });
    client.capture('through a stuck fetch');
    await until(() => client.stats().delivered === 1, 'the event to be delivered after the stuck request');
    expect(client.stats().retries).toBeGreaterThanOrEqual(1);
  });
});
