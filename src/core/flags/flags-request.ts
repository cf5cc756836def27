/**
 * The flags request of today's servers: `POST {host}/flags/?v=2` with `{ token, distinct_id, groups,
 * person_properties, group_properties, geoip_disable }` (the objects present even when empty, as
 * server SDKs send them) and `flag_keys_to_evaluate` when only some flags are wanted. An older
 * server gets the same body at `POST {host}/decide/?v=3`, which reads `token` too.
 */
import type { DecideOverrides } from './decide';
import { BROWSER_BUILD } from '../build-flags';

export interface FlagsRequestExtras {
  /** Ask the server not to locate the user from the request's address. */
  geoipDisable?: boolean | undefined;
  /** Evaluate only these flags (the answer then holds only them). */
  flagKeys?: readonly string[] | undefined;
}

export const FLAGS_PATH = '/flags/?v=2';
/** The seed protocol's path, for a server that answers FLAGS_PATH with 404 or 405. */
export const DECIDE_PATH = '/decide/?v=3';

export function flagsBody(apiKey: string, distinctId: string, overrides: DecideOverrides = {}, extras: FlagsRequestExtras = {}): string {
  return JSON.stringify({
    token: apiKey,
    distinct_id: distinctId,
    groups: overrides.groups ?? {},
    person_properties: overrides.personProperties ?? {},
    group_properties: overrides.groupProperties ?? {},
    // The browser has no extras (its minifier drops them).
    geoip_disable: !BROWSER_BUILD && extras.geoipDisable === true,
    // Undefined, so left out, unless only some flags are wanted (never by the browser).
    ...(!BROWSER_BUILD && { flag_keys_to_evaluate: extras.flagKeys }),
  });
}
