/**
 * Personal API keys and their scopes, the way PostHog checks them: a `Bearer` key must be known
 * (401 otherwise) and must hold the endpoint's scope (403 otherwise), where holding `x:write` also
 * grants `x:read`. `'*'` grants everything.
 */

export type KeyScopes = readonly string[] | '*';

/** The key the dev server accepts when none are configured; it grants every scope. */
export const DEV_PERSONAL_API_KEY = 'phx_hogtail_dev_personal_key';

export const DEFAULT_KEYS: Readonly<Record<string, KeyScopes>> = { [DEV_PERSONAL_API_KEY]: '*' };

export type AuthResult =
  | { ok: true; key: string; scopes: KeyScopes }
  | { ok: false; code: 'not_authenticated' | 'authentication_failed'; detail: string };

export function authenticate(header: string | undefined, keys: Readonly<Record<string, KeyScopes>>): AuthResult {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  if (key === undefined) {
    return { ok: false, code: 'not_authenticated', detail: 'Authentication credentials were not provided.' };
  }
  const scopes = Object.prototype.hasOwnProperty.call(keys, key) ? keys[key] : undefined;
  if (scopes === undefined) {
    return {
      ok: false,
      code: 'authentication_failed',
      detail: 'Personal API key found in request Authorization header is invalid.',
    };
  }
  return { ok: true, key, scopes };
}

export function hasScope(scopes: KeyScopes, required: string): boolean {
  if (scopes === '*') return true;
  if (scopes.includes(required) || scopes.includes('*')) return true;
  const [object, action] = required.split(':');
  return action === 'read' && scopes.includes(`${object}:write`);
}
