/**
 * The state layer's slice of the runtime (runtime.ts): who the user is and what is kept about
 * them, where it is stored, and the consent choice that decides whether it may be.
 */
import type { HogtailConfig } from '../hogtail';
import type { Properties, SessionIdListener } from '../types';
import type { StateStore } from './state';

export type ConsentStatus = 'granted' | 'denied' | 'pending';

export interface StateSlice {
  readonly states_: StateStore;
  /** person_profiles as init() had it: 'always', 'never', anything else is 'identified_only'. */
  readonly mode_: HogtailConfig['person_profiles'];
  /** The user's choice (opt_in/opt_out), kept apart from the identity so it holds while nothing else is stored. */
  consent_: ConsentStatus;
  /** localStorage as the page has it (the state and the queue see it through the consent gate). */
  readonly store_: Storage | undefined;
  /** Storage key prefix of this project: `ht|<key>|`. */
  readonly base_: string;
  /** register_for_session's properties (sessionStorage). */
  readonly sessionProps_: Properties;
  readonly sessionListeners_: Set<SessionIdListener>;
  /** Stored values found unusable and replaced (stats().repaired). */
  repaired_: number;
}
