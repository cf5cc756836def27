/**
 * What init() sets up and every public method works on. Methods are written as functions of
 * (runtime, ...the public arguments): client.ts defines the public object once from them, queues
 * calls made before init() and keeps every call from throwing into the page.
 */
import type { HogtailError } from '../core/errors';
import type { Queue } from '../core/queue';
import type { EventInput } from '../core/event';
import type { EventProperties } from './event-properties/types';
import type { FlagsState } from './flags-state';
import type { Hogtail, HogtailConfig } from './hogtail';
import type { Ledger } from './ledger';
import type { Endpoint } from './send-batch';
import type { StateStore } from './state';
import type { Properties, SessionIdListener } from './types';
import type { UnsupportedMethods } from './unsupported';

/** before_send, sanitize_properties and property_denylist applied to an event (before-send.ts); null drops it. */
export type EventHooks = (rt: Runtime, input: EventInput, sdk: Properties, now: number) => EventInput | null;

export type ConsentStatus = 'granted' | 'denied' | 'pending';

export interface Runtime {
  readonly config: HogtailConfig;
  readonly endpoint: Endpoint;
  readonly states: StateStore;
  readonly queue: Queue;
  readonly ledger: Ledger;
  /** person_profiles as init() had it: 'always', 'never', anything else is 'identified_only'. */
  readonly mode: HogtailConfig['person_profiles'];
  readonly flagState: FlagsState;
  /** The user's choice (opt_in/opt_out), kept apart from the identity so it holds while nothing else is stored. */
  consent: ConsentStatus;
  /** localStorage as the page has it (the state and the queue see it through the consent gate). */
  readonly store: Storage | undefined;
  /** Storage key prefix of this project: `ht|<key>|`. */
  readonly base: string;
  /** register_for_session's properties (sessionStorage). */
  readonly sessionProps: Properties;
  readonly sessionListeners: Set<SessionIdListener>;
  /** Run at pagehide before the beacon is built (`$pageleave`). */
  onLeave?: () => void;
  /** Stops the running exception autocapture (exceptions-api.ts), while one runs. */
  stopExceptions?: (() => void) | undefined;
  /** posthog-js's visit properties: attribution, first page, session entry, page-view chain (event-properties/). */
  readonly visit: EventProperties;
  /** The app's event hooks (before-send.ts), in the builds that have them. */
  readonly hooks?: EventHooks | undefined;
  /** Option names the build acts on beyond the core ones (for set_config's check). */
  readonly options: readonly string[];
  /** Stored values found unusable and replaced (stats().repaired). */
  repaired: number;
  /** debug mode: every event and request is logged. */
  verbose: boolean;
  report(error: HogtailError): void;
  debug(message: string): void;
  setDebug(enabled: boolean): void;
  /** console.warn once per `key` for the client's life. */
  warn(key: string, message: string): void;
}

/** Public members that are not runtime methods: init, listeners, the flag and the person API. */
export type DirectMember = 'init' | 'on' | 'onFeatureFlags' | '__loaded' | 'people' | keyof UnsupportedMethods;

type Method<K extends keyof Hogtail> = Hogtail[K] extends (...args: infer A) => infer R ? (rt: Runtime, ...args: A) => R : never;

/** Every other public method, as a function of the runtime. */
export type Methods = { [K in Exclude<keyof Hogtail, DirectMember>]: Method<K> };
