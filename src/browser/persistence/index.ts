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
import { openStorage, readKey, removeKey, writeKey } from '../storage';
import { parseRecord, type StateBacking } from './backing';
import { cookieDomain, crossSubdomainByDefault, readCookie, writeCookie, type CookieOptions } from './cookies';
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
}

const MODES: readonly string[] = ['localStorage+cookie', 'cookie', 'localStorage', 'sessionStorage', 'memory'];
// Kept out of cookies in 'cookie' mode: flag values, payloads and the sent-flag-calls list can run
// to kilobytes, past what a cookie holds, and would ride along on every request to the site.
const NOT_IN_COOKIES = ['ff', 'fc'];

/** Whether this document keeps cookies at all (blocked, or a sandboxed frame, it does not). */
function cookiesWork(): boolean {
  const probe = { days: 1, domain: '', secure: false };
  return writeCookie('ht_probe', '1', probe) && writeCookie('ht_probe', undefined, probe);
}

function cookieOptions(config: PersistenceConfig): CookieOptions {
  const host = location.hostname;
  return {
    days: typeof config.cookie_expiration === 'number' && config.cookie_expiration > 0 ? config.cookie_expiration : 365,
    domain: (config.cross_subdomain_cookie ?? crossSubdomainByDefault(host)) ? cookieDomain(host) : '',
    secure: config.secure_cookie ?? location.protocol === 'https:',
  };
}

/** The mode in effect: the one asked for, unless its storage is unavailable (`warn` says so). */
function resolveMode(config: PersistenceConfig, warn: (message: string) => void): [PersistenceMode, Storage | undefined] {
  let mode = config.disable_persistence ? 'memory' : (config.persistence ?? 'localStorage+cookie');
  if (!MODES.includes(mode)) {
    warn(`persistence '${String(mode)}' is not one of ${MODES.join(', ')}; using 'localStorage+cookie'`);
    mode = 'localStorage+cookie';
  }
  if (mode === 'memory') return ['memory', undefined];
  const store = mode === 'cookie' ? undefined : openStorage(mode === 'sessionStorage' ? 'sessionStorage' : 'localStorage');
  if (store || mode === 'cookie') return [mode as PersistenceMode, store];
  // Storage blocked (private mode, sandbox, quota 0): posthog-js falls back to cookies, so do we.
  const fallback = cookiesWork() ? 'cookie' : 'memory';
  warn(`persistence '${mode}': the storage is unavailable here; keeping state in ${fallback === 'cookie' ? 'cookies' : 'memory'}`);
  return [fallback, undefined];
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
  const cookies = mode === 'cookie' || mode === 'localStorage+cookie';
  const options = cookies ? cookieOptions(config) : undefined;
  const written = new Map<string, string>();
  /** Writes a cookie only when its value changed (the state is saved at most once per task). */
  const setCookie = (cookie: string, value: string) => {
    if (written.get(cookie) === value) return;
    written.set(cookie, value);
    if (value.length > 3_800) warn(`cookie ${cookie} is ${value.length} characters, more than browsers keep; it may be dropped`);
    writeCookie(cookie, value, options!);
  };
  return {
    mode,
    json: () => (mode === 'cookie' ? readCookie(key) : readKey(store, key)),
    save(state) {
      if (mode === 'cookie') {
        const kept: Record<string, unknown> = { ...state };
        for (const field of NOT_IN_COOKIES) delete kept[field];
        setCookie(key, JSON.stringify(kept));
      } else writeKey(store, key, JSON.stringify(state));
      if (cookies) setCookie(name, JSON.stringify(posthogCookieRecord(state)));
    },
    forget() {
      if (mode === 'cookie') writeCookie(key, undefined, options!);
      else removeKey(store, key);
      if (cookies) writeCookie(name, undefined, options!);
      written.clear();
    },
    adopt() {
      if (mode === 'memory') return undefined;
      const merged = Object.assign(
        {},
        parseRecord(readCookie(name)),
        parseRecord(readKey(openStorage('localStorage'), name)),
        parseRecord(readKey(openStorage('sessionStorage'), name)),
      );
      return visitFromPosthog(merged);
    },
  };
}
