import { createHash } from 'node:crypto';

/** 0xFFFFFFFFFFFFFFF: the largest value 15 hex digits hold, so the hash lands in [0, 1]. */
// eslint-disable-next-line no-loss-of-precision -- PostHog divides by this same rounded double
const LONG_SCALE = 0xfffffffffffffff;

/**
 * PostHog's bucketing hash, kept bit-for-bit: sha1 of `<flag key>.<id><salt>`, the first 15 hex
 * digits read as an integer, divided by LONG_SCALE. `parseInt` rounds the 60-bit integer to a double
 * exactly as posthog-node and posthog-js do, so users land in the same buckets as on PostHog. The
 * salt is '' for the rollout decision and 'variant' for the variant choice.
 */
export function flagHash(flagKey: string, id: string, salt = ''): number {
  const hex = createHash('sha1').update(`${flagKey}.${id}${salt}`, 'utf8').digest('hex');
  return parseInt(hex.slice(0, 15), 16) / LONG_SCALE;
}
