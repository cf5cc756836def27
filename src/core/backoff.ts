/** Retry timing for transient failures: exponential, capped, with jitter so clients spread out. */
export interface RetryOptions {
  /**
   * First wait after a failure, in ms.
   * @default 500
   */
  initialDelayMs: number;
  /**
   * Longest wait between attempts, in ms.
   * @default 30_000
   */
  maxDelayMs: number;
  /**
   * After this many consecutive failures, flush() stops waiting and resolves; the events stay
   * queued and retries go on at maxDelayMs.
   * @default 8
   */
  maxAttempts: number;
  /**
   * A Retry-After longer than this (ms) is shortened to it.
   * @default 600_000 (10 minutes)
   */
  maxRetryAfterMs: number;
  /**
   * When set (posthog-node's fetchRetryCount), a batch still failing after this many retries is
   * dropped and reported (reason 'retries_exhausted'). Unset: retries go on while the queue has room.
   */
  maxRetries?: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxAttempts: 8,
  maxRetryAfterMs: 600_000,
};

/** Full delay for attempt n (1-based): half fixed, half random, so a thundering herd spreads out. */
export function backoffDelay(attempt: number, options: RetryOptions, random: () => number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxRetryAfterMs);
  const exponential = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(exponential * (0.5 + random() * 0.5));
}
