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
export type { BeforeSend, BootstrapConfig } from './config';

export interface Hogtail extends UnsupportedMethods, SessionRecordingMethods {
  /** True once init() has run. */
  __loaded: boolean;
  /** The options in effect (posthog-js's defaults filled in, and `token`); read-only: set_config() changes them. */
  readonly config: Readonly<HogtailConfig> & { readonly token: string };
  /** posthog-js's flags component, as apps reach into it. */
  readonly featureFlags: FeatureFlagsView;
  /** posthog-js's record of the visitor, as apps reach into it. */
  readonly persistence: PersistenceView;
  /** Whether identify() has named this visitor (posthog-js's internal name, which apps call). */
  _isIdentified(): boolean;
  /** posthog-js's older person API. */
  people: {
    set(properties: Properties | string, value?: unknown): void;
    set_once(properties: Properties | string, value?: unknown): void;
  };
  /**
   * Starts the client. With `name` (posthog-js's named instances), starts another client instead,
   * reachable as `client[name]` from then on, with its own storage, and returns it.
   */
  init(apiKey: string, config?: HogtailConfig, name?: string): Hogtail;
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

/** `client.featureFlags`: posthog-js's flags component over the client's flags. */
export interface FeatureFlagsView
  extends Pick<
    Hogtail,
    | 'getFeatureFlag'
    | 'isFeatureEnabled'
    | 'getFeatureFlagPayload'
    | 'getFeatureFlagResult'
    | 'getAllFeatureFlags'
    | 'reloadFeatureFlags'
    | 'onFeatureFlags'
    | 'updateFlags'
    | 'setPersonPropertiesForFlags'
    | 'resetPersonPropertiesForFlags'
    | 'setGroupPropertiesForFlags'
    | 'resetGroupPropertiesForFlags'
  > {
  /** True once flags are known (an answer, bootstrap, or an earlier page's). */
  readonly hasLoadedFlags: boolean;
  /** Every flag key the last answer had, on or off. */
  getFlags(): string[];
  /** Each flag's value: true, false or the variant. */
  getFlagVariants(): Record<string, FlagValue>;
  /** Each flag's payload as the server sent it (usually JSON text, as in posthog-js; getFeatureFlagPayload() parses it). */
  getFlagPayloads(): Record<string, unknown>;
  /**
   * Local overrides that win over the server's flags wherever flags are read, kept until cleared or
   * reset(): false clears them; a list of keys (on) or a record of values replaces the flag
   * overrides; `{ flags, payloads }` replaces either (false clears it).
   */
  overrideFeatureFlags(
    options:
      | false
      | string[]
      | Record<string, FlagValue>
      | { flags?: false | string[] | Record<string, FlagValue>; payloads?: false | Record<string, unknown>; suppressWarning?: boolean },
  ): void;
  /** posthog-js's older form: overrideFeatureFlags({ flags }). */
  override(flags: false | string[] | Record<string, FlagValue>, suppressWarning?: boolean): void;
}

/** `client.persistence`: posthog-js's record of the visitor over hogtail's state. */
export interface PersistenceView extends Pick<Hogtail, 'register' | 'register_once' | 'unregister'> {
  /** Super properties with the identity under posthog-js's names (`distinct_id`, `$device_id`, `$user_state`, `$groups`, `$sesid`). */
  readonly props: Properties;
  get_property(name: string): unknown;
  set_property(name: string, value: unknown): void;
}
