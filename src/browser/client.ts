/**
 * The browser client: posthog-js's API on hogtail's core. A factory returning a plain object, so
 * the script tag and the npm default export are the same thing. Every public method is defined
 * once, with its concern (capture.ts, identity.ts, consent.ts, flags.ts, session.ts, …), as a
 * function of the runtime init() builds; here each becomes a method of the client that, before
 * init(), is kept (in order) for init() to run, as the official snippet does, and after it never
 * throws into the page.
 *
 * Delivery: capture() validates and serialises the event (core/event), the core queue batches and
 * retries it, the ledger keeps it in localStorage until a 2xx, the tab lock decides which tab sends
 * what, and pagehide hands what is left to sendBeacon (delivery.ts, unload.ts).
 */
import { HogtailError, InvalidEventError } from '../core/errors';
import { describe } from '../core/event';
import { createReporter, type ErrorListener } from '../core/reporter';
import { isText } from '../core/special-events';
import { LITE } from './build-flags';
import { wireAutocapture, type AutocaptureLoader } from './autocapture/wire';
import { captureMethods } from './capture';
import { DEFAULT_API_HOST, numberOption } from './config';
import { consentMethods } from './consent';
import { persistAllowed } from './consent-rules';
import { startDelivery } from './delivery';
import { startEventProperties } from './event-properties';
import { flagMethods, onFeatureFlags, startFlags } from './flags';
import { createFlagsState, type FlagsState } from './flags-state';
import type { Hogtail, HogtailConfig } from './hogtail';
import { identityMethods } from './identity';
import { checkOptions } from './options';
import { startPageviews } from './pageviews';
import type { ConsentStatus, EventHooks, Methods, Runtime } from './runtime';
import { sessionMethods } from './session';
import { createStateStore } from './state';
import { gateBacking, gateStorage } from './consent-gate';
import { openStorage, readKey, removeKey } from './storage';
import type { StateBacking } from './persistence/backing';
import type { Properties } from './types';
import { textOf } from '../core/text-of';
import { setBackgroundTimeout } from '../core/timers';

/** The methods every build has: hogtail's own API (the script tag's lite build has only these). */
const coreMethods: Partial<Methods> = { ...captureMethods, ...identityMethods, ...sessionMethods, ...consentMethods, ...flagMethods };
type CoreMethodName = keyof (typeof captureMethods & typeof identityMethods & typeof sessionMethods & typeof consentMethods & typeof flagMethods);

/** The lite script tag's client: hogtail's own API without the posthog-js extras. */
export type HogtailLite = Pick<Hogtail, CoreMethodName | 'init' | 'on' | 'onFeatureFlags' | '__loaded'>;

/**
 * What a build adds to the core (drop-in.ts: everything posthog-js has). The lite script tag adds
 * nothing: the reads below are behind `!LITE` so its minifier drops them (≈60 B gzip).
 */
export interface Features {
  methods: Partial<Methods>;
  /** Options the added parts act on (the others warn as unsupported). */
  options: readonly string[];
  /** Members other than runtime methods (`people`, the stubs of products hogtail does not have). */
  members?: (client: Hogtail, warn: Runtime['warn']) => object;
  /** before_send, sanitize_properties and property_denylist. */
  hooks?: EventHooks;
  /** register_for_session's properties from an earlier page of the tab. */
  sessionProps?: (base: string) => Properties;
  /** Where the state is kept (persistence/: cookies and posthog-js's modes); else localStorage. */
  backing?: (token: string, key: string, config: HogtailConfig, warn: (message: string) => void) => StateBacking;
  /** Runs at init once everything is set up (exception autocapture). */
  start?: (rt: Runtime) => void;
  /** How this build gets autocapture: lazily (npm), inline (script tag); none in the lite script tag. */
  autocapture?: AutocaptureLoader;
}

type Reporting = Pick<Runtime, 'report' | 'debug' | 'setDebug' | 'warn'>;

/** Everything init() sets up, from the project key and the options. */
function startRuntime(token: string, config: HogtailConfig, reporting: Reporting, flags: FlagsState, features: Features): Runtime {
  checkOptions(config, reporting.warn, features.options);
  const real = config.disable_persistence || config.persistence === 'memory' ? undefined : openStorage();
  const base = 'ht|' + token + '|';
  const stored = readKey(real, base + 'c');
  // A host without a scheme would be fetched as a path of this page ('/ingest', a proxy path, is fine).
  const host = isText(config.api_host) ? config.api_host : DEFAULT_API_HOST;
  if (!/^(https?:\/)?\//i.test(host)) reporting.warn('api_host', `api_host "${host}" has no scheme; write "https://${host}"`);
  // Built in steps: storage and delivery read the consent and options already in it.
  const rt = {
    ...reporting,
    config,
    consent: (stored === 'granted' || stored === 'denied' ? stored : 'pending') as ConsentStatus,
    store: real,
    base,
    endpoint: {
      apiKey: token,
      host, // the batch and flags URLs drop a trailing /
      // Where the browser has no CompressionStream, plain JSON (compress.ts).
      gzip: !config.disable_compression && typeof CompressionStream === 'function',
      timeoutMs: numberOption(config.request_timeout, 10_000),
    },
    mode: config.person_profiles,
    flagState: flags,
    sessionProps: (!LITE && features.sessionProps?.(base)) || {},
    hooks: LITE ? undefined : features.hooks,
    options: features.options,
    sessionListeners: new Set(),
  } as { -readonly [K in keyof Runtime]: Runtime[K] };
  rt.setDebug = (enabled) => {
    rt.verbose = enabled;
    reporting.setDebug(enabled);
  };
  rt.setDebug(config.debug === true); // sets `verbose`
  // Only the consent modes need the gate; everyone else writes storage directly.
  const store = !LITE && real && (config.cookieless_mode || config.opt_out_persistence_by_default) ? gateStorage(real, () => persistAllowed(rt)) : real;
  const key = base + 'p';
  let backing = LITE ? undefined : features.backing?.(token, key, config, (message) => reporting.warn('persistence', message));
  if (!LITE && backing && store !== real) backing = gateBacking(backing, () => persistAllowed(rt));
  rt.repaired = 0;
  const repair = (what: string, value: unknown) => {
    rt.repaired++;
    rt.report(new HogtailError(`stored ${what} was unusable (${describe(value)}); reset`));
  };
  rt.states = createStateStore(store, key, token, config.bootstrap, backing, repair);
  if (stored !== null && rt.consent === 'pending') {
    repair('consent', stored);
    removeKey(real, base + 'c');
  }
  // The choice of a page from before consent had its own key.
  const legacy = rt.states.state.optout;
  if (rt.consent === 'pending' && typeof legacy === 'boolean') rt.consent = legacy ? 'denied' : 'granted';
  rt.states.onNewSession = (id) => rt.sessionListeners.forEach((listener) => listener(id, null));
  rt.visit = startEventProperties(rt);
  Object.assign(rt, startDelivery(store, rt));
  return rt;
}

/** A client with the core methods and `features`. */
export function createClient(features: Features): Hogtail {
  const methods = LITE ? coreMethods : { ...coreMethods, ...features.methods };
  const listeners = new Set<ErrorListener>();
  const reporter = createReporter(listeners);
  const warned = new Set<string>();
  const warn = (key: string, message: string) => {
    if (!warned.has(key)) {
      warned.add(key);
      console.warn('[hogtail] ' + message);
    }
  };
  // Calls before init(), in order, for init() to run as the official snippet's stub does. At most
  // 1,000: a page that never calls init() must not grow memory forever.
  const early: [string, unknown[]][] = [];
  const flags = createFlagsState();
  let rt: Runtime | undefined;
  // Calls waiting for an init() that never comes (forgotten, or refused for its key) would wait in
  // silence: said once, 5 s after the first (at once after debug()).
  const noInit = () => rt || warn('init', early.length + ' call(s) wait for init(); nothing is sent until it runs');

  /** Runs `fn`; whatever it throws is reported, never thrown into the page. */
  const guard = <T>(name: string, fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (error) {
      reporter.report(new HogtailError(`${name}() failed: ${textOf(error)}`));
    }
  };

  const client: Hogtail = {
    __loaded: false,
    init: (token: string, config: HogtailConfig = {}) => {
      guard('init', () => {
        if (rt) return rt.debug('init() again: ignored');
        if (!isText(token)) return console.error('[hogtail] init() needs the project key (phc_…); got ' + describe(token));
        // A personal key (phx_) must never ship to browsers.
        if (token.startsWith('phx_') && !config.dangerously_allow_personal_api_key) {
          return console.error('[hogtail] init() needs the project key (phc_…), not a personal key');
        }
        const runtime = (rt = startRuntime(token, config, { ...reporter, warn }, flags, features));
        client.__loaded = true;
        startFlags(runtime);
        if (!LITE) features.start?.(runtime);
        guard('loaded', () => config.loaded?.(client));
        startPageviews(runtime, client);
        wireAutocapture(runtime, client, features.autocapture);
        for (const [name, args] of early.splice(0)) (client as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
      });
      return client;
    },
    on(_name: 'error', listener: (error: HogtailError) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onFeatureFlags: (listener: Parameters<Hogtail['onFeatureFlags']>[0]) => onFeatureFlags(flags, rt, listener),
  } as Hogtail;
  if (!LITE) Object.assign(client, features.members?.(client, warn));

  for (const name in methods) {
    const method = methods[name as keyof Methods] as unknown as (rt: Runtime, ...args: unknown[]) => unknown;
    (client as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      if (rt) return guard(name, () => method(rt!, ...args));
      if (early.length < 1_000) {
        early.push([name, args]);
        if (name === 'debug' && args[0] !== false) noInit();
        else if (early.length === 1) setBackgroundTimeout(noInit, 5_000);
      } else reporter.report(new InvalidEventError(`${name}() dropped: 1,000 calls wait for init()`, 'invalid', undefined));
      return undefined;
    };
  }
  return client;
}
