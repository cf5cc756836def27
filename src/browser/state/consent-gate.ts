/**
 * The consent gate (consent.ts): storage and the state backing as seen while the consent modes
 * forbid writing an identifier. Reads find nothing and writes do nothing, without failing, so the
 * state and the queue simply run from memory and write again once the gate opens.
 */
import type { StateBacking } from './persistence/backing';

/** `store` behind the gate. */
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
    json_: () => (allowed() ? backing.json_() : null),
    save_: (state) => void (allowed() && backing.save_(state)),
    adopt_: () => (allowed() ? backing.adopt_() : undefined),
  };
}
