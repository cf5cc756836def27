/**
 * The browser client's public shape: posthog-js's method names and argument shapes, so switching
 * is an import change. Implemented by client.ts; the methods themselves live with their concern
 * (capture.ts, identity.ts, consent.ts, flags.ts), each defined once.
 */
import type { HogtailError } from '../core/errors';
import type { FlagValue } from '../core/flags/decide';
import type { QueueStats } from '../core/queue';
import type { ClientConfig } from './config';

export type Properties = Record<string, unknown>;

/** init() options; see config.ts for each one. */
export type HogtailConfig = ClientConfig<Hogtail>;

export interface CaptureOptions {
  timestamp?: Date | string | number;
  $set?: Properties;
  $set_once?: Properties;
  /** Your own UUID instead of a fresh UUIDv7 (idempotent re-sends). */
  uuid?: string;
}

export interface FlagOptions {
  send_event?: boolean;
}

export type FlagsListener = (active: string[], flags: Record<string, FlagValue>) => void;

export interface Hogtail {
  init(apiKey: string, config?: HogtailConfig): Hogtail | undefined;
  capture(event: string, properties?: Properties | null, options?: CaptureOptions): void;
  identify(distinctId: string, $set?: Properties, $set_once?: Properties): void;
  alias(alias: string, original?: string): void;
  group(groupType: string, groupKey: string, properties?: Properties): void;
  reset(resetDeviceId?: boolean): void;
  register(properties: Properties): void;
  register_once(properties: Properties, defaultValue?: unknown): void;
  unregister(name: string): void;
  get_distinct_id(): string;
  get_session_id(): string;
  screen(name: string, properties?: Properties): void;
  setPersonProperties($set?: Properties, $set_once?: Properties): void;
  opt_out_capturing(): void;
  opt_in_capturing(): void;
  has_opted_out_capturing(): boolean;
  /** Resolves once everything captured before the call is delivered or given up (or retries stall). */
  flush(): Promise<void>;
  debug(enabled?: boolean): void;
  surveyShown(surveyId: string, properties?: Properties): void;
  surveyDismissed(surveyId: string, properties?: Properties): void;
  surveySent(surveyId: string, response: unknown, properties?: Properties): void;
  /** Drops, retries and bad input; without a listener the first of each kind goes to the console. */
  on(event: 'error', listener: (error: HogtailError) => void): () => void;
  /** Queue counters, plus how many events are held in memory only. */
  stats(): QueueStats & { unsaved: number };
  /** The flag's value (false when off, undefined before flags are known); sends `$feature_flag_called` once per value. */
  getFeatureFlag(key: string, options?: FlagOptions): FlagValue | undefined;
  isFeatureEnabled(key: string, options?: FlagOptions): boolean | undefined;
  /** The flag's payload, JSON-parsed when it is JSON. */
  getFeatureFlagPayload(key: string): unknown;
  /** Called with the enabled keys and all flags once they are known, then on every change. */
  onFeatureFlags(listener: FlagsListener): () => void;
  reloadFeatureFlags(): void;
  setPersonPropertiesForFlags(properties: Properties, reload?: boolean): void;
  setGroupPropertiesForFlags(properties: Record<string, Properties>, reload?: boolean): void;
}
