/**
 * The browser client: posthog-js's API on hogtail's core. A factory returning a plain object, so
 * the script tag and the npm default export are the same thing. Every public method is defined
 * once, with its concern (capture/, state/, features/), as a function of the runtime init() builds
 * (start.ts); here each becomes a method of the client that, before init(), is kept (in order) for
 * init() to run, as the official snippet does, and after it never throws into the page.
 *
 * init() builds the core (state, then delivery), sets up the build's features in list order
 * (features/feature.ts: each registers the hooks it listens on), runs the app's `loaded`, tells the
 * features (onLoaded: the first page view, autocapture), then runs the calls made before it.
 */
import { HogtailError, InvalidEventError } from '../core/errors';
import { describe } from '../core/event';
import { createReporter, type ErrorListener } from '../core/reporter';
import { isText } from '../core/special-events';
import { textOf } from '../core/text-of';
import { setBackgroundTimeout } from '../core/timers';
import { LITE } from './build-flags';
import { captureMethods } from './capture/capture';
import type { Feature } from './features/feature';
import { flagMethods, onFeatureFlags } from './features/flags';
import { createFlagsState } from './features/flags-state';
import { addHooks, runHooks } from './features/hooks';
import type { Hogtail, HogtailConfig } from './hogtail';
import type { Methods, Runtime } from './runtime';
import { startRuntime, type RuntimeParts } from './start';
import { consentMethods } from './state/consent';
import { identityMethods } from './state/identity';
import { namedInstance } from './api/named-instances';
import { sessionMethods } from './state/session';

/** The methods every build has: hogtail's own API (the script tag's lite build has only these). */
const coreMethods: Partial<Methods> = { ...captureMethods, ...identityMethods, ...sessionMethods, ...consentMethods, ...flagMethods };
type CoreMethodName = keyof (typeof captureMethods &
  typeof identityMethods &
  typeof sessionMethods &
  typeof consentMethods &
  typeof flagMethods);

/** The lite script tag's client: hogtail's own API without the posthog-js extras. */
export type HogtailLite = Pick<Hogtail, CoreMethodName | 'init' | 'on' | 'onFeatureFlags' | '__loaded'>;

/**
 * What a build is made of: its features and what it adds to the core (drop-in.ts: everything
 * posthog-js has; the lite script tag: its features only). The reads of the extras are behind
 * `!LITE` so the lite tag's minifier drops them.
 */
export interface Build extends RuntimeParts {
  /** Set up in this order at init(); their hooks run in it too. */
  features_: readonly Feature[];
  /** posthog-js's methods beyond hogtail's own. */
  methods_: Partial<Methods>;
  /** Members other than runtime methods (`people`, `config`, the stubs of products hogtail does not have). */
  members_?: (client: Hogtail, warn: Runtime['warn_'], runtime: () => Runtime | undefined) => object;
  /** Another client of this build, for `init(token, config, name)` (posthog-js's named instances). */
  another_?: (name: string) => Hogtail;
}

/**
 * The build's features on a fresh runtime, then `loaded` (the app's callback, then the calls made
 * before init(), as posthog-js replays its snippet's queue after `loaded`), then onLoaded (the
 * first `$pageview`: on the identity those calls left, a reset() included).
 */
function startFeatures(rt: Runtime, features: readonly Feature[], loaded: () => void): void {
  for (const feature of features) addHooks(rt, feature.setup(rt));
  loaded();
  runHooks(rt, 'onLoaded');
}

/**
 * A client with the core methods and the build's features and extras. `name`: the name of a named
 * instance (its storage keys carry it); none for the default one.
 */
export function createClient(build: Build, name?: string): Hogtail {
  const methods: Partial<Methods> = LITE
    ? coreMethods
    : Object.assign({}, coreMethods, build.methods_, ...build.features_.map((feature) => feature.methods_));
  const options = LITE ? build.options_ : build.options_.concat(...build.features_.map((feature) => feature.options_ ?? []));
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
    init: (token: string, config: HogtailConfig = {}, instance?: string) => {
      // posthog-js's named instance: another client, reachable as client[instance].
      if (instance !== undefined && instance !== 'posthog' && instance !== name) {
        if (LITE) return (warn('instance', `named instance "${instance}" ignored: the lite script tag has one instance`), client);
        return guard('init', () => namedInstance(client, String(instance), build.another_!, warn)?.init(token, config, instance)) ?? client;
      }
      guard('init', () => {
        if (rt) return rt.debug('init() again: ignored');
        if (!isText(token)) return console.error('[hogtail] init() needs the project key (phc_…); got ' + describe(token));
        // A personal key (phx_) must never ship to browsers.
        if (token.startsWith('phx_') && !config.dangerously_allow_personal_api_key) {
          return console.error('[hogtail] init() needs the project key (phc_…), not a personal key');
        }
        const runtime = (rt = startRuntime(token, config, client, { ...reporter, warn }, flags, { ...build, options_: options }, name));
        client.__loaded = true;
        startFeatures(runtime, build.features_, () => {
          guard('loaded', () => config.loaded?.(client));
          for (const [method, args] of early.splice(0))
            (client as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...args);
        });
      });
      return client;
    },
    on(_name: 'error', listener: (error: HogtailError) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onFeatureFlags: (listener: Parameters<Hogtail['onFeatureFlags']>[0]) => onFeatureFlags(flags, rt, listener),
  } as Hogtail;
  if (!LITE)
    Object.assign(
      client,
      build.members_?.(client, warn, () => rt),
    );

  for (const key in methods) {
    const method = methods[key as keyof Methods] as unknown as (rt: Runtime, ...args: unknown[]) => unknown;
    (client as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => {
      if (rt) return guard(key, () => method(rt!, ...args));
      if (early.length < 1_000) {
        early.push([key, args]);
        if (key === 'debug' && args[0] !== false) noInit();
        else if (early.length === 1) setBackgroundTimeout(noInit, 5_000);
      } else reporter.report(new InvalidEventError(`${key}() dropped: 1,000 calls wait for init()`, 'invalid', undefined));
      return undefined;
    };
  }
  return client;
}
