/**
 * posthog-node 5's `evaluateFlags()` answer: one user's flags at one moment. Code branches on
 * `isEnabled()` / `getFlag()` (each sends `$feature_flag_called` once per user, flag and value) and
 * hands the same snapshot to `capture({ flags })`, so the event carries exactly the values the
 * code branched on (`$feature/<key>` and `$active_feature_flags`), with no second lookup.
 */
import type { FlagValue } from '../flags/decide';

export interface FeatureFlagEvaluations {
  isEnabled(key: string, options?: { defaultValue?: boolean; sendFeatureFlagEvents?: boolean }): boolean;
  getFlag(key: string, options?: { sendFeatureFlagEvents?: boolean }): FlagValue | undefined;
  /** The flag's payload (JSON-parsed); not an access, sends nothing. */
  getFlagPayload(key: string): unknown;
  /** A copy with only the flags read so far, for capture(). */
  onlyAccessed(): FeatureFlagEvaluations;
  /** A copy with only these flags, for capture(); keys not in the snapshot are left out and said. */
  only(keys: string[]): FeatureFlagEvaluations;
  readonly keys: string[];
}

export interface SnapshotSource {
  flags: Record<string, FlagValue>;
  payloads: Record<string, unknown>;
  /** A read of `key`: sends `$feature_flag_called` unless `send` is false (deduplicated by the caller). */
  read(key: string, value: FlagValue | undefined, send: boolean | undefined): void;
  warn(message: string): void;
}

/** The event properties of each snapshot, kept beside it so the object shows only posthog-node's methods. */
const eventProperties = new WeakMap<object, Record<string, unknown>>();

/** `$feature/<key>` and `$active_feature_flags` (sorted, left out when none is on), as posthog-node's capture({ flags }) adds them. */
export function snapshotProperties(flags: unknown): Record<string, unknown> | undefined {
  return typeof flags === 'object' && flags !== null ? eventProperties.get(flags) : undefined;
}

function propertiesOf(flags: Record<string, FlagValue>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flags)) properties['$feature/' + key] = value;
  const active = Object.keys(flags)
    .filter((key) => flags[key] !== false)
    .sort();
  if (active.length > 0) properties.$active_feature_flags = active;
  return properties;
}

export function createFlagSnapshot(source: SnapshotSource, accessed = new Set<string>()): FeatureFlagEvaluations {
  const { flags, payloads } = source;
  const slice = (keys: Iterable<string>) => {
    const picked = { ...source, flags: {} as Record<string, FlagValue> };
    for (const key of keys) if (key in flags) picked.flags[key] = flags[key]!;
    return createFlagSnapshot(picked, new Set(accessed));
  };
  const read = (key: string, send: boolean | undefined) => {
    accessed.add(key);
    source.read(key, flags[key], send);
    return flags[key];
  };
  const snapshot: FeatureFlagEvaluations = {
    isEnabled(key, options = {}) {
      const value = read(key, options.sendFeatureFlagEvents);
      return value === undefined ? (options.defaultValue ?? false) : value !== false;
    },
    getFlag: (key, options = {}) => read(key, options.sendFeatureFlagEvents),
    getFlagPayload: (key) => (key in flags ? payloads[key] : undefined),
    onlyAccessed: () => slice(accessed),
    only(keys) {
      const missing = keys.filter((key) => !(key in flags));
      if (missing.length > 0) source.warn(`only() was given flag keys that are not in this evaluation, left out: ${missing.join(', ')}`);
      return slice(keys);
    },
    get keys() {
      return Object.keys(flags);
    },
  };
  eventProperties.set(snapshot, propertiesOf(flags));
  return snapshot;
}
