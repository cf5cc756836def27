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
import { isText } from '../../../core/special-events';

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

/** The visitor a posthog-js record names (nothing when it has no distinct id). */
export function identityFromPosthog(record: unknown): Partial<IdentityState> | undefined {
  const { distinct_id, $device_id, $user_state } = Object(record) as Record<string, unknown>;
  if (!isText(distinct_id)) return undefined;
  const identity: Partial<IdentityState> = { distinct_id, $user_state: $user_state === 'identified' ? 'identified' : 'anonymous' };
  if (isText($device_id)) identity.$device_id = $device_id;
  return identity;
}

/**
 * The visitor and their session (and person processing) from a posthog-js record: what a subdomain
 * needs to carry on the visit another subdomain started. The lite build reads the visitor only.
 */
export function visitFromPosthog(record: unknown): Partial<IdentityState> | undefined {
  const identity = identityFromPosthog(record);
  const { $epp, $sesid } = Object(record) as Record<string, unknown>;
  if (identity) {
    if ($epp === true) identity.$epp = true;
    // [last activity, id, start]; records from before posthog-js kept the start have two entries.
    if (Array.isArray($sesid) && isText($sesid[1])) identity.sid = [$sesid[1], +$sesid[0] || 0, +($sesid[2] ?? $sesid[0]) || 0];
  }
  return identity;
}

/** The identity part of hogtail's state as posthog-js writes it into its cookie. */
export function posthogCookieRecord({ distinct_id, $device_id, $user_state, sid, $epp }: IdentityState): Record<string, unknown> {
  // What is undefined is left out of the JSON.
  return { distinct_id, $device_id, $user_state, $sesid: sid && [sid[1], sid[0], sid[2]], $epp: $epp || undefined };
}
