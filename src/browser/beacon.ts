/**
 * The last chance on pagehide: as many pending events as fit in one sendBeacon (64 KB, shared
 * with keepalive requests in flight), gzip'd synchronously (the page is going away; there is no
 * later for CompressionStream), as text/plain so no preflight is needed. The page
 * never learns whether the beacon arrived, so the events stay stored and the next page of the
 * origin sends them again with the same uuid (DESIGN §4.2); what did not fit simply waits for it.
 */
import { batchBody, batchUrl } from '../core/batch-sender';
import type { QueuedEvent } from '../core/event';
import { gzipSmall } from '../core/gzip-small';
import { attempt } from '../core/safe-json';

const BEACON_MAX_BYTES = 65_000;

/** Sends as many of `events` (from the front) as one beacon takes. */
export function sendByBeacon(events: readonly QueuedEvent[], apiKey: string, host: string, gzip: boolean): void {
  if (typeof navigator.sendBeacon !== 'function') return;
  const url = batchUrl(host, gzip) + (gzip ? '&' : '?') + 'beacon=1';
  // Halve until it fits: a body over the budget, or a browser that refuses it, is tried smaller.
  for (let count = Math.min(events.length, 1000); count > 0; count >>= 1) {
    const json = batchBody(apiKey, events.slice(0, count), false, new Date().toISOString());
    const blob = new Blob([gzip ? (gzipSmall(json) as BlobPart) : json], { type: 'text/plain' });
    // Some browsers throw instead of returning false; try smaller.
    if (blob.size <= BEACON_MAX_BYTES && attempt(() => navigator.sendBeacon(url, blob), false)) return;
  }
}
