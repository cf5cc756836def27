/**
 * What init() sets up and every public method works on. Methods are written as functions of
 * (runtime, ...the public arguments): client.ts defines the public object once from them, queues
 * calls made before init() and keeps every call from throwing into the page.
 */
import type { HogtailError } from '../core/errors';
import type { Queue } from '../core/queue';
import type { FlagsState } from './flags-state';
import type { Hogtail, HogtailConfig } from './hogtail';
import type { Ledger } from './ledger';
import type { Endpoint } from './send-batch';
import type { StateStore } from './state';

export interface Runtime {
  readonly config: HogtailConfig;
  readonly endpoint: Endpoint;
  readonly states: StateStore;
  readonly queue: Queue;
  readonly ledger: Ledger;
  /** person_profiles: 'always', 'never', or undefined for 'identified_only'. */
  readonly mode: 'always' | 'never' | undefined;
  readonly flagState: FlagsState;
  report(error: HogtailError): void;
  debug(message: string): void;
  setDebug(enabled: boolean): void;
}

/** Public methods that exist before init() on their own terms (init itself, and listeners). */
export type DirectMethod = 'init' | 'on' | 'onFeatureFlags';

type Method<K extends keyof Hogtail> = Hogtail[K] extends (...args: infer A) => infer R ? (rt: Runtime, ...args: A) => R : never;

/** Every other public method, as a function of the runtime. */
export type Methods = { [K in Exclude<keyof Hogtail, DirectMethod>]: Method<K> };
