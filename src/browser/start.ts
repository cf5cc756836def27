/**
 * What init() builds before any feature runs: the runtime's core slices (runtime.ts) from the
 * project key and the options. State first (its storage, the consent choice, the identity), then
 * delivery, which reads both; the features are set up on top of it by client.ts.
 */
import { HogtailError } from '../core/errors';
import { describe } from '../core/event';
import { takesGzip } from '../core/flags/decide';
import { isText } from '../core/special-events';
import { checkOptions } from './api/options';
import { LITE } from './build-flags';
import { DEFAULT_API_HOST, numberOption } from './config';
import { startEventProperties } from './capture/event-properties';
import { startDelivery } from './delivery/delivery';
import type { FlagsState } from './features/flags-state';
import { addHooks } from './features/hooks';
import type { Hogtail, HogtailConfig } from './hogtail';
import type { Reporter } from '../core/reporter';
import type { ConsentStatus, EventHooks, Runtime } from './runtime';
import { bootstrapSession } from './state/bootstrap-session';
import { gateBacking, gateStorage } from './state/consent-gate';
import { persistAllowed } from './state/consent-rules';
import type { StateBacking } from './state/persistence/backing';
import { createStateStore } from './state/state';
import { openStorage, readKey, removeKey } from './state/storage';
import type { Properties } from './types';

/** What a build hands the runtime beyond the core (drop-in.ts: posthog-js's extras; the lite tag: none). */
export interface RuntimeParts {
  /** Options the build acts on beyond the core ones (the others warn as unsupported). */
  options_: readonly string[];
  /** before_send, sanitize_properties and property_denylist. */
  beforeSend_?: EventHooks;
  /** register_for_session's properties from an earlier page of the tab. */
  sessionProps_?: (base: string) => Properties;
  /** Where the state is kept (persistence/: cookies and posthog-js's modes); else localStorage. */
  backing_?: (token: string, key: string, config: HogtailConfig, warn: (message: string) => void) => StateBacking;
}

/** The client's reporter (core/reporter) and its warn-once. */
type Reporting = Reporter & { warn(key: string, message: string): void };
type Building = { -readonly [K in keyof Runtime]: Runtime[K] };

/** The identity store, behind the consent gate when a consent mode may forbid storing. */
function startState(rt: Building, token: string, parts: RuntimeParts): Storage | undefined {
  const { config_: config, store_: real, base_: base } = rt;
  // Only the consent modes need the gate; everyone else writes storage directly.
  const store =
    !LITE && real && (config.cookieless_mode || config.opt_out_persistence_by_default) ? gateStorage(real, () => persistAllowed(rt)) : real;
  const key = base + 'p';
  let backing = LITE ? undefined : parts.backing_?.(token, key, config, (message) => rt.warn_('persistence', message));
  if (!LITE && backing && store !== real) backing = gateBacking(backing, () => persistAllowed(rt));
  const stored = readKey(real, base + 'c');
  const repair = (what: string, value: unknown) => {
    rt.repaired_++;
    rt.report_(new HogtailError(`stored ${what} was unusable (${describe(value)}); reset`));
  };
  rt.states_ = createStateStore(store, key, token, config.bootstrap, backing, repair);
  const sessionId = config.bootstrap?.sessionID;
  const wrong = !!sessionId && bootstrapSession(rt.states_, sessionId, Date.now());
  if (wrong) rt.warn_('bootstrap.sessionID', `bootstrap.sessionID "${sessionId}" ${wrong}; a new session is used`);
  if (stored !== null && rt.consent_ === 'pending') {
    repair('consent', stored);
    removeKey(real, base + 'c');
  }
  // The choice of a page from before consent had its own key.
  const legacy = rt.states_.state_.optout;
  if (rt.consent_ === 'pending' && typeof legacy === 'boolean') rt.consent_ = legacy ? 'denied' : 'granted';
  // posthog-js tells the tab's window id with each session id (session replay's listeners read it).
  rt.states_.onNewSession_ = (id) => rt.sessionListeners_.forEach((listener) => listener(id, rt.visit_?.windowId_() ?? null));
  return store;
}

/** Everything init() sets up before the features, from the project key and the options. */
export function startRuntime(
  token: string,
  config: HogtailConfig,
  client: Hogtail,
  reporting: Reporting,
  flags: FlagsState,
  parts: RuntimeParts,
  name?: string,
): Runtime {
  checkOptions(config, reporting.warn, parts.options_);
  const real = config.disable_persistence || config.persistence === 'memory' ? undefined : openStorage();
  // A named instance keeps its state apart from the default one's, even for the same project.
  const base = 'ht|' + token + '|' + (name ? name + '|' : '');
  const stored = readKey(real, base + 'c');
  // A host without a scheme would be fetched as a path of this page ('/ingest', a proxy path, is fine).
  const host = isText(config.api_host) ? config.api_host : DEFAULT_API_HOST;
  if (!/^(https?:\/)?\//i.test(host)) reporting.warn('api_host', `api_host "${host}" has no scheme; write "https://${host}"`);
  // Built in steps: storage and delivery read the consent and options already in it.
  const rt = {
    config_: config,
    client,
    report_: reporting.report,
    debug: reporting.debug,
    warn_: reporting.warn,
    consent_: (stored === 'granted' || stored === 'denied' ? stored : 'pending') as ConsentStatus,
    store_: real,
    base_: base,
    // Where and how events go; `gzip` then follows what the server says it takes (the hook below).
    endpoint_: {
      apiKey: token,
      host, // the batch and flags URLs drop a trailing /
      // Where the browser has no CompressionStream, plain JSON (compress.ts).
      gzip: !config.disable_compression && typeof CompressionStream === 'function',
      timeoutMs: numberOption(config.request_timeout, 10_000),
    },
    mode_: config.person_profiles,
    flagState_: flags,
    sessionProps_: (!LITE && parts.sessionProps_?.(base)) || {},
    beforeSend_: LITE ? undefined : parts.beforeSend_,
    options_: parts.options_,
    sessionListeners_: new Set(),
    hooks_: {},
    repaired_: 0,
  } as Building;
  rt.setDebug_ = (enabled) => {
    rt.verbose_ = enabled;
    reporting.setDebug(enabled);
  };
  rt.setDebug_(config.debug === true); // sets `verbose`
  const store = startState(rt, token, parts);
  rt.visit_ = startEventProperties(rt);
  Object.assign(rt, startDelivery(store, rt));
  // What the server says it takes, from each flags answer (unless the app turned compression off).
  addHooks(rt, {
    onRemoteConfig: (remote) => void (config.disable_compression || (rt.endpoint_.gzip = takesGzip(remote.supportedCompression))),
  });
  return rt;
}
