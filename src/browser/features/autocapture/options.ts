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
  /**
   * Only these DOM events.
   * @default ['click', 'change', 'submit']
   */
  dom_event_allowlist?: AutocaptureEventType[];
  /** Only when the element or an ancestor has one of these tags. */
  element_allowlist?: ('a' | 'button' | 'form' | 'input' | 'select' | 'textarea' | 'label')[];
  /** Only when the element or an ancestor matches one of these CSS selectors. */
  css_selector_allowlist?: string[];
  /**
   * Never when the element or an ancestor matches one of these.
   * @default ['.ph-no-autocapture', '[data-ph-no-autocapture]']
   */
  css_selector_ignorelist?: string[];
  /** Attribute names never recorded (`class` and `href` included). */
  element_attribute_ignorelist?: string[];
}

export interface RageclickConfig {
  /**
   * How far (pixels) a click may be from the series' first and still count.
   * @default 30
   */
  threshold_px?: number;
  /**
   * Most ms from the series' first click to its last.
   * @default 1000
   */
  timeout_ms?: number;
  /**
   * Clicks that make a rage click.
   * @default 3
   */
  click_count?: number;
  /**
   * No `$rageclick` inside these.
   * @default ['.ph-no-rageclick', '.ph-no-capture']
   */
  css_selector_ignorelist?: string[];
}

/** The init() options autocapture reads (part of the browser client's config). */
export interface AutocaptureOptions {
  /**
   * `$autocapture` for clicks, changes and submits; `false` turns it off, an object narrows it.
   * @default true
   */
  autocapture?: boolean | AutocaptureConfig;
  /**
   * `$rageclick` (with autocapture) for quick repeated clicks in one place.
   * @default true
   */
  rageclick?: boolean | RageclickConfig;
  /**
   * No element text in autocapture events.
   * @default false
   */
  mask_all_text?: boolean;
  /**
   * No element attributes (classes, id, href included) in autocapture events.
   * @default false
   */
  mask_all_element_attributes?: boolean;
}

export interface AutocaptureSettings {
  eventTypes_: string[] | undefined;
  urlAllow_: RegExp[] | undefined;
  urlIgnore_: RegExp[] | undefined;
  /** Allow-lists as one selector each (`element_allowlist`'s tags are selectors too). */
  tagAllow_: string | undefined;
  selectorAllow_: string | undefined;
  /** The ignore-list and `ph-no-capture`, one selector: one walk up from the target. */
  selectorIgnore_: string;
  maskText_: boolean;
  maskAttributes_: boolean;
  ignoredAttributes_: string[];
  isRage_: ((x: number, y: number, time: number) => boolean) | undefined;
  rageIgnore_: string;
}

/** How an option is read: a list item by item (the reader throws on an item that cannot work), or `0`: a positive number. */
type Readers = Record<string, ((item: string) => unknown) | 0>;
type Read<R extends Readers> = { [P in keyof R]?: R[P] extends (item: string) => infer T ? T[] : number };

export function readOptions(config: AutocaptureOptions, doc: Document, warn: (...parts: unknown[]) => void): AutocaptureSettings {
  const fragment = doc.createDocumentFragment();
  const regex = (item: string) => new RegExp(item);
  const selector = (item: string) => (fragment.querySelector(item), item);
  /**
   * One of the two option objects (nothing when not an object), read key by key: a list's items
   * as its reader turns them (an item it throws on is left out), `0` a positive number. An unknown
   * key, a value of the wrong type and an item that cannot work each warn, by name.
   */
  const read = <R extends Readers>(where: 'autocapture' | 'rageclick', readers: R) => {
    const object = config[where];
    const values: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(typeof object === 'object' && object ? object : {})) {
      const reader = Object.keys(readers).includes(name) ? readers[name] : undefined; // not `constructor`'s
      const invalid = (what: unknown) => warn(`${where}.${name}: `, what, ' is invalid; ignored');
      if (reader === undefined) warn(`option "${where}.${name}" is not supported by hogtail (or misspelt); it has no effect`);
      else if (reader === 0 ? !(typeof value === 'number' && value > 0) : !Array.isArray(value)) invalid(value);
      else if (reader === 0) values[name] = value;
      else {
        values[name] = (value as unknown[]).flatMap((item) => {
          try {
            return [reader(item as string)];
          } catch {
            invalid(item);
            return [];
          }
        });
      }
    }
    return values as Read<R>;
  };
  // An empty list allows nothing: ':not(*)' is the selector that matches no element.
  const join = (list: string[] | undefined) => list && (list.join(',') || ':not(*)');

  const own = read('autocapture', {
    url_allowlist: regex,
    url_ignorelist: regex,
    dom_event_allowlist: String,
    element_allowlist: selector,
    css_selector_allowlist: selector,
    css_selector_ignorelist: selector,
    element_attribute_ignorelist: String,
  });
  const rage = read('rageclick', { threshold_px: 0, timeout_ms: 0, click_count: 0, css_selector_ignorelist: selector });
  return {
    eventTypes_: own.dom_event_allowlist,
    urlAllow_: own.url_allowlist,
    urlIgnore_: own.url_ignorelist,
    tagAllow_: join(own.element_allowlist),
    selectorAllow_: join(own.css_selector_allowlist),
    selectorIgnore_: [...(own.css_selector_ignorelist ?? ['.ph-no-autocapture', '[data-ph-no-autocapture]']), '.ph-no-capture'].join(','),
    maskText_: config.mask_all_text === true,
    maskAttributes_: config.mask_all_element_attributes === true,
    ignoredAttributes_: own.element_attribute_ignorelist ?? [],
    isRage_:
      config.rageclick === false
        ? undefined
        : createRageclickDetector(rage.threshold_px ?? 30, rage.timeout_ms ?? 1_000, rage.click_count ?? 3),
    rageIgnore_: join(rage.css_selector_ignorelist ?? ['.ph-no-rageclick', '.ph-no-capture'])!,
  };
}
