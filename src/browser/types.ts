/**
 * The plain data types of the public API (posthog-js's names), apart from the client so that
 * config.ts can use them without an import cycle.
 */
import type { FlagValue } from '../core/flags/decide';

// `any`, as posthog-js types a property: apps read fields of captured events without narrowing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Properties = Record<string, any>;

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
export type SessionIdListener = (sessionId: string, windowId: string | null | undefined) => void;
