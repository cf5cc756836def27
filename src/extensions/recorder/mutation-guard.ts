/**
 * The brake for a page whose DOM changes faster than a recording can carry (an animation written
 * as DOM mutations, a ticker, a runaway loop): DOM changes are metered in bytes against a bucket
 * that refills at a steady rate. Once it is empty the recording stops, says so (a report and a
 * custom event in the recording), and sends what it had, instead of growing the buffer without end
 * or sending megabytes a minute, as posthog-js's mutation throttling stops a node that mutates too
 * often.
 */

/** Bytes of DOM changes a page may burst to. */
export const MUTATION_BURST_BYTES = 2_000_000;
/** Bytes of DOM changes per second a page may keep up. */
export const MUTATION_BYTES_PER_SECOND = 250_000;

/** Meters `bytes` of DOM changes at `now`: false once the page has changed more than the bucket allows (the recording then stops). */
export function createMutationGuard(
  burst = MUTATION_BURST_BYTES,
  perSecond = MUTATION_BYTES_PER_SECOND,
): (bytes: number, now: number) => boolean {
  let tokens = burst;
  let last: number | undefined;
  return (bytes, now) => {
    tokens = Math.min(burst, tokens + ((now - (last ?? now)) / 1000) * perSecond) - bytes;
    last = now;
    return tokens >= 0;
  };
}
