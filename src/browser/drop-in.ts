/**
 * The full browser client: hogtail's core plus everything else posthog-js has, so a page written
 * for posthog-js runs unchanged: its other methods, the app's event hooks, the session
 * properties, captureException, set_config, and the stubs of products hogtail does not have.
 * The npm entry and the full script tag use this; the lite script tag leaves it out.
 */
import type { AutocaptureLoader } from './autocapture/wire';
import { applyHooks } from './before-send';
import { captureExtraMethods } from './capture';
import { createClient, type Features } from './client';
import { consentExtraMethods } from './consent';
import { exceptionKinds } from './exceptions';
import { exceptionMethods, startExceptions } from './exceptions-api';
import { flagExtraMethods } from './flags';
import type { Hogtail } from './hogtail';
import { identityExtraMethods } from './identity';
import { checkOptions } from './options';
import { openStateBacking } from './persistence';
import { readSessionProps, sessionExtraMethods } from './session';
import { unsupportedMethods } from './unsupported';

export const DROP_IN: Features = {
  methods: {
    ...captureExtraMethods,
    ...identityExtraMethods,
    ...sessionExtraMethods,
    ...consentExtraMethods,
    ...flagExtraMethods,
    ...exceptionMethods,
    set_config(rt, options) {
      checkOptions(options, rt.warn, rt.options);
      Object.assign(rt.config, options);
      if ('debug' in options) rt.setDebug(options.debug === true);
    },
  },
  options: (
    'before_send sanitize_properties property_denylist cookieless_mode opt_out_persistence_by_default capture_exceptions ' +
    'persistence_name cross_subdomain_cookie secure_cookie cookie_expiration rageclick mask_all_text mask_all_element_attributes ' +
    'disable_scroll_properties scroll_root_selector'
  ).split(' '),
  members: (client, warn) => ({
    ...unsupportedMethods(warn),
    people: {
      set: (properties: object | string, value?: unknown) => client.setPersonProperties(typeof properties === 'string' ? { [properties]: value } : properties),
      set_once: (properties: object | string, value?: unknown) =>
        client.setPersonProperties(undefined, typeof properties === 'string' ? { [properties]: value } : properties),
    },
  }),
  hooks: applyHooks,
  sessionProps: readSessionProps,
  backing: openStateBacking,
  start(rt) {
    if (rt.config.capture_exceptions) startExceptions(rt, exceptionKinds(rt.config.capture_exceptions));
  },
};

/** @param loadAutocapture how the entry point gets autocapture (see autocapture/wire.ts); none: no autocapture. */
export const createHogtail = (loadAutocapture?: AutocaptureLoader): Hogtail => createClient({ ...DROP_IN, autocapture: loadAutocapture });
