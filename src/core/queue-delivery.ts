/**
 * The queue's delivery loop: when to send (flushAt, the interval, draining), one request in flight,
 * and what each outcome does (deliver, drop, split to isolate a bad event, retry with backoff).
 * queue.ts owns the public interface and the shared state this loop works on.
 */
import { backoffDelay, type RetryOptions } from './backoff';
import { BROWSER_BUILD } from './build-flags';
import { HogtailError, TransportError } from './errors';
import { eventsOf, type Entry, type WaitingLine } from './queue-line';
import type { Delivery, Lookahead, QueueOptions, QueueState } from './queue-types';
import { setBackgroundTimeout, type TimerHandle } from './timers';
import type { DeliveryResult } from './transport';
import { textOf } from './text-of';

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
    options.persistence_?.removed(events);
    options.onDelivered_?.(events);
  } else if (result.kind === 'reject') {
    state.drop_(events, 'rejected', `${batch.length} event(s) dropped: ${result.message}`, result.status);
  } else if (batch.length === 1) {
    const reason = result.status === 413 ? 'too_large' : 'rejected';
    state.drop_(events, reason, `event ${events[0]!.uuid} dropped: ${result.message}; the rest is delivered`, result.status);
  } else {
    split();
  }
}

/** One request for `batch`. Building it may throw (a patched built-in): that is a failed send, retried with backoff, so the batch is neither lost nor stuck in flight. */
function startRequest(options: QueueOptions, batch: Entry[]): Promise<DeliveryResult> {
  try {
    return options.send_(eventsOf(batch));
  } catch (cause) {
    return Promise.reject(cause);
  }
}

/** Sizes of a batch's two halves, the first on top of the split stack (sent first). */
const halves = (size: number): [number, number] => [size - Math.ceil(size / 2), Math.ceil(size / 2)];

/** Announces the next request's events to the lookahead (Node), which builds its body meanwhile; returns how many it takes. */
function announceNext(line: WaitingLine, options: QueueOptions, lookahead: Lookahead): number {
  const upcoming = line.nextBatch_(options.maxBatchSize_, options.maxBatchBytes_);
  if (upcoming.length > 0) lookahead(eventsOf(upcoming));
  return upcoming.length;
}

/** True (and `batch` dropped) when the user capped retries (posthog-node's fetchRetryCount) and it is past the cap. */
function pastRetryCap(
  state: QueueState,
  retry: RetryOptions,
  failures: number,
  batch: Entry[],
  result: Extract<DeliveryResult, { kind: 'retry' }>,
): boolean {
  if (BROWSER_BUILD || retry.maxRetries === undefined || failures <= retry.maxRetries) return false;
  const message = `${batch.length} event(s) dropped after ${retry.maxRetries} retries (fetchRetryCount): ${result.message}`;
  state.drop_(eventsOf(batch), 'retries_exhausted', message, result.status);
  state.settleWaiters_();
  return true;
}

/**
 * When the loop runs: in a microtask after a capture (capture() returns before any body is built
 * or compressed), at the flush interval, or at once for flush(); `pump` decides what to send.
 */
function createScheduler(state: QueueState, options: QueueOptions, pump: () => void) {
  let pumpScheduled = false;
  let intervalTimer: TimerHandle | undefined;
  const scheduler = {
    schedulePump_(): void {
      if (pumpScheduled || state.closed_) return;
      pumpScheduled = true;
      queueMicrotask(() => {
        pumpScheduled = false;
        // Nothing may escape a microtask as an uncaught error on the host page: a throw here (a page
        // that patched a built-in hogtail uses) is reported, and the next capture or flush pumps again.
        try {
          state.reportEvictions_();
          pump();
        } catch (error) {
          options.onWarning_?.(new HogtailError(`sending failed (${textOf(error)}); retried at the next capture or flush`));
        }
      });
    },
    armInterval_(): void {
      if (intervalTimer !== undefined || state.closed_) return;
      intervalTimer = setBackgroundTimeout(() => {
        intervalTimer = undefined;
        state.draining_ = true;
        pump();
      }, options.flushIntervalMs_);
    },
    drain_(): void {
      state.draining_ = true;
      scheduler.stopInterval_();
      scheduler.schedulePump_();
    },
    stopInterval_(): void {
      clearTimeout(intervalTimer); // a no-op for undefined, in browsers and Node alike
      intervalTimer = undefined;
    },
  };
  return scheduler;
}

export function createDelivery(state: QueueState, options: QueueOptions, retry: RetryOptions): Delivery {
  const { line_: line, stats } = state;
  const random = options.random_ || Math.random;
  const lookahead = BROWSER_BUILD ? undefined : options.lookahead_; // so the script tag's minifier drops it
  /** Sizes of the segments to send next while isolating a bad event, top = next. */
  const splitStack: number[] = [];
  let failures = 0;
  /** Size of the batch announced to `lookahead`: the next request takes exactly it (0: none). */
  let reserved = 0;
  let sending = false;
  let warned = false;
  let backoffTimer: TimerHandle | undefined;
  const scheduler = createScheduler(state, options, () => pump());
  const { schedulePump_: schedulePump, armInterval_: armInterval, drain_: drain, stopInterval_: stopInterval } = scheduler;

  function putBackInFront(entries: Entry[]): void {
    if (lookahead) reserved = 0; // the front changed: what was announced is no longer next
    line.putBackInFront_(entries);
  }

  function pump(): void {
    if (state.closed_ || sending || backoffTimer !== undefined) return;
    if (line.count_ === 0) {
      state.draining_ = false;
      state.settleWaiters_();
      return;
    }
    if (!state.draining_ && line.count_ < options.flushAt_ && splitStack.length === 0) armInterval();
    else sendNext();
  }

  function sendNext(): void {
    const usedSplit = splitStack.length > 0;
    const limit = usedSplit ? splitStack[splitStack.length - 1]! : (lookahead && reserved) || options.maxBatchSize_;
    const batch = line.nextBatch_(limit, options.maxBatchBytes_);
    if (lookahead) reserved = 0;
    batch.forEach(line.takeFromHead_);
    state.inFlight_ = batch;
    sending = true;
    stats.requests++;
    startRequest(options, batch).then(
      (result) => settle(result, usedSplit, batch),
      (cause: unknown) => settle({ kind: 'retry', message: `sending failed (${textOf(cause)})`, cause }, usedSplit, batch),
    );
    // Only when the next request follows this one at once. It then takes exactly these events, so
    // the prepared body fits even if more are captured meanwhile (they go in the request after).
    if (lookahead && !usedSplit && (state.draining_ || line.count_ >= options.flushAt_)) reserved = announceNext(line, options, lookahead);
  }

  function settle(result: DeliveryResult, usedSplit: boolean, batch: Entry[]): void {
    sending = false;
    // close() already reported these as dropped; a late answer changes nothing for the caller. A
    // queue reopened since (a capture after shutdown) sends what it has taken meanwhile.
    if (state.inFlight_ !== batch) return state.closed_ ? undefined : pump();
    state.inFlight_ = [];
    if (state.closed_) return;
    if (result.kind !== 'ok' && state.dropUnsent_?.(batch)) return (state.settleWaiters_(), pump());
    if (result.kind === 'retry') return retryLater(batch, result);
    if (usedSplit) splitStack.pop();
    failures = 0;
    applyAnswer(state, options, batch, result, () => {
      putBackInFront(batch);
      splitStack.push(...halves(batch.length));
    });
    state.settleWaiters_();
    pump();
  }

  function retryLater(batch: Entry[], result: Extract<DeliveryResult, { kind: 'retry' }>): void {
    failures++;
    stats.retries++;
    if (result.misconfigured && !warned) options.onWarning_?.(new HogtailError(result.message));
    warned ||= !!result.misconfigured; // once per queue: a misconfiguration stays until the app is fixed
    if (pastRetryCap(state, retry, failures, batch, result)) {
      failures = 0; // given up: the next batch starts afresh
      return pump();
    }
    putBackInFront(batch);
    const delay = backoffDelay(failures, retry, random, result.retryAfterMs);
    options.onRetry_?.(retryError(batch.length, result, failures, delay));
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
    drain_: drain,
    // Only close() stops the loop (closed, it arms no timer again).
    stop_() {
      stopInterval();
      clearTimeout(backoffTimer);
    },
  };
}
