/**
 * The last chance on pagehide: as many events as fit in one sendBeacon (64 KB, shared with
 * keepalive requests in flight), as plain JSON (the page is going away: there is no later for
 * CompressionStream) and text/plain so no preflight is needed. The page never learns whether the
 * beacon arrived, so stored events stay stored and the next page of the origin sends them again
 * with the same uuid (unload.ts decides which events go first).
 */
import { batchBody, batchUrl } from '../../core/batch-sender';
import type { QueuedEvent } from '../../core/event';
import { attempt } from '../../core/safe-json';
import type { Endpoint } from './send-batch';

const BEACON_MAX_BYTES = 65_000;

/** Sends as many of `events` (from the front) as one beacon takes; returns how many it took. */
export function sendByBeacon({ apiKey, host }: Endpoint, events: readonly QueuedEvent[]): number {
  if (typeof navigator.sendBeacon !== 'function') return 0;
  const url = batchUrl(host, false) + '?beacon=1';
  // Halve until it fits: a body over the budget, or a browser that refuses it, is tried smaller.
  for (let count = Math.min(events.length, 1000); count > 0; count >>= 1) {
    const body = batchBody(apiKey, events.slice(0, count), false, new Date().toISOString());
    const blob = new Blob([body], { type: 'text/plain' });
    // True when the browser took it (not that it arrived). Some browsers throw instead of returning false.
    if (blob.size <= BEACON_MAX_BYTES && attempt(() => navigator.sendBeacon(url, blob), false)) return count;
  }
  return 0;
}
