/**
 * Feature flags in the browser (issue 4): decide at init and whenever what flags depend on changes
 * (identity, groups, the property overrides), on a poll while the page is visible, and on demand.
 *
 * The last good flags live in the persisted state (`ff`), so a reload has them before any request,
 * and so does every event: each carries `$feature/<key>` and `$active_feature_flags` once flags are
 * known. Requests are debounced and one at a time: asking during a request runs one more after it,
 * with whatever the state is then. A failed request changes nothing; the next trigger tries again.
 *
 * Decide goes as a bare POST with a string body (text/plain, no custom headers): a "simple" request,
 * so a cross-origin collector costs no CORS preflight.
 */
import { HogtailError } from '../core/errors';
import {
  acceptsGzip,
  decideBody,
  decideUrl,
  featureProperties,
  mergeDecide,
  parseDecideResponse,
  parsePayload,
  type FlagsSnapshot,
  type FlagValue,
} from '../core/flags/decide';
import { attempt } from '../core/safe-json';
import { numberOption, type HogtailConfig } from './config';
import { fetchExecutor } from './fetch-executor';
import type { StateStore } from './state';

type Properties = Record<string, unknown>;
type FlagsListener = (active: string[], flags: Record<string, FlagValue>) => void;
interface FlagOptions {
  send_event?: boolean;
}

/** How many (key, value) pairs `$feature_flag_called` remembers per distinct id (DESIGN §4.5). */
const CALLS_KEPT = 1_000;

/**
 * Returns [the public flag methods, onFeatureFlags, the `$feature/…` properties for the next event,
 * reload, start]. The methods exist before init (the client queues calls until then); start() runs
 * at init. A tuple, not an object: its names would otherwise ship in the script tag.
 */
export function createFlags(track: (event: string, properties: Properties) => void, report: (error: HogtailError) => void) {
  const listeners = new Set<FlagsListener>();
  // Set by start(); nothing below reads it before (the client queues every call until init).
  let states: StateStore;
  let request: (() => Promise<void> | undefined) | undefined;
  // Requests run one after another on this chain. `queued` is true from a reload() until its
  // request starts, so every reload of a task, or of a request's flight, adds just one request.
  let chain = Promise.resolve();
  let queued = false;
  let propsOf: FlagsSnapshot | undefined;
  let props: Properties | undefined;

  const snapshot = () => states.state.ff;
  const notify = (listener: FlagsListener) => {
    const flags = snapshot()?.flags;
    // A broken listener must not break the page or the other listeners.
    if (flags) attempt(() => listener(featureProperties(flags).$active_feature_flags as string[], flags), 0);
  };
  const apply = (next: FlagsSnapshot) => {
    if (JSON.stringify(states.state.ff) !== JSON.stringify(next)) {
      states.state.ff = next;
      states.save();
      listeners.forEach(notify);
    }
  };
  const reload = () => {
    if (request && !queued) {
      queued = true;
      // The zero-delay wait lets a task finish first (init, identify, group…): one request for all.
      chain = chain.then(() => new Promise((resolve) => setTimeout(resolve))).then(() => {
        queued = false;
        return request!();
      });
    }
  };
  const override = (field: 'fp' | 'fg', merge: (old: Properties) => Properties, reloadFlags?: boolean) => {
    states.state[field] = merge({ ...states.state[field] }) as never;
    states.save();
    if (reloadFlags !== false) reload();
  };

  const value = (key: string, options?: FlagOptions) => {
    const state = states.state;
    const flags = state.ff?.flags;
    const flag = flags?.[key];
    if (flags && options?.send_event !== false) {
      // [distinct id, …JSON [key, value]]: another id (identify, reset, another tab) starts it over.
      let calls = state.fc;
      if (calls?.[0] !== state.distinct_id) calls = state.fc = [state.distinct_id];
      const call = JSON.stringify([key, flag]);
      if (!calls.includes(call)) {
        calls.push(call);
        if (calls.length > CALLS_KEPT) calls.splice(1, 1);
        states.save();
        track('$feature_flag_called', { $feature_flag: key, $feature_flag_response: flag });
      }
    }
    return flag;
  };

  const methods = {
    getFeatureFlag: value,
    isFeatureEnabled: (key: string, options?: FlagOptions) => {
      const flag = value(key, options);
      return snapshot() ? !!flag : undefined;
    },
    getFeatureFlagPayload: (key: string) => parsePayload(snapshot()?.payloads[key]),
    reloadFeatureFlags: reload,
    setPersonPropertiesForFlags: (properties: Properties, reloadFlags?: boolean) =>
      override('fp', (old) => ({ ...old, ...properties }), reloadFlags),
    setGroupPropertiesForFlags: (properties: Record<string, Properties>, reloadFlags?: boolean) =>
      override(
        'fg',
        (old) => {
          for (const type in properties) old[type] = { ...(old[type] as Properties), ...properties[type] };
          return old;
        },
        reloadFlags,
      ),
  };

  /** Adds a listener; called at once when flags are known already, then on every change. */
  const onFeatureFlags = (listener: FlagsListener) => {
    listeners.add(listener);
    if (request) notify(listener);
    return () => void listeners.delete(listener);
  };

  /** `$feature/<key>` and `$active_feature_flags`, computed once per set of flags. */
  const flagProperties = () => {
    const current = snapshot();
    if (current !== propsOf) props = (propsOf = current) && featureProperties(current.flags);
    return props;
  };

  function start(store: StateStore, apiKey: string, host: string, config: HogtailConfig, timeoutMs: number, setGzip: (on: boolean) => void): void {
    states = store;
    const bootstrap = config.bootstrap;
    // Server-rendered flags are as fresh as the page: they replace what an earlier page stored.
    if (bootstrap?.featureFlags) apply({ flags: bootstrap.featureFlags, payloads: bootstrap.featureFlagPayloads ?? {} });
    const off = config.advanced_disable_decide || config.advanced_disable_feature_flags;
    request = () =>
      off ? undefined : fetchExecutor({
        url: decideUrl(host),
        body: ((state) => decideBody(apiKey, state.distinct_id, {
          groups: state.$groups,
          personProperties: state.fp,
          groupProperties: state.fg,
        }))(states.state),
        timeoutMs,
      })
        .then((response) => {
          if (response.status !== 200) throw `HTTP ${response.status}`;
          const result = parseDecideResponse(response.body);
          if (!config.disable_compression) setGzip(acceptsGzip(result));
          apply(mergeDecide(snapshot(), result));
        })
        .catch((error: unknown) => report(new HogtailError(`feature flags not loaded (${String(error)}); keeping the last ones`)));
    listeners.forEach(notify); // each is told only if flags are known
    reload();
    const every = numberOption(config.flags_poll_interval_ms, 300_000);
    // Paused while hidden: a background tab needs no fresh flags, and the next trigger brings them.
    if (every) setInterval(() => document.visibilityState === 'hidden' || reload(), every);
  }

  return [methods, onFeatureFlags, flagProperties, reload, start] as const;
}
