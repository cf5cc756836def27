/**
 * posthog-js's persistence modes for hogtail's state (identity, session, super properties, groups,
 * opt-out, flags). Events never go here: the durable event queue stays in localStorage whatever
 * the mode ('memory' aside).
 *
 * - 'localStorage+cookie' (default, as in posthog-js): the state in localStorage, and the identity
 *   in the `ph_<project key>_posthog` cookie in posthog-js's format, so a server can read it and,
 *   with `cross_subdomain_cookie`, every subdomain shares the visitor.
 * - 'cookie': the identity cookie, and the rest of the state in a cookie of hogtail's own (flags
 *   excepted: cookies travel with every request, so flags are fetched again on each page).
 * - 'localStorage', 'sessionStorage': the state there, no cookie. 'memory': nothing kept.
 *
 * A posthog-js visitor keeps their identity: their record is read from posthog-js's cookie and
 * its localStorage / sessionStorage entry, merged as posthog-js merges them (storage wins).
 * Like posthog-js, a mode whose storage is unavailable falls back to cookies, then to memory.
 */
import { numberOption } from '../../config';
import { openStorage, readKey, removeKey, writeKey } from '../storage';
import { parseRecord, type StateBacking } from './backing';
import { cookieDomain, cookieSticks, crossSubdomainByDefault, readCookie, writeCookie, type CookieOptions } from './cookies';
import { posthogCookieRecord, posthogName, visitFromPosthog } from './posthog-record';

export type PersistenceMode = 'localStorage+cookie' | 'cookie' | 'localStorage' | 'sessionStorage' | 'memory';

/** The init() options this module reads (posthog-js's names and defaults). */
export interface PersistenceConfig {
  persistence?: PersistenceMode;
  disable_persistence?: boolean;
  /** posthog-js's custom storage name: `ph_<persistence_name>` instead of `ph_<project key>_posthog`. */
  persistence_name?: string;
  /** Default: true, except on herokuapp.com, vercel.app and netlify.app subdomains. */
  cross_subdomain_cookie?: boolean;
  /** Default: true on https pages. */
  secure_cookie?: boolean;
  /** Days. Default 365. */
  cookie_expiration?: number;
  /** Super properties also written to posthog-js's cookie. */
  cookie_persisted_properties?: string[];
}

const DEFAULT_MODE = 'localStorage+cookie';
const MODES: readonly string[] = [DEFAULT_MODE, 'cookie', 'localStorage', 'sessionStorage', 'memory'];

function cookieOptions(config: PersistenceConfig): CookieOptions {
  const host = location.hostname;
  return {
    days_: numberOption(config.cookie_expiration, 0) || 365,
    domain_: (config.cross_subdomain_cookie ?? crossSubdomainByDefault(host)) ? cookieDomain(host) : '',
    secure_: config.secure_cookie ?? location.protocol === 'https:',
  };
}

/** The mode in effect: the one asked for, unless it is unknown or its storage unavailable (`warn` says so). */
function resolveMode(config: PersistenceConfig, warn: (message: string) => void): [PersistenceMode, Storage | undefined] {
  let mode: string = config.disable_persistence ? 'memory' : (config.persistence ?? DEFAULT_MODE);
  const use = (problem: string, fallback: string) => {
    warn(`persistence '${String(mode)}' ${problem}; using '${fallback}'`);
    mode = fallback;
  };
  if (!MODES.includes(mode)) use(`is not one of ${MODES.join(', ')}`, DEFAULT_MODE);
  if (mode === 'memory' || mode === 'cookie') return [mode, undefined];
  const store = openStorage(mode === 'sessionStorage' ? mode : 'localStorage');
  // Storage blocked (private mode, sandbox, quota 0): posthog-js falls back to cookies, so do we.
  if (!store) use('has no storage here', cookieSticks('') ? 'cookie' : 'memory');
  return [mode as PersistenceMode, store];
}

/**
 * The backing for state.ts in the configured mode. `key` names hogtail's own record (a storage key,
 * or the cookie name in 'cookie' mode); `warn` hears about an unknown or unavailable mode.
 */
export function openStateBacking(
  token: string,
  key: string,
  config: PersistenceConfig,
  warn: (message: string) => void = () => {},
): StateBacking & { mode: PersistenceMode } {
  const [mode, store] = resolveMode(config, warn);
  const name = posthogName(token, config.persistence_name);
  const inCookie = mode === 'cookie';
  const cookies = inCookie || mode === DEFAULT_MODE;
  const options = cookies ? cookieOptions(config) : undefined;
  const written = new Map<string, string>();
  /** Writes a cookie only when its value changed (the state is saved at most once per task). */
  const setCookie = (cookie: string, value: string) => {
    if (written.get(cookie) === value) return;
    written.set(cookie, value);
    if (value.length > 3_800) warn(`cookie ${cookie} is ${value.length} characters: browsers may drop it`);
    writeCookie(cookie, value, options!);
  };
  return {
    mode,
    json_: () => (inCookie ? readCookie(key) : readKey(store, key)),
    save_(state) {
      // Not in a cookie: flag values, payloads and the sent-flag-calls list can run to kilobytes,
      // past what a cookie holds, and would ride along on every request to the site.
      if (inCookie) setCookie(key, JSON.stringify({ ...state, ff: undefined, fc: undefined }));
      else writeKey(store, key, JSON.stringify(state));
      if (cookies) setCookie(name, JSON.stringify(posthogCookieRecord(state, config.cookie_persisted_properties)));
    },
    forget_() {
      if (inCookie) writeCookie(key, undefined, options!);
      else removeKey(store, key);
      if (cookies) writeCookie(name, undefined, options!);
      written.clear();
    },
    adopt_: () =>
      mode === 'memory'
        ? undefined
        : visitFromPosthog(
            Object.assign(
              {},
              ...[readCookie(name), readKey(openStorage(), name), readKey(openStorage('sessionStorage'), name)].map(parseRecord),
            ),
          ),
  };
}
