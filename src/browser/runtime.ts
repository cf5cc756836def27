/**
 * What init() sets up and every public method works on, as slices: each layer declares the
 * members it owns (state/slice.ts, delivery/slice.ts, capture/event-properties/types.ts,
 * features/flags-state.ts, features/hooks.ts), and a function names the slices it reads in its
 * parameter's type, so the compiler holds each part to what it declared. Features add no
 * members: they keep their own state and are told what happens through hooks (features/feature.ts).
 *
 * Methods are written as functions of (runtime, ...the public arguments): client.ts defines the
 * public object once from them, queues calls made before init() and keeps every call from
 * throwing into the page.
 */
import type { HogtailError } from '../core/errors';
import type { EventInput } from '../core/event';
import type { VisitSlice } from './capture/event-properties/types';
import type { DeliverySlice } from './delivery/slice';
import type { FlagsSlice } from './features/flags-state';
import type { HooksSlice } from './features/hooks';
import type { Hogtail, HogtailConfig } from './hogtail';
import type { StateSlice } from './state/slice';
import type { Properties } from './types';
import type { UnsupportedMethods } from './api/unsupported';

/** before_send, sanitize_properties and property_denylist applied to an event (before-send.ts); null drops it. */
export type EventHooks = (rt: Runtime, input: EventInput, sdk: Properties, now: number) => EventInput | null;

/** The client's own slice: the options, the public object and the reporting. */
export interface CoreSlice {
  readonly config_: HogtailConfig;
  /** The public client: what features capture through (its methods never throw into the page). */
  readonly client: Hogtail;
  /** Option names the build acts on beyond the core ones (for set_config's check). */
  readonly options_: readonly string[];
  /** The app's event hooks (before-send.ts), in the builds that have them: the last word on each event. */
  readonly beforeSend_?: EventHooks | undefined;
  /** debug mode: every event and request is logged. */
  verbose_: boolean;
  report_(error: HogtailError): void;
  debug(message: string): void;
  setDebug_(enabled: boolean): void;
  /** console.warn once per `key` for the client's life. */
  warn_(key: string, message: string): void;
}

export type { ConsentStatus } from './state/slice';

export type Runtime = CoreSlice & StateSlice & DeliverySlice & FlagsSlice & HooksSlice & VisitSlice;

/** Public members that are not runtime methods: init, listeners, the flag and the person API. */
export type DirectMember =
  | 'init'
  | 'on'
  | 'onFeatureFlags'
  | '__loaded'
  | 'people'
  | 'config'
  | 'featureFlags'
  | 'persistence'
  | '_isIdentified'
  | keyof UnsupportedMethods;

type Method<K extends keyof Hogtail> = Hogtail[K] extends (...args: infer A) => infer R ? (rt: Runtime, ...args: A) => R : never;

/** Every other public method, as a function of the runtime. */
export type Methods = { [K in Exclude<keyof Hogtail, DirectMember>]: Method<K> };
