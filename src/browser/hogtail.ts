/**
 * The browser client's public shape: posthog-js's method names, argument shapes and type names,
 * so switching is an import change. Implemented by client.ts; the methods themselves live with
 * their concern (capture.ts, identity.ts, consent.ts, flags.ts, session.ts, unsupported.ts).
 */
import type { HogtailError } from '../core/errors';
import type { FlagValue } from '../core/flags/decide';
import type { QueueStats } from '../core/queue';
import type { ClientConfig } from './config';
import type { CaptureOptions, CaptureResult, FeatureFlagResult, FlagOptions, FlagsListener, Properties, SessionIdListener } from './types';
import type { UnsupportedMethods } from './api/unsupported';
import type { SessionRecordingMethods } from './features/replay-types';

/** init() options; see config.ts for each one. */
export type HogtailConfig = ClientConfig<Hogtail>;

export type { CaptureOptions, CaptureResult, FeatureFlagResult, FlagOptions, FlagsListener, Properties, SessionIdListener } from './types';

export interface Hogtail extends UnsupportedMethods, SessionRecordingMethods {
  /** True once init() has run. */
  __loaded: boolean;
  /** posthog-js's older person API. */
  people: {
    set(properties: Properties | string, value?: unknown): void;
    set_once(properties: Properties | string, value?: unknown): void;
  };
  init(apiKey: string, config?: HogtailConfig): Hogtail;
  capture(event: string, properties?: Properties | null, options?: CaptureOptions): CaptureResult | undefined;
  identify(distinctId: string, $set?: Properties, $set_once?: Properties): void;
  alias(alias: string, original?: string): void;
  /** Events carry the group from now on; the first time a group is set, `$groupidentify` is sent. */
  group(groupType: string, groupKey: string, properties?: Properties): void;
  getGroups(): Record<string, string>;
  resetGroups(): void;
  reset(resetDeviceId?: boolean): void;
  register(properties: Properties): void;
  register_once(properties: Properties, defaultValue?: unknown): void;
  unregister(name: string): void;
  /** Super properties for this browser session only (the tab, until it closes). */
  register_for_session(properties: Properties): void;
  unregister_for_session(name: string): void;
  /** A super property, or the distinct id / device id / session id by their posthog-js names. */
  get_property(name: string): unknown;
  getSessionProperty(name: string): unknown;
  get_distinct_id(): string;
  get_session_id(): string;
  /** Called with the session id now and whenever it changes; returns an unsubscribe. */
  onSessionId(listener: SessionIdListener): () => void;
  getPageViewId(): string | undefined;
  screen(name: string, properties?: Properties): void;
  setPersonProperties($set?: Properties, $set_once?: Properties): void;
  unsetPersonProperties(names: string | string[]): void;
  createPersonProfile(): void;
  setInternalOrTestUser(): void;
  /** The properties an event would carry now (nothing is captured). */
  calculateEventProperties(event: string, properties?: Properties): Properties;
  captureException(error: unknown, properties?: Properties): CaptureResult | undefined;
  /** Starts capturing uncaught errors and unhandled rejections; `config` picks as `capture_exceptions`'s object does. */
  startExceptionAutocapture(config?: Record<string, unknown>): void;
  stopExceptionAutocapture(): void;
  captureTraceFeedback(traceId: string | number, feedback: string): void;
  captureTraceMetric(traceId: string | number, metricName: string, metricValue: string | number | boolean): void;
  opt_out_capturing(): void;
  opt_in_capturing(): void;
  has_opted_out_capturing(): boolean;
  has_opted_in_capturing(): boolean;
  /** 'granted' or 'denied' once the user chose (opt_in/opt_out), else 'pending'. */
  get_explicit_consent_status(): 'granted' | 'denied' | 'pending';
  /** Forgets the choice: back to 'pending' (and the defaults of the options). */
  clear_opt_in_out_capturing(): void;
  is_capturing(): boolean;
  /** Changes options after init(). */
  set_config(config: Partial<HogtailConfig>): void;
  /** Resolves once everything captured before the call is delivered or given up (or retries stall). */
  flush(): Promise<void>;
  /** Sends what is queued; the page keeps working (a page never closes its queue). */
  shutdown(timeoutMs?: number): Promise<void>;
  debug(enabled?: boolean): void;
  surveyShown(surveyId: string, properties?: Properties): void;
  surveyDismissed(surveyId: string, properties?: Properties): void;
  surveySent(surveyId: string, response: unknown, properties?: Properties): void;
  /** Drops, retries and bad input; without a listener the first of each kind goes to the console. */
  on(event: 'error', listener: (error: HogtailError) => void): () => void;
  /** Queue counters, how many events are held in memory only, and how many stored values were unusable and replaced. */
  stats(): QueueStats & { unsaved: number; repaired: number };
  /** The flag's value (false when off, undefined before flags are known); sends `$feature_flag_called` once per value. */
  getFeatureFlag(key: string, options?: FlagOptions): FlagValue | undefined;
  getFeatureFlagResult(key: string, options?: FlagOptions): FeatureFlagResult | undefined;
  getAllFeatureFlags(): FeatureFlagResult[];
  isFeatureEnabled(key: string, options?: FlagOptions): boolean | undefined;
  /** The flag's payload, JSON-parsed when it is JSON. */
  getFeatureFlagPayload(key: string): unknown;
  /** Called with the enabled keys and all flags once they are known, then on every change. */
  onFeatureFlags(listener: FlagsListener): () => void;
  reloadFeatureFlags(): void;
  /** Flags known from elsewhere (server-side evaluation), used as if the server had answered them. */
  updateFlags(flags: Record<string, FlagValue>, payloads?: Record<string, unknown>): void;
  setPersonPropertiesForFlags(properties: Properties, reload?: boolean): void;
  resetPersonPropertiesForFlags(): void;
  setGroupPropertiesForFlags(properties: Record<string, Properties>, reload?: boolean): void;
  resetGroupPropertiesForFlags(groupType?: string): void;
}

/** posthog-js's type names, for `import type { PostHog, PostHogConfig } from 'hogtail'`. */
export type PostHog = Hogtail;
export type PostHogConfig = HogtailConfig;
