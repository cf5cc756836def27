/**
 * posthog-node's flag methods on top of the flag cache: values, payloads, `$feature_flag_called`
 * once per (distinct id, flag, value) in an LRU (posthog-node clears its whole map at 50,000 users),
 * and the `$feature/<key>` properties for `capture({ sendFeatureFlags: true })`.
 */
import { featureProperties, parsePayload, type FlagValue } from '../core/flags/decide';
import { createLru } from '../core/lru';
import type { FlagCache, FlagLookup } from './flag-cache';

export interface FlagOptions {
  groups?: Record<string, string | number>;
  personProperties?: Record<string, unknown>;
  groupProperties?: Record<string, Record<string, unknown>>;
  /** Send `$feature_flag_called` (once per user, flag and value). Default true. */
  sendFeatureFlagEvents?: boolean;
  /** The end user's IP address, forwarded to decide so GeoIP conditions use it. */
  ip?: string;
}

export interface FlagCalled {
  distinctId: string;
  key: string;
  value: FlagValue | undefined;
  groups: Record<string, string | number> | undefined;
}

export interface NodeFeatureFlags {
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

const lookupOf = (options: FlagOptions = {}): FlagLookup => ({
  groups: options.groups,
  personProperties: options.personProperties,
  groupProperties: options.groupProperties,
  ip: options.ip,
});

export function createNodeFeatureFlags(
  cache: FlagCache,
  onCalled: (called: FlagCalled) => void,
  maxCalledEntries = 50_000,
): NodeFeatureFlags {
  const reported = createLru<string, true>(maxCalledEntries);

  async function getFeatureFlag(key: string, distinctId: string, options: FlagOptions = {}) {
    const snapshot = await cache.get(distinctId, lookupOf(options));
    const value = snapshot?.flags[key];
    if (options.sendFeatureFlagEvents !== false) {
      const dedupKey = distinctId + '\u0000' + key + '\u0000' + String(value);
      if (!reported.has(dedupKey)) {
        reported.set(dedupKey, true);
        onCalled({ distinctId, key, value, groups: options.groups });
      }
    }
    return value;
  }

  return {
    getFeatureFlag,
    async isFeatureEnabled(key, distinctId, options) {
      const value = await getFeatureFlag(key, distinctId, options);
      return value === undefined ? undefined : value !== false;
    },
    async getFeatureFlagPayload(key, distinctId, matchValue, options) {
      const snapshot = await cache.get(distinctId, lookupOf(options));
      if (!snapshot) return undefined;
      const value = snapshot.flags[key];
      if (value === undefined || value === false) return undefined;
      if (matchValue !== undefined && matchValue !== value) return undefined;
      return parsePayload(snapshot.payloads[key]);
    },
    async getAllFlags(distinctId, options) {
      return { ...(await cache.get(distinctId, lookupOf(options)))?.flags };
    },
    async getAllFlagsAndPayloads(distinctId, options) {
      const snapshot = await cache.get(distinctId, lookupOf(options));
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
