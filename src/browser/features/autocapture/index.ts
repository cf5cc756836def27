/**
 * Autocapture (`hogtail` npm and dist/hogtail.iife.js; not the lite script tag): `$autocapture`
 * for clicks on links, buttons, button-like inputs, `[role=button]` and elements marked
 * `ph-capture` / `data-ph-capture` (or anything inside them), for form submits and for changes of
 * inputs, selects and textareas; `$rageclick` for rage clicks on anything.
 *
 * Listeners are passive and in the capture phase (an app's stopPropagation cannot hide a click, and
 * the element is read before the app's handler changes it). The walk is bounded (describe.ts), the
 * event goes through the client's capture() (queue, opt-out, consent), and nothing here can throw
 * into the page: a failure is reported through `warn`.
 */
import { describe, elementPath } from './describe';
import { matches, nodeTypeOf } from './dom';
import { readOptions, type AutocaptureOptions } from './options';
import { tagOf, within } from './privacy';

export type { AutocaptureConfig, AutocaptureOptions, RageclickConfig } from './options';

/**
 * What the client hands in. These keys cross from the npm entry into the lazily loaded autocapture
 * chunk, which is minified on its own: none of them may end in `_`, the mark of a name the minifier shortens.
 */
export interface AutocaptureStart {
  window: Window;
  /** The client's init() options (autocapture reads its own: see options.ts). */
  initOptions: AutocaptureOptions;
  /** The client's capture(). */
  capture: (event: string, properties: Record<string, unknown>) => void;
  /** Checked at each event: false while the server's `autocapture_opt_out` holds. */
  isEnabled: () => boolean;
  /**
   * Reports a problem; the parts are joined as text, the client describing any part that cannot
   * become text (so this chunk needs nothing from the client's code to do it).
   */
  warn: (...parts: unknown[]) => void;
}

export type StartAutocapture = (options: AutocaptureStart) => () => void;

const INTERACTIVE = 'a,button,input[type=button],input[type=submit],input[type=reset],[role=button],.ph-capture,[data-ph-capture]';
const FIELDS = ['input', 'select', 'textarea'];

/**
 * The element a DOM event is about: inside an open shadow root, not its host; never a text node.
 * (A submit's target is a form, whose fields may be named `shadowRoot` or `nodeType`: dom.ts.)
 */
function eventElement(event: Event): Element | undefined {
  let node = event.target as Node | null;
  if (node && (node as Element).shadowRoot) node = event.composedPath()[0] as Node;
  if (node && nodeTypeOf(node) === 3) node = node.parentNode;
  return node && nodeTypeOf(node) === 1 ? (node as Element) : undefined;
}

export const startAutocapture: StartAutocapture = ({ window, initOptions, capture, isEnabled, warn }) => {
  const doc = window.document;
  const settings = readOptions(initOptions, doc, warn);
  const {
    urlAllow_: urlAllow,
    urlIgnore_: urlIgnore,
    tagAllow_: tagAllow,
    selectorAllow_: selectorAllow,
    selectorIgnore_: selectorIgnore,
    isRage_: isRage,
  } = settings;

  const allowed = (target: Element, path: Element[]) => {
    const url = window.location.href;
    const anyUrl = (patterns: RegExp[] | undefined) => patterns?.some((pattern) => pattern.test(url));
    const inPath = (selector: string | undefined) => !selector || path.some((el) => matches(el, selector));
    return (anyUrl(urlAllow) ?? true) && !anyUrl(urlIgnore) && inPath(tagAllow) && inPath(selectorAllow) && !within(target, selectorIgnore);
  };

  const send = (event: string, path: Element[], type: string) => capture(event, describe(path, type, settings, window.location.host));

  const handle = (event: Event) => {
    try {
      const type = event.type;
      const target = eventElement(event);
      if (!target || !isEnabled()) return;
      const path = elementPath(target);
      if (!allowed(target, path)) return;
      const tag = tagOf(target);
      if (type === 'click') {
        const { clientX, clientY, detail } = event as MouseEvent;
        // detail 0: a click from the keyboard (Enter held down repeats it) or from script, not a pointer.
        if (detail > 0 && isRage?.(clientX, clientY, event.timeStamp) && !within(target, settings.rageIgnore_))
          send('$rageclick', path, type);
        if (!path.some((el) => matches(el, INTERACTIVE))) return;
      } else if (type === 'submit' ? tag !== 'form' : !FIELDS.includes(tag) || (target as HTMLInputElement).type === 'password') {
        return;
      }
      send('$autocapture', path, type);
    } catch (error) {
      warn(`autocapture failed on a ${event.type} event: `, error);
    }
  };

  // Only the event types dom_event_allowlist lets through are listened to (rage clicks are clicks).
  const types = ['click', 'change', 'submit'].filter((type) => settings.eventTypes_?.includes(type) ?? true);
  const listen = (method: 'addEventListener' | 'removeEventListener') => {
    for (const type of types) doc[method](type, handle, { capture: true, passive: true });
  };
  listen('addEventListener');
  return () => listen('removeEventListener');
};
