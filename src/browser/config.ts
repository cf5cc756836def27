/**
 * init() options, named as posthog-js names them. The type has no index signature, so a misspelt
 * option is a type error; at run time (script tags are not type-checked) options.ts warns once
 * for each option hogtail does not know or does not do.
 *
 * Generic over the client type only so this file needs nothing from hogtail.ts (no import cycle);
 * users see it as `HogtailConfig` (or posthog-js's name, `PostHogConfig`).
 */
import { DEFAULT_HOST } from '../core/defaults';
import type { AutocaptureOptions } from './features/autocapture/options';
import type { CaptureResult, Properties } from './types';

export type BeforeSend = (event: CaptureResult | null) => CaptureResult | null;

/** The `bootstrap` option (posthog-js's name and fields; null is the same as absent). */
export interface BootstrapConfig {
  distinctID?: string | null;
  isIdentifiedID?: boolean | null;
  featureFlags?: Record<string, boolean | string> | null;
  featureFlagPayloads?: Record<string, unknown> | null;
  sessionID?: string | null;
}

/** Autocapture's options (`autocapture`, `rageclick`, `mask_all_text`…) are in AutocaptureOptions. */
export interface ClientConfig<Client> extends AutocaptureOptions {
  /**
   * Ingestion host: an https URL, or a path of this page's origin for a reverse proxy (`/ingest`).
   * @default 'https://us.i.posthog.com'
   */
  api_host?: string;
  /** PostHog's app host, for the links hogtail makes to it (get_session_replay_url()); default: api_host's app host. */
  ui_host?: string;
  /**
   * Where identity is kept. 'memory' keeps nothing across pages (and no durable queue); the other
   * values keep it in localStorage (the cookie forms also in the `ph_<key>_posthog` cookie when the
   * full build's cookie persistence is present).
   * @default 'localStorage+cookie'
   */
  persistence?: 'localStorage' | 'localStorage+cookie' | 'cookie' | 'sessionStorage' | 'memory';
  /**
   * Same as persistence: 'memory'.
   * @default false
   */
  disable_persistence?: boolean;
  /** posthog-js's custom storage name: `ph_<persistence_name>` instead of `ph_<project key>_posthog`. */
  persistence_name?: string;
  /**
   * The identity cookie (full build) is set for the whole site (every subdomain), not just this host.
   * @default true, except on shared hosting (herokuapp.com, vercel.app, netlify.app), as posthog-js
   */
  cross_subdomain_cookie?: boolean;
  /**
   * The identity cookie (full build) is sent over https only.
   * @default true on https pages
   */
  secure_cookie?: boolean;
  /**
   * Days the identity cookie (full build) lives.
   * @default 365
   */
  cookie_expiration?: number;
  /**
   * Start as this user instead of a fresh anonymous id (first visit only), and with these flags
   * (every load: server-rendered flags are as fresh as the page). `sessionID` (a UUIDv7, as
   * posthog-js requires) is the session from this load on, its start read from the id.
   */
  bootstrap?: BootstrapConfig;
  /**
   * No flags requests (flags only from bootstrap or an earlier page).
   * @default false
   */
  advanced_disable_decide?: boolean;
  /**
   * Same as advanced_disable_decide.
   * @default false
   */
  advanced_disable_feature_flags?: boolean;
  /**
   * Same as advanced_disable_decide.
   * @default false
   */
  advanced_disable_flags?: boolean;
  /**
   * hogtail: reload flags this often (ms) while the page is visible; 0 never.
   * @default 300_000
   */
  flags_poll_interval_ms?: number;
  /**
   * 'identified_only': anonymous events carry `$process_person_profile: false` until
   * identify(), alias(), group() or setPersonProperties(). 'always': every event may create a
   * person. 'never': no event does, and identify/alias/group are refused.
   * @default 'identified_only'
   */
  person_profiles?: 'identified_only' | 'always' | 'never';
  /**
   * `$pageview` at init; 'history_change' also on pushState/replaceState/popstate.
   * @default true, or 'history_change' with `defaults` 2025-05-24 or later
   */
  capture_pageview?: boolean | 'history_change';
  /**
   * `$pageleave` when the page goes away and on client-side navigation.
   * @default 'if_capture_pageview' (on when page views are)
   */
  capture_pageleave?: boolean | 'if_capture_pageview';
  /**
   * Campaign parameters (`utm_*`, click ids) of the landing URL on every event of the tab and in
   * the person's first-visit properties. Default true.
   */
  save_campaign_params?: boolean;
  /** Query parameters to read like the UTM ones. */
  custom_campaign_params?: string[];
  /** The tab's first referrer (`$referrer`, `$referring_domain`) on every event. Default true. */
  save_referrer?: boolean;
  /**
   * Masks the ad platforms' click ids (`gclid`, `fbclid`, `msclkid`, …: posthog-js's list) as
   * `<masked>` in `$current_url`, the campaign properties, the first page and the session's entry
   * page, as posthog-js does. The referrer is not masked (posthog-js does not either).
   * @default false
   */
  mask_personal_data_properties?: boolean;
  /** More query parameters to mask with `mask_personal_data_properties` (alone it has no effect, and says so). */
  custom_personal_data_properties?: string[];
  /** No `$prev_pageview_*` scroll depths on `$pageview` / `$pageleave`. */
  disable_scroll_properties?: boolean;
  /** The element that scrolls, when the page does not (the first that matches). Default: the page. */
  scroll_root_selector?: string | string[];
  /** posthog-js's dated defaults (`'2025-05-24'`, …, `'latest'`); hogtail follows those about page views. */
  defaults?: string;
  /**
   * `$exception` for uncaught errors and unhandled rejections (full build).
   * @default false
   */
  capture_exceptions?: boolean | Record<string, unknown>;
  /** Called once init is done, with the client. */
  loaded?: (client: Client) => void;
  /**
   * Logs every event and request to the console.
   * @default false
   */
  debug?: boolean;
  /**
   * Start opted out (consent 'pending' counts as out) until opt_in_capturing().
   * @default false
   */
  opt_out_capturing_by_default?: boolean;
  /**
   * While opted out, keep nothing in storage.
   * @default false
   */
  opt_out_persistence_by_default?: boolean;
  /**
   * Treat a browser Do Not Track setting as opted out (until opt_in_capturing()).
   * @default false
   */
  respect_dnt?: boolean;
  /**
   * 'always': events carry no persistent identifier (distinct id `$posthog_cookieless`, nothing
   * stored); the server derives one. 'on_reject': nothing is captured until the user chooses;
   * after opt_out_capturing() events are sent cookieless, after opt_in_capturing() as usual.
   */
  cookieless_mode?: 'always' | 'on_reject';
  /** Changes or drops (null) each event before it is queued; several run in order. */
  before_send?: BeforeSend | BeforeSend[] | null;
  /** Rewrites each event's properties before it is queued. */
  sanitize_properties?: ((properties: Properties, event: string) => Properties) | null;
  /** Properties removed from every event. */
  property_denylist?: string[];
  /** posthog-js's older name for property_denylist; when both are given, both lists apply. */
  property_blacklist?: string[];
  /**
   * false: every event leaves at once in a request of its own instead of with the next batch
   * (as flush_at: 1). It stays in the durable queue until the server has it, as batched events do.
   * @default true
   */
  request_batching?: boolean;
  /**
   * Super properties (what register() keeps) also written to posthog-js's `ph_<project key>_posthog`
   * cookie beside the identity, so a server or another subdomain reading the cookie sees them.
   * The cookie persistence modes only.
   */
  cookie_persisted_properties?: string[];
  /**
   * Never add a <script> for an extension's file (session replay, surveys…), as posthog-js loads
   * none of its lazy files with it: an extension the options or the project turn on then warns once
   * and stays off, unless the app imports it from npm and hands it to registerExtension().
   * @default false
   */
  disable_external_dependency_loading?: boolean;
  /**
   * Send plain JSON instead of gzip.
   * @default false
   */
  disable_compression?: boolean;
  /**
   * hogtail: start a request once this many events wait.
   * @default 20
   */
  flush_at?: number;
  /**
   * hogtail: …or once the oldest has waited this long (ms).
   * @default 2000
   */
  flush_interval?: number;
  /**
   * hogtail: most events held (memory); the oldest are evicted and reported beyond it.
   * @default 20_000
   */
  max_queue_size?: number;
  /**
   * hogtail: most events kept in localStorage; more wait in memory until there is room (and go by beacon at unload).
   * @default 2000
   */
  max_stored_events?: number;
  /**
   * hogtail: most characters of events kept in localStorage (1,500,000 is about 3 MB as UTF-16).
   * @default 1_500_000
   */
  max_stored_chars?: number;
  /**
   * hogtail: whole-request deadline (ms), kept even when a patched fetch ignores its abort signal.
   * @default 10_000
   */
  request_timeout?: number;
  /**
   * hogtail: a personal API key (phx_…) must never ship to browsers; set this only for internal tools.
   * @default false
   */
  dangerously_allow_personal_api_key?: boolean;
  /**
   * Session replay (the recorder extension): true records nothing, whatever the project's settings,
   * until startSessionRecording().
   * @default false
   */
  disable_session_recording?: boolean;
  /**
   * Session replay's options, posthog-js's names: `maskAllInputs` (default true; password inputs are
   * masked whatever it says), `maskInputOptions`, `maskTextSelector`, `maskTextClass`, `blockClass`
   * (default `ph-no-capture`), `blockSelector`, `ignoreClass`, `recordCrossOriginIframes`,
   * `sampleRate`, `minimumDurationMilliseconds`, … An option the recorder does not have warns once.
   */
  session_recording?: Record<string, unknown>;
  /** Session replay records the page's console logs (the project's setting otherwise). */
  enable_recording_console_log?: boolean;
  // posthog-js options for products hogtail does not have: typed so an existing init() compiles;
  // a value that asks for the product warns once at run time.
  /**
   * Surveys (the `hogtail.surveys.js` extension) are loaded when the project has surveys; true keeps
   * them off: the file is not fetched and no survey is shown.
   * @default false
   */
  disable_surveys?: boolean;
  /**
   * Heatmaps (the `heatmaps` extension: clicks, rage clicks and mouse moves in page coordinates,
   * sent as `$$heatmap`): true/false wins over the project's setting (the remote `heatmaps`).
   */
  enable_heatmaps?: boolean;
  /**
   * posthog-js's newer name for `enable_heatmaps`, and its settings: anything but false turns
   * heatmaps on; `flush_interval_milliseconds` (default 5000) is how often they are sent.
   */
  capture_heatmaps?: boolean | { flush_interval_milliseconds?: number };
  /**
   * Web vitals (the `web-vitals` extension: `$web_vitals` with LCP, CLS, FCP and INP): true/false,
   * or `{ web_vitals, web_vitals_allowed_metrics, web_vitals_attribution, web_vitals_delayed_flush_ms }`,
   * wins over the project's setting (the remote `capturePerformance`). posthog-js's network
   * timing is not part of hogtail.
   */
  capture_performance?: boolean | Record<string, unknown>;
  /**
   * Dead clicks (the `dead-clicks` extension: `$dead_click` for a click nothing reacts to):
   * true/false, or posthog-js's settings (`scroll_threshold_ms`, `selection_change_threshold_ms`,
   * `mutation_threshold_ms`, `css_selector_ignorelist`, `capture_clicks_with_modifier_keys`,
   * `element_attribute_ignorelist`), wins over the project's setting (the remote `captureDeadClicks`).
   */
  capture_dead_clicks?: boolean | Record<string, unknown>;
  /** posthog-js's toolbar metrics, which hogtail does not have: `false` warns once. */
  advanced_disable_toolbar_metrics?: boolean;
  /** posthog-js's web experiments, which hogtail does not have: `false` warns once. */
  disable_web_experiments?: boolean;
  /** posthog-js's site apps, which hogtail does not have: `true` warns once. */
  opt_in_site_apps?: boolean;
}

export const DEFAULT_API_HOST = DEFAULT_HOST;

/** A finite non-negative number, or the default. */
export function numberOption(value: unknown, fallback: number): number {
  return typeof value === 'number' && value >= 0 && value < Infinity ? value : fallback;
}
