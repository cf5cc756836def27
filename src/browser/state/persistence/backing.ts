/**
 * Where the state layer (state.ts) keeps hogtail's per-project state, and where it finds a
 * posthog-js visitor's identity on the first visit. This file is the lean backing the lite script
 * tag uses: one Storage (localStorage, or none for 'memory'). The persistence modes with cookies
 * are in index.ts, behind the same interface, so the lite build leaves them out.
 */
import { attempt } from '../../../core/safe-json';
import { readKey, removeKey, writeKey } from '../storage';
import { identityFromPosthog, type IdentityState } from './posthog-record';

export type { IdentityState } from './posthog-record';

export interface StateBacking {
  /** hogtail's saved state (JSON), or null. */
  json_(): string | null;
  /** Saves the state (and, where the mode has one, posthog-js's identity cookie). */
  save_(state: IdentityState): void;
  /** The visitor posthog-js recorded, to adopt on a first visit (as hogtail's identity fields). */
  adopt_(): Partial<IdentityState> | undefined;
  /** Removes what save() wrote, cookies included (a refusal under the consent modes). */
  forget_(): void;
}

export const parseRecord = (text: string | null): unknown => attempt(() => JSON.parse(text!) as unknown, undefined);

/** State in one Storage (or nowhere: `store` undefined); posthog-js's record read from the same Storage. */
export function storageBacking(store: Storage | undefined, key: string, token: string): StateBacking {
  return {
    json_: () => readKey(store, key),
    save_: (state) => void writeKey(store, key, JSON.stringify(state)),
    forget_: () => removeKey(store, key),
    // posthogName() spells out `+`, `/` and `=`, which project keys (phc_ and base62) never hold.
    adopt_: () => identityFromPosthog(parseRecord(readKey(store, 'ph_' + token + '_posthog'))),
  };
}
