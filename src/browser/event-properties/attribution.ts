/**
 * What posthog-js keeps per tab and sends with every event: the campaign parameters of the last
 * URL that had any (all of them, the absent ones as null, so a new campaign replaces the whole
 * old one), the tab's first referrer, and the search engine that sent the visitor. Like
 * posthog-js, it lives in sessionStorage, so a later page of the tab (an internal link, a reload)
 * still says where the visit came from, and a new tab starts afresh.
 *
 * Read again, and written, only when the page's URL changes (a load or a client-side
 * navigation), not per event.
 */
import { attempt } from '../../core/safe-json';
import { isObject } from '../../core/special-events';
import { writeKey } from '../storage';
import type { Properties } from '../types';
import { CAMPAIGN_PARAMS, domainOf, paramsIn, searchInfo } from './campaign';

export interface AttributionOptions {
  /** posthog-js's switches: false leaves out the campaign parameters or the referrer. */
  save_campaign_params?: boolean;
  save_referrer?: boolean;
  /** Query parameters read like the UTM ones. */
  custom_campaign_params?: string[];
}

/**
 * @param store sessionStorage, or undefined to keep the record in memory only (persistence
 *   'memory', or while the consent modes forbid storing).
 * @returns the record's properties for a page at `url`, the same object until something changes.
 */
export function createAttribution(store: () => Storage | undefined, key: string, options: AttributionOptions): (url: string) => Properties {
  const saved: unknown = attempt(() => JSON.parse(store()!.getItem(key)!), 0);
  let props: Properties = isObject(saved) ? saved : {};
  let seen: string | undefined;
  return (url) => {
    if (url === seen) return props;
    seen = url;
    const next = { ...props };
    if (options.save_campaign_params !== false) {
      const custom = options.custom_campaign_params;
      const campaign = paramsIn(url, Array.isArray(custom) ? CAMPAIGN_PARAMS.concat(custom) : CAMPAIGN_PARAMS);
      if (Object.values(campaign).some(Boolean)) Object.assign(next, campaign);
    }
    const referrer = document.referrer;
    // The tab's first referrer is kept (posthog-js's register_once).
    if (options.save_referrer !== false && !('$referrer' in next)) {
      next.$referrer = referrer || '$direct';
      next.$referring_domain = referrer ? domainOf(referrer) : '$direct';
    }
    Object.assign(next, searchInfo(referrer));
    writeKey(store(), key, JSON.stringify((props = next)));
    return props;
  };
}
