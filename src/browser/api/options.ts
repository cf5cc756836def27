/**
 * Reading init()'s options at run time, where a script tag has no type checker: an option hogtail
 * does not know (a typo, or a posthog-js option for a product hogtail does not have) warns once,
 * by name, instead of being ignored in silence. posthog-js's dated `defaults` decide the page-view
 * options the page did not set.
 */
import type { HogtailConfig } from '../hogtail';

/** Options hogtail acts on (config.ts documents each). */
export const KNOWN = new Set(
  (
    'api_host ui_host persistence disable_persistence bootstrap autocapture ' +
    'advanced_disable_decide advanced_disable_feature_flags advanced_disable_flags flags_poll_interval_ms person_profiles ' +
    'capture_pageview capture_pageleave defaults loaded debug opt_out_capturing_by_default ' +
    'respect_dnt disable_compression flush_at flush_interval ' +
    'max_queue_size max_stored_events max_stored_chars request_timeout dangerously_allow_personal_api_key ' +
    'save_campaign_params custom_campaign_params save_referrer request_batching ' +
    'mask_personal_data_properties custom_personal_data_properties'
  ).split(' '),
);

/**
 * Options for what hogtail does not do, read by their value: `disable_…` ones are fine when true
 * (the product is off anyway), the others when falsy. Every other unknown name is a typo.
 */
function asksForMissingProduct(name: string, value: unknown): boolean {
  return /^(advanced_)?disable_/.test(name) ? value === false : !!value;
}

/** Warns once per option that will have no effect; `extra` names options this build also acts on. */
export function checkOptions(config: object, warn: (key: string, message: string) => void, extra: readonly string[] = []): void {
  for (const [name, value] of Object.entries(config)) {
    if (KNOWN.has(name) || extra.includes(name) || !asksForMissingProduct(name, value)) continue;
    warn('option ' + name, `option "${name}" is not supported by hogtail (or misspelt); it has no effect`);
  }
}

/** `'history_change'` from posthog-js's 2025-05-24 defaults on, as posthog-js does. */
export function pageviewOption(config: HogtailConfig): boolean | 'history_change' {
  const defaults = config.defaults;
  return (
    config.capture_pageview ?? (typeof defaults === 'string' && defaults !== 'unset' && defaults >= '2025-05-24' ? 'history_change' : true)
  );
}

/** On when page views are, unless set. */
export function pageleaveOption(config: HogtailConfig): boolean {
  const pageleave = config.capture_pageleave ?? 'if_capture_pageview';
  return pageleave === 'if_capture_pageview' ? !!pageviewOption(config) : !!pageleave;
}
