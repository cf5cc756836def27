/**
 * The queue's delivery loop: when to send (flushAt, the interval, draining), one request in flight,
 * and what each outcome does (deliver, drop, split to isolate a bad event, retry with backoff).
 * queue.ts owns the public interface and the shared state this loop works on.
 */
import { backoffDelay, type RetryOptions } from './backoff';
import { BROWSER_BUILD } from './build-flags';
import { HogtailError, TransportError, type DropReason } from './errors';
import type { QueuedEvent } from './event';
import { eventsOf, type Entry, type WaitingLine } from './queue-line';
import type { QueueOptions, QueueStats } from './queue-types';
import { setBackgroundTimeout, type TimerHandle } from './timers';
import type { DeliveryResult } from './transport';
import { textOf } from './text-of';

/** What the public side and the loop share. */
export interface QueueState {
  readonly line: WaitingLine;
  inFlight: Entry[];
  draining?: boolean;
  /** Set by close() (a server client's only). */
  closed?: boolean;
  /** The counters of stats(), which adds `pending`. */
  readonly stats: Omit<QueueStats, 'pending'>;
  /** Set by discard(): drops a batch that comes back unsent if it was in flight then (true when it did). */
  dropUnsent?: (batch: Entry[]) => boolean;
  drop(events: QueuedEvent[], reason: DropReason, message: string, status?: number): void;
  settleWaiters(all?: boolean): void;
  reportEvictions(): void;
}

export interface Delivery {
  schedulePump(): void;
  armInterval(): void;
  /** Puts entries back at the front (a failed batch, restored events). */
  putBackInFront(entries: Entry[]): void;
  /** flush(): send everything now, not at the next interval. */
  drain(): void;
  /** close(): no timer fires after this (a server client's; absent from the script tag). */
  stop?: () => void;
}

function retryError(count: number, result: Extract<DeliveryResult, { kind: 'retry' }>, failures: number, delay: number): TransportError {
  const message = `${count} event(s) not delivered yet: ${result.message}; retry ${failures} in ${delay} ms.`;
  return new TransportError(message, result.message, failures, delay, result.status, result.cause);
}

/** What an answer other than "retry" does to its batch: delivered, dropped, or halved (`split`) to isolate a bad event. */
function applyAnswer(
  state: QueueState,
  options: QueueOptions,
  batch: Entry[],
  result: Exclude<DeliveryResult, { kind: 'retry' }>,
  split: () => void,
): void {
  const events = eventsOf(batch);
  if (result.kind === 'ok') {
    state.stats.delivered += batch.length;
    options.persistence?.removed(events);
    if (!BROWSER_BUILD) options.onDelivered?.(events);
  } else if (result.kind === 'reject') {
    state.drop(events, 'rejected', `${batch.length} event(s) dropped: ${result.message}`, result.status);
  } else if (batch.length === 1) {
    const reason = result.status === 413 ? 'too_large' : 'rejected';
    state.drop(events, reason, `event ${events[0]!.uuid} dropped: ${result.message}; the rest is delivered`, result.status);
  } else {
    split();
  }
}

export function createDelivery(state: QueueState, options: QueueOptions, retry: RetryOptions): Delivery {
  const { line, stats } = state;
  const random = (!BROWSER_BUILD && options.random) || Math.random;
  // `BROWSER_BUILD ? undefined :` lets the minifier drop the lookahead from the script tag.
  const lookahead = BROWSER_BUILD ? undefined : options.lookahead;
  /** Sizes of the segments to send next while isolating a bad event, top = next. */
  const splitStack: number[] = [];
  let failures = 0;
  /** Size of the batch announced to `lookahead`: the next request takes exactly it (0: none). */
  let reserved = 0;
  let sending = false;
  let pumpScheduled = false;
  let warned = false;
  let intervalTimer: TimerHandle | undefined;
  let backoffTimer: TimerHandle | undefined;
  const closed = () => !BROWSER_BUILD && state.closed; // only a server client closes its queue

  function putBackInFront(entries: Entry[]): void {
    if (lookahead) reserved = 0; // the front changed: what was announced is no longer next
    line.putBackInFront(entries);
  }

  function schedulePump(): void {
    if (pumpScheduled || closed()) return;
    pumpScheduled = true;
    // A microtask: capture() returns before any body is built or compressed.
    queueMicrotask(() => {
      pumpScheduled = false;
      // Nothing may escape a microtask as an uncaught error on the host page: a throw here (a page
      // that patched a built-in hogtail uses) is reported, and the next capture or flush pumps again.
      try {
        state.reportEvictions();
        pump();
      } catch (error) {
        options.onWarning?.(new HogtailError(`sending failed (${textOf(error)}); retried at the next capture or flush`));
      }
    });
  }

  function pump(): void {
    if (closed() || sending || backoffTimer !== undefined) return;
    if (line.count === 0) {
      state.draining = false;
      state.settleWaiters();
      return;
    }
    if (!state.draining && line.count < options.flushAt && splitStack.length === 0) armInterval();
    else sendNext();
  }

  function armInterval(): void {
    if (intervalTimer !== undefined || closed()) return;
    intervalTimer = setBackgroundTimeout(() => {
      intervalTimer = undefined;
      state.draining = true;
      pump();
    }, options.flushIntervalMs);
  }

  function sendNext(): void {
    const usedSplit = splitStack.length > 0;
    const limit = usedSplit ? splitStack[splitStack.length - 1]! : (lookahead && reserved) || options.maxBatchSize;
    const batch = line.nextBatch(limit, options.maxBatchBytes);
    if (lookahead) reserved = 0;
    batch.forEach(line.takeFromHead);
    state.inFlight = batch;
    sending = true;
    stats.requests++;
    let sent: Promise<DeliveryResult>;
    try {
      sent = options.send(eventsOf(batch));
    } catch (cause) {
      // Building the request threw (a patched built-in): retried with backoff like a failed send,
      // so the batch is neither lost nor stuck in flight.
      sent = Promise.reject(cause);
    }
    sent.then(
      (result) => settle(result, usedSplit, batch),
      (cause: unknown) => settle({ kind: 'retry', message: `sending failed (${textOf(cause)})`, cause }, usedSplit, batch),
    );
    // Only when the next request follows this one at once. It then takes exactly these events, so
    // the prepared body fits even if more are captured meanwhile (they go in the request after).
    if (lookahead && !usedSplit && (state.draining || line.count >= options.flushAt)) {
      const upcoming = line.nextBatch(options.maxBatchSize, options.maxBatchBytes);
      reserved = upcoming.length;
      if (reserved > 0) lookahead(eventsOf(upcoming));
    }
  }

  function settle(result: DeliveryResult, usedSplit: boolean, batch: Entry[]): void {
    sending = false;
    // close() already reported these as dropped; a late answer changes nothing for the caller. A
    // queue reopened since (a capture after shutdown) sends what it has taken meanwhile.
    if (state.inFlight !== batch) return closed() ? undefined : pump();
    state.inFlight = [];
    if (closed()) return;
    if (result.kind !== 'ok' && state.dropUnsent?.(batch)) return state.settleWaiters(), pump();
    if (result.kind === 'retry') return retryLater(batch, result);
    if (usedSplit) splitStack.pop();
    failures = 0;
    applyAnswer(state, options, batch, result, () => {
      putBackInFront(batch);
      const firstHalf = Math.ceil(batch.length / 2);
      splitStack.push(batch.length - firstHalf, firstHalf);
    });
    state.settleWaiters();
    pump();
  }

  function retryLater(batch: Entry[], result: Extract<DeliveryResult, { kind: 'retry' }>): void {
    failures++;
    stats.retries++;
    if (result.misconfigured && !warned) {
      warned = true;
      options.onWarning?.(new HogtailError(result.message));
    }
    if (!BROWSER_BUILD && retry.maxRetries !== undefined && failures > retry.maxRetries) {
      // The user capped retries (posthog-node's fetchRetryCount): give this batch up, go on with the next.
      failures = 0;
      const message = `${batch.length} event(s) dropped after ${retry.maxRetries} retries (fetchRetryCount): ${result.message}`;
      state.drop(eventsOf(batch), 'retries_exhausted', message, result.status);
      state.settleWaiters();
      return pump();
    }
    putBackInFront(batch);
    const delay = backoffDelay(failures, retry, random, result.retryAfterMs);
    options.onRetry?.(retryError(batch.length, result, failures, delay));
    if (failures >= retry.maxAttempts) state.settleWaiters(true);
    backoffTimer = setBackgroundTimeout(() => {
      backoffTimer = undefined;
      pump();
    }, delay);
  }

  return {
    schedulePump,
    armInterval,
    putBackInFront,
    drain() {
      state.draining = true;
      clearTimeout(intervalTimer); // a no-op for undefined, in browsers and Node alike
      intervalTimer = undefined;
      schedulePump();
    },
    // Only close() stops the loop (closed, it arms no timer again), and the script tag has no close().
    ...(!BROWSER_BUILD && { stop: () => [intervalTimer, backoffTimer].forEach((timer) => clearTimeout(timer)) }),
  };
}
