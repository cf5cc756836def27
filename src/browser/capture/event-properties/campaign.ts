/**
 * Where a visit came from, read from a URL and a referrer as posthog-js reads them: the campaign
 * parameters (UTM, Google Ads' gad_source, Mailchimp's mc_cid, the ad platforms' click ids) and
 * the search engine. PostHog's channel, UTM and referrer reports are built from these names, so
 * they are posthog-js's, and so are the rules (the first occurrence of a parameter, `+` read as a
 * space, an empty value read as absent). Functions of strings only: the callers decide when to
 * read (once per page or navigation, never per event).
 */
import { attempt } from '../../../core/safe-json';

export const CAMPAIGN_PARAMS = (
  'utm_source utm_medium utm_campaign utm_content utm_term gad_source mc_cid ' +
  'gclid gclsrc dclid gbraid wbraid fbclid msclkid twclid li_fat_id igshid ttclid rdt_cid epik qclid sccid oppref bfcid irclid _kx'
).split(' ');

export type Values = Record<string, string | null>;

/** What follows the first `?` of `url`, before any `#`. */
const queryOf = (url: string) => new URLSearchParams(url.split('#')[0]!.split('?').slice(1).join('?'));

/** Each of `names` in `url`'s query: its value, or null when absent or empty (posthog-js sends the nulls too). */
export function paramsIn(url: string, names: readonly string[]): Values {
  const query = queryOf(url);
  const values: Values = {};
  for (const name of names) values[name] = query.get(name) || null;
  return values;
}

const ENGINES = ['google', 'bing', 'yahoo', 'duckduckgo'];

/**
 * `$search_engine` (and `ph_keyword`, the words searched for, when the referrer says) for a
 * referrer from a search engine; {} otherwise. posthog-js's patterns, loose as they are (any
 * character for each dot, anywhere after the scheme), in its order, so the same referrer is
 * credited to the same engine.
 */
export function searchInfo(referrer: string): Values {
  const engine = ENGINES.find((name) => new RegExp('^https?://.*' + name + (name === 'google' ? '.' : '.com')).test(referrer));
  if (!engine) return {};
  const words = queryOf(referrer).get(engine === 'yahoo' ? 'p' : 'q');
  return words ? { $search_engine: engine, ph_keyword: words } : { $search_engine: engine };
}

/** A page as posthog-js stores one (the first of a visitor, the first of a session): referrer and URL. */
export interface PageInfo {
  /** The referrer, or `$direct`. */
  r: string;
  u: string;
}

/** The page now, each part cut to 1,000 characters as posthog-js cuts them; `mask` hides personal data in the URL. */
export const currentPage = (mask?: (url: string) => string): PageInfo => {
  const url = location.href.slice(0, 1000);
  return { r: (document.referrer || '$direct').slice(0, 1000), u: mask ? mask(url) : url };
};

export const isPageInfo = (value: unknown): value is PageInfo =>
  typeof (value as PageInfo | null)?.r === 'string' && typeof (value as PageInfo).u === 'string';

/** The host of a referrer: `$direct` stays `$direct`, what is no URL has none. */
export const domainOf = (referrer: string): string | undefined =>
  referrer === '$direct' ? referrer : attempt(() => new URL(referrer).host, undefined);

/**
 * posthog-js's person properties of a page: `$referrer`, `$referring_domain`, `$current_url`,
 * `$host`, `$pathname`, every campaign parameter of the URL (null when absent), and the search
 * engine. Undefined values (a URL that does not parse) are left out of the JSON.
 */
export function pageProperties({ r, u }: PageInfo): Record<string, unknown> {
  const url = attempt(() => new URL(u), undefined);
  return {
    $referrer: r,
    $referring_domain: domainOf(r),
    $current_url: u,
    $host: url?.host,
    $pathname: url?.pathname,
    ...paramsIn(u, CAMPAIGN_PARAMS),
    ...searchInfo(r),
  };
}
