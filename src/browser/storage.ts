/**
 * localStorage, or nothing. Private modes, sandboxed iframes and blocked cookies make merely
 * reading `window.localStorage` throw, and a full store throws on write; hogtail must never let
 * that reach the page (DESIGN §4.4), so callers get `undefined` and run from memory instead.
 */
export function openLocalStorage(): Storage | undefined {
  try {
    const store = window.localStorage;
    // A probe write catches stores that read fine but refuse every write (full, or Safari's old private mode).
    store.setItem('ht_probe', '1');
    store.removeItem('ht_probe');
    return store;
  } catch {
    return undefined;
  }
}

/** Reads never throw: a store that broke after the probe reads as empty. */
export function readKey(store: Storage | undefined, key: string): string | null {
  try {
    return store ? store.getItem(key) : null;
  } catch {
    return null;
  }
}

/** False when the write failed (full, revoked); the caller then stops writing for the page. */
export function writeKey(store: Storage | undefined, key: string, value: string): boolean {
  try {
    store!.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeKey(store: Storage | undefined, key: string): void {
  try {
    store?.removeItem(key);
  } catch {
    // Nothing to do: a key we cannot remove is resent by a later page, with the same uuid.
  }
}

/** Every key that starts with `prefix`; a scan, so callers use it rarely (start-up, adoption sweeps). */
export function keysWith(store: Storage | undefined, prefix: string): string[] {
  const found: string[] = [];
  try {
    for (let i = 0; store && i < store.length; i++) {
      const key = store.key(i);
      if (key !== null && key.startsWith(prefix)) found.push(key);
    }
  } catch {
    // A store that fails mid-scan yields what was read.
  }
  return found;
}
