/**
 * The delivery queue: batching, one request in flight, retry with backoff, splitting on 400/413,
 * bounded size, and flush/close. Platforms hand it a BatchSender and, optionally, a persistence
 * hook and (servers) what closing does (queue-close.ts); it owns everything else (Sentry-style). The line of waiting events is queue-line.ts, the
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
import { DroppedEventsError, type DropReason } from './errors';
import type { QueuedEvent } from './event';
import { createDelivery } from './queue-delivery';
import { createWaitingLine, eventsOf, makeEntry, type Entry, type WaitingLine } from './queue-line';
import type { Queue, QueueOptions, QueueState } from './queue-types';

export type { Lookahead, Queue, QueueCloser, QueueOptions, QueuePersistence, QueueStats } from './queue-types';

interface Waiter {
  targetSeq_: number;
  resolve: () => void;
}

/**
 * The state the queue's public side and its loop share, with what only this side needs: the
 * flush() waiters and the evicted events, reported together at the next pump.
 */
function createSharedState(options: QueueOptions, line: WaitingLine) {
  const { persistence_: persistence, onDrop_: onDrop } = options;
  let waiters: Waiter[] = [];
  let evicted: QueuedEvent[] = [];
  const stats: QueueState['stats'] = { enqueued: 0, delivered: 0, dropped: {}, requests: 0, retries: 0 };

  function countDrop(reason: DropReason, count = 1): void {
    stats.dropped[reason] = (stats.dropped[reason] ?? 0) + count;
  }

  const state: QueueState = {
    line_: line,
    inFlight_: [],
    stats,
    drop_(events, reason, message, status) {
      if (events.length === 0) return;
      countDrop(reason, events.length);
      // What a shutdown leaves stays in durable storage for the next run to send (a page never shuts down).
      if (reason !== 'shutdown') persistence?.removed(events);
      // A loop, not .map: drops happen in promise reactions, out of a page's patched map's reach.
      const uuids: string[] = [];
      for (const event of events) uuids.push(event.uuid);
      onDrop(new DroppedEventsError(message, reason, uuids, status));
    },
    settleWaiters_(all = false) {
      if (waiters.length === 0) return;
      const oldest = state.inFlight_[0]?.seq_ ?? line.first_?.seq_ ?? Infinity;
      const keep: Waiter[] = [];
      for (const waiter of waiters) {
        if (all || waiter.targetSeq_ < oldest) waiter.resolve();
        else keep.push(waiter);
      }
      waiters = keep;
    },
    reportEvictions_() {
      if (evicted.length === 0) return;
      const events = evicted;
      evicted = [];
      state.drop_(
        events,
        'queue_full',
        `queue full (maxQueueSize ${options.maxQueueSize_}, maxQueueBytes ${options.maxQueueBytes_}): ${events.length} oldest event(s) dropped. Raise the limits or check the host is reachable.`,
      );
    },
  };
  return {
    state_: state,
    stats_: stats,
    countDrop_: countDrop,
    evicted_: () => evicted,
    /** Resolves once every event up to `targetSeq` is settled (settleWaiters_). */
    waitFor_: (targetSeq: number) => new Promise<void>((resolve) => waiters.push({ targetSeq_: targetSeq, resolve })),
  };
}

export function createQueue(options: QueueOptions): Queue {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry_ };
  const { persistence_: persistence } = options;
  const line = createWaitingLine();
  let nextSeq = 1;
  let restoreSeq = 0;
  const { state_: state, stats_: stats, countDrop_: countDrop, evicted_: evicted, waitFor_: waitFor } = createSharedState(options, line);
  const delivery = createDelivery(state, options, retry);
  const pending = () => line.count_ + state.inFlight_.length;

  return {
    enqueue(event) {
      // Only a server client closes its queue, with its closer (queue-close.ts).
      if (state.closed_) return options.closer_!.late_(state, event);
      const entry = makeEntry(event, nextSeq++);
      while (line.count_ > 0 && (line.count_ >= options.maxQueueSize_ || line.bytes_ + entry.size_ > options.maxQueueBytes_)) {
        evicted().push(line.takeFromHead_()!.event);
      }
      line.push(entry);
      stats.enqueued++;
      persistence?.appended(event);
      if (evicted().length > 0 || line.count_ >= options.flushAt_ || state.draining_) delivery.schedulePump_();
      else delivery.armInterval_();
    },

    restore(events) {
      if (events.length === 0) return;
      restoreSeq -= events.length;
      delivery.putBackInFront_(events.map((event, index) => makeEntry(event, restoreSeq + index)));
      stats.enqueued += events.length;
      state.draining_ = true;
      delivery.schedulePump_();
    },

    flush() {
      if (state.closed_ || pending() === 0) return Promise.resolve();
      const done = waitFor(nextSeq - 1);
      delivery.drain_();
      return done;
    },

    close() {
      // A server client hands in what closing does (queue-close.ts); a page never closes its queue.
      options.closer_?.close_(state, delivery, persistence);
    },

    reopen() {
      state.closed_ = false; // only a server client's queue is ever closed
    },

    discard(reason, why) {
      const drop = (entries: Entry[]) => state.drop_(eventsOf(entries), reason, `${entries.length} event(s) not sent: ${why}`);
      drop(line.clear());
      // The request in flight goes on; if it comes back unsent (a retry, a split), its events go then.
      const inFlight = state.inFlight_;
      state.dropUnsent_ = (batch) => batch === inFlight && (drop(batch), true);
      state.settleWaiters_();
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
