/**
 * The browser client: posthog-js's API on hogtail's core. A factory returning a plain object, so
 * the script tag and the npm default export are the same thing. Every public method is defined
 * once, with its concern (capture.ts, identity.ts, consent.ts, flags.ts), as a function of the
 * runtime init() builds; here each becomes a method of the client that, before init(), is kept
 * (in order) for init() to run, as the official snippet does, and after it never throws into the
 * page.
 *
 * Delivery: capture() validates and serialises the event (core/event), the core queue batches and
 * retries it, the ledger keeps it in localStorage until a 2xx, the tab lock decides which tab sends
 * what, and pagehide hands what is left to sendBeacon (delivery.ts, unload.ts).
 */
import { HogtailError, InvalidEventError } from '../core/errors';
import { createReporter, type ErrorListener, type Reporter } from '../core/reporter';
import { isText } from '../core/special-events';
import { uuidv7 } from '../core/uuid';
import { wireAutocapture, type AutocaptureLoader } from './autocapture/wire';
import { captureMethods } from './capture';
import { DEFAULT_API_HOST, numberOption } from './config';
import { consentMethods } from './consent';
import { startDelivery } from './delivery';
import { createEarlyCalls } from './early-calls';
import { flagMethods, onFeatureFlags, startFlags } from './flags';
import { createFlagsState, type FlagsState } from './flags-state';
import type { Hogtail, HogtailConfig } from './hogtail';
import { identityMethods } from './identity';
import { startPageviews } from './pageviews';
import type { Methods, Runtime } from './runtime';
import { createStateStore } from './state';
import { openLocalStorage } from './storage';

const methods: Methods = { ...captureMethods, ...identityMethods, ...consentMethods, ...flagMethods };

/** Everything init() sets up, from the project key and the options. */
function startRuntime(token: string, config: HogtailConfig, reporter: Reporter, flags: FlagsState): Runtime {
  reporter.setDebug(config.debug === true);
  const store = config.disable_persistence || config.persistence === 'memory' ? undefined : openLocalStorage();
  const base = 'ht|' + token + '|';
  const states = createStateStore(store, base + 'p', token, config.bootstrap);
  if (config.opt_out_capturing_by_default && states.state.optout === undefined) states.state.optout = true;
  const endpoint = {
    apiKey: token,
    host: isText(config.api_host) ? config.api_host : DEFAULT_API_HOST, // batchUrl and decideUrl drop a trailing /
    gzip: !config.disable_compression,
    timeoutMs: numberOption(config.request_timeout, 10_000),
  };
  const profiles = config.person_profiles;
  return {
    config,
    endpoint,
    states,
    ...startDelivery(store, base, uuidv7(), config, endpoint, reporter.report),
    mode: profiles === 'always' || profiles === 'never' ? profiles : undefined,
    flagState: flags,
    ...reporter,
  };
}

/**
 * @param loadAutocapture how this entry point gets autocapture: the npm build loads it lazily (an
 * app with `autocapture: false` never downloads it), the script tag has it inline, the lite script
 * tag has none.
 */
export function createHogtail(loadAutocapture?: AutocaptureLoader): Hogtail {
  const listeners = new Set<ErrorListener>();
  const reporter = createReporter(listeners);
  const early = createEarlyCalls();
  const flags = createFlagsState();
  let rt: Runtime | undefined;

  /** Runs `fn`; whatever it throws is reported, never thrown into the page. */
  const guard = <T>(name: string, fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (error) {
      reporter.report(new HogtailError(`${name}() failed: ${String(error)}`));
    }
  };

  const client = {
    init: (token: string, config: HogtailConfig = {}) =>
      guard('init', () => {
        if (rt) {
          rt.debug('init() again: ignored');
          return client;
        }
        // Missing or personal (phx_, which must never ship to browsers): one message covers both.
        if (!isText(token) || (token.startsWith('phx_') && !config.dangerously_allow_personal_api_key)) {
          console.error('[hogtail] init() needs the project key (phc_…), not a personal key');
          return undefined;
        }
        const runtime = (rt = startRuntime(token, config, reporter, flags));
        startFlags(runtime);
        guard('loaded', () => config.loaded?.(client));
        startPageviews(runtime, client);
        wireAutocapture(runtime, client, loadAutocapture);
        early.drain((name, args) => (client as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args));
        return client;
      }),
    on(_name: 'error', listener: (error: HogtailError) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onFeatureFlags: (listener: Parameters<Hogtail['onFeatureFlags']>[0]) => onFeatureFlags(flags, rt, listener),
  } as Hogtail;

  for (const name in methods) {
    const method = methods[name as keyof Methods] as (rt: Runtime, ...args: unknown[]) => unknown;
    (client as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      if (rt) return guard(name, () => method(rt!, ...args));
      if (!early.keep(name, args)) {
        reporter.report(new InvalidEventError(`${name}() before init(): too many calls waiting for init(), this one was not kept`, 'invalid', undefined));
      }
      return undefined;
    };
  }
  return client;
}
