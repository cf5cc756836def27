/**
 * Who the user is and what sticks to them, persisted per project (localStorage by default; the
 * persistence modes and posthog-js's cookie are in persistence/):
 * distinct id, device id, identified or not, super properties, groups, opt-out and the session.
 *
 * Writes are coalesced to one per task, and another tab's write is picked up through the `storage`
 * event, so tabs share one identity and one session. A change of the session's last activity alone
 * is written at most every ACTIVITY_MS: a write is the whole state (plus posthog-js's cookie in the
 * default mode), and writing it at every event was most of an autocaptured click's cost. A site
 * moving from posthog-js keeps its users: their anonymous id and device id are read from
 * posthog-js's own key the first time.
 */
import type { FlagsSnapshot } from '../../core/flags/decide';
import { attempt } from '../../core/safe-json';
import { uuidv7 } from '../../core/uuid';
import type { PageInfo } from '../capture/event-properties/campaign';
import { storageBacking, type StateBacking } from './persistence/backing';
import { withPlainArrays } from './plain-json';
import { checkState } from './state-check';

/** Meta's ids (capture/event-properties/meta-ids.ts): [value, already sent] per person property. */
export type MetaIds = Partial<Record<'$fbc' | '$fbp', [string, boolean]>>;

export interface PersistedState {
  distinct_id: string;
  $device_id: string;
  $user_state: 'anonymous' | 'identified';
  /** Person processing on (identified_only mode): set by identify, alias, group, setPersonProperties. */
  $epp?: boolean;
  props: Record<string, unknown>;
  $groups: Record<string, string>;
  optout?: boolean;
  /** [session id, last activity ms, session start ms] */
  sid?: [string, number, number];
  /** The last good feature flags (client.ts, feature flags). */
  ff?: FlagsSnapshot;
  /** posthog-js's local flag overrides (featureFlags.overrideFeatureFlags()), over `ff` wherever flags are read. */
  fo?: FlagsSnapshot;
  /** `$feature_flag_called` already sent: [distinct id, …JSON [key, value]]. */
  fc?: string[];
  /** setPersonPropertiesForFlags / setGroupPropertiesForFlags overrides, sent with every flags request. */
  fp?: Record<string, unknown>;
  fg?: Record<string, Record<string, unknown>>;
  /** The server's `autocapture_opt_out` from the last flags answer that had it (autocapture). */
  aco?: boolean;
  /** The visitor's first page (event-properties/initial-person.ts). */
  ipi?: PageInfo;
  /** The first touch an older posthog-js recorded, as `$initial_*` properties (persistence/posthog-record.ts). */
  ipl?: Record<string, unknown>;
  /** The session's first page: [session id, page] (event-properties/session-entry.ts). */
  se?: [string, PageInfo];
  /** Meta's click and browser ids for the person. */
  fb?: MetaIds;
}

export interface StateStore {
  readonly state_: PersistedState;
  /** Replaces the whole state (reset). */
  replace_(next: PersistedState): void;
  save_(): void;
  /** Removes the stored state (its cookies too); what is in memory stays. */
  forget_(): void;
  /** Keeps the state somewhere else from now on: removed from the old place, written to `next`. */
  move_(next: StateBacking): void;
  /**
   * The session id for an event at `now`, rotating after 30 minutes idle or 24 hours. `passive`:
   * not the user's doing (a recorded DOM change), so it does not keep the session alive.
   */
  session_(now: number, passive?: boolean): string;
  /** Told each new session id. */
  onNewSession_?: (sessionId: string) => void;
}

const IDLE_MS = 30 * 60_000;
const MAX_SESSION_MS = 24 * 60 * 60_000;
/**
 * The stored last activity may be this much older than the last event, so another tab or the next
 * page may end a session up to this much before 30 idle minutes: a rounding error next to them.
 */
const ACTIVITY_MS = 10_000;

export function freshState(deviceId?: string, optout?: boolean): PersistedState {
  const id = uuidv7();
  return { distinct_id: id, $device_id: deviceId ?? id, $user_state: 'anonymous', props: {}, $groups: {}, optout };
}

/**
 * @param store localStorage (or undefined in memory mode): another tab's write of `key` there is
 *   picked up, whatever the backing.
 * @param backing where the state is kept (persistence/): by default `store` under `key`, with
 *   posthog-js's record read from `store` too; the cookie modes hand in their own.
 */
export function createStateStore(
  store: Storage | undefined,
  key: string,
  token: string,
  bootstrap: { distinctID?: unknown; isIdentifiedID?: unknown } | undefined,
  backing: StateBacking = storageBacking(store, key, token),
  onBad?: (field: string, value: unknown) => void,
): StateStore {
  const load = (): PersistedState | undefined => {
    const text = backing.json_();
    const saved = checkState(text === null ? undefined : attempt(() => JSON.parse(text) as unknown, text), (field, value) => {
      onBad?.(field, value);
      queueMicrotask(() => save()); // written back repaired, so it is reported once
    });
    return saved && { ...freshState(), ...(saved as Partial<PersistedState>) };
  };
  let scheduled = false;
  /** The session's last activity as stored. */
  let saved: number | undefined;
  const bootId = bootstrap?.distinctID;
  // Nothing stored: the bootstrap identity, else posthog-js's own record of this user (its session included).
  let state =
    load() ??
    Object.assign(
      freshState(),
      typeof bootId === 'string' && bootId !== ''
        ? { distinct_id: bootId, $user_state: bootstrap!.isIdentifiedID ? 'identified' : 'anonymous' }
        : backing.adopt_(),
    );
  const write = () => {
    scheduled = false;
    saved = state.sid?.[1];
    // In a microtask: nothing may throw from here into the page (a page's JSON.stringify that throws).
    attempt(() => withPlainArrays(() => backing.save_(state)), 0);
  };
  const save = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(write);
  };
  save();

  if (store) {
    addEventListener('storage', (event) => {
      if (event.key === key) {
        state = load() ?? state;
        saved = state.sid?.[1];
      }
    });
  }

  const stateStore: StateStore = {
    get state_() {
      return state;
    },
    replace_(next) {
      state = next;
      save();
    },
    save_: save,
    forget_: () => backing.forget_(),
    move_(next) {
      backing.forget_();
      backing = next;
      save();
    },
    session_(now, passive) {
      let sid = state.sid;
      if (!sid || now - sid[1] > IDLE_MS || now - sid[2] > MAX_SESSION_MS) {
        sid = state.sid = [uuidv7(now), now, now];
        saved = undefined;
        stateStore.onNewSession_?.(sid[0]);
      } else if (!passive) sid[1] = now;
      // A new session (nothing saved to compare with) or a clock set back writes too.
      if (!(Math.abs(now - saved!) < ACTIVITY_MS)) save();
      return sid[0];
    },
  };
  return stateStore;
}
