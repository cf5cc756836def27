/**
 * The objects posthog-js hangs on its client that apps reach into: `config` (the options as
 * resolved, defaults filled in), `featureFlags` (its flags component: getFlags(),
 * getFlagVariants(), hasLoadedFlags…) and `persistence` (props, get_property, register…). Here
 * they are views over hogtail's own state and methods, so there is one truth and nothing to sync.
 * Full build only.
 */
import { DEFAULT_API_HOST } from '../config';
import { overrideFlags } from '../features/flag-overrides';
import { shown } from '../features/flags';
import type { FeatureFlagsView, Hogtail, HogtailConfig, PersistenceView } from '../hogtail';
import type { Runtime } from '../runtime';
import type { Properties } from '../types';
import { pageviewOption } from './options';

type Warn = (key: string, message: string) => void;

/** The options as init() left them, with posthog-js's defaults for those not given (and `token`). */
function resolvedConfig(rt: Runtime | undefined): Properties {
  const given = rt?.config_ ?? {};
  return {
    ...{ api_host: DEFAULT_API_HOST, persistence: 'localStorage+cookie', person_profiles: 'identified_only', autocapture: true },
    ...{ capture_pageleave: 'if_capture_pageview', save_campaign_params: true, save_referrer: true, request_batching: true, debug: false },
    ...given,
    capture_pageview: pageviewOption(given),
    token: rt?.endpoint_.apiKey ?? '',
  };
}

/** `client.config`: read-only, as set_config() is the way to change an option (an assignment warns and is ignored). */
export function configView(runtime: () => Runtime | undefined, warn: Warn): Readonly<HogtailConfig> {
  const read = () => resolvedConfig(runtime());
  const refuse = (_: unknown, key: string | symbol) => (warn('config', `config is read-only: call set_config({ ${String(key)} })`), true);
  // Every read answers from the options as they are now; no trap throws (an app's strict code would crash).
  return new Proxy({} as Properties, {
    get: (_, key) => read()[key as string],
    has: (_, key) => key in read(),
    ownKeys: () => Reflect.ownKeys(read()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(read(), key),
    set: refuse,
    deleteProperty: refuse,
    defineProperty: refuse,
  });
}

/**
 * `client.featureFlags`: posthog-js's flags component. Its flag methods are the client's (inherited
 * from it, so the script tag carries no list of them); the readers below are its own.
 */
export function featureFlagsView(client: Hogtail, runtime: () => Runtime | undefined, warn: Warn): FeatureFlagsView {
  const snapshot = () => {
    const rt = runtime();
    return rt && shown(rt);
  };
  const override = (given: unknown) => {
    const rt = runtime();
    if (rt) overrideFlags(rt, given);
    else warn('override', 'featureFlags.overrideFeatureFlags() before init() has no effect; call it once init() has run');
  };
  return Object.setPrototypeOf(
    {
      // Loaded from the server or bootstrap (an earlier page's included); overrides do not count.
      get hasLoadedFlags() {
        return !!runtime()?.states_.state_.ff;
      },
      getFlags: () => Object.keys(snapshot()?.flags ?? {}),
      getFlagVariants: () => ({ ...snapshot()?.flags }),
      // As stored (usually JSON text), as posthog-js's are; getFeatureFlagPayload() parses.
      getFlagPayloads: () => ({ ...snapshot()?.payloads }),
      override: (flags: unknown) => override({ flags }),
      overrideFeatureFlags: override,
    },
    client,
  ) as FeatureFlagsView;
}

/** `client.persistence`: posthog-js's record of the visitor, read from hogtail's state; register() and the like are the client's. */
export function persistenceView(client: Hogtail, runtime: () => Runtime | undefined): PersistenceView {
  const props = (): Properties => {
    const state = runtime()?.states_.state_;
    if (!state) return {};
    const { distinct_id, $device_id, $user_state, $groups, sid } = state;
    return { ...state.props, distinct_id, $device_id, $user_state, $groups: { ...$groups }, $sesid: sid && [sid[1], sid[0], sid[2]] };
  };
  return Object.setPrototypeOf(
    {
      get props() {
        return props();
      },
      get_property: (name: string) => props()[name],
      set_property: (name: string, value: unknown) => client.register({ [name]: value }),
    },
    client,
  ) as PersistenceView;
}
