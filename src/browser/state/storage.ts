/**
 * localStorage (or sessionStorage), or nothing. Private modes, sandboxed iframes and blocked
 * cookies make merely reading `window.localStorage` throw, and a full store throws on write;
 * hogtail must never let that reach the page (docs/guarantees.md §4), so callers get `undefined` and run from memory instead.
 */
import { attempt } from '../../core/safe-json';
export function openStorage(name: 'localStorage' | 'sessionStorage' = 'localStorage'): Storage | undefined {
  return attempt(() => {
    const store = window[name];
    // A write, since a full or zero-quota store fails only then; the key is in hogtail's `ht|` space.
    store.setItem('ht|', '1');
    store.removeItem('ht|');
    return store;
  }, undefined);
}

export const readKey = (store: Storage | undefined, key: string): string | null => attempt(() => store!.getItem(key), null);

/** False when the write failed (full, revoked, no storage: answered without a TypeError thrown and caught). */
export const writeKey = (store: Storage | undefined, key: string, value: string): boolean =>
  !!store && attempt(() => (store.setItem(key, value), true), false);

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
