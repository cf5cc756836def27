/**
 * posthog-node's flag methods on top of the flag cache: values, payloads, `$feature_flag_called`
 * once per (distinct id, flag, value) in an LRU (posthog-node clears its whole map at 50,000 users),
 * and the `$feature/<key>` properties for `capture({ sendFeatureFlags: true })`.
 */
import { featureProperties, parsePayload, type FlagsSnapshot, type FlagValue } from '../flags/decide';
import { createLru } from '../lru';
import type { FlagCache, FlagLookup } from './flag-cache';

export interface FlagOptions {
  groups?: Record<string, string | number>;
  personProperties?: Record<string, unknown>;
  groupProperties?: Record<string, Record<string, unknown>>;
  /** Send `$feature_flag_called` (once per user, flag and value). Default true. */
  sendFeatureFlagEvents?: boolean;
  /** Ask the server not to locate the user by IP for this lookup. Default: the client's disableGeoip. */
  disableGeoip?: boolean;
  /**
   * Evaluate without a request. Local evaluation is not available yet, so the answer is then
   * undefined (as posthog-node answers when it cannot evaluate locally).
   */
  onlyEvaluateLocally?: boolean;
  /** getAllFlags / getAllFlagsAndPayloads: ask for these flags only. */
  flagKeys?: string[];
  /** The end user's IP address, forwarded to the flags endpoint so GeoIP conditions use it. */
  ip?: string;
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
}

export interface FeatureFlagsOptions {
  cache: FlagCache;
  onCalled: (called: FlagCalled) => void;
  maxCalledEntries: number;
  /** The client's disableGeoip when a call gives none (undefined: not set). */
  geoipDisable: (perCall: boolean | undefined, ip: string | undefined) => boolean;
  /** Told once that onlyEvaluateLocally cannot be honoured yet. */
  warnLocalOnly: () => void;
}

export function createServerFeatureFlags(options: FeatureFlagsOptions): ServerFeatureFlags {
  const { cache, onCalled } = options;
  const reported = createLru<string, true>(options.maxCalledEntries);

  const lookupOf = (o: FlagOptions = {}): FlagLookup => ({
    groups: o.groups,
    personProperties: o.personProperties,
    groupProperties: o.groupProperties,
    ip: o.ip,
    geoipDisable: options.geoipDisable(o.disableGeoip, o.ip),
  });

  /** The snapshot for these options, or undefined without a request when only local evaluation is allowed. */
  function snapshotFor(distinctId: string, o: FlagOptions = {}, keys?: readonly string[]): Promise<FlagsSnapshot | undefined> {
    if (o.onlyEvaluateLocally) {
      options.warnLocalOnly();
      return Promise.resolve(undefined);
    }
    return cache.get(distinctId, lookupOf(o), keys);
  }

  async function getFeatureFlag(key: string, distinctId: string, o: FlagOptions = {}) {
    const snapshot = await snapshotFor(distinctId, o, [key]);
    const value = snapshot?.flags[key];
    if (o.sendFeatureFlagEvents !== false && !o.onlyEvaluateLocally) {
      const dedupKey = distinctId + '\u0000' + key + '\u0000' + String(value);
      if (!reported.has(dedupKey)) {
        reported.set(dedupKey, true);
        onCalled({
          distinctId,
          key,
          value,
          requestId: snapshot?.requestId,
          error: value !== undefined ? undefined : snapshot ? 'flag_missing' : 'unknown_error',
          groups: o.groups,
          disableGeoip: o.disableGeoip,
        });
      }
    }
    return value;
  }

  return {
    getFeatureFlag,
    async isFeatureEnabled(key, distinctId, o) {
      const value = await getFeatureFlag(key, distinctId, o);
      return value === undefined ? undefined : value !== false;
    },
    async getFeatureFlagPayload(key, distinctId, matchValue, o) {
      const snapshot = await snapshotFor(distinctId, o, [key]);
      if (!snapshot) return undefined;
      const value = snapshot.flags[key];
      if (value === undefined || value === false) return undefined;
      if (matchValue !== undefined && matchValue !== value) return undefined;
      return parsePayload(snapshot.payloads[key]);
    },
    async getAllFlags(distinctId, o) {
      return { ...(await snapshotFor(distinctId, o, o?.flagKeys))?.flags };
    },
    async getAllFlagsAndPayloads(distinctId, o) {
      const snapshot = await snapshotFor(distinctId, o, o?.flagKeys);
      const payloads: Record<string, unknown> = {};
      for (const [key, payload] of Object.entries(snapshot?.payloads ?? {})) payloads[key] = parsePayload(payload);
      return { featureFlags: { ...snapshot?.flags }, featureFlagPayloads: payloads };
    },
    async propertiesFor(distinctId, lookup) {
      const snapshot = await cache.get(distinctId, lookup);
      return snapshot ? featureProperties(snapshot.flags) : {};
    },
  };
}
