/**
 * The browser client: posthog-js's API on hogtail's core. A factory returning a plain object, so
 * the script tag and the npm default export are the same thing and calls made before init() are
 * kept (in order) and run by init(), as the official snippet does.
 *
 * Delivery: capture() validates and serialises the event (core/event), the core queue batches and
 * retries it, the ledger keeps it in localStorage until a 2xx, the tab lock decides which tab sends
 * what, and pagehide hands what is left to sendBeacon.
 */
import { HogtailError, InvalidEventError } from '../core/errors';
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
import { buildEvent, DEFAULT_MAX_EVENT_BYTES } from '../core/event';
import { createQueue, type Queue, type QueueStats } from '../core/queue';
import { createReporter, type ErrorListener } from '../core/reporter';
import {
  aliasEvent,
  asText,
  groupIdentifyEvent,
  identifyEvent,
  isText,
  PERSON_EVENTS,
  screenEvent,
  surveyEvent,
  type SpecialEvent,
} from '../core/special-events';
import { attempt } from '../core/safe-json';
import { uuidv7 } from '../core/uuid';
import type { StartAutocapture } from './autocapture';
import { sendByBeacon } from './beacon';
import { DEFAULT_API_HOST, numberOption, type HogtailConfig } from './config';
import { fetchExecutor } from './fetch-executor';
import { watchHistory } from './history';
import { createLedger, type Ledger } from './ledger';
import { forgetPageContext, pageContext } from './page-context';
import { createStateStore, freshState, type PersistedState, type StateStore } from './state';
import { sendBatch } from './send-batch';
import { openLocalStorage } from './storage';
import { startTabs } from './tabs';

type Properties = Record<string, unknown>;
type FlagsListener = (active: string[], flags: Record<string, FlagValue>) => void;
interface FlagOptions {
  send_event?: boolean;
}

/** How many (key, value) pairs `$feature_flag_called` remembers per distinct id (DESIGN §4.5). */
const CALLS_KEPT = 1_000;

export interface CaptureOptions {
  timestamp?: Date | string | number;
  $set?: Properties;
  $set_once?: Properties;
  /** Your own UUID instead of a fresh UUIDv7 (idempotent re-sends). */
  uuid?: string;
}

export interface Hogtail {
  init(apiKey: string, config?: HogtailConfig): Hogtail | undefined;
  capture(event: string, properties?: Properties | null, options?: CaptureOptions): void;
  identify(distinctId: string, $set?: Properties, $set_once?: Properties): void;
  alias(alias: string, original?: string): void;
  group(groupType: string, groupKey: string, properties?: Properties): void;
  reset(resetDeviceId?: boolean): void;
  register(properties: Properties): void;
  register_once(properties: Properties, defaultValue?: unknown): void;
  unregister(name: string): void;
  get_distinct_id(): string;
  get_session_id(): string;
  screen(name: string, properties?: Properties): void;
  setPersonProperties($set?: Properties, $set_once?: Properties): void;
  opt_out_capturing(): void;
  opt_in_capturing(): void;
  has_opted_out_capturing(): boolean;
  /** Resolves once everything captured before the call is delivered or given up (or retries stall). */
  flush(): Promise<void>;
  debug(enabled?: boolean): void;
  surveyShown(surveyId: string, properties?: Properties): void;
  surveyDismissed(surveyId: string, properties?: Properties): void;
  surveySent(surveyId: string, response: unknown, properties?: Properties): void;
  /** Drops, retries and bad input; without a listener the first of each kind goes to the console. */
  on(event: 'error', listener: (error: HogtailError) => void): () => void;
  /** Queue counters, plus how many events are held in memory only. */
  stats(): QueueStats & { unsaved: number };
  /** The flag's value (false when off, undefined before flags are known); sends `$feature_flag_called` once per value. */
  getFeatureFlag(key: string, options?: { send_event?: boolean }): FlagValue | undefined;
  isFeatureEnabled(key: string, options?: { send_event?: boolean }): boolean | undefined;
  /** The flag's payload, JSON-parsed when it is JSON. */
  getFeatureFlagPayload(key: string): unknown;
  /** Called with the enabled keys and all flags once they are known, then on every change. */
  onFeatureFlags(listener: (active: string[], flags: Record<string, FlagValue>) => void): () => void;
  reloadFeatureFlags(): void;
  setPersonPropertiesForFlags(properties: Properties, reload?: boolean): void;
  setGroupPropertiesForFlags(properties: Record<string, Properties>, reload?: boolean): void;
}

/**
 * @param loadAutocapture how this entry point gets autocapture: the npm build loads it lazily (an
 * app with `autocapture: false` never downloads it), the script tag has it inline, the lite script
 * tag has none.
 */
export function createHogtail(loadAutocapture?: () => StartAutocapture | Promise<StartAutocapture>): Hogtail {
  const listeners = new Set<ErrorListener>();
  const { report, debug, setDebug } = createReporter(listeners);
  /** Runs `fn`; whatever it throws is reported, never thrown into the page (DESIGN §4.4). */
  const guard = <T>(name: string, fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (error) {
      report(new HogtailError(`${name}() failed: ${String(error)}`));
    }
  };
  const early: [string, unknown[]][] = [];

  // Set by setup() (init) before anything reads them.
  let apiKey: string;
  let host: string;
  let mode: string | undefined; // person_profiles: 'always', 'never', or undefined for 'identified_only'
  let gzip: boolean;
  let states: StateStore;
  let queue: Queue | undefined;
  let ledger: Ledger;

  // Feature flags (issue 4): decide at init and whenever what flags depend on changes (identity,
  // groups, the property overrides), on a poll while the page is visible, and on demand. The last
  // good flags live in the persisted state (`ff`), so a reload has them before any request, and so
  // does every event: each carries `$feature/<key>` and `$active_feature_flags` once flags are
  // known. Requests are debounced and one at a time: asking during a request runs one more after
  // it, with whatever the state is then. A failed request changes nothing; the next trigger tries
  // again. Decide goes as a bare POST with a string body (text/plain, no custom headers): a
  // "simple" request, so a cross-origin collector costs no CORS preflight. Flags live in the
  // client's closure, not a module of their own: parameters and a returned tuple cost the script
  // tag about 40 gzipped bytes.
  const flagListeners = new Set<FlagsListener>();
  let request: (() => Promise<void> | undefined) | undefined;
  // Requests run one after another on this chain. `queued` is true from a reloadFlags() until its
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
      flagListeners.forEach(notify);
    }
  };
  const reloadFlags = () => {
    if (request && !queued) {
      queued = true;
      // The zero-delay wait lets a task finish first (init, identify, group…): one request for all.
      chain = chain.then(() => new Promise((resolve) => setTimeout(resolve))).then(() => {
        queued = false;
        return request!();
      });
    }
  };
  const override = (field: 'fp' | 'fg', merge: (old: Properties) => Properties, reload?: boolean) => {
    states.state[field] = merge({ ...states.state[field] }) as never;
    states.save();
    if (reload !== false) reloadFlags();
  };

  const flagValue = (key: string, options?: FlagOptions) => {
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

  const flagMethods = {
    getFeatureFlag: flagValue,
    isFeatureEnabled: (key: string, options?: FlagOptions) => {
      const flag = flagValue(key, options);
      return snapshot() ? !!flag : undefined;
    },
    getFeatureFlagPayload: (key: string) => parsePayload(snapshot()?.payloads[key]),
    reloadFeatureFlags: reloadFlags,
    setPersonPropertiesForFlags: (properties: Properties, reload?: boolean) =>
      override('fp', (old) => ({ ...old, ...properties }), reload),
    setGroupPropertiesForFlags: (properties: Record<string, Properties>, reload?: boolean) =>
      override(
        'fg',
        (old) => {
          for (const type in properties) old[type] = { ...(old[type] as Properties), ...properties[type] };
          return old;
        },
        reload,
      ),
  };

  /** Adds a listener; called at once when flags are known already, then on every change. */
  const onFeatureFlags = (listener: FlagsListener) => {
    flagListeners.add(listener);
    if (request) notify(listener);
    return () => void flagListeners.delete(listener);
  };

  /** `$feature/<key>` and `$active_feature_flags`, computed once per set of flags. */
  const flagProperties = () => {
    const current = snapshot();
    if (current !== propsOf) props = (propsOf = current) && featureProperties(current.flags);
    return props;
  };

  function startFlags(config: HogtailConfig, timeoutMs: number): void {
    const bootstrap = config.bootstrap;
    // Server-rendered flags are as fresh as the page: they replace what an earlier page stored.
    if (bootstrap?.featureFlags) apply({ flags: bootstrap.featureFlags, payloads: bootstrap.featureFlagPayloads ?? {} });
    const off = config.advanced_disable_decide || config.advanced_disable_feature_flags;
    request = () =>
      off ? undefined : fetchExecutor(
        decideUrl(host),
        ((state) => decideBody(apiKey, state.distinct_id, {
          groups: state.$groups,
          personProperties: state.fp,
          groupProperties: state.fg,
        }))(states.state),
        timeoutMs,
      )
        .then((response) => {
          if (response.status !== 200) throw `HTTP ${response.status}`;
          const result = parseDecideResponse(response.body);
          // Autocapture (issue 14): the project's off switch, remembered for the next page.
          if (result.autocaptureOptOut !== undefined) {
            states.state.aco = result.autocaptureOptOut;
            states.save();
          }
          if (!config.disable_compression) gzip = acceptsGzip(result);
          apply(mergeDecide(snapshot(), result));
        })
        .catch((error: unknown) => report(new HogtailError(`feature flags not loaded (${String(error)}); keeping the last ones`)));
    flagListeners.forEach(notify); // each is told only if flags are known
    reloadFlags();
    const every = numberOption(config.flags_poll_interval_ms, 300_000);
    // Paused while hidden: a background tab needs no fresh flags, and the next trigger brings them.
    if (every) setInterval(() => document.visibilityState === 'hidden' || reloadFlags(), every);
  }

  const refuse = (message: string) => {
    queue?.countDrop('invalid');
    report(new InvalidEventError(`${message}. The event was not queued.`, 'invalid', undefined));
  };
  const noPersons = (what: string) => mode === 'never' && (refuse(`${what}() is off with person_profiles: 'never'`), true);

  function track(event: unknown, properties?: unknown, options?: CaptureOptions, distinctId?: string): void {
    const state = states.state;
    if (state.optout) {
      queue!.countDrop('opted_out');
      debug(`"${String(event)}" not captured (opted out)`);
      return;
    }
    const now = Date.now();
    // {} for null and undefined; a non-object is refused by buildEvent anyway.
    const own = Object(properties) as Properties;
    const sdk: Properties = {};
    // The caller's properties win over page context and super properties, so no key is ever
    // written twice and buildEvent stays on its fast path.
    const add = (source: Properties | undefined) => {
      for (const key in source) if (!(key in own)) sdk[key] = source[key];
    };
    add(pageContext());
    add({ $session_id: states.session(now), $device_id: state.$device_id });
    add(state.props);
    add(flagProperties());
    for (const _ in state.$groups) {
      add({ $groups: state.$groups });
      break;
    }
    const personEvent = PERSON_EVENTS.has(event as string) || event === '$set';
    if (mode === 'never' || (!mode && !personEvent && !state.$epp && state.$user_state !== 'identified')) {
      add({ $process_person_profile: false });
    }
    if (options?.$set) sdk.$set = options.$set;
    if (options?.$set_once) sdk.$set_once = options.$set_once;
    const built = buildEvent(
      { event, distinctId: distinctId ?? state.distinct_id, properties, timestamp: options?.timestamp, uuid: options?.uuid },
      sdk,
      DEFAULT_MAX_EVENT_BYTES,
      now,
    );
    if (!built.ok) {
      queue!.countDrop(built.error.reason);
      return report(built.error);
    }
    for (const note of built.notes) debug(`"${String(event)}": ${note}`);
    queue!.enqueue(built.record);
  }

  const setPerson = ($set: unknown, $set_once: unknown) => track('$set', { $set: $set ?? {}, $set_once: $set_once ?? {} });
  /** Person processing on from now (identified_only mode). */
  const personOn = () => {
    states.state.$epp = true;
    states.save();
  };

  function special(event: SpecialEvent, distinctId?: string): void {
    if ('error' in event) refuse(event.error);
    else track(event.event, event.properties, undefined, distinctId);
  }

  function setup(token: string, config: HogtailConfig): void {
    apiKey = token;
    host = isText(config.api_host) ? config.api_host : DEFAULT_API_HOST; // batchUrl and decideUrl drop a trailing /
    setDebug(config.debug === true);
    if (['always', 'never'].includes(config.person_profiles!)) mode = config.person_profiles!;
    gzip = !config.disable_compression;
    const store = config.disable_persistence || config.persistence === 'memory' ? undefined : openLocalStorage();
    const base = 'ht|' + token + '|';
    const tabId = uuidv7();
    states = createStateStore(store, base + 'p', token, config.bootstrap);
    if (config.opt_out_capturing_by_default && states.state.optout === undefined) states.state.optout = true;
    ledger = createLedger(
      store,
      base + 'q|',
      tabId,
      numberOption(config.max_stored_events, 2_000),
      numberOption(config.max_stored_chars, 1_500_000),
    );
    const timeoutMs = numberOption(config.request_timeout, 10_000);
    const inFlight = new Set<string>();
    const q = (queue = createQueue({
      send(events) {
        for (const event of events) inFlight.add(event.uuid);
        return sendBatch(apiKey, host, events, gzip, timeoutMs).finally(() => inFlight.clear());
      },
      flushAt: Math.max(1, numberOption(config.flush_at, 20)),
      flushIntervalMs: numberOption(config.flush_interval, 2_000),
      maxBatchSize: 500,
      maxBatchBytes: 1_000_000,
      maxQueueSize: Math.max(1, numberOption(config.max_queue_size, 20_000)),
      maxQueueBytes: 40_000_000,
      persistence: ledger,
      onDrop: report,
      onRetry: report,
    }, false)); // a page never closes its queue: pagehide hands what is left to the beacon
    const tabs = startTabs(store, base, tabId, ledger, (events) => q.restore(events));

    let leaving = false;
    addEventListener('pagehide', (event) => {
      leaving = true;
      // Events in a request in flight are left out: the request is keepalive (it outlives the page)
      // or, if too big for that, cancelled; either way they stay stored for the next page, and
      // no event is ever in two requests at once.
      const pending = ledger.list().filter((e) => !inFlight.has(e.uuid));
      if (pending.length > 0) sendByBeacon(pending, apiKey, host, gzip);
      if (!event.persisted) tabs.leave();
    });
    addEventListener('pageshow', () => (leaving = false));
    // Hidden is often the last moment a mobile page runs; a tab switch keeps the page alive, so
    // this is an ordinary (keepalive) send whose answer we still get.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden' && !leaving) void q.flush();
    });

    startFlags(config, timeoutMs);
    guard('loaded', () => config.loaded?.(client));

    // Autocapture (issue 14): on unless `autocapture: false`; the server's autocapture_opt_out pauses it.
    if (config.autocapture !== false) {
      const warn = (message: string) => report(new HogtailError(message));
      if (!loadAutocapture) {
        if (config.autocapture) warn('autocapture is not in this build (the lite script tag); use hogtail.iife.js for it');
      } else Promise.resolve().then(loadAutocapture).then(
        (start) => start({ window, config, capture: client.capture, isEnabled: () => !states.state.aco, warn }),
        (error) => warn(`autocapture did not load: ${String(error)}`),
      );
    }

    const pageviews = config.capture_pageview ?? true;
    let lastPath = location.pathname;
    if (pageviews) track('$pageview');
    if (pageviews === 'history_change') {
      watchHistory(() => {
        forgetPageContext();
        if (location.pathname !== lastPath) {
          lastPath = location.pathname;
          client.capture('$pageview');
        }
      });
    }
  }

  const client = {
    init: (token: string, config: HogtailConfig = {}) =>
      guard('init', () => {
        if (queue) {
          debug('init() again: ignored');
          return client;
        }
        // Missing or personal (phx_, which must never ship to browsers): one message covers both.
        if (!isText(token) || (token.startsWith('phx_') && !config.dangerously_allow_personal_api_key)) {
          console.error('[hogtail] init() needs the project key (phc_…), not a personal key');
          return undefined;
        }
        setup(token, config);
        for (const [name, args] of early.splice(0)) (client as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
        return client;
      }),
    on(_name: 'error', listener: (error: HogtailError) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onFeatureFlags,
  } as Hogtail;

  const methods: { [K in keyof Hogtail]?: (...args: never[]) => unknown } = {
    capture: (event: unknown, properties?: unknown, options?: CaptureOptions) => track(event, properties, options),

    identify(distinctId: unknown, $set?: unknown, $set_once?: unknown) {
      if (noPersons('identify')) return;
      const id = asText(distinctId);
      if (!isText(id)) return refuse(`identify() needs a distinct id; got ${typeof id}`);
      const state = states.state;
      const previous = state.distinct_id;
      const anonymous = state.$user_state !== 'identified';
      const event = identifyEvent($set, $set_once, { $anon_distinct_id: previous });
      if ('error' in event) return refuse(event.error);
      state.distinct_id = id;
      state.$user_state = 'identified';
      personOn();
      if (id !== previous && anonymous) track(event.event, event.properties);
      else if ($set || $set_once) setPerson($set, $set_once);
      if (id !== previous) reloadFlags();
    },

    alias(alias: unknown, original?: string) {
      if (noPersons('alias')) return;
      personOn();
      special(aliasEvent(alias), original ?? states.state.distinct_id);
    },

    group(groupType: string, groupKey: unknown, properties?: unknown) {
      if (noPersons('group')) return;
      const event = groupIdentifyEvent(groupType, groupKey, properties);
      if ('error' in event) return refuse(event.error);
      const state = states.state;
      state.$groups = { ...state.$groups, [groupType]: String(groupKey) };
      personOn();
      if (properties) track(event.event, event.properties);
      reloadFlags();
    },

    reset(resetDeviceId?: boolean) {
      const state = states.state;
      states.replace(freshState(resetDeviceId ? undefined : state.$device_id, state.optout));
      reloadFlags();
    },

    register(properties: Properties) {
      Object.assign(states.state.props, properties);
      states.save();
    },

    register_once(properties: Properties, defaultValue?: unknown) {
      const props = states.state.props;
      for (const key in properties) if (!(key in props) || props[key] === defaultValue) props[key] = properties[key];
      states.save();
    },

    unregister(name: string) {
      delete states.state.props[name];
      states.save();
    },

    get_distinct_id: () => states.state.distinct_id,
    get_session_id: () => states.session(Date.now()),
    screen: (name: unknown, properties?: unknown) => special(screenEvent(name, properties)),

    setPersonProperties($set?: Properties, $set_once?: Properties) {
      if (noPersons('setPersonProperties')) return;
      personOn();
      setPerson($set, $set_once);
    },

    opt_out_capturing() {
      states.state.optout = true;
      states.save();
    },

    opt_in_capturing() {
      states.state.optout = false;
      states.save();
      track('$opt_in');
    },

    has_opted_out_capturing: () => states.state.optout === true,
    flush: () => queue!.flush(),
    debug: (enabled?: boolean) => setDebug(enabled !== false),
    surveyShown: (id: unknown, properties?: unknown) => special(surveyEvent('survey shown', id, properties)),
    surveyDismissed: (id: unknown, properties?: unknown) => special(surveyEvent('survey dismissed', id, properties)),
    surveySent: (id: unknown, response: unknown, properties?: unknown) => special(surveyEvent('survey sent', id, properties, response)),
    stats: () => ({ ...queue!.stats(), unsaved: ledger.unsaved }),
    ...flagMethods,
  };

  // Every method: before init() the call is kept for init() to run, like the snippet's stub;
  // after, nothing it does can throw into the page (DESIGN §4.4).
  for (const name in methods) {
    const method = methods[name as keyof Hogtail] as (...args: unknown[]) => unknown;
    (client as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      if (!queue) {
        if (early.length < 1_000) early.push([name, args]);
        else refuse(`${name}() before init()`);
        return undefined;
      }
      return guard(name, () => method(...args));
    };
  }
  return client;
}
