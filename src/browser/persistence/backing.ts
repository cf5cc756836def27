/**
 * Where the state layer (state.ts) keeps hogtail's per-project state, and where it finds a
 * posthog-js visitor's identity on the first visit. This file is the lean backing the lite script
 * tag uses: one Storage (localStorage, or none for 'memory'). The persistence modes with cookies
 * are in index.ts, behind the same interface, so the lite build leaves them out.
 */
import { attempt } from '../../core/safe-json';
import { readKey, writeKey } from '../storage';
import { identityFromPosthog, posthogName, type IdentityState } from './posthog-record';

export type { IdentityState } from './posthog-record';

export interface StateBacking {
  /** hogtail's saved state (JSON), or null. */
  read(): string | null;
  /** Saves the state (and, where the mode has one, posthog-js's identity cookie). */
  write(state: IdentityState): void;
  /** posthog-js's record of this visitor, as hogtail's identity fields. */
  posthog(): Partial<IdentityState> | undefined;
  /** Calls `listener` when another tab saved the state. */
  watch(listener: () => void): void;
}

export const parseRecord = (text: string | null): unknown => attempt(() => JSON.parse(text!) as unknown, undefined);

/** Calls `listener` on another tab's write of `key` to localStorage. */
export function watchKey(key: string, listener: () => void): void {
  addEventListener('storage', (event) => {
    if (event.key === key) listener();
  });
}

/** State in one Storage (or nowhere: `store` undefined); posthog-js's record read from the same Storage. */
export function storageBacking(store: Storage | undefined, key: string, token: string): StateBacking {
  return {
    read: () => readKey(store, key),
    write: (state) => void writeKey(store, key, JSON.stringify(state)),
    posthog: () => identityFromPosthog(parseRecord(readKey(store, posthogName(token)))),
    watch: (listener) => store && watchKey(key, listener),
  };
}
