/**
 * posthog-node's flag methods on top of the flag cache: values, payloads, `$feature_flag_called`
 * once per (distinct id, flag, value) in an LRU (posthog-node clears its whole map at 50,000 users),
 * and the `$feature/<key>` properties for `capture({ sendFeatureFlags: true })`.
 */
import { featureProperties, parsePayload, type FlagValue } from '../flags/decide';
import { createLru } from '../lru';
import { hasOwn, ownValue, setOwn } from '../own';
import type { FlagCache, FlagLookup } from './flag-cache';
import { applyOverrides, type FlagOverrides, type OverrideFeatureFlagsOptions } from './flag-overrides';

export interface FlagOptions {
  groups?: Record<string, string | number>;
  personProperties?: Record<string, unknown>;
  groupProperties?: Record<string, Record<string, unknown>>;
  /** Send `$feature_flag_called` (once per user, flag and value). Default true. */
  sendFeatureFlagEvents?: boolean;
  /** Ask the server not to locate the user by IP for this lookup. Default: the client's disableGeoip. */
  disableGeoip?: boolean;
  /**
   * Answer from local evaluation only (a personalApiKey's polled definitions), never with a
   * request: undefined for what it cannot decide, and always without a personalApiKey, as
   * posthog-node answers.
   */
  onlyEvaluateLocally?: boolean;
  /** getAllFlags / getAllFlagsAndPayloads: ask for these flags only. */
  flagKeys?: string[];
  /** The end user's IP address, forwarded to the flags endpoint so GeoIP conditions use it. */
  ip?: string;
}

/**
 * Flags decided in-process from polled definitions (local evaluation, given a personalApiKey:
 * local-flags/). Each answer is either decided or undefined, meaning "ask the server".
 */
export interface LocalEvaluator {
  /** A decided flag, with its definition's id and version (sent with `$feature_flag_called`, as posthog-node does). */
  flag(
    key: string,
    distinctId: string,
    lookup: FlagLookup,
  ): Promise<{ value: FlagValue; payload: unknown; id?: number; version?: number } | undefined>;
  all(
    distinctId: string,
    lookup: FlagLookup,
  ): Promise<{ flags: Record<string, FlagValue>; payloads: Record<string, unknown>; undecided: string[] } | undefined>;
  allNow(distinctId: string, lookup: FlagLookup): { flags: Record<string, FlagValue>; undecided: string[] } | undefined;
}

export interface FlagCalled {
  distinctId: string;
  key: string;
  /** Undefined when the value could not be had: then `error` says why. */
  value: FlagValue | undefined;
  requestId: string | undefined;
  /** posthog-node's `$feature_flag_error`: 'flag_missing' or 'unknown_error'. */
  error: string | undefined;
  groups: Record<string, string | number> | undefined;
  disableGeoip: boolean | undefined;
  /** Decided from the polled definitions, without a request. */
  locallyEvaluated: boolean;
  /** The local definition's id and version, when decided locally. */
  definition?: { id: number; version: number } | undefined;
}

export interface ServerFeatureFlags {
  getFeatureFlag(key: string, distinctId: string, options?: FlagOptions): Promise<FlagValue | undefined>;
  isFeatureEnabled(key: string, distinctId: string, options?: FlagOptions): Promise<boolean | undefined>;
  getFeatureFlagPayload(key: string, distinctId: string, matchValue?: FlagValue, options?: FlagOptions): Promise<unknown>;
  getAllFlags(distinctId: string, options?: FlagOptions): Promise<Record<string, FlagValue>>;
  getAllFlagsAndPayloads(
    distinctId: string,
    options?: FlagOptions,
  ): Promise<{ featureFlags: Record<string, FlagValue>; featureFlagPayloads: Record<string, unknown> }>;
  /** Properties for an event captured with sendFeatureFlags. */
  propertiesFor(distinctId: string, lookup: FlagLookup): Promise<Record<string, unknown>>;
  /** evaluateFlags(): every flag and its parsed payload, overrides applied. */
  evaluate(
    distinctId: string,
    options?: FlagOptions,
  ): Promise<{ flags: Record<string, FlagValue>; payloads: Record<string, unknown>; requestId?: string | undefined }>;
  /** A snapshot's read: `$feature_flag_called` once per (user, flag, value), as getFeatureFlag sends it. */
  called(distinctId: string, key: string, value: FlagValue | undefined, options: FlagOptions, requestId?: string): void;
  /** overrideFeatureFlags(): values that answer before any evaluation. */
  override(given: OverrideFeatureFlagsOptions): void;
}

export interface FeatureFlagsOptions {
  cache: FlagCache;
  onCalled: (called: FlagCalled) => void;
  maxCalledEntries: number;
  /** The client's disableGeoip when a call gives none (undefined: not set). */
  geoipDisable: (perCall: boolean | undefined, ip: string | undefined) => boolean;
  /** Told once that onlyEvaluateLocally is asked for without local evaluation (no personalApiKey). */
  warnLocalOnly: () => void;
  local?: LocalEvaluator | undefined;
  /** Never ask the server for what local evaluation cannot decide (the strictLocalEvaluation option). */
  strictLocal?: boolean;
}

/** Each group's properties carry its key as `$group_key`, as posthog-node sends them (conditions may use it). */
export function withGroupKeys(
  groups: Record<string, string | number> | undefined,
  given: Record<string, Record<string, unknown>> | undefined,
): Record<string, Record<string, unknown>> | undefined {
  if (!groups || typeof groups !== 'object') return given;
  const all: Record<string, Record<string, unknown>> = { ...given };
  for (const [type, key] of Object.entries(groups)) all[type] = { $group_key: key, ...given?.[type] };
  return all;
}

type Snapshot = { flags: Record<string, FlagValue>; payloads: Record<string, unknown>; requestId?: string | undefined };

export function createServerFeatureFlags(options: FeatureFlagsOptions): ServerFeatureFlags {
  const { cache, onCalled, local } = options;
  const reported = createLru<string, true>(options.maxCalledEntries);
  let overrides: FlagOverrides = { flags: undefined, payloads: undefined };

  const lookupOf = (o: FlagOptions = {}): FlagLookup => ({
    groups: o.groups,
    personProperties: o.personProperties,
    groupProperties: withGroupKeys(o.groups, o.groupProperties),
    ip: o.ip,
    geoipDisable: options.geoipDisable(o.disableGeoip, o.ip),
  });
  /** Whether this call may not ask the server. Without local evaluation there is nothing local to answer. */
  const onlyLocal = (o: FlagOptions) => {
    const only = o.onlyEvaluateLocally ?? (local !== undefined && options.strictLocal === true);
    if (only && !local) options.warnLocalOnly();
    return only;
  };

  /** One flag: decided locally when possible, else from the server (asking for that flag only). */
  async function oneFlag(key: string, distinctId: string, o: FlagOptions = {}) {
    if (overrides.flags !== undefined && key in overrides.flags) {
      return { value: overrides.flags[key], payload: overrides.payloads?.[key], snapshot: undefined, locally: true, definition: undefined };
    }
    const lookup = lookupOf(o);
    const decided = await local?.flag(key, distinctId, lookup);
    if (decided) {
      const definition =
        decided.id === undefined || decided.version === undefined ? undefined : { id: decided.id, version: decided.version };
      return { value: decided.value, payload: decided.payload, snapshot: undefined, locally: true, definition };
    }
    if (onlyLocal(o)) return { value: undefined, payload: undefined, snapshot: undefined, locally: false, skipped: true };
    const snapshot = await cache.get(distinctId, lookup, [key]);
    return { value: ownValue(snapshot?.flags, key), payload: ownValue(snapshot?.payloads, key), snapshot, locally: false };
  }

  function called(
    distinctId: string,
    key: string,
    found: {
      value: FlagValue | undefined;
      requestId?: string | undefined;
      answered: boolean;
      locally: boolean;
      definition?: { id: number; version: number } | undefined;
    },
    o: FlagOptions,
  ) {
    const dedupKey = distinctId + '\u0000' + key + '\u0000' + String(found.value);
    if (reported.has(dedupKey)) return;
    reported.set(dedupKey, true);
    onCalled({
      distinctId,
      key,
      value: found.value,
      requestId: found.requestId,
      error: found.value !== undefined ? undefined : found.answered ? 'flag_missing' : 'unknown_error',
      groups: o.groups,
      disableGeoip: o.disableGeoip,
      locallyEvaluated: found.locally,
      definition: found.definition,
    });
  }

  /** Every flag: local answers when they decide them all (or the caller wants nothing else), else the server's on top. */
  async function allFlags(distinctId: string, o: FlagOptions = {}): Promise<Snapshot | undefined> {
    const found = await evaluatedFlags(distinctId, o);
    if (overrides.flags === undefined && overrides.payloads === undefined) return found;
    return { ...found, flags: { ...found?.flags, ...overrides.flags }, payloads: { ...found?.payloads, ...overrides.payloads } };
  }

  async function evaluatedFlags(distinctId: string, o: FlagOptions): Promise<Snapshot | undefined> {
    const lookup = lookupOf(o);
    const locally = await local?.all(distinctId, lookup);
    if (locally && (locally.undecided.length === 0 || onlyLocal(o))) return locally;
    if (onlyLocal(o)) return undefined;
    const snapshot = await cache.get(distinctId, lookup, o.flagKeys);
    if (!snapshot && !locally) return undefined;
    const merged = { flags: { ...locally?.flags, ...snapshot?.flags }, payloads: { ...locally?.payloads, ...snapshot?.payloads } };
    if (!o.flagKeys) return merged;
    // Only what was asked for, as posthog-node answers.
    const pick = <T>(all: Record<string, T>) =>
      Object.fromEntries(o.flagKeys!.filter((key) => hasOwn(all, key)).map((key) => [key, all[key]!]));
    return { flags: pick(merged.flags), payloads: pick(merged.payloads) };
  }

  async function getFeatureFlag(key: string, distinctId: string, o: FlagOptions = {}) {
    const found = await oneFlag(key, distinctId, o);
    if (o.sendFeatureFlagEvents !== false && !('skipped' in found)) {
      const definition = 'definition' in found ? found.definition : undefined;
      called(
        distinctId,
        key,
        {
          value: found.value,
          requestId: found.snapshot?.requestId,
          answered: found.snapshot !== undefined,
          locally: found.locally,
          definition,
        },
        o,
      );
    }
    return found.value;
  }

  return {
    getFeatureFlag,
    async isFeatureEnabled(key, distinctId, o) {
      const value = await getFeatureFlag(key, distinctId, o);
      return value === undefined ? undefined : value !== false;
    },
    async getFeatureFlagPayload(key, distinctId, matchValue, o) {
      const { value, payload } = await oneFlag(key, distinctId, o);
      if (value === undefined || value === false) return undefined;
      if (matchValue !== undefined && matchValue !== value) return undefined;
      return parsePayload(payload);
    },
    async getAllFlags(distinctId, o) {
      return { ...(await allFlags(distinctId, o))?.flags };
    },
    async getAllFlagsAndPayloads(distinctId, o) {
      const all = await allFlags(distinctId, o);
      const payloads: Record<string, unknown> = {};
      for (const [key, payload] of Object.entries(all?.payloads ?? {})) setOwn(payloads, key, parsePayload(payload));
      return { featureFlags: { ...all?.flags }, featureFlagPayloads: payloads };
    },
    async evaluate(distinctId, o) {
      const all = await allFlags(distinctId, o);
      const payloads: Record<string, unknown> = {};
      for (const [key, payload] of Object.entries(all?.payloads ?? {})) payloads[key] = parsePayload(payload);
      return { flags: { ...all?.flags }, payloads, requestId: all?.requestId };
    },
    called(distinctId, key, value, o, requestId) {
      called(distinctId, key, { value, requestId, answered: true, locally: false }, o);
    },
    override(given) {
      overrides = applyOverrides(overrides, given);
    },
    async propertiesFor(distinctId, lookup) {
      const locally = await local?.all(distinctId, lookup);
      if (locally && (locally.undecided.length === 0 || options.strictLocal)) return featureProperties(locally.flags);
      const snapshot = await cache.get(distinctId, lookup);
      if (!snapshot && !locally) return {};
      return featureProperties({ ...locally?.flags, ...snapshot?.flags });
    },
  };
}
