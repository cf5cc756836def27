/**
 * Flags answers per distinct id and override set, kept for a TTL and LRU-bounded, so a busy server
 * asks once per user per TTL instead of once per flag check (posthog-node caches nothing; a TTL of
 * 0 turns the cache off). Concurrent lookups for the same key share one request. A failed request
 * keeps the last good flags for that key. A lookup for some flags only (`flagKeys`) asks the server
 * for just those, and its answer serves later lookups of those flags only.
 */
import { HogtailError } from '../errors';
import { mergeDecide, type DecideOverrides, type DecideResult, type FlagsSnapshot } from '../flags/decide';
import type { FlagsClient } from '../flags/flags-client';
import { createLru } from '../lru';
import { hasOwn } from '../own';
import { stableJson } from '../stable-json';
import { textOf } from '../text-of';

export interface FlagLookup extends DecideOverrides {
  /** The end user's IP, sent as X-Forwarded-For so GeoIP conditions match the user, not the server. */
  ip?: string | undefined;
  geoipDisable?: boolean | undefined;
}

export interface FlagCacheOptions {
  flags: FlagsClient;
  /** How long an answer is used; 0: never reused. */
  ttlMs: number;
  /** Most (distinct id, overrides) entries kept. */
  maxEntries: number;
  onError: (error: HogtailError) => void;
  now?: () => number;
}

interface Entry {
  fetchedAt: number;
  snapshot: FlagsSnapshot;
  /** The flags the answer was asked for; undefined: all of them. */
  evaluated: Set<string> | undefined;
}

export interface FlagCache {
  /**
   * Fresh flags, from cache or one request; the last good ones if the request fails; undefined when
   * none could be had. With `flagKeys`, only those flags are asked for when a request is needed.
   */
  get(distinctId: string, lookup?: FlagLookup, flagKeys?: readonly string[]): Promise<FlagsSnapshot | undefined>;
  /** Cached flags (all of them) without a request, fresh or not, for synchronous callers. */
  peek(distinctId: string, lookup?: FlagLookup): { snapshot: FlagsSnapshot; fresh: boolean } | undefined;
  /** Lookups that went to the server (each may have made retries). */
  readonly decideRequests: number;
  clear(): void;
}

/** The answer for some flags only, laid over what was known: those flags are now exactly what it says. */
function mergePartial(previous: FlagsSnapshot | undefined, result: DecideResult, keys: readonly string[]): FlagsSnapshot {
  const merged = mergeDecide(undefined, result);
  if (result.quotaLimited_ || !previous) return previous ?? merged;
  const flags = { ...previous.flags };
  const payloads = { ...previous.payloads };
  for (const key of keys) {
    if (result.partial_ && !hasOwn(merged.flags, key)) continue;
    delete flags[key];
    delete payloads[key];
  }
  return { flags: { ...flags, ...merged.flags }, payloads: { ...payloads, ...merged.payloads }, requestId: merged.requestId };
}

export function createFlagCache(options: FlagCacheOptions): FlagCache {
  const now = options.now ?? Date.now;
  const entries = createLru<string, Entry>(options.maxEntries);
  const inFlight = new Map<string, Promise<FlagsSnapshot | undefined>>();
  let decideRequests = 0;

  const keyOf = (distinctId: string, lookup: FlagLookup = {}): string =>
    distinctId + '\u0000' + stableJson([lookup.groups, lookup.personProperties, lookup.groupProperties, lookup.ip, lookup.geoipDisable]);
  const fresh = (entry: Entry) => options.ttlMs > 0 && now() - entry.fetchedAt < options.ttlMs;
  const serves = (entry: Entry | undefined, keys: readonly string[] | undefined): entry is Entry =>
    entry !== undefined &&
    fresh(entry) &&
    (entry.evaluated === undefined || (keys !== undefined && keys.every((key) => entry.evaluated!.has(key))));

  async function fetchFlags(key: string, distinctId: string, lookup: FlagLookup, keys: readonly string[] | undefined) {
    const entry = entries.get(key);
    const previous = entry?.snapshot;
    decideRequests++;
    try {
      const result = await options.flags.fetch(distinctId, lookup, {
        geoipDisable: lookup.geoipDisable,
        flagKeys: keys,
        headers: lookup.ip ? { 'X-Forwarded-For': lookup.ip } : undefined,
      });
      if (!keys) {
        const snapshot = mergeDecide(previous, result);
        if (options.ttlMs > 0) entries.set(key, { fetchedAt: now(), snapshot, evaluated: undefined });
        return snapshot;
      }
      const snapshot = mergePartial(previous, result, keys);
      // Added to a fresh partial answer, the entry keeps the older time: it expires with its oldest flag.
      const extend = entry?.evaluated && fresh(entry) ? entry : undefined;
      // A server that ignores flag_keys_to_evaluate (decide) answers every flag: all of them are known.
      const evaluated = new Set([...(extend?.evaluated ?? []), ...keys, ...Object.keys(result.flags)]);
      if (options.ttlMs > 0) entries.set(key, { fetchedAt: extend?.fetchedAt ?? now(), snapshot, evaluated });
      return snapshot;
    } catch (error) {
      const reason = error instanceof Error ? error.message : textOf(error);
      options.onError(
        new HogtailError(
          `feature flags for "${distinctId}" could not be loaded (${reason}); ${previous ? 'using the last good flags' : 'their values are unknown (undefined)'}.`,
        ),
      );
      return previous;
    }
  }

  return {
    get(distinctId, lookup = {}, flagKeys) {
      const key = keyOf(distinctId, lookup);
      const entry = entries.get(key);
      if (serves(entry, flagKeys)) return Promise.resolve(entry.snapshot);
      const flightKey = flagKeys ? key + '\u0000' + flagKeys.join('\u0000') : key;
      const pending = inFlight.get(flightKey);
      if (pending) return pending;
      const request = fetchFlags(key, distinctId, lookup, flagKeys).finally(() => inFlight.delete(flightKey));
      inFlight.set(flightKey, request);
      return request;
    },
    peek(distinctId, lookup) {
      const entry = entries.get(keyOf(distinctId, lookup));
      if (!entry || entry.evaluated) return undefined;
      return { snapshot: entry.snapshot, fresh: fresh(entry) };
    },
    get decideRequests() {
      return decideRequests;
    },
    clear: () => entries.clear(),
  };
}
