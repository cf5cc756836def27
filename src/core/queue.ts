/**
 * The delivery queue: batching, one request in flight, retry with backoff, splitting on 400/413,
 * bounded size, and flush/close. Platforms hand it a BatchSender and, optionally, a persistence
 * hook; it owns everything else (Sentry-style). The line of waiting events is queue-line.ts, the
 * sending loop queue-delivery.ts.
 *
 * Invariants:
 * - Events leave in capture order, one request at a time, so a historical migration stays ordered.
 * - An event leaves the queue only after a 2xx for a request that carried it, or with a counted,
 *   reported reason (DroppedEventsError).
 * - Transient failures never drop (unless the user capped retries): the batch goes back to the
 *   front and is retried with backoff.
 */
import { DEFAULT_RETRY, type RetryOptions } from './backoff';
import { BROWSER_BUILD } from './build-flags';
import { DroppedEventsError, type DropReason } from './errors';
import type { QueuedEvent } from './event';
import { createDelivery, type QueueState } from './queue-delivery';
import { createWaitingLine, eventsOf, makeEntry, type Entry } from './queue-line';
import type { Queue, QueueOptions } from './queue-types';

export type { Lookahead, Queue, QueueOptions, QueuePersistence, QueueStats } from './queue-types';

interface Waiter {
  targetSeq: number;
  resolve: () => void;
}

export function createQueue(options: QueueOptions): Queue {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const { persistence, onDrop } = options;
  const line = createWaitingLine();
  let nextSeq = 1;
  let restoreSeq = 0;
  let waiters: Waiter[] = [];
  let evicted: QueuedEvent[] = [];
  const stats: QueueState['stats'] = { enqueued: 0, delivered: 0, dropped: {}, requests: 0, retries: 0 };

  function countDrop(reason: DropReason, count = 1): void {
    stats.dropped[reason] = (stats.dropped[reason] ?? 0) + count;
  }

  const state: QueueState = {
    line,
    inFlight: [],
    stats,
    drop(events, reason, message, status) {
      if (events.length === 0) return;
      countDrop(reason, events.length);
      // What a shutdown leaves stays in durable storage for the next run to send (a page never shuts down).
      if (BROWSER_BUILD || reason !== 'shutdown') persistence?.removed(events);
      // A loop, not .map: drops happen in promise reactions, out of a page's patched map's reach.
      const uuids: string[] = [];
      for (const event of events) uuids.push(event.uuid);
      onDrop(new DroppedEventsError(message, reason, uuids, status));
    },
    settleWaiters(all = false) {
      if (waiters.length === 0) return;
      const oldest = state.inFlight[0]?.seq ?? line.first?.seq ?? Infinity;
      const keep: Waiter[] = [];
      for (const waiter of waiters) {
        if (all || waiter.targetSeq < oldest) waiter.resolve();
        else keep.push(waiter);
      }
      waiters = keep;
    },
    reportEvictions() {
      if (evicted.length === 0) return;
      const events = evicted;
      evicted = [];
      state.drop(
        events,
        'queue_full',
        `queue full (maxQueueSize ${options.maxQueueSize}, maxQueueBytes ${options.maxQueueBytes}): ${events.length} oldest event(s) dropped. Raise the limits or check the host is reachable.`,
      );
    },
  };
  const delivery = createDelivery(state, options, retry);
  const pending = () => line.count + state.inFlight.length;

  return {
    enqueue(event) {
      // Only a server client closes its queue (close() is not in the script tag).
      if (!BROWSER_BUILD && state.closed) {
        state.drop([event], 'shutdown', `event ${event.uuid} captured after shutdown() was not sent. Capture before shutting down.`);
        return;
      }
      const entry = makeEntry(event, nextSeq++);
      while (line.count > 0 && (line.count >= options.maxQueueSize || line.bytes + entry.size > options.maxQueueBytes)) {
        evicted.push(line.takeFromHead()!.event);
      }
      line.push(entry);
      stats.enqueued++;
      persistence?.appended(event);
      if (evicted.length > 0 || line.count >= options.flushAt || state.draining) delivery.schedulePump();
      else delivery.armInterval();
    },

    restore(events) {
      if (events.length === 0) return;
      restoreSeq -= events.length;
      delivery.putBackInFront(events.map((event, index) => makeEntry(event, restoreSeq + index)));
      stats.enqueued += events.length;
      state.draining = true;
      delivery.schedulePump();
    },

    flush() {
      if ((!BROWSER_BUILD && state.closed) || pending() === 0) return Promise.resolve();
      const targetSeq = nextSeq - 1;
      const done = new Promise<void>((resolve) => waiters.push({ targetSeq, resolve }));
      delivery.drain();
      return done;
    },

    close() {
      // A page never closes its queue (pagehide hands what is left to the beacon): the script tag
      // leaves this out.
      if (BROWSER_BUILD || state.closed) return;
      state.reportEvictions();
      state.closed = true;
      delivery.stop!();
      const queued = state.inFlight.concat(line.clear()).map((entry) => entry.event);
      // The request still in flight answers into nothing: its events are reported below.
      state.inFlight = [];
      const left = persistence?.retain ? persistence.retain(queued) : queued;
      state.drop(left, 'shutdown', `${left.length} event(s) were still undelivered when the client shut down (deadline reached or server unreachable).`);
      state.settleWaiters(true);
    },

    reopen() {
      if (!BROWSER_BUILD) state.closed = false;
    },

    discard(reason, why) {
      const drop = (entries: Entry[]) => state.drop(eventsOf(entries), reason, `${entries.length} event(s) not sent: ${why}`);
      drop(line.clear());
      // The request in flight goes on; if it comes back unsent (a retry, a split), its events go then.
      const inFlight = state.inFlight;
      state.dropUnsent = (batch) => batch === inFlight && (drop(batch), true);
      state.settleWaiters();
    },

    countDrop,

    stats() {
      return { ...stats, dropped: { ...stats.dropped }, pending: pending() };
    },

    get pending() {
      return pending();
    },
  };
}
