/** The message shapes of the server client's methods, named and shaped as posthog-node's. */
import type { FeatureFlagEvaluations } from './flag-snapshot';

export type Properties = Record<string, unknown>;
export type Timestamp = Date | string | number;
export interface EventMessage {
  /** Who did it; inside withContext() the context's distinct id when left out. */
  distinctId?: string;
  event: string;
  properties?: Properties;
  /** Group type to group key, sent as `$groups`. */
  groups?: Record<string, string | number>;
  timestamp?: Timestamp;
  /** A UUID to use instead of a fresh UUIDv7 (for idempotent re-sends from your own outbox). */
  uuid?: string;
  /**
   * Tag the event with `$feature/<key>` and `$active_feature_flags` for this user. Uses the flag
   * cache when fresh; otherwise the event waits for one flags request (flush() waits for it too).
   */
  sendFeatureFlags?:
    | boolean
    | {
        onlyEvaluateLocally?: boolean;
        personProperties?: Record<string, unknown>;
        groupProperties?: Record<string, Record<string, unknown>>;
        flagKeys?: string[];
      };
  /** An evaluateFlags() snapshot: the event carries its `$feature/<key>` and `$active_feature_flags`, with no lookup. */
  flags?: FeatureFlagEvaluations;
  /**
   * The end user's IP address: sent as the event's `$ip` (so the server locates the user, not your
   * server) and to the flags endpoint as X-Forwarded-For.
   */
  ip?: string;
  /** Ask the server not to locate this event by IP address. See the client's disableGeoip option. */
  disableGeoip?: boolean;
}

export interface IdentifyMessage {
  distinctId: string;
  /** Person properties; `$set` / `$set_once` inside are honoured, anything else goes to `$set`. */
  properties?: Properties;
  timestamp?: Timestamp;
  uuid?: string;
  disableGeoip?: boolean;
}

export interface AliasMessage {
  distinctId: string;
  alias: string;
  timestamp?: Timestamp;
  uuid?: string;
  disableGeoip?: boolean;
}

export interface GroupIdentifyMessage {
  groupType: string;
  groupKey: string | number;
  properties?: Properties;
  /** Defaults to `$<groupType>_<groupKey>`, as posthog-node does. */
  distinctId?: string;
  timestamp?: Timestamp;
  uuid?: string;
  disableGeoip?: boolean;
}

export interface ScreenMessage {
  distinctId: string;
  name: string;
  properties?: Properties;
  groups?: Record<string, string | number>;
  timestamp?: Timestamp;
  uuid?: string;
  disableGeoip?: boolean;
}

export interface SurveyMessage {
  distinctId: string;
  surveyId: string;
  properties?: Properties;
  timestamp?: Timestamp;
  uuid?: string;
  disableGeoip?: boolean;
}

export interface SurveySentMessage extends SurveyMessage {
  response: unknown;
}

/** What a before_send hook sees and returns (posthog-node's shape); null drops the event. */
export interface BeforeSendEvent {
  distinctId: string;
  event: string;
  properties: Properties;
  groups?: Record<string, string | number> | undefined;
  timestamp?: Timestamp | undefined;
  uuid?: string | undefined;
}

export type BeforeSendFn = (event: BeforeSendEvent | null) => BeforeSendEvent | null;
