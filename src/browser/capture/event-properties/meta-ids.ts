/**
 * Meta's ids for its Conversions API, as posthog-js sends them, so a site that sends conversions
 * to Meta from PostHog keeps matching them to ad clicks after the switch: `$fbc`, the ad click
 * (from the landing URL's `fbclid` as `fb.1.<ms>.<fbclid>`, or from the Meta pixel's `_fbc`
 * cookie, which carries the true click time) and `$fbp`, the browser (the pixel's `_fbp` cookie).
 * They are person properties: each goes in `$set` once, with the first event that processes the
 * person, and again only when it changes. Kept with the identity (`state.fb`), so every tab agrees
 * and reset() forgets them.
 *
 * Read when the page's URL changes, the identity is replaced and at identify(), not per event as
 * posthog-js reads them: a `_fbp` the pixel sets later in a page is picked up at the next of those.
 */
import { isObject } from '../../../core/special-events';
import { readCookie } from '../../state/persistence/cookies';
import type { MetaIds, PersistedState } from '../../state/state';
import type { Properties } from '../../types';

/** The shapes posthog-js accepts (anything else, a masked click id included, is no id). */
const FBCLID = /^[\w-]{1,400}$/;
const FBC = /^fb\.\d+\.\d+\.[\w-]+(\.[\w-]+)?$/;
const FBP = /^fb\.\d+\.\d+\.\d+$/;

/** The pixel's cookie, when it has the shape Meta gives it. */
const cookie = (name: string, shape: RegExp) => {
  const value = readCookie(name);
  return value !== null && shape.test(value) ? value : undefined;
};

/** Keeps `value` for `name`, unsent unless it is the one already kept; true when that changed the state. */
function keep(ids: MetaIds, name: keyof MetaIds, value: string | undefined): boolean {
  return !!value && ids[name]?.[0] !== value && !!(ids[name] = [value, false]);
}

/**
 * Reads the ids again: `fbclid` is the current URL's (undefined when it has none). posthog-js's
 * rule for `$fbc`: the pixel's cookie wins for the click the URL names, or, without one, for the
 * click already kept or a newer one.
 * @returns true when the state changed (to be saved).
 */
export function refreshMetaIds(state: PersistedState, fbclid: string | null | undefined, now: number): boolean {
  const ids: MetaIds = (state.fb ??= {});
  const click = fbclid && FBCLID.test(fbclid) ? fbclid : undefined;
  const fromCookie = cookie('_fbc', FBC);
  const kept = ids.$fbc?.[0].split('.');
  const [, , cookieTime, cookieClick] = fromCookie?.split('.') ?? [];
  const cookieWins = click ? cookieClick === click : !kept || cookieClick === kept[3] || +cookieTime! > +kept[2]!;
  const fbc = fromCookie && cookieWins ? fromCookie : click && kept?.[3] !== click ? `fb.1.${now}.${click}` : undefined;
  const fbcChanged = keep(ids, '$fbc', fbc);
  return keep(ids, '$fbp', cookie('_fbp', FBP)) || fbcChanged;
}

/** The ids still to send, but those the caller sets itself in one of `callerSets` (its value wins, as in posthog-js). */
export function unsentMetaIds(state: PersistedState, callerSets: unknown[]): Properties | undefined {
  let unsent: Properties | undefined;
  for (const [name, [value, sent]] of Object.entries(state.fb ?? {}) as [keyof MetaIds, [string, boolean]][])
    if (!sent && !callerSets.some((set) => isObject(set) && name in set)) (unsent ??= {})[name] = value;
  return unsent;
}

/** Marks as sent the ids an event queued as `json` still carries (before_send may have taken them out). */
export function markMetaIdsSent(state: PersistedState, json: string): void {
  for (const entry of Object.entries(state.fb ?? {}) as [string, [string, boolean]][])
    if (json.includes(`"${entry[0]}":"${entry[1][0]}"`)) entry[1][1] = true;
}
