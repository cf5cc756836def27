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
/**
 * Types with a bucket of their own at most, so a program naming error types dynamically cannot grow
 * memory without bound. Types beyond them share one bucket: forgetting a type must not hand it a
 * full bucket again, or 5,000 made-up names would let every error through.
 */
const MAX_TYPES = 1_000;

export function createExceptionRateLimiter(): ExceptionRateLimiter {
  /** Least recently allowed type first; '' (no type's name) is the shared bucket. */
  const fullAt = new Map<string, number>();
  return {
    take(type, now = Date.now()) {
      if (!fullAt.has(type) && fullAt.size >= MAX_TYPES) {
        const [oldest, full] = fullAt.entries().next().value!;
        // The oldest type's bucket full again holds nothing to forget: this type takes its place.
        if (full > now) type = '';
        else fullAt.delete(oldest);
      }
      const next = Math.max(fullAt.get(type) ?? 0, now) + REFILL_MS;
      if (next - now > BUCKET_SIZE * REFILL_MS) return false;
      fullAt.delete(type);
      fullAt.set(type, next);
      return true;
    },
  };
}
