/**
 * The plain data types of the public API (posthog-js's names), apart from the client so that
 * config.ts can use them without an import cycle.
 */
import type { FlagValue } from '../core/flags/decide';

// `any`, as posthog-js types a property: apps read fields of captured events without narrowing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Properties = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Property = any;

/** A value that survives JSON (a flag payload, a survey response), as posthog-js names it. */
export type JsonType = string | number | boolean | null | undefined | JsonRecord | JsonType[];
export type JsonRecord = { [key: string]: JsonType };

export interface CaptureOptions {
  timestamp?: Date | string | number;
  $set?: Properties;
  $set_once?: Properties;
  /** Your own UUID instead of a fresh UUIDv7 (idempotent re-sends). */
  uuid?: string;
  /** Send at once instead of with the next batch. */
  send_instantly?: boolean;
  /** 'sendBeacon': also hand the event to sendBeacon now (it survives the page closing). */
  transport?: 'XHR' | 'fetch' | 'sendBeacon';
  /**
   * posthog-js's way past its client-side limit of 10 events a second (bursts of 100): accepted,
   * and changes nothing, because hogtail has no such limit; every valid event is queued.
   */
  skip_client_rate_limiting?: boolean;
}

/** What capture() queued (undefined when the event was dropped), as posthog-js returns it. */
export interface CaptureResult {
  uuid: string;
  event: string;
  properties: Properties;
  timestamp?: Date;
  $set?: Properties;
  $set_once?: Properties;
}

export interface FlagOptions {
  send_event?: boolean;
}

export interface FeatureFlagResult {
  key: string;
  enabled: boolean;
  variant: string | undefined;
  payload: unknown;
}

export type FlagsListener = (active: string[], flags: Record<string, FlagValue>) => void;
/** posthog-js's name for an onFeatureFlags listener. */
export type FeatureFlagsCallback = FlagsListener;
export type SessionIdListener = (sessionId: string, windowId: string | null | undefined) => void;

/** A survey as PostHog's surveys API describes it (posthog-js's `Survey`); the fields apps read are typed. */
export interface Survey {
  id: string;
  name: string;
  description?: string;
  type: string;
  questions: SurveyQuestion[];
  // `any`, as posthog-js types them, so an app's reads of the other fields compile unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

export interface SurveyQuestion {
  id?: string;
  type: string;
  question: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}
