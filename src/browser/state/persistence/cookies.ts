/**
 * First-party cookies the way posthog-js writes them: the value is URI-encoded JSON, `path=/`,
 * `SameSite=Lax`, an expiry in days, `secure` on request, and with `cross_subdomain_cookie` the
 * domain of the site (`.example.com` from `app.example.com`) so every subdomain shares it.
 *
 * Which domain is "the site" is what the browser says: a cookie set on a public suffix
 * (`.co.uk`, `.vercel.app`) is refused, so the shortest suffix of the host that takes a probe
 * cookie is the site's domain. Every access is guarded: cookies can be blocked, and a sandboxed
 * document throws on merely reading `document.cookie`.
 */
import { attempt } from '../../../core/safe-json';
import { uuidv7 } from '../../../core/uuid';

export interface CookieOptions {
  /** Days until it expires. */
  days_: number;
  /** The domain to share it across subdomains, without the leading dot; '' for this host only. */
  domain_: string;
  secure_: boolean;
}

/** The decoded value of cookie `name`, or null. */
export function readCookie(name: string): string | null {
  return attempt(() => {
    for (const part of document.cookie.split(';')) {
      const pair = part.trim();
      if (pair.startsWith(name + '=')) return decodeURIComponent(pair.slice(name.length + 1));
    }
    return null;
  }, null);
}

/** Writes (or, with `value` undefined, deletes) cookie `name`; false when the browser did not take it. */
export function writeCookie(name: string, value: string | undefined, options: CookieOptions): boolean {
  return attempt(() => {
    // Deleting is writing an expiry in the past: the epoch.
    const expires = new Date(value === undefined ? 0 : Date.now() + options.days_ * 864e5).toUTCString();
    document.cookie =
      `${name}=${encodeURIComponent(value ?? '')}; expires=${expires}; SameSite=Lax; path=/` +
      (options.domain_ ? '; domain=.' + options.domain_ : '') +
      (options.secure_ ? '; secure' : '');
    return value === undefined || readCookie(name) === value;
  }, false);
}

// posthog-js's rule: platforms that host many unrelated sites as subdomains of one domain get
// host-only cookies by default (their domain is not on every browser's public suffix list).
const SHARED_HOSTING = ['herokuapp.com', 'vercel.app', 'netlify.app'];

/** posthog-js's default for `cross_subdomain_cookie`. */
export function crossSubdomainByDefault(hostname: string): boolean {
  return !SHARED_HOSTING.includes(hostname.split('.').slice(-2).join('.'));
}

/** Whether this document keeps a cookie set for `domain` ('' for this host only): a probe set and removed. */
export function cookieSticks(domain: string): boolean {
  // A name of its own, so a probe left behind (a crash between set and remove) never answers for another.
  const probe = 'ht_probe_' + uuidv7();
  const options = { days_: 1, domain_: domain, secure_: false };
  return writeCookie(probe, '1', options) && writeCookie(probe, undefined, options);
}

let siteDomain: string | undefined;

/** The site's registrable domain as the browser sees it ('' for localhost, IP addresses, or no cookies). */
export function cookieDomain(hostname: string): string {
  if (siteDomain !== undefined) return siteDomain;
  siteDomain = '';
  // No dot (localhost), or an IP address (v4: digits and dots, v6: colons).
  if (/^[^.]*$|^[\d.]+$|:/.test(hostname)) return siteDomain;
  const labels = hostname.split('.');
  for (let i = labels.length - 2; i >= 0 && !siteDomain; i--) {
    const candidate = labels.slice(i).join('.');
    if (cookieSticks(candidate)) siteDomain = candidate;
  }
  return siteDomain;
}
