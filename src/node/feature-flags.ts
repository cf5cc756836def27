/**
 * posthog-node's flag methods on top of the flag cache: values, payloads, `$feature_flag_called`
 * once per (distinct id, flag, value) in an LRU (posthog-node clears its whole map at 50,000 users),
 * and the `$feature/<key>` properties for `capture({ sendFeatureFlags: true })`.
 */
import { featureProperties, parsePayload, type FlagValue } from '../core/flags/decide';
import { createLru } from '../core/lru';
import type { FlagCache, FlagLookup } from './flag-cache';
import type { LocalFlags } from './local-flags/local-flags';

export interface FlagOptions {
  groups?: Record<string, string | number>;
  personProperties?: Record<string, unknown>;
  groupProperties?: Record<string, Record<string, unknown>>;
  /** Send `$feature_flag_called` (once per user, flag and value). Default true. */
  sendFeatureFlagEvents?: boolean;
  /** The end user's IP address, forwarded to decide so GeoIP conditions use it. */
  ip?: string;
  /** With personalApiKey: answer undefined rather than ask the server for a flag local evaluation cannot decide. */
  onlyEvaluateLocally?: boolean;
}

export interface FlagCalled {
  distinctId: string;
  key: string;
  value: FlagValue | undefined;
  groups: Record<string, string | number> | undefined;
  /** Decided from the polled definitions, without a request. */
  locallyEvaluated: boolean;
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

/**
 * With `local` (a personalApiKey was given), each answer comes from the polled definitions when they
 * decide it, and from the server (the cache) only when they cannot, unless `onlyEvaluateLocally`
 * (or the client's strictLocalEvaluation) says to answer undefined instead.
 */
export function createNodeFeatureFlags(
  cache: FlagCache,
  onCalled: (called: FlagCalled) => void,
  maxCalledEntries = 50_000,
  local?: LocalFlags,
  strictLocal = false,
): NodeFeatureFlags {
  const reported = createLru<string, true>(maxCalledEntries);
  const onlyLocal = (options: FlagOptions) => local !== undefined && (options.onlyEvaluateLocally ?? strictLocal);

  async function getFeatureFlag(key: string, distinctId: string, options: FlagOptions = {}) {
    const decided = await local?.flag(key, distinctId, lookupOf(options));
    const value = decided ? decided.value : onlyLocal(options) ? undefined : (await cache.get(distinctId, lookupOf(options)))?.flags[key];
    if (options.sendFeatureFlagEvents !== false) {
      const dedupKey = distinctId + '\u0000' + key + '\u0000' + String(value);
      if (!reported.has(dedupKey)) {
        reported.set(dedupKey, true);
        onCalled({ distinctId, key, value, groups: options.groups, locallyEvaluated: decided !== undefined });
      }
    }
    return value;
  }

  /** Local answers for every flag when they decide them all (or the caller wants nothing else); else the server's on top. */
  async function allFlags(distinctId: string, options: FlagOptions = {}) {
    const locally = await local?.all(distinctId, lookupOf(options));
    if (locally && (locally.undecided.length === 0 || onlyLocal(options))) return { ...locally, known: true };
    if (local && onlyLocal(options)) return { flags: {}, payloads: {}, known: false };
    const snapshot = await cache.get(distinctId, lookupOf(options));
    return {
      flags: { ...locally?.flags, ...snapshot?.flags },
      payloads: { ...locally?.payloads, ...snapshot?.payloads },
      known: snapshot !== undefined || locally !== undefined,
    };
  }

  return {
    getFeatureFlag,
    async isFeatureEnabled(key, distinctId, options) {
      const value = await getFeatureFlag(key, distinctId, options);
      return value === undefined ? undefined : value !== false;
    },
    async getFeatureFlagPayload(key, distinctId, matchValue, options = {}) {
      const decided = await local?.flag(key, distinctId, lookupOf(options));
      if (decided || onlyLocal(options)) {
        if (decided === undefined || decided.value === false) return undefined;
        if (matchValue !== undefined && matchValue !== decided.value) return undefined;
        return parsePayload(decided.payload);
      }
      const snapshot = await cache.get(distinctId, lookupOf(options));
      if (!snapshot) return undefined;
      const value = snapshot.flags[key];
      if (value === undefined || value === false) return undefined;
      if (matchValue !== undefined && matchValue !== value) return undefined;
      return parsePayload(snapshot.payloads[key]);
    },
    async getAllFlags(distinctId, options) {
      return { ...(await allFlags(distinctId, options)).flags };
    },
    async getAllFlagsAndPayloads(distinctId, options) {
      const all = await allFlags(distinctId, options);
      const payloads: Record<string, unknown> = {};
      for (const [key, payload] of Object.entries(all.payloads)) payloads[key] = parsePayload(payload);
      return { featureFlags: { ...all.flags }, featureFlagPayloads: payloads };
    },
    async propertiesFor(distinctId, lookup) {
      const all = await allFlags(distinctId, lookup);
      return all.known ? featureProperties(all.flags) : {};
    },
  };
}
