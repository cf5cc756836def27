/**
 * The next request's body, built while the current request is in flight. The queue announces the
 * events of its next request (a Lookahead); this encodes them at once, so compression (on zlib's
 * threads in Node) overlaps the network wait instead of following it. Still one request on the
 * wire at a time, in order.
 *
 * A prepared body is used only for exactly the announced events (same first and last event, same
 * count: the queue is FIFO, so that is the same run of events) and only while fresh: the body's
 * `sent_at` is when it was built, and the server corrects event times by `sent_at`, so an old body
 * would shift its events by its age. Past MAX_PREPARED_AGE_MS (a slow server, a retry) the body is
 * built again; then overlapping saves nothing anyway, the network wait dwarfs compression.
 */
import type { BatchEncoder, PreparedBody } from './batch-sender';
import type { QueuedEvent } from './event';

export const MAX_PREPARED_AGE_MS = 100;

export interface PreparedBodies {
  /** The queue's lookahead: start building the body for these events. */
  prepare(events: readonly QueuedEvent[]): void;
  /** The sender's source: the prepared body if it is for exactly these events and fresh. */
  take: PreparedBody;
}

interface Ahead {
  first: QueuedEvent | undefined;
  last: QueuedEvent | undefined;
  count: number;
  at: number;
  body: Promise<Uint8Array | string>;
}

export function createPreparedBodies(encode: BatchEncoder, now: () => number = Date.now): PreparedBodies {
  let ahead: Ahead | undefined;
  return {
    prepare(events) {
      // After the current request's own body is on its way (this runs in a microtask).
      const body = Promise.resolve().then(() => encode(events));
      // An unused or failed preparation is simply rebuilt at send time: never an unhandled rejection.
      body.catch(() => {});
      ahead = { first: events[0], last: events[events.length - 1], count: events.length, at: now(), body };
    },
    take(events) {
      const candidate = ahead;
      ahead = undefined;
      if (
        candidate === undefined ||
        candidate.count !== events.length ||
        candidate.first !== events[0] ||
        candidate.last !== events[events.length - 1] ||
        now() - candidate.at > MAX_PREPARED_AGE_MS
      ) {
        return undefined;
      }
      return candidate.body;
    },
  };
}
