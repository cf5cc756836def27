/**
 * posthog-js's record of a visitor, read and written in its own format, so a visitor keeps their
 * identity when a site moves from posthog-js to hogtail, and a server that reads the
 * `ph_<project key>_posthog` cookie (to bootstrap flags, or to join server events to the visitor)
 * finds what posthog-js would have put there.
 *
 * posthog-js keeps the whole record in localStorage (or a cookie, per its `persistence`) and, by
 * default, the identity part of it in the cookie: `distinct_id`, `$device_id`, `$user_state`,
 * `$epp` (person processing on) and `$sesid`, which is `[last activity ms, session id, start ms]`.
 * The rest of the record is read too, never written: the app's super properties (what `register()`
 * kept), its groups, the visitor's first page and the session's first page, so a visitor keeps
 * them across the switch.
 */
import { isObject, isText } from '../../../core/special-events';
import { CAMPAIGN_PARAMS, isPageInfo, type PageInfo } from '../../capture/event-properties/campaign';
import { prefixed } from '../../capture/event-properties/initial-person';

/** The part of hogtail's state that posthog-js's record also holds. */
export interface IdentityState {
  distinct_id: string;
  $device_id: string;
  $user_state: 'anonymous' | 'identified';
  $epp?: boolean;
  /** [session id, last activity ms, session start ms] */
  sid?: [string, number, number];
  /** Super properties (adopted only). */
  props?: Record<string, unknown>;
  $groups?: Record<string, string>;
  /** The visitor's first page and the session's (adopted only). */
  ipi?: PageInfo;
  /** The first touch as an older posthog-js kept it, as `$initial_*` properties (adopted only). */
  ipl?: Record<string, unknown>;
  se?: [string, PageInfo];
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
 * What `register()` kept in a posthog-js record: every key but posthog-js's own (`distinct_id` and
 * the keys that start with `$` or `__`, `$user_id` aside) and the campaign it keeps per tab (its
 * sessionStorage record).
 */
function superProperties(record: Record<string, unknown>): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const key in record) {
    if (key === '$user_id' || (!/^(\$|__|ph_keyword$|distinct_id$)/.test(key) && !CAMPAIGN_PARAMS.includes(key))) props[key] = record[key];
  }
  return props;
}

/**
 * The visitor and their session (and person processing) from a posthog-js record: what a subdomain
 * needs to carry on the visit another subdomain started; and what the app registered, the groups,
 * the first page and the session's first page. The lite build reads the visitor only.
 */
export function visitFromPosthog(record: unknown): Partial<IdentityState> | undefined {
  const identity = identityFromPosthog(record);
  const all = Object(record) as Record<string, unknown>;
  const { $epp, $sesid, $groups, $initial_person_info, $client_session_props, $initial_referrer_info, $initial_campaign_params } = all;
  if (identity) {
    if ($epp === true) identity.$epp = true;
    // [last activity, id, start]; records from before posthog-js kept the start have two entries.
    if (Array.isArray($sesid) && isText($sesid[1])) identity.sid = [$sesid[1], +$sesid[0] || 0, +($sesid[2] ?? $sesid[0]) || 0];
    identity.props = superProperties(all);
    if (isObject($groups) && Object.values($groups).every((key) => typeof key === 'string'))
      identity.$groups = $groups as Record<string, string>;
    if (isPageInfo($initial_person_info)) identity.ipi = $initial_person_info;
    // posthog-js stopped writing these, but still sends what a visitor has of them (and then
    // records no first page of its own).
    if (isObject($initial_referrer_info) || isObject($initial_campaign_params))
      identity.ipl = prefixed({ ...Object($initial_referrer_info), ...Object($initial_campaign_params) }, '$initial_');
    const entry = Object($client_session_props) as { sessionId?: unknown; props?: unknown };
    if (isText(entry.sessionId) && isPageInfo(entry.props)) identity.se = [entry.sessionId, entry.props];
  }
  return identity;
}

/**
 * The identity part of hogtail's state as posthog-js writes it into its cookie, with the super
 * properties named in `cookie_persisted_properties` (`extra`) beside it, as posthog-js adds them
 * (an unset, null or empty one is left out).
 */
export function posthogCookieRecord(
  { distinct_id, $device_id, $user_state, sid, $epp, props }: IdentityState,
  extra?: unknown,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  if (Array.isArray(extra)) for (const key of extra) if (props?.[key] != null && props[key] !== '') record[key] = props[key];
  // What is undefined is left out of the JSON.
  return { ...record, distinct_id, $device_id, $user_state, $sesid: sid && [sid[1], sid[0], sid[2]], $epp: $epp || undefined };
}
