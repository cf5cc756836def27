/**
 * The session's first page (its referrer and URL, kept per session id with the identity, so every
 * tab of the session agrees, and replaced when a new session starts) and what events say of it:
 * `$session_entry_url`, `_pathname`, `_host`, `_referrer`, `_referring_domain` and the entry URL's
 * campaign parameters (`$session_entry_utm_source`, `$session_entry_gclid`, …). PostHog's session
 * attribution (entry page, channel) reads these. As in posthog-js, only what has a value is sent.
 */
import type { Properties } from '../types';
import { pageProperties, type PageInfo } from './campaign';

export function sessionEntryProperties(entry: PageInfo): Properties {
  const props = pageProperties(entry);
  const out: Properties = {};
  for (const key in props) {
    const value = props[key];
    // posthog-js's name for the entry URL is `$session_entry_url`.
    if (value || typeof value === 'number') out['$session_entry_' + (key === '$current_url' ? 'url' : key.replace(/^\$/, ''))] = value;
  }
  return out;
}
