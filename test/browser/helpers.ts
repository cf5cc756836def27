/** A fetch stand-in that records every batch the client sends and answers 200 (or what `answer` says). */
import { gunzipSync } from 'node:zlib';
import { vi } from 'vitest';

export interface SentEvent {
  uuid: string;
  event: string;
  properties: Record<string, any>;
  timestamp: string;
}

export function fakeFetch(answer: () => number = () => 200) {
  const sent: SentEvent[] = [];
  const urls: string[] = [];
  const fetch = vi.fn(async (url: string, init: { body: Uint8Array | string }) => {
    // Flags (asked at init: /flags/, or /decide/ on an older server) answer as a server with no
    // flags that takes gzip.
    if (url.includes('/flags/') || url.includes('/decide/')) {
      return {
        status: 200,
        text: async () => '{"featureFlags":{},"supportedCompression":["gzip","gzip-js"]}',
        headers: { get: () => null },
      };
    }
    urls.push(url);
    const text = typeof init.body === 'string' ? init.body : gunzipSync(init.body).toString('utf8');
    const status = answer();
    if (status >= 200 && status < 300) sent.push(...(JSON.parse(text).batch as SentEvent[]));
    return { status, text: async () => (status === 200 ? '{"status":"Ok"}' : 'nope'), headers: { get: () => null } };
  });
  (globalThis as any).fetch = fetch;
  return { sent, urls, fetch };
}

export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
