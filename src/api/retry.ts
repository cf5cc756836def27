/**
 * When to try a request again and how long to wait first. GETs retry by default; writes only when the
 * caller opts in, because a write whose answer was lost may already have taken effect.
 */
import { backoffDelay as coreBackoffDelay, DEFAULT_RETRY } from '../core/backoff';
import { parseRetryAfter as parseRetryAfterValue } from '../core/transport';

/**
 * Statuses worth another attempt: 408 and 429 say "later", 5xx says the server (or a proxy in front
 * of it) had trouble. 501 and 505 are excluded because they will not change on a retry.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/**
 * Retry-After as ms: delta seconds or an HTTP date; undefined when absent or unreadable. Core reads
 * the value; this is stricter about what counts as one: a value that is neither digits nor a date
 * (every HTTP date names a weekday or month) is ignored for our own backoff, where core would take
 * "-4" as "now". A management call is worth that care; an event queue is not.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  const seconds = /^\d+(\.\d+)?$/.test(trimmed);
  // A date has letters; "1e3" has one too, but is a number in a form the header does not allow.
  if (!seconds && (!/[a-z]/i.test(trimmed) || Number.isFinite(Number(trimmed)))) return undefined;
  return parseRetryAfterValue(trimmed, now);
}

/**
 * Exponential backoff with jitter for retry number `retry` (0 for the first retry): between half and
 * all of base·2^retry, capped at maxMs, so many clients failing together do not come back in
 * lockstep. Core's formula, counted from 0.
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  return coreBackoffDelay(retry + 1, { ...DEFAULT_RETRY, initialDelayMs: baseMs, maxDelayMs: maxMs }, random);
}

/** Waits `ms`, rejecting with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
