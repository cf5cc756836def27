/**
 * The delivery queue: batching, one request in flight, retry with backoff, splitting on 400/413,
 * bounded size, and flush/close. Platforms hand it a BatchSender and, optionally, a persistence
 * hook; it owns everything else (Sentry-style).
 *
 * Invariants:
 * - Events leave in capture order, one request at a time, so a historical migration stays ordered.
 * - An event leaves the queue only after a 2xx for a request that carried it, or with a counted,
 *   reported reason (DroppedEventsError).
 * - Transient failures never drop: the batch goes back to the front and is retried with backoff.
 */
import type { BatchSender } from './batch-sender';
import { backoffDelay, DEFAULT_RETRY, type RetryOptions } from './backoff';
import { DroppedEventsError, TransportError, type DropReason } from './errors';
import type { QueuedEvent } from './event';
import { setBackgroundTimeout, type TimerHandle } from './timers';
import type { DeliveryResult } from './transport';

/** Lets a platform keep the queue durable: told of every event added and every event settled. */
export interface QueuePersistence {
  appended(event: QueuedEvent): void;
  removed(events: readonly QueuedEvent[]): void;
  /**
   * Told what is still queued at close(); returns the events it could not keep for a later run.
   * Only those are reported as dropped ('shutdown'): the rest are not lost. Without it, all are.
   */
  retain?(events: readonly QueuedEvent[]): QueuedEvent[];
}

/**
 * Told, while a request is in flight, which events will make the next one, so the platform can
 * build and compress that body meanwhile (Node). The wire still sees one request at a time.
 */
export type Lookahead = (events: readonly QueuedEvent[]) => void;

export interface QueueOptions {
  send: BatchSender;
  /** Start a request once this many events wait. */
  flushAt: number;
  /** Or once the oldest waiting event has waited this long (ms). */
  flushIntervalMs: number;
  /** Most events in one request. */
  maxBatchSize: number;
  /** Most JSON characters in one request (a UTF-8 byte is at most 3 of these... kept far under 20 MiB). */
  maxBatchBytes: number;
  /** Most events waiting; the oldest is evicted (and reported) beyond it. */
  maxQueueSize: number;
  /** Most JSON characters waiting; the oldest is evicted beyond it. */
  maxQueueBytes: number;
  retry?: Partial<RetryOptions>;
  persistence?: QueuePersistence;
  onDrop: (error: DroppedEventsError) => void;
  onRetry?: (error: TransportError) => void;
  /** Jitter source; tests pass a fixed one. */
  random?: () => number;
}

export interface QueueStats {
  enqueued: number;
  delivered: number;
  dropped: Partial<Record<DropReason, number>>;
  requests: number;
  retries: number;
  pending: number;
}

export interface Queue {
  enqueue(event: QueuedEvent): void;
  /** Puts events from an earlier run in front of everything, oldest first. */
  restore(events: readonly QueuedEvent[]): void;
  /** Resolves once everything queued before the call is delivered or dropped (or retries stall). */
  flush(): Promise<void>;
  /** Stops all timers and drops what is left with reason 'shutdown'. */
  close(): void;
  /** Reports a drop that happened outside the queue (invalid input, opt-out) in the same counters. */
  countDrop(reason: DropReason, count?: number): void;
  stats(): QueueStats;
  readonly pending: number;
}

interface Entry {
  event: QueuedEvent;
  seq: number;
  size: number;
}

interface Waiter {
  targetSeq: number;
  resolve: () => void;
}

/**
 * @param closable false where close() is never called (the browser): the bundler then sees that
 *   `closed` stays false and leaves close() and every check of it out of the script tag.
 * @param lookahead passed by Node only; the script tag, which never passes it, does not carry it.
 */
export function createQueue(options: QueueOptions, closable?: false, lookahead?: Lookahead): Queue {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const random = options.random ?? Math.random;
  const { send, persistence, onDrop, onRetry } = options;

  // Waiting events live in `waiting` from index `head`; shifting a large array per batch was O(n).
  let waiting: Entry[] = [];
  let head = 0;
  let waitingBytes = 0;
  let inFlight: Entry[] = [];
  let nextSeq = 1;
  let restoreSeq = 0;
  let waiters: Waiter[] = [];
  /** Sizes of the segments to send next while isolating a bad event, top = next. */
  const splitStack: number[] = [];
  let failures = 0;
  /** Size of the batch announced to `lookahead`: the next request takes exactly it (0: none). */
  let reserved = 0;
  let draining = false;
  let sending = false;
  let closed = false;
  let pumpScheduled = false;
  let intervalTimer: TimerHandle | undefined;
  let backoffTimer: TimerHandle | undefined;
  let evicted: QueuedEvent[] = [];

  const stats: QueueStats = { enqueued: 0, delivered: 0, dropped: {}, requests: 0, retries: 0, pending: 0 };

  const waitingCount = () => waiting.length - head;

  function countDrop(reason: DropReason, count = 1): void {
    stats.dropped[reason] = (stats.dropped[reason] ?? 0) + count;
  }

  function drop(events: QueuedEvent[], reason: DropReason, message: string, status?: number): void {
    if (events.length === 0) return;
    countDrop(reason, events.length);
    // What a shutdown leaves stays in durable storage for the next run to send.
    if (reason !== 'shutdown') persistence?.removed(events);
    onDrop(new DroppedEventsError(message, reason, events.map((e) => e.uuid), status));
  }

  function takeFromHead(): Entry | undefined {
    const entry = waiting[head];
    if (entry === undefined) return undefined;
    waiting[head] = undefined as unknown as Entry; // let it be collected before compaction
    head++;
    waitingBytes -= entry.size;
    if (head > 1024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
    return entry;
  }

  function putBackInFront(entries: Entry[]): void {
    if (lookahead) reserved = 0; // the front changed: what was announced is no longer next
    waiting = entries.concat(waiting.slice(head));
    head = 0;
    for (const entry of entries) waitingBytes += entry.size;
  }

  function oldestPendingSeq(): number {
    return inFlight[0]?.seq ?? waiting[head]?.seq ?? Infinity;
  }

  function settleWaiters(all = false): void {
    if (waiters.length === 0) return;
    const oldest = oldestPendingSeq();
    const keep: Waiter[] = [];
    for (const waiter of waiters) {
      if (all || waiter.targetSeq < oldest) waiter.resolve();
      else keep.push(waiter);
    }
    waiters = keep;
  }

  function reportEvictions(): void {
    if (evicted.length === 0) return;
    const events = evicted;
    evicted = [];
    drop(
      events,
      'queue_full',
      `${events.length} oldest queued event(s) were dropped because the queue was full (maxQueueSize ${options.maxQueueSize}, maxQueueBytes ${options.maxQueueBytes}). Raise the limits or check that the server is reachable.`,
    );
  }

  function schedulePump(): void {
    if (pumpScheduled || closed) return;
    pumpScheduled = true;
    // A microtask: capture() returns before any body is built or compressed.
    queueMicrotask(() => {
      pumpScheduled = false;
      reportEvictions();
      pump();
    });
  }

  function pump(): void {
    if (closed || sending || backoffTimer !== undefined) return;
    const count = waitingCount();
    if (count === 0) {
      draining = false;
      settleWaiters();
      return;
    }
    if (!draining && count < options.flushAt && splitStack.length === 0) {
      armInterval();
      return;
    }
    sendNext();
  }

  function armInterval(): void {
    if (intervalTimer !== undefined || closed) return;
    intervalTimer = setBackgroundTimeout(() => {
      intervalTimer = undefined;
      draining = true;
      pump();
    }, options.flushIntervalMs);
  }

  /** The entries at the front that make the next request (by count and bytes), left in place. */
  function nextBatch(limit: number): Entry[] {
    const batch: Entry[] = [];
    let bytes = 0;
    for (let index = head; batch.length < limit; index++) {
      const next = waiting[index];
      if (next === undefined || (batch.length > 0 && bytes + next.size > options.maxBatchBytes)) break;
      bytes += next.size;
      batch.push(next);
    }
    return batch;
  }

  function sendNext(): void {
    const usedSplit = splitStack.length > 0;
    // `lookahead &&` everywhere `reserved` is touched lets the bundler drop it from the script tag.
    const batch = nextBatch(usedSplit ? splitStack[splitStack.length - 1]! : (lookahead && reserved) || options.maxBatchSize);
    if (lookahead) reserved = 0;
    batch.forEach(takeFromHead);
    inFlight = batch;
    sending = true;
    stats.requests++;
    send(batch.map((entry) => entry.event)).then(
      (result) => settle(result, usedSplit),
      (cause: unknown) => settle({ kind: 'retry', message: `sending failed (${String(cause)})`, cause }, usedSplit),
    );
    // Only when the next request follows this one at once. It then takes exactly these events, so
    // the prepared body fits even if more are captured meanwhile (they go in the request after).
    if (lookahead && !usedSplit && (draining || waitingCount() >= options.flushAt)) {
      const upcoming = nextBatch(options.maxBatchSize);
      reserved = upcoming.length;
      if (reserved > 0) lookahead(upcoming.map((entry) => entry.event));
    }
  }

  function settle(result: DeliveryResult, usedSplit: boolean): void {
    sending = false;
    const batch = inFlight;
    inFlight = [];
    if (closed) {
      // close() already reported these as dropped; a late success changes nothing for the caller.
      return;
    }
    const events = batch.map((entry) => entry.event);
    switch (result.kind) {
      case 'ok':
        if (usedSplit) splitStack.pop();
        failures = 0;
        stats.delivered += batch.length;
        persistence?.removed(events);
        break;
      case 'reject':
        if (usedSplit) splitStack.pop();
        failures = 0;
        drop(events, 'rejected', `${batch.length} event(s) dropped: ${result.message}`, result.status);
        break;
      case 'split':
        if (usedSplit) splitStack.pop();
        failures = 0;
        if (batch.length === 1) {
          const reason = result.status === 413 ? 'too_large' : 'rejected';
          drop(events, reason, `event ${events[0]!.uuid} dropped: ${result.message}. Every other event of its request is delivered.`, result.status);
        } else {
          putBackInFront(batch);
          const firstHalf = Math.ceil(batch.length / 2);
          splitStack.push(batch.length - firstHalf, firstHalf);
        }
        break;
      case 'retry': {
        putBackInFront(batch);
        failures++;
        stats.retries++;
        const delay = backoffDelay(failures, retry, random, result.retryAfterMs);
        onRetry?.(
          new TransportError(
            `${batch.length} event(s) not delivered yet: ${result.message}; retry ${failures} in ${delay} ms.`,
            failures,
            delay,
            result.status,
            result.cause,
          ),
        );
        if (failures >= retry.maxAttempts) settleWaiters(true);
        backoffTimer = setBackgroundTimeout(() => {
          backoffTimer = undefined;
          pump();
        }, delay);
        return;
      }
    }
    settleWaiters();
    pump();
  }

  function makeEntry(event: QueuedEvent, seq: number): Entry {
    return { event, seq, size: event.json.length };
  }

  return {
    enqueue(event) {
      if (closed) {
        drop([event], 'shutdown', `event ${event.uuid} captured after shutdown() was not sent. Capture before shutting down.`);
        return;
      }
      const entry = makeEntry(event, nextSeq++);
      while (
        waitingCount() > 0 &&
        (waitingCount() >= options.maxQueueSize || waitingBytes + entry.size > options.maxQueueBytes)
      ) {
        evicted.push(takeFromHead()!.event);
      }
      waiting.push(entry);
      waitingBytes += entry.size;
      stats.enqueued++;
      persistence?.appended(event);
      if (evicted.length > 0 || waitingCount() >= options.flushAt || draining) schedulePump();
      else armInterval();
    },

    restore(events) {
      if (events.length === 0) return;
      restoreSeq -= events.length;
      const entries = events.map((event, index) => makeEntry(event, restoreSeq + index));
      putBackInFront(entries);
      stats.enqueued += entries.length;
      draining = true;
      schedulePump();
    },

    flush() {
      if (closed || (waitingCount() === 0 && inFlight.length === 0)) return Promise.resolve();
      const targetSeq = nextSeq - 1;
      draining = true;
      if (intervalTimer !== undefined) {
        clearTimeout(intervalTimer);
        intervalTimer = undefined;
      }
      const done = new Promise<void>((resolve) => waiters.push({ targetSeq, resolve }));
      schedulePump();
      return done;
    },

    close() {
      if (closed || closable === false) return;
      reportEvictions();
      closed = true;
      if (intervalTimer !== undefined) clearTimeout(intervalTimer);
      if (backoffTimer !== undefined) clearTimeout(backoffTimer);
      intervalTimer = backoffTimer = undefined;
      const queued = inFlight.concat(waiting.slice(head)).map((entry) => entry.event);
      waiting = [];
      head = 0;
      waitingBytes = 0;
      const left = persistence?.retain ? persistence.retain(queued) : queued;
      drop(left, 'shutdown', `${left.length} event(s) were still undelivered when the client shut down (deadline reached or server unreachable).`);
      settleWaiters(true);
    },

    countDrop,

    stats() {
      return { ...stats, dropped: { ...stats.dropped }, pending: waitingCount() + inFlight.length };
    },

    get pending() {
      return waitingCount() + inFlight.length;
    },
  };
}
