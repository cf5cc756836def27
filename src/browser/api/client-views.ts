/**
 * The objects posthog-js hangs on its client that apps reach into: `config` (the options as
 * resolved, defaults filled in), `featureFlags` (its flags component: getFlags(),
 * getFlagVariants(), hasLoadedFlags…) and `persistence` (props, get_property, register…). Here
 * they are views over hogtail's own state and methods, so there is one truth and nothing to sync.
 * Full build only.
 */
import { parsePayload } from '../../core/flags/decide';
import { DEFAULT_API_HOST } from '../config';
import type { FeatureFlagsView, Hogtail, HogtailConfig, PersistenceView } from '../hogtail';
import type { Runtime } from '../runtime';
import type { Properties } from '../types';
import { pageviewOption } from './options';

type Warn = (key: string, message: string) => void;

/** The options as init() left them, with posthog-js's defaults for those not given (and `token`). */
function resolvedConfig(rt: Runtime | undefined): Properties {
  const given = rt?.config_ ?? {};
  return {
    ...{ api_host: DEFAULT_API_HOST, persistence: 'localStorage+cookie', person_profiles: 'identified_only' },
    ...{ autocapture: true, capture_pageleave: 'if_capture_pageview', save_campaign_params: true, save_referrer: true },
    ...{ request_batching: true, disable_persistence: false, cookie_expiration: 365, debug: false, property_denylist: [] },
    ...given,
    capture_pageview: pageviewOption(given),
    token: rt?.endpoint_.apiKey ?? '',
  };
}

/** `client.config`: read-only, as set_config() is the way to change an option (an assignment warns and is ignored). */
export function configView(runtime: () => Runtime | undefined, warn: Warn): Readonly<HogtailConfig> {
  const read = () => resolvedConfig(runtime());
  return new Proxy({} as Properties, {
    get: (_, key) => read()[key as string],
    has: (_, key) => key in read(),
    ownKeys: () => Object.keys(read()),
    getOwnPropertyDescriptor: (_, key) =>
      key in read() ? { value: read()[key as string], enumerable: true, configurable: true, writable: false } : undefined,
    set(_, key) {
      warn('config', `config.${String(key)} = … has no effect: config is read-only; call set_config({ ${String(key)}: … })`);
      return true; // no TypeError in the app's strict code
    },
    deleteProperty: () => true,
  });
}

/** Methods of the client the views hand on (looked up at call time: the client's are set after its members). */
function delegate<K extends keyof Hogtail>(client: Hogtail, names: readonly K[]): Pick<Hogtail, K> {
  const methods: Partial<Record<K, unknown>> = {};
  for (const name of names) methods[name] = (...args: unknown[]) => (client[name] as (...a: unknown[]) => unknown)(...args);
  return methods as Pick<Hogtail, K>;
}

const FLAG_METHODS = [
  'getFeatureFlag',
  'isFeatureEnabled',
  'getFeatureFlagPayload',
  'getFeatureFlagResult',
  'getAllFeatureFlags',
  'reloadFeatureFlags',
  'onFeatureFlags',
  'updateFlags',
  'setPersonPropertiesForFlags',
  'resetPersonPropertiesForFlags',
  'setGroupPropertiesForFlags',
  'resetGroupPropertiesForFlags',
] as const;

/** `client.featureFlags`: posthog-js's flags component, over the client's flags. */
export function featureFlagsView(client: Hogtail, runtime: () => Runtime | undefined, warn: Warn): FeatureFlagsView {
  const snapshot = () => runtime()?.states_.state_.ff;
  const overrides = () =>
    warn('override', 'featureFlags.override(): local flag overrides are not supported by hogtail; use updateFlags() or bootstrap');
  return {
    get hasLoadedFlags() {
      return !!snapshot();
    },
    getFlags: () => Object.keys(snapshot()?.flags ?? {}),
    getFlagVariants: () => ({ ...snapshot()?.flags }),
    getFlagPayloads: () => Object.fromEntries(Object.entries(snapshot()?.payloads ?? {}).map(([key, raw]) => [key, parsePayload(raw)])),
    ...delegate(client, FLAG_METHODS),
    override: overrides,
    overrideFeatureFlags: overrides,
  };
}

/** `client.persistence`: posthog-js's record of the visitor, read from hogtail's state; writes go through register(). */
export function persistenceView(client: Hogtail, runtime: () => Runtime | undefined): PersistenceView {
  const props = (): Properties => {
    const state = runtime()?.states_.state_;
    if (!state) return {};
    const { distinct_id, $device_id, $user_state, $groups, sid } = state;
    return { ...state.props, distinct_id, $device_id, $user_state, $groups: { ...$groups }, $sesid: sid && [sid[1], sid[0], sid[2]] };
  };
  return {
    get props() {
      return props();
    },
    get_property: (name) => props()[name],
    set_property: (name, value) => client.register({ [name]: value }),
    ...delegate(client, ['register', 'register_once', 'unregister'] as const),
  };
}
