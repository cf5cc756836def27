/**
 * The full browser client: hogtail's core plus everything else posthog-js has, so a page written
 * for posthog-js runs unchanged: its other methods, the app's event hooks, the session
 * properties, exceptions, set_config, autocapture, extensions, and the stubs of products hogtail
 * does not have. The npm entry and the full script tag use this; the lite script tag leaves it out.
 */
import { captureExtraMethods } from '../capture/capture';
import { createClient, type Build } from '../client';
import { autocaptureFeature, type AutocaptureLoader } from '../features/autocapture/wire';
import { exceptionsFeature } from '../features/exceptions-api';
import { extensionsFeature, LOADABLE } from '../features/extensions';
import { flagExtraMethods, flagsFeature } from '../features/flags';
import { pageleaveFeature } from '../features/pageleave';
import { pageviewsFeature } from '../features/pageviews';
import { replayFeature } from '../features/replay';
import type { Hogtail } from '../hogtail';
import { consentExtraMethods } from '../state/consent';
import { identityExtraMethods } from '../state/identity';
import { openStateBacking } from '../state/persistence';
import { movePersistence, PERSISTENCE_OPTIONS } from '../state/persistence/move';
import { readSessionProps, sessionExtraMethods } from '../state/session';
import { applyHooks } from './before-send';
import { configView, featureFlagsView, persistenceView } from './client-views';
import { checkOptions } from './options';
import { unsupportedMethods } from './unsupported';

/**
 * The full build. `loadAutocapture`: how the entry point gets autocapture's code (see
 * autocapture/wire.ts; none: no autocapture); `scriptFolder`: where the script tag was loaded
 * from, for extension files (npm: none, they come from api_host).
 */
export const fullBuild = (loadAutocapture?: AutocaptureLoader, scriptFolder?: string): Build => ({
  // A named instance is a client of its own with fresh features (they keep state in their closures).
  another_: (name) => createClient(fullBuild(loadAutocapture, scriptFolder), name),
  // Flags first: the remote config's source. Page views before page leave: at pagehide a pending
  // page view goes out before the `$pageleave`.
  features_: [
    flagsFeature(),
    pageviewsFeature(),
    pageleaveFeature(),
    exceptionsFeature(),
    autocaptureFeature(loadAutocapture),
    replayFeature(),
    extensionsFeature(LOADABLE, scriptFolder),
  ],
  methods_: {
    ...captureExtraMethods,
    ...identityExtraMethods,
    ...sessionExtraMethods,
    ...consentExtraMethods,
    ...flagExtraMethods,
    set_config(rt, options) {
      checkOptions(options, rt.warn_, rt.options_);
      Object.assign(rt.config_, options);
      if ('debug' in options) rt.setDebug_(options.debug === true);
      if (PERSISTENCE_OPTIONS.some((name) => name in options)) movePersistence(rt);
    },
  },
  options_: (
    'before_send sanitize_properties property_denylist cookieless_mode opt_out_persistence_by_default ' +
    'persistence_name cross_subdomain_cookie secure_cookie cookie_expiration disable_scroll_properties scroll_root_selector ' +
    'property_blacklist cookie_persisted_properties disable_surveys'
  ).split(' '),
  members_: (client, warn, runtime) => ({
    ...unsupportedMethods(warn),
    config: configView(runtime, warn),
    featureFlags: featureFlagsView(client, runtime, warn),
    persistence: persistenceView(client, runtime),
    // A reader, not a queued call: false before init(), as posthog-js answers then.
    _isIdentified: () => runtime()?.states_.state_.$user_state === 'identified',
    people: {
      set: (properties: object | string, value?: unknown) =>
        client.setPersonProperties(typeof properties === 'string' ? { [properties]: value } : properties),
      set_once: (properties: object | string, value?: unknown) =>
        client.setPersonProperties(undefined, typeof properties === 'string' ? { [properties]: value } : properties),
    },
  }),
  beforeSend_: applyHooks,
  sessionProps_: readSessionProps,
  backing_: openStateBacking,
});

/** A full client; `loadAutocapture` as in fullBuild. */
export const createHogtail = (loadAutocapture?: AutocaptureLoader): Hogtail => createClient(fullBuild(loadAutocapture));
