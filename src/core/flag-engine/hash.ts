/**
 * PostHog's bucketing hash: sha1 of `<flag key>.<id><salt>`, the first 15 hex digits read as an
 * integer, divided by 0xFFFFFFFFFFFFFFF. `parseInt` rounds the 60-bit integer to a double exactly as
 * posthog-node and posthog-js do, so ids land in the same buckets as on PostHog. The salt is '' for
 * the rollout decision and 'variant' for the variant choice.
 *
 * Core cannot reach a sha1 (node:crypto, Web Crypto's is async), so the platform hands one in.
 */

/** Lowercase hex sha1 of the UTF-8 bytes of `text`. */
export type Sha1Hex = (text: string) => string;

/** Rollout / variant position in [0, 1]. Holdouts join with '-' instead of '.' (`holdout-<id>`). */
export type FlagHasher = (flagKey: string, id: string, salt?: string, separator?: string) => number;

/**
 * 0xFFFFFFFFFFFFFFF: the largest value 15 hex digits hold, so the hash lands in [0, 1]. It rounds to
 * a double on purpose: every PostHog SDK divides by that same rounded value.
 */
// eslint-disable-next-line no-loss-of-precision -- the rounding is PostHog's, see above
const LONG_SCALE = 0xfffffffffffffff;

export function createFlagHasher(sha1: Sha1Hex): FlagHasher {
  return (flagKey, id, salt = '', separator = '.') => parseInt(sha1(`${flagKey}${separator}${id}${salt}`).slice(0, 15), 16) / LONG_SCALE;
}
