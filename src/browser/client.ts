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
  /** Members other than runtime methods (`people`, the stubs of products hogtail does not have). */
  members_?: (client: Hogtail, warn: Runtime['warn_']) => object;
}

/** The build's features on a fresh runtime, then the app's `loaded`, then onLoaded. */
function startFeatures(rt: Runtime, features: readonly Feature[], loaded: () => void): void {
  for (const feature of features) addHooks(rt, feature.setup(rt));
  loaded();
  runHooks(rt, 'onLoaded');
}

/** A client with the core methods and the build's features and extras. */
export function createClient(build: Build): Hogtail {
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
    init: (token: string, config: HogtailConfig = {}) => {
      guard('init', () => {
        if (rt) return rt.debug('init() again: ignored');
        if (!isText(token)) return console.error('[hogtail] init() needs the project key (phc_…); got ' + describe(token));
        // A personal key (phx_) must never ship to browsers.
        if (token.startsWith('phx_') && !config.dangerously_allow_personal_api_key) {
          return console.error('[hogtail] init() needs the project key (phc_…), not a personal key');
        }
        const runtime = (rt = startRuntime(token, config, client, { ...reporter, warn }, flags, { ...build, options_: options }));
        client.__loaded = true;
        startFeatures(runtime, build.features_, () => guard('loaded', () => config.loaded?.(client)));
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
  if (!LITE) Object.assign(client, build.members_?.(client, warn));

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
