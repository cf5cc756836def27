/**
 * The visitor's first page: its referrer and URL, kept with their identity from their first event
 * on (posthog-js's `$initial_person_info`, adopted from posthog-js's record for a visitor it
 * already knew), and the `$initial_*` person properties derived from it (`$initial_referrer`,
 * `$initial_referring_domain`, `$initial_current_url`, `$initial_pathname`, `$initial_utm_source`,
 * `$initial_gclid`, …), which PostHog's first-touch attribution reads. They go in `$set_once`, so
 * the person keeps the first value whatever arrives later.
 */
import type { Properties } from '../types';
import { pageProperties, type PageInfo } from './campaign';

/** `$referrer` → `$initial_referrer`, `utm_source` → `$initial_utm_source`. */
export function prefixed(properties: Properties, prefix: string): Properties {
  const out: Properties = {};
  for (const key in properties) out[prefix + key.replace(/^\$/, '')] = properties[key];
  return out;
}

export const initialProperties = (first: PageInfo): Properties => prefixed(pageProperties(first), '$initial_');
