/**
 * The named hooks features register (feature.ts), what each is told, and how they run: in the
 * order of the feature list. The built-in features' hooks never throw (they are checked code, and
 * the lite script tag pays for nothing else); an extension's are wrapped in `guarded` when it is
 * installed (extensions.ts), so one that throws is reported and never stops the others, the event
 * or the page.
 */
import { HogtailError } from '../../core/errors';
import type { EventInput } from '../../core/event';
import { textOf } from '../../core/text-of';
import type { Properties } from '../types';

/** An event on its way to the queue, before it is validated and serialised. */
export interface CaptureDraft {
  /** What the caller passed (event name, distinct id, properties, timestamp, uuid). */
  input: EventInput;
  /** The properties hogtail adds (page, session, super properties, flags…); the caller's win. */
  sdk: Properties;
  /** The capture time, ms. */
  readonly now: number;
}

/**
 * The project's remote config, as the flags answer (`/flags/?v=2&config=true`) carries it. As the
 * server sent it: a feature checks a value's type before it acts on it. The keys hogtail's
 * features read or will read are named; others pass through.
 */
export interface RemoteConfig {
  /** `gzip` or `gzip-js` in it: the batch endpoint takes gzip (delivery). */
  readonly supportedCompression?: unknown;
  /** true: the project turned autocapture off (autocapture; remembered for the next page). */
  readonly autocapture_opt_out?: unknown;
  /** Exception autocapture turned on in the project's settings. */
  readonly autocaptureExceptions?: unknown;
  /** Session replay's settings, or false. */
  readonly sessionRecording?: unknown;
  /** Web vitals and network timing. */
  readonly capturePerformance?: unknown;
  readonly heatmaps?: unknown;
  readonly surveys?: unknown;
  readonly captureDeadClicks?: unknown;
  readonly [key: string]: unknown;
}

/** What changed about who the events are about. */
export interface IdentityChange {
  /** identify() to a new id, group(), resetGroups() or reset(). */
  readonly reason: 'identify' | 'group' | 'reset';
  /** The distinct id from now on. */
  readonly distinctId: string;
}

/**
 * The named hooks. Each runs for every feature that registered it, in the order of the feature
 * list; one that throws is reported and the others still run.
 */
export interface FeatureHooks {
  /**
   * Every event on its way to the queue, before the app's before_send: a hook may change the draft
   * (add to `sdk`, replace `input`), or return false to drop the event (counted as `before_send`).
   */
  beforeCapture?(draft: CaptureDraft): boolean | void;
  /** The remote config of each flags answer. */
  onRemoteConfig?(config: RemoteConfig): void;
  /** identify() to a new id, group(), resetGroups(), reset(). */
  onIdentityChange?(change: IdentityChange): void;
  /**
   * The page is going away (pagehide). Runs before the unload beacon is built, so what a hook
   * captures here goes with it.
   */
  onUnload?(): void;
  /** init() is done, the app's `loaded` callback included: the time to capture the page's first events. */
  onLoaded?(): void;
}

export type HookName = keyof FeatureHooks;

/** The hooks registered so far, by name, in the order of the feature list. */
type Registered = { [K in HookName]?: NonNullable<FeatureHooks[K]>[] };

/** The runtime's slice for hooks: what the features asked to be told. */
export interface HooksSlice {
  readonly hooks_: Registered;
}

/** Registers what a feature's setup returned (nothing: it listens on no hook). */
export function addHooks(rt: HooksSlice, hooks: FeatureHooks | void): void {
  const given: FeatureHooks = hooks || {};
  for (const name in given) {
    const hook = given[name as HookName];
    if (hook) ((rt.hooks_[name as HookName] ??= []) as unknown[]).push(hook);
  }
}

type Argument<K extends HookName> = Parameters<NonNullable<FeatureHooks[K]>>;

/** Runs the `name` hooks in order; false as soon as one returns false (beforeCapture: the event is dropped). */
export function runHooks<K extends HookName>(rt: HooksSlice, name: K, ...args: Argument<K>): boolean {
  for (const hook of rt.hooks_[name] ?? []) if ((hook as (...a: Argument<K>) => unknown)(...args) === false) return false;
  return true;
}

/** `fn`, handing what it throws to `report` instead (as `<feature>: <what> failed`): how an extension's code runs. */
export const guarded =
  <A extends unknown[], R>(report: (error: HogtailError) => void, feature: string, what: string, fn: (...args: A) => R) =>
  (...args: A): R | undefined => {
    try {
      return fn(...args);
    } catch (error) {
      report(new HogtailError(`${feature}: ${what} failed (${textOf(error)}); the other features go on`));
    }
  };
