/**
 * The queue's delivery loop: when to send (flushAt, the interval, draining), one request in flight,
 * and what each outcome does (deliver, drop, split to isolate a bad event, retry with backoff).
 * queue.ts owns the public interface and the shared state this loop works on.
 */
import { backoffDelay, type RetryOptions } from './backoff';
import { BROWSER_BUILD } from './build-flags';
import { HogtailError, TransportError } from './errors';
import { eventsOf, type Entry } from './queue-line';
import type { Delivery, QueueOptions, QueueState } from './queue-types';
import { setBackgroundTimeout, type TimerHandle } from './timers';
import type { DeliveryResult } from './transport';
import { textOf } from './text-of';

function retryError(count: number, result: Extract<DeliveryResult, { kind: 'retry' }>, failures: number, delay: number): TransportError {
  const message = `${count} event(s) not delivered yet: ${result.message}; retry ${failures} in ${delay} ms.`;
  return new TransportError(message, failures, delay, result.status, result.cause);
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
    options.onDelivered?.(events);
  } else if (result.kind === 'reject') {
    state.drop_(events, 'rejected', `${batch.length} event(s) dropped: ${result.message}`, result.status);
  } else if (batch.length === 1) {
    const reason = result.status === 413 ? 'too_large' : 'rejected';
    state.drop_(events, reason, `event ${events[0]!.uuid} dropped: ${result.message}; the rest is delivered`, result.status);
  } else {
    split();
  }
}

export function createDelivery(state: QueueState, options: QueueOptions, retry: RetryOptions): Delivery {
  const { line_: line, stats } = state;
  const random = options.random || Math.random;
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
  const closed = () => state.closed_; // only a server client closes its queue (queue-close.ts)

  function putBackInFront(entries: Entry[]): void {
    if (lookahead) reserved = 0; // the front changed: what was announced is no longer next
    line.putBackInFront_(entries);
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
        state.reportEvictions_();
        pump();
      } catch (error) {
        options.onWarning?.(new HogtailError(`sending failed (${textOf(error)}); retried at the next capture or flush`));
      }
    });
  }

  function pump(): void {
    if (closed() || sending || backoffTimer !== undefined) return;
    if (line.count === 0) {
      state.draining_ = false;
      state.settleWaiters_();
      return;
    }
    if (!state.draining_ && line.count < options.flushAt && splitStack.length === 0) armInterval();
    else sendNext();
  }

  function armInterval(): void {
    if (intervalTimer !== undefined || closed()) return;
    intervalTimer = setBackgroundTimeout(() => {
      intervalTimer = undefined;
      state.draining_ = true;
      pump();
    }, options.flushIntervalMs);
  }

  function sendNext(): void {
    const usedSplit = splitStack.length > 0;
    const limit = usedSplit ? splitStack[splitStack.length - 1]! : (lookahead && reserved) || options.maxBatchSize;
    const batch = line.nextBatch_(limit, options.maxBatchBytes);
    if (lookahead) reserved = 0;
    batch.forEach(line.takeFromHead_);
    state.inFlight_ = batch;
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
      (result) => settle(result, usedSplit),
      (cause: unknown) => settle({ kind: 'retry', message: `sending failed (${textOf(cause)})`, cause }, usedSplit),
    );
    // Only when the next request follows this one at once. It then takes exactly these events, so
    // the prepared body fits even if more are captured meanwhile (they go in the request after).
    if (lookahead && !usedSplit && (state.draining_ || line.count >= options.flushAt)) {
      const upcoming = line.nextBatch_(options.maxBatchSize, options.maxBatchBytes);
      reserved = upcoming.length;
      if (reserved > 0) lookahead(eventsOf(upcoming));
    }
  }

  function settle(result: DeliveryResult, usedSplit: boolean): void {
    sending = false;
    const batch = state.inFlight_;
    state.inFlight_ = [];
    // close() already reported these as dropped; a late success changes nothing for the caller.
    if (closed()) return;
    if (result.kind === 'retry') return retryLater(batch, result);
    if (usedSplit) splitStack.pop();
    failures = 0;
    applyAnswer(state, options, batch, result, () => {
      putBackInFront(batch);
      const firstHalf = Math.ceil(batch.length / 2);
      splitStack.push(batch.length - firstHalf, firstHalf);
    });
    state.settleWaiters_();
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
      state.drop_(eventsOf(batch), 'retries_exhausted', message, result.status);
      state.settleWaiters_();
      return pump();
    }
    putBackInFront(batch);
    const delay = backoffDelay(failures, retry, random, result.retryAfterMs);
    options.onRetry?.(retryError(batch.length, result, failures, delay));
    if (failures >= retry.maxAttempts) state.settleWaiters_(true);
    backoffTimer = setBackgroundTimeout(() => {
      backoffTimer = undefined;
      pump();
    }, delay);
  }

  return {
    schedulePump_: schedulePump,
    armInterval_: armInterval,
    putBackInFront_: putBackInFront,
    drain_() {
      state.draining_ = true;
      clearTimeout(intervalTimer); // a no-op for undefined, in browsers and Node alike
      intervalTimer = undefined;
      schedulePump();
    },
    // Only close() stops the loop (closed, it arms no timer again).
    stop_: () => [intervalTimer, backoffTimer].forEach((timer) => clearTimeout(timer)),
  };
}
