/**
 * posthog-js's local flag overrides (`featureFlags.overrideFeatureFlags()`, and its older
 * `override()`): values an app sets for itself, in development or end-to-end tests, that win over
 * the server's wherever flags are read (flags-state.ts, shownFlags: the flag methods, the
 * listeners, the events' `$feature/…`). Kept with the visitor's state until cleared or reset(), as
 * posthog-js keeps them. Full build only.
 */
import type { FlagValue } from '../../core/flags/decide';
import { isObject } from '../../core/special-events';
import type { Runtime } from '../runtime';
import { tellListeners } from './flags';

/** posthog-js's list form: the named flags on. */
const asRecord = (flags: unknown) => (Array.isArray(flags) ? Object.fromEntries(flags.map((key) => [String(key), true])) : flags);

/**
 * `given`, as posthog-js takes it: false clears every override; a list or a record of flags
 * replaces the flag overrides; `{ flags, payloads }` replaces either (false clears it).
 */
export function overrideFlags(rt: Runtime, given: unknown): void {
  const state = rt.states_.state_;
  let flags: unknown = state.fo?.flags ?? {};
  let payloads: unknown = state.fo?.payloads ?? {};
  if (given === false) flags = payloads = {};
  else if (isObject(given) && ('flags' in given || 'payloads' in given)) {
    if (given.flags !== undefined) flags = (given.flags && asRecord(given.flags)) || {};
    if (given.payloads !== undefined) payloads = given.payloads || {};
  } else flags = asRecord(given);
  // Anything but records (a number, a string) overrides nothing.
  state.fo = isObject(flags) && isObject(payloads) ? { flags: flags as Record<string, FlagValue>, payloads } : undefined;
  rt.states_.save_();
  tellListeners(rt);
}
