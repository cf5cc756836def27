/**
 * One flag store per client, shared by every hook that reads it: it listens to the client once
 * (`onFeatureFlags`), keeps the latest flags, and tells React when they change. Hooks read their
 * snapshot from it through `useSyncExternalStore`, so one render never sees two sets of flags
 * (tear-free). Values that are objects (payloads, the active list) are cached until the next
 * change: React compares snapshots by identity, and a fresh object per read would re-render forever.
 */
import type { FlagValue, PostHogClient } from './client-type';

export interface FlagStore {
  /** All flags once known; undefined before. */
  flags(): Record<string, FlagValue> | undefined;
  /** The enabled keys, the same array until the flags change. */
  active(): string[] | undefined;
  /** The flag's payload, the same value until the flags change. */
  payload(key: string): unknown;
  subscribe(onChange: () => void): () => void;
}

const stores = new WeakMap<PostHogClient, FlagStore>();

/**
 * A flag map's own entry for `key`. Flag keys are any text: read unchecked, a flag named
 * `toString` or `constructor` would "be" Object.prototype's function.
 */
export function ownEntry<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function flagStore(client: PostHogClient): FlagStore {
  let store = stores.get(client);
  if (!store) stores.set(client, (store = createFlagStore(client)));
  return store;
}

function createFlagStore(client: PostHogClient): FlagStore {
  const subscribers = new Set<() => void>();
  let flags: Record<string, FlagValue> | undefined;
  let active: string[] | undefined;
  let payloads = new Map<string, unknown>();
  // Registered once for the client's life (the store lives as long as the client, in a WeakMap).
  // Before init() the client keeps the registration and runs it at init, as it does any call.
  client.onFeatureFlags((enabled, all) => {
    flags = { ...all };
    active = [...enabled];
    payloads = new Map();
    subscribers.forEach((notify) => notify());
  });
  return {
    flags: () => flags,
    active: () => active,
    payload(key) {
      if (!flags) return undefined;
      if (!payloads.has(key)) payloads.set(key, client.getFeatureFlagPayload(key));
      return payloads.get(key);
    },
    subscribe(onChange) {
      subscribers.add(onChange);
      return () => void subscribers.delete(onChange);
    },
  };
}
