/**
 * posthog-js's record of a visitor, read and written in its own format, so a visitor keeps their
 * identity when a site moves from posthog-js to hogtail, and a server that reads the
 * `ph_<project key>_posthog` cookie (to bootstrap flags, or to join server events to the visitor)
 * finds what posthog-js would have put there.
 *
 * posthog-js keeps the whole record in localStorage (or a cookie, per its `persistence`) and, by
 * default, the identity part of it in the cookie: `distinct_id`, `$device_id`, `$user_state`,
 * `$epp` (person processing on) and `$sesid`, which is `[last activity ms, session id, start ms]`.
 */

/** The part of hogtail's state that posthog-js's record also holds. */
export interface IdentityState {
  distinct_id: string;
  $device_id: string;
  $user_state: 'anonymous' | 'identified';
  $epp?: boolean;
  /** [session id, last activity ms, session start ms] */
  sid?: [string, number, number];
}

/**
 * posthog-js's storage name: `ph_<token>_posthog` with `+`, `/`, `=` of the token spelled out, or
 * `ph_<persistence_name>` when that option is set.
 */
export function posthogName(token: string, persistenceName?: unknown): string {
  if (typeof persistenceName === 'string' && persistenceName) return 'ph_' + persistenceName;
  return 'ph_' + token.replace(/\+/g, 'PL').replace(/\//g, 'SL').replace(/=/g, 'EQ') + '_posthog';
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** What of hogtail's identity a posthog-js record gives (nothing when it has no distinct id). */
export function identityFromPosthog(record: unknown): Partial<IdentityState> | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const { distinct_id, $device_id, $user_state, $epp, $sesid } = record as Record<string, unknown>;
  if (!isText(distinct_id)) return undefined;
  const identity: Partial<IdentityState> = { distinct_id };
  if (isText($device_id)) identity.$device_id = $device_id;
  if ($user_state === 'identified' || $user_state === 'anonymous') identity.$user_state = $user_state;
  if ($epp === true) identity.$epp = true;
  if (Array.isArray($sesid) && isText($sesid[1]) && typeof $sesid[0] === 'number') {
    identity.sid = [$sesid[1], $sesid[0], typeof $sesid[2] === 'number' ? $sesid[2] : $sesid[0]];
  }
  return identity;
}

/** The identity part of hogtail's state as posthog-js writes it into its cookie. */
export function posthogCookieRecord(state: IdentityState): Record<string, unknown> {
  const record: Record<string, unknown> = {
    distinct_id: state.distinct_id,
    $device_id: state.$device_id,
    $user_state: state.$user_state,
  };
  if (state.sid) record.$sesid = [state.sid[1], state.sid[0], state.sid[2]];
  if (state.$epp) record.$epp = true;
  return record;
}
