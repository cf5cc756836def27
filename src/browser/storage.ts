/**
 * localStorage, or nothing. Private modes, sandboxed iframes and blocked cookies make merely
 * reading `window.localStorage` throw, and a full store throws on write; hogtail must never let
 * that reach the page (DESIGN §4.4), so callers get `undefined` and run from memory instead.
 */
import { attempt } from '../core/safe-json';
import type { StateBacking } from './persistence/backing';
export function openLocalStorage(): Storage | undefined {
  return attempt(() => {
    const store = window.localStorage;
    // A write, since a full or zero-quota store fails only then; the key is in hogtail's `ht|` space.
    store.setItem('ht|', '1');
    store.removeItem('ht|');
    return store;
  }, undefined);
}

export const readKey = (store: Storage | undefined, key: string): string | null =>
  attempt(() => store!.getItem(key), null);

/** False when the write failed (full, revoked, no storage). */
export const writeKey = (store: Storage | undefined, key: string, value: string): boolean =>
  attempt(() => (store!.setItem(key, value), true), false);

export const removeKey = (store: Storage | undefined, key: string): unknown => attempt(() => store?.removeItem(key), 0);

export function keysWith(store: Storage | undefined, prefix: string): string[] {
  const found: string[] = [];
  // A store that throws part way still yields the keys read so far.
  attempt(() => {
    for (let i = 0; store && i < store.length; i++) {
      const key = store.key(i);
      if (key?.startsWith(prefix)) found.push(key);
    }
  }, 0);
  return found;
}

/**
 * `store` as seen while `allowed()` may say no (consent modes that must not write an identifier):
 * then reads find nothing and writes do nothing, without failing, so the callers (state, ledger)
 * simply run from memory and write again once it says yes.
 */
export function gateStorage(store: Storage, allowed: () => boolean): Storage {
  return {
    getItem: (key) => (allowed() ? store.getItem(key) : null),
    setItem: (key, value) => void (allowed() && store.setItem(key, value)),
    removeItem: (key) => store.removeItem(key),
    key: (index) => (allowed() ? store.key(index) : null),
    get length() {
      return allowed() ? store.length : 0;
    },
    clear() {},
  };
}

/** The same gate for a state backing of the persistence modes (cookies included). */
export function gateBacking(backing: StateBacking, allowed: () => boolean): StateBacking {
  return {
    ...backing,
    read: () => (allowed() ? backing.read() : null),
    write: (state) => void (allowed() && backing.write(state)),
    posthog: () => (allowed() ? backing.posthog() : undefined),
  };
}
