/**
 * Autocapture's init() options, named and shaped as posthog-js names them, and their reading:
 * defaults filled in, URL patterns compiled, selectors checked once. A value that cannot work (a bad
 * regular expression, an invalid selector, an option hogtail does not have) is left out with one
 * warning naming it, never silently.
 */

import { createRageclickDetector } from './rageclick';

export type AutocaptureEventType = 'click' | 'change' | 'submit';

export interface AutocaptureConfig {
  /** Capture only on pages whose URL matches one of these (strings are regular expressions). */
  url_allowlist?: (string | RegExp)[];
  /** Never capture on pages whose URL matches one of these. */
  url_ignorelist?: (string | RegExp)[];
  /** Only these DOM events. Default all three. */
  dom_event_allowlist?: AutocaptureEventType[];
  /** Only when the element or an ancestor has one of these tags. */
  element_allowlist?: ('a' | 'button' | 'form' | 'input' | 'select' | 'textarea' | 'label')[];
  /** Only when the element or an ancestor matches one of these CSS selectors. */
  css_selector_allowlist?: string[];
  /** Never when the element or an ancestor matches one of these. Default `.ph-no-autocapture`, `[data-ph-no-autocapture]`. */
  css_selector_ignorelist?: string[];
  /** Attribute names never recorded (`class` and `href` included). */
  element_attribute_ignorelist?: string[];
}

export interface RageclickConfig {
  /** Default 30 (pixels from the first click of the series). */
  threshold_px?: number;
  /** Default 1,000 ms from the first click to the last. */
  timeout_ms?: number;
  /** Default 3. */
  click_count?: number;
  /** No `$rageclick` inside these. Default `.ph-no-rageclick`, `.ph-no-capture`. */
  css_selector_ignorelist?: string[];
}

/** The init() options autocapture reads (part of the browser client's config). */
export interface AutocaptureOptions {
  /** `$autocapture` for clicks, changes and submits. Default on; `false` turns it off. */
  autocapture?: boolean | AutocaptureConfig;
  /** `$rageclick` (with autocapture). Default on. */
  rageclick?: boolean | RageclickConfig;
  /** No element text in autocapture events. */
  mask_all_text?: boolean;
  /** No element attributes (classes, id, href included) in autocapture events. */
  mask_all_element_attributes?: boolean;
}

export interface AutocaptureSettings {
  eventTypes: string[] | undefined;
  urlAllow: RegExp[] | undefined;
  urlIgnore: RegExp[] | undefined;
  /** Allow-lists as one selector each (`element_allowlist`'s tags are selectors too). */
  tagAllow: string | undefined;
  selectorAllow: string | undefined;
  /** The ignore-list and `ph-no-capture`, one selector: one walk up from the target. */
  selectorIgnore: string;
  maskText: boolean;
  maskAttributes: boolean;
  ignoredAttributes: string[];
  isRage: ((x: number, y: number, time: number) => boolean) | undefined;
  rageIgnore: string;
}

export function readOptions(config: AutocaptureOptions, doc: Document, warn: (message: string) => void): AutocaptureSettings {
  const fragment = doc.createDocumentFragment();
  /**
   * One of the two option objects (`{}` when not an object), its unknown keys warned about, and
   * how its options are read: `read(name, make)` gives a list's items as `make` turns them, or
   * undefined when the list is not set. A value of the wrong type, or an item `make` throws on, is
   * left out with a warning.
   */
  const section = (where: 'autocapture' | 'rageclick', keys: string) => {
    const value = config[where];
    const own = (typeof value === 'object' && value ? value : {}) as Record<string, unknown>;
    for (const key in own) if (!keys.split(' ').includes(key)) warn(`option "${where}.${key}" is not supported by hogtail (or misspelt); it has no effect`);
    const invalid = (name: string, value: unknown) => warn(`${where}.${name}: ${String(value)} is invalid; ignored`);
    const option = (name: string, valid: (value: unknown) => boolean): unknown => {
      const value = own[name];
      if (value === undefined || valid(value)) return value;
      invalid(name, value);
    };
    return {
      read: <T>(name: string, make: (item: string) => T = String as never): T[] | undefined =>
        (option(name, Array.isArray) as string[] | undefined)?.flatMap((item) => {
          try {
            return [make(item)];
          } catch {
            invalid(name, item);
            return [];
          }
        }),
      positive: (name: string, fallback: number) => (option(name, (value) => typeof value === 'number' && value > 0) as number | undefined) ?? fallback,
    };
  };
  const selector = (item: string) => (fragment.querySelector(item), item);
  // An empty list allows nothing: ':not(*)' is the selector that matches no element.
  const join = (list: string[] | undefined) => list && (list.join(',') || ':not(*)');
  const regex = (item: string) => new RegExp(item);

  const own = section('autocapture', 'url_allowlist url_ignorelist dom_event_allowlist element_allowlist css_selector_allowlist css_selector_ignorelist element_attribute_ignorelist');
  const rage = section('rageclick', 'threshold_px timeout_ms click_count css_selector_ignorelist');
  const ignore = own.read('css_selector_ignorelist', selector) ?? ['.ph-no-autocapture', '[data-ph-no-autocapture]'];
  return {
    eventTypes: own.read('dom_event_allowlist'),
    urlAllow: own.read('url_allowlist', regex),
    urlIgnore: own.read('url_ignorelist', regex),
    tagAllow: join(own.read('element_allowlist', selector)),
    selectorAllow: join(own.read('css_selector_allowlist', selector)),
    selectorIgnore: [...ignore, '.ph-no-capture'].join(','),
    maskText: config.mask_all_text === true,
    maskAttributes: config.mask_all_element_attributes === true,
    ignoredAttributes: own.read('element_attribute_ignorelist') ?? [],
    isRage: config.rageclick === false ? undefined : createRageclickDetector(rage.positive('threshold_px', 30), rage.positive('timeout_ms', 1_000), rage.positive('click_count', 3)),
    rageIgnore: join(rage.read('css_selector_ignorelist', selector) ?? ['.ph-no-rageclick', '.ph-no-capture'])!,
  };
}
