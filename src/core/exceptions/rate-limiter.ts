/**
 * A token bucket per exception type, so a throw loop (a render error on every frame, a failing
 * poll) sends a few `$exception` events and not thousands. posthog-js and posthog-node use the
 * same numbers: 10 per type at once, then 1 more every 10 seconds.
 */
import { createLru } from '../lru';

export interface ExceptionRateLimiter {
  /** True when an exception of this type may be captured now (and uses up a token). */
  take(type: string, now?: number): boolean;
}

export interface RateLimiterOptions {
  bucketSize?: number;
  refillPerInterval?: number;
  intervalMs?: number;
}

/** Types tracked at most; a program naming error types dynamically cannot grow memory without bound. */
const MAX_TYPES = 1_000;

export function createExceptionRateLimiter(options: RateLimiterOptions = {}): ExceptionRateLimiter {
  const size = options.bucketSize ?? 10;
  const refill = options.refillPerInterval ?? 1;
  const interval = options.intervalMs ?? 10_000;
  /** type → [tokens left, time the last refill counts from]; the least recently thrown type goes first. */
  const buckets = createLru<string, [number, number]>(MAX_TYPES);
  return {
    take(type, now = Date.now()) {
      let bucket = buckets.get(type);
      if (bucket) {
        const intervals = Math.floor((now - bucket[1]) / interval);
        if (intervals > 0) bucket = [Math.min(size, bucket[0] + intervals * refill), bucket[1] + intervals * interval];
      } else {
        bucket = [size, now];
      }
      const allowed = bucket[0] > 0;
      if (allowed) bucket[0]--;
      buckets.set(type, bucket);
      return allowed;
    },
  };
}
