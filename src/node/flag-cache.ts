/**
 * Decide results per distinct id and override set, kept for a TTL and LRU-bounded, so a busy
 * server asks decide once per user per TTL instead of once per flag check (posthog-node caches
 * nothing). Concurrent lookups for the same key share one request. A failed request keeps the last
 * good flags for that key (docs/flags-protocol.md).
 */
import { HogtailError } from '../core/errors';
import {
  decideBody,
  decideUrl,
  mergeDecide,
  parseDecideResponse,
  type DecideOverrides,
  type FlagsSnapshot,
} from '../core/flags/decide';
import { createLru } from '../core/lru';
import { stableJson } from '../core/stable-json';
import type { HttpExecutor } from '../core/transport';

export interface FlagLookup extends DecideOverrides {
  /** The end user's IP, sent as X-Forwarded-For so GeoIP conditions match the user, not the server. */
  ip?: string | undefined;
}

export interface FlagCacheOptions {
  host: string;
  apiKey: string;
  executor: HttpExecutor;
  timeoutMs: number;
  /** How long a decide answer is used. Default 60 s. */
  ttlMs: number;
  /** Most (distinct id, overrides) entries kept. Default 10,000. */
  maxEntries: number;
  onError: (error: HogtailError) => void;
  now?: () => number;
}

interface Entry {
  fetchedAt: number;
  snapshot: FlagsSnapshot;
}

export interface FlagCache {
  /** Fresh flags, from cache or one decide request; the last good ones if decide fails; undefined if none. */
  get(distinctId: string, lookup?: FlagLookup): Promise<FlagsSnapshot | undefined>;
  /** Cached flags without a request (fresh or not), for synchronous callers. */
  peek(distinctId: string, lookup?: FlagLookup): { snapshot: FlagsSnapshot; fresh: boolean } | undefined;
  readonly decideRequests: number;
  clear(): void;
}

export function createFlagCache(options: FlagCacheOptions): FlagCache {
  const now = options.now ?? Date.now;
  const entries = createLru<string, Entry>(options.maxEntries);
  const inFlight = new Map<string, Promise<FlagsSnapshot | undefined>>();
  const url = decideUrl(options.host);
  let decideRequests = 0;

  const keyOf = (distinctId: string, lookup: FlagLookup = {}): string =>
    distinctId + '\u0000' + stableJson([lookup.groups, lookup.personProperties, lookup.groupProperties, lookup.ip]);

  async function fetchFlags(key: string, distinctId: string, lookup: FlagLookup): Promise<FlagsSnapshot | undefined> {
    const previous = entries.get(key)?.snapshot;
    decideRequests++;
    try {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (lookup.ip) headers['X-Forwarded-For'] = lookup.ip;
      const response = await options.executor({
        url,
        body: decideBody(options.apiKey, distinctId, lookup),
        headers,
        timeoutMs: options.timeoutMs,
      });
      if (response.status < 200 || response.status >= 300) {
        throw new Error(`decide answered ${response.status}: ${response.body.slice(0, 200)}`);
      }
      const snapshot = mergeDecide(previous, parseDecideResponse(response.body));
      entries.set(key, { fetchedAt: now(), snapshot });
      return snapshot;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      options.onError(
        new HogtailError(
          `hogtail: feature flags for "${distinctId}" could not be loaded (${reason}); ${previous ? 'using the last good flags' : 'no flags known yet'}.`,
        ),
      );
      return previous;
    }
  }

  return {
    get(distinctId, lookup = {}) {
      const key = keyOf(distinctId, lookup);
      const entry = entries.get(key);
      if (entry && now() - entry.fetchedAt < options.ttlMs) return Promise.resolve(entry.snapshot);
      const pending = inFlight.get(key);
      if (pending) return pending;
      const request = fetchFlags(key, distinctId, lookup).finally(() => inFlight.delete(key));
      inFlight.set(key, request);
      return request;
    },
    peek(distinctId, lookup) {
      const entry = entries.get(keyOf(distinctId, lookup));
      return entry ? { snapshot: entry.snapshot, fresh: now() - entry.fetchedAt < options.ttlMs } : undefined;
    },
    get decideRequests() {
      return decideRequests;
    },
    clear: () => entries.clear(),
  };
}
