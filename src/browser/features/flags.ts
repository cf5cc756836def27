/**
 * Feature flags in the page. Asked at init and whenever what flags depend on changes (identity,
 * groups, the property overrides), on a poll while the page is visible, and on demand. The last
 * good flags live in the persisted state (`ff`), so a reload has them before any request, and so
 * does every event: each carries `$feature/<key>` and `$active_feature_flags` once flags are
 * known. Requests are debounced and one at a time: asking during a request runs one more after
 * it, with whatever the state is then. A failed request changes nothing; the next trigger tries
 * again. The request is core's flags client, as on the server (`/flags/?v=2`, `/decide/?v=3` for
 * the rest of the page once `/flags` answers 404 or 405, transient failures retried within the
 * request timeout), sent as a bare POST with a string body (text/plain, no custom headers): a
 * "simple" request, so a cross-origin collector costs no CORS preflight.
 */
import { HogtailError } from '../../core/errors';
import { featureProperties, mergeDecide, parsePayload, type FlagsSnapshot, type FlagValue } from '../../core/flags/decide';
import { createFlagsClient } from '../../core/flags/flags-client';
import { ownValue } from '../../core/own';
import { attempt } from '../../core/safe-json';
import { track } from '../capture/capture';
import { numberOption } from '../config';
import { pageExecutor } from '../delivery/fetch-executor';
import type { Feature } from './feature';
import { shownFlags, type FlagsState } from './flags-state';
import { runHooks } from './hooks';
import type { FeatureFlagResult, FlagOptions, FlagsListener, Properties } from '../types';
import type { Methods, Runtime } from '../runtime';

/** How many (key, value) pairs `$feature_flag_called` remembers per distinct id (bounded). */
const CALLS_KEPT = 1_000;

/** The flags the app sees (overrides included). */
export const shown = (rt: Runtime) => shownFlags(rt.flagState_, rt.states_.state_);

function notify(rt: Runtime, listener: FlagsListener): void {
  const flags = shown(rt)?.flags;
  // A broken listener must not break the page or the other listeners.
  if (flags) attempt(() => listener(featureProperties(flags).$active_feature_flags as string[], flags), 0);
}

/** The flags and payloads of a snapshot: what listeners hear of (the request id is new in every answer). */
const news = (snapshot: FlagsSnapshot | undefined) => JSON.stringify([snapshot?.flags, snapshot?.payloads]);

function apply(rt: Runtime, next: FlagsSnapshot): void {
  const states = rt.states_;
  const changed = news(states.state_.ff) !== news(next);
  // Stored even when only the request id is new: `$feature_flag_called` names the latest evaluation.
  states.state_.ff = next;
  states.save_();
  if (changed) tellListeners(rt);
}

/** Every onFeatureFlags listener hears the flags as they are now. */
export const tellListeners = (rt: Runtime) => rt.flagState_.listeners_.forEach((listener) => notify(rt, listener));

/** Asks for flags once the current task is done; at most one more request while one is waiting. */
export function reloadFlags(flags: FlagsState): void {
  if (flags.fetchFlags_ && !flags.queued_) {
    flags.queued_ = true;
    // The zero-delay wait lets a task finish first (init, identify, group…): one request for all.
    flags.chain_ = flags.chain_
      .then(() => new Promise((resolve) => setTimeout(resolve)))
      .then(() => {
        flags.queued_ = false;
        return flags.fetchFlags_!();
      });
  }
}

/** Adds a listener; called at once when flags are known already, then on every change. */
export function onFeatureFlags(flags: FlagsState, rt: Runtime | undefined, listener: FlagsListener): () => void {
  flags.listeners_.add(listener);
  if (rt) notify(rt, listener);
  return () => void flags.listeners_.delete(listener);
}

function startFlags(rt: Runtime): void {
  const { config_: config, endpoint_: endpoint, states_: states, flagState_: flags } = rt;
  const bootstrap = config.bootstrap;
  // Server-rendered flags are as fresh as the page: they replace what an earlier page stored.
  if (bootstrap?.featureFlags) apply(rt, { flags: bootstrap.featureFlags, payloads: bootstrap.featureFlagPayloads ?? {} });
  flags.listeners_.forEach((listener) => notify(rt, listener)); // each is told only if flags are known
  // Flags off: no request and no poll; what bootstrap gave is all there is.
  if (config.advanced_disable_decide || config.advanced_disable_feature_flags || config.advanced_disable_flags) return;
  // `&config=true`: the answer carries the project's config as decide's did (supportedCompression,
  // autocapture_opt_out), as posthog-js asked for it before it moved that config to a file of its own.
  const client = createFlagsClient({ ...endpoint, executor: pageExecutor, headers: {}, query: '&config=true' });
  flags.fetchFlags_ = () => {
    const state = states.state_;
    return (
      client
        .fetch(state.distinct_id, { groups: state.$groups, personProperties: state.fp, groupProperties: state.fg })
        .then((result) => {
          // The project's config (compression, autocapture's off switch, the extensions' settings) first.
          runHooks(rt, 'onRemoteConfig', result.remoteConfig_);
          apply(rt, mergeDecide(states.state_.ff, result));
        })
        // An Error always: the flags client's, or one thrown above (listeners and storage are guarded).
        .catch((error: Error) => rt.report_(new HogtailError(`feature flags not updated: ${error.message}`)))
    );
  };
  reloadFlags(flags);
  const every = numberOption(config.flags_poll_interval_ms, 300_000);
  // Paused while hidden: a background tab needs no fresh flags, and the next trigger brings them.
  if (!every) return;
  const poll = setInterval(() => {
    // The page environment can vanish under a live timer (a torn-down test DOM, a detached frame):
    // the poll then stops instead of throwing into the host's error handlers.
    if (typeof document === 'undefined') return clearInterval(poll);
    if (document.visibilityState !== 'hidden') reloadFlags(flags);
  }, every);
}

/**
 * Flags as a feature: asked at init and whenever the identity changes, and the source of the
 * remote config every feature hears of (onRemoteConfig).
 */
export const flagsFeature = (): Feature => ({
  name: 'flags',
  setup(rt) {
    startFlags(rt);
    return { onIdentityChange: () => reloadFlags(rt.flagState_) };
  },
});

/** The flag's value; the first time this person sees this value, `$feature_flag_called`. */
function flagValue(rt: Runtime, key: string, options?: FlagOptions) {
  const states = rt.states_;
  const state = states.state_;
  const ff = shown(rt);
  const flag = ownValue(ff?.flags, key);
  if (ff && options?.send_event !== false) {
    // What was sent is persisted (`fc`: [distinct id, …JSON [key, value], oldest first]), so a
    // reload or another tab of the same person does not send it again; another id starts over.
    const id = state.distinct_id;
    const sent = state.fc?.[0] === id ? state.fc : [id];
    const call = JSON.stringify([key, flag]);
    if (!sent.includes(call, 1)) {
      // Bounded: past CALLS_KEPT pairs the oldest is forgotten.
      state.fc = [id, ...sent.slice(1).slice(1 - CALLS_KEPT), call];
      states.save_();
      // A key the answer lacks has no value to record: the response is left out, never sent as false.
      track(rt, '$feature_flag_called', { $feature_flag: key, $feature_flag_response: flag, $feature_flag_request_id: ff.requestId });
    }
  }
  return flag;
}

function override(rt: Runtime, field: 'fp' | 'fg', merge: (old: Properties) => Properties, reload?: boolean): void {
  const states = rt.states_;
  states.state_[field] = merge({ ...states.state_[field] }) as never;
  states.save_();
  if (reload !== false) reloadFlags(rt.flagState_);
}

/** posthog-js's FeatureFlagResult for a known flag. */
function flagResult(rt: Runtime, key: string, flag: FlagValue | undefined): FeatureFlagResult | undefined {
  const ff = shown(rt);
  return ff && flag !== undefined
    ? { key, enabled: !!flag, variant: typeof flag === 'string' ? flag : undefined, payload: parsePayload(ownValue(ff.payloads, key)) }
    : undefined;
}

export const flagMethods: Pick<
  Methods,
  | 'getFeatureFlag'
  | 'isFeatureEnabled'
  | 'getFeatureFlagPayload'
  | 'reloadFeatureFlags'
  | 'setPersonPropertiesForFlags'
  | 'setGroupPropertiesForFlags'
> = {
  getFeatureFlag: flagValue,
  isFeatureEnabled(rt, key, options) {
    const flag = flagValue(rt, key, options);
    return shown(rt) ? !!flag : undefined;
  },
  getFeatureFlagPayload: (rt, key) => parsePayload(ownValue(shown(rt)?.payloads, key)),
  reloadFeatureFlags: (rt) => reloadFlags(rt.flagState_),
  setPersonPropertiesForFlags: (rt, properties, reload) => override(rt, 'fp', (old) => ({ ...old, ...properties }), reload),
  setGroupPropertiesForFlags: (rt, properties, reload) =>
    override(
      rt,
      'fg',
      // Group types are any text: built from entries, a type named `__proto__` is an entry like any other.
      (old) => ({
        ...old,
        ...Object.fromEntries(
          Object.entries(properties).map(([type, given]) => [type, { ...(ownValue(old, type) as Properties), ...given }]),
        ),
      }),
      reload,
    ),
};

/** posthog-js's other flag methods (full build). */
export const flagExtraMethods: Pick<
  Methods,
  'getFeatureFlagResult' | 'getAllFeatureFlags' | 'updateFlags' | 'resetPersonPropertiesForFlags' | 'resetGroupPropertiesForFlags'
> = {
  getFeatureFlagResult: (rt, key, options) => flagResult(rt, key, flagValue(rt, key, options)),
  getAllFeatureFlags: (rt) => Object.entries(shown(rt)?.flags ?? {}).map(([key, flag]) => flagResult(rt, key, flag)!),
  updateFlags: (rt, flags, payloads) => apply(rt, { flags: { ...flags }, payloads: { ...payloads } }),
  resetPersonPropertiesForFlags: (rt) => override(rt, 'fp', () => ({}), false),
  resetGroupPropertiesForFlags: (rt, groupType) =>
    override(
      rt,
      'fg',
      (old) => {
        if (groupType === undefined) return {};
        delete old[groupType];
        return old;
      },
      false,
    ),
};
