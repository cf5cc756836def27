/**
 * A token bucket per exception type, so a throw loop (a render error on every frame, a failing
 * poll) sends a few `$exception` events and not thousands. posthog-js and posthog-node use the
 * same numbers: 10 per type at once, then 1 more every 10 seconds. A bucket is one number: when
 * it is full again (each token taken puts that 10 s later).
 */

export interface ExceptionRateLimiter {
  /** True when an exception of this type may be captured now (and uses up a token). */
  take(type: string, now?: number): boolean;
}

const BUCKET_SIZE = 10;
const REFILL_MS = 10_000;
/** Types tracked at most; a program naming error types dynamically cannot grow memory without bound. */
const MAX_TYPES = 1_000;

export function createExceptionRateLimiter(): ExceptionRateLimiter {
  /** Least recently allowed type first. */
  const fullAt = new Map<string, number>();
  return {
    take(type, now = Date.now()) {
      const next = Math.max(fullAt.get(type) ?? 0, now) + REFILL_MS;
      if (next - now > BUCKET_SIZE * REFILL_MS) return false;
      fullAt.delete(type);
      fullAt.set(type, next);
      if (fullAt.size > MAX_TYPES) fullAt.delete(fullAt.keys().next().value!);
      return true;
    },
  };
}
