/**
 * Autocapture's init() options, named and shaped as posthog-js names them, and their reading:
 * defaults filled in, URL patterns compiled, selectors checked once. A value that cannot work (a bad
 * regular expression, an invalid selector, an option hogtail does not have) is left out with one
 * warning naming it, never silently.
 */

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
  events: string[];
  urlAllow: RegExp[] | undefined;
  urlIgnore: RegExp[];
  tagAllow: string[] | undefined;
  /** Selector lists joined into one selector each ('' when the list is empty). */
  selectorAllow: string | undefined;
  selectorIgnore: string;
  maskText: boolean;
  maskAttributes: boolean;
  ignoredAttributes: string[];
  rage: { radius: number; windowMs: number; count: number; ignore: string } | undefined;
}

const KNOWN = ['url_allowlist', 'url_ignorelist', 'dom_event_allowlist', 'element_allowlist', 'css_selector_allowlist', 'css_selector_ignorelist', 'element_attribute_ignorelist'];
const RAGE_KNOWN = ['threshold_px', 'timeout_ms', 'click_count', 'css_selector_ignorelist'];

const list = (value: unknown): unknown[] | undefined => (Array.isArray(value) ? value : undefined);
const positive = (value: unknown, fallback: number) => (typeof value === 'number' && value > 0 ? value : fallback);

export function readOptions(config: AutocaptureOptions, doc: Document, warn: (message: string) => void): AutocaptureSettings {
  const own = typeof config.autocapture === 'object' && config.autocapture ? config.autocapture : {};
  const rage = typeof config.rageclick === 'object' && config.rageclick ? config.rageclick : {};
  const unknown = (keys: string[], object: object, where: string) => {
    for (const key of Object.keys(object)) {
      if (!keys.includes(key)) warn(`${where}.${key} is not supported by hogtail and is ignored`);
    }
  };
  unknown(KNOWN, own, 'autocapture');
  unknown(RAGE_KNOWN, rage, 'rageclick');

  const patterns = (name: string, value: unknown) =>
    list(value)?.flatMap((pattern) => {
      try {
        return [new RegExp(pattern as string | RegExp)];
      } catch {
        warn(`autocapture.${name}: ${String(pattern)} is not a regular expression; left out`);
        return [];
      }
    });
  const selector = (name: string, value: unknown, fallback?: string[]) => {
    const valid = (list(value) ?? fallback)?.filter((item) => {
      try {
        doc.createDocumentFragment().querySelector(item as string);
        return true;
      } catch {
        warn(`${name}: ${String(item)} is not a CSS selector; left out`);
        return false;
      }
    });
    return valid?.join(',');
  };
  const strings = (value: unknown) => list(value)?.map(String);

  return {
    events: strings(own.dom_event_allowlist) ?? ['click', 'change', 'submit'],
    urlAllow: patterns('url_allowlist', own.url_allowlist),
    urlIgnore: patterns('url_ignorelist', own.url_ignorelist) ?? [],
    tagAllow: strings(own.element_allowlist)?.map((tag) => tag.toLowerCase()),
    selectorAllow: selector('autocapture.css_selector_allowlist', own.css_selector_allowlist),
    selectorIgnore: selector('autocapture.css_selector_ignorelist', own.css_selector_ignorelist, ['.ph-no-autocapture', '[data-ph-no-autocapture]'])!,
    maskText: config.mask_all_text === true,
    maskAttributes: config.mask_all_element_attributes === true,
    ignoredAttributes: strings(own.element_attribute_ignorelist) ?? [],
    rage:
      config.rageclick === false
        ? undefined
        : {
            radius: positive(rage.threshold_px, 30),
            windowMs: positive(rage.timeout_ms, 1_000),
            count: positive(rage.click_count, 3),
            ignore: selector('rageclick.css_selector_ignorelist', rage.css_selector_ignorelist, ['.ph-no-rageclick', '.ph-no-capture'])!,
          },
  };
}
