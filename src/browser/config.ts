/**
 * init() options, named as posthog-js names them where it has a name; options posthog-js has and
 * hogtail does not are accepted and ignored, so an existing init() call keeps working.
 *
 * Generic over the client type only so this file needs nothing from hogtail.ts (no import cycle);
 * users see it as `HogtailConfig`, hogtail.ts's alias with the client filled in.
 */
import { DEFAULT_HOST } from '../core/defaults';
import type { AutocaptureOptions } from './autocapture/options';

/** Autocapture's options (`autocapture`, `rageclick`, `mask_all_text`…) are in AutocaptureOptions. */
export interface ClientConfig<Client> extends AutocaptureOptions {
  /** Ingestion host. Default `https://us.i.posthog.com`. */
  api_host?: string;
  /** 'memory' keeps nothing across pages (and no durable queue); anything else uses localStorage. */
  persistence?: 'localStorage' | 'localStorage+cookie' | 'cookie' | 'sessionStorage' | 'memory';
  /** Same as persistence: 'memory'. */
  disable_persistence?: boolean;
  /**
   * Start as this user instead of a fresh anonymous id (first visit only), and with these flags
   * (every load: server-rendered flags are as fresh as the page).
   */
  bootstrap?: {
    distinctID?: string;
    isIdentifiedID?: boolean;
    featureFlags?: Record<string, boolean | string>;
    featureFlagPayloads?: Record<string, unknown>;
    [key: string]: unknown;
  };
  /** No decide requests (flags only from bootstrap or an earlier page). */
  advanced_disable_decide?: boolean;
  /** Same as advanced_disable_decide. */
  advanced_disable_feature_flags?: boolean;
  /** hogtail: reload flags this often (ms) while the page is visible; 0 never. Default 300,000. */
  flags_poll_interval_ms?: number;
  /**
   * 'identified_only' (default): anonymous events carry `$process_person_profile: false` until
   * identify(), alias(), group() or setPersonProperties(). 'always': every event may create a
   * person. 'never': no event does, and identify/alias/group are refused.
   */
  person_profiles?: 'identified_only' | 'always' | 'never';
  /** `$pageview` at init (default true); 'history_change' also on pushState/replaceState/popstate. */
  capture_pageview?: boolean | 'history_change';
  /** Called once init is done, with the client. */
  loaded?: (client: Client) => void;
  debug?: boolean;
  /** Start opted out until opt_in_capturing(). */
  opt_out_capturing_by_default?: boolean;
  /** Send plain JSON instead of gzip. */
  disable_compression?: boolean;
  /** hogtail: start a request once this many events wait. Default 20. */
  flush_at?: number;
  /** hogtail: …or once the oldest has waited this long (ms). Default 2,000. */
  flush_interval?: number;
  /** hogtail: most events held (memory); the oldest are evicted and reported beyond it. Default 20,000. */
  max_queue_size?: number;
  /** hogtail: most events kept in localStorage; more wait in memory until there is room. Default 2,000. */
  max_stored_events?: number;
  /** hogtail: most characters of events kept in localStorage. Default 1,500,000 (about 3 MB as UTF-16). */
  max_stored_chars?: number;
  /** hogtail: whole-request deadline (ms). Default 10,000. */
  request_timeout?: number;
  /** hogtail: a personal API key (phx_…) must never ship to browsers; set this only for internal tools. */
  dangerously_allow_personal_api_key?: boolean;
  [option: string]: unknown;
}

export const DEFAULT_API_HOST = DEFAULT_HOST;

/** A finite non-negative number, or the default. */
export function numberOption(value: unknown, fallback: number): number {
  return typeof value === 'number' && value >= 0 && value < Infinity ? value : fallback;
}
