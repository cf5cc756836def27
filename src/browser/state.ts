/**
 * Who the user is and what sticks to them, persisted per project (localStorage by default; the
 * persistence modes and posthog-js's cookie are in persistence/):
 * distinct id, device id, identified or not, super properties, groups, opt-out and the session.
 *
 * Writes are coalesced to one per task, and another tab's write is picked up through the `storage`
 * event, so tabs share one identity and one session. The session's last activity alone is written
 * at most every ACTIVITY_MS, and when the page is hidden or left (flush): a write is the whole state,
 * plus posthog-js's cookie in the default mode, and was most of an autocaptured click's cost. A site moving from posthog-js keeps its users: their anonymous id and device id
 * are read from posthog-js's own key the first time.
 */
import type { FlagsSnapshot } from '../core/flags/decide';
import { attempt } from '../core/safe-json';
import { uuidv7 } from '../core/uuid';
import { storageBacking, type StateBacking } from './persistence/backing';
import { withPlainArrays } from './plain-json';
import { checkState } from './state-check';

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
  /** `$feature_flag_called` already sent: [distinct id, …JSON [key, value]]. */
  fc?: string[];
  /** setPersonPropertiesForFlags / setGroupPropertiesForFlags overrides, sent with every decide. */
  fp?: Record<string, unknown>;
  fg?: Record<string, Record<string, unknown>>;
  /** The server's `autocapture_opt_out` from the last decide answer that had it (autocapture). */
  aco?: boolean;
}

export interface StateStore {
  readonly state: PersistedState;
  /** Replaces the whole state (reset). */
  replace(next: PersistedState): void;
  save(): void;
  /** Removes the stored state (its cookies too); what is in memory stays. */
  forget(): void;
  /** The session id for an event at `now`, rotating after 30 minutes idle or 24 hours. */
  session(now: number): string;
  /** Writes the session's last activity if it is not written yet (the page is hidden or left). */
  flush(): void;
  /** Told each new session id. */
  onNewSession?: (sessionId: string) => void;
}

const IDLE_MS = 30 * 60_000;
const MAX_SESSION_MS = 24 * 60 * 60_000;
/**
 * Another live tab (or a crashed page's successor) may see the last activity this much too early,
 * so a session can end up to this much before 30 idle minutes; a hidden or left page writes it exactly.
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
    let repaired = false;
    const text = backing.json();
    const saved = checkState(text === null ? undefined : attempt(() => JSON.parse(text) as unknown, text), (field, value) => {
      repaired = true;
      onBad?.(field, value);
    });
    if (repaired) queueMicrotask(() => save()); // written back repaired, so it is reported once
    return saved && { ...freshState(), ...(saved as Partial<PersistedState>) };
  };
  let scheduled = false;
  /** The last activity as stored. */
  let savedActivity = 0;
  let state = load();
  if (!state) {
    state = freshState();
    const bootId = bootstrap?.distinctID;
    // The bootstrap identity, else posthog-js's own record of this user (its session included).
    const from: Partial<PersistedState> | undefined =
      typeof bootId === 'string' && bootId !== ''
        ? { distinct_id: bootId, $user_state: bootstrap!.isIdentifiedID ? 'identified' : 'anonymous' }
        : backing.adopt();
    Object.assign(state, from);
  }
  const write = () => {
    scheduled = false;
    savedActivity = state!.sid?.[1] ?? 0;
    // In a microtask: nothing may throw from here into the page (a page's JSON.stringify that throws).
    attempt(() => withPlainArrays(() => backing.save(state!)), 0);
  };
  const save = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => scheduled && write());
  };
  save();

  if (store) {
    addEventListener('storage', (event) => {
      if (event.key === key) {
        state = load() ?? state;
        savedActivity = state!.sid?.[1] ?? 0;
      }
    });
  }

  const stateStore: StateStore = {
    get state() {
      return state!;
    },
    replace(next) {
      state = next;
      save();
    },
    save,
    forget: () => backing.forget(),
    session(now) {
      const s = state!;
      let sid = s.sid;
      if (!sid || now - sid[1] > IDLE_MS || now - sid[2] > MAX_SESSION_MS) {
        sid = s.sid = [uuidv7(now), now, now];
        savedActivity = 0;
        stateStore.onNewSession?.(sid[0]);
      } else sid[1] = now;
      // abs: a clock set back still writes.
      if (Math.abs(now - savedActivity) >= ACTIVITY_MS) save();
      return sid[0];
    },
    flush() {
      if (scheduled || (state!.sid?.[1] ?? 0) !== savedActivity) write();
    },
  };
  return stateStore;
}
