/**
 * posthog-node's `overrideFeatureFlags()`: values (and payloads) that answer before any local or
 * remote evaluation, for tests and local development. Takes posthog-node's shapes: `false` clears,
 * a list of keys turns them on, a record of values, or `{ flags, payloads }`.
 */
import type { FlagValue } from '../flags/decide';

export type OverrideFeatureFlagsOptions =
  | false
  | string[]
  | Record<string, FlagValue>
  | { flags?: false | string[] | Record<string, FlagValue>; payloads?: false | Record<string, unknown> };

export interface FlagOverrides {
  flags: Record<string, FlagValue> | undefined;
  payloads: Record<string, unknown> | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const allOn = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, true as FlagValue]));
const flagsOf = (value: false | string[] | Record<string, FlagValue>) =>
  value === false ? undefined : Array.isArray(value) ? allOn(value) : { ...value };

/** Whether `value` is the `{ flags, payloads }` form rather than a record of flag values named so. */
function isOptionsForm(
  value: Record<string, unknown>,
): value is { flags?: false | string[] | Record<string, FlagValue>; payloads?: false | Record<string, unknown> } {
  const { flags, payloads } = value;
  return flags === false || Array.isArray(flags) || isRecord(flags) || payloads === false || isRecord(payloads);
}

/** The overrides after one `overrideFeatureFlags(given)` call on `current`. */
export function applyOverrides(current: FlagOverrides, given: OverrideFeatureFlagsOptions): FlagOverrides {
  if (given === false) return { flags: undefined, payloads: undefined };
  if (Array.isArray(given)) return { ...current, flags: allOn(given) };
  if (!isRecord(given)) return current;
  if (!isOptionsForm(given)) return { ...current, flags: { ...(given as Record<string, FlagValue>) } };
  const next = { ...current };
  if (given.flags !== undefined) next.flags = flagsOf(given.flags);
  if (given.payloads !== undefined) next.payloads = given.payloads === false ? undefined : { ...given.payloads };
  return next;
}
