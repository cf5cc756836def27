/**
 * The last chance on pagehide: as many events as fit in one sendBeacon (64 KB, shared with
 * keepalive requests in flight), as plain JSON (the page is going away: there is no later for
 * CompressionStream), sent by the page's executor module (fetch-executor.ts) as text/plain so no
 * preflight is needed. The page never learns whether the
 * beacon arrived, so stored events stay stored and the next page of the origin sends them again
 * with the same uuid (unload.ts decides which events go first).
 */
import { batchBody, batchUrl } from '../core/batch-sender';
import type { QueuedEvent } from '../core/event';
import { sendBeaconRequest } from './fetch-executor';
import type { Endpoint } from './send-batch';

/** Sends as many of `events` (from the front) as one beacon takes; returns how many it took. */
export function sendByBeacon({ apiKey, host }: Endpoint, events: readonly QueuedEvent[]): number {
  const url = batchUrl(host, false) + '?beacon=1';
  // Halve until it fits: a body over the budget, or a browser that refuses it, is tried smaller.
  for (let count = Math.min(events.length, 1000); count > 0; count >>= 1) {
    const body = batchBody(apiKey, events.slice(0, count), false, new Date().toISOString());
    if (sendBeaconRequest({ url, body })) return count;
  }
  return 0;
}
