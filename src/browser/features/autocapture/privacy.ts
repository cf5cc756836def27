/**
 * What autocapture may read. The rules are posthog-js's (so the same page yields the same chain),
 * made stricter where posthog-js leaks and never configurable to be weaker:
 * - no value of an input, select or textarea is ever read (only their name, id, class and
 *   aria-label attributes), nor the text of an option or of anything editable, nor the `value`
 *   attribute of any input but a button's (a checkbox's is what the form sends: often an e-mail);
 * - `ph-no-capture` on the element or any ancestor (across shadow roots, with no depth limit) drops
 *   the event; `ph-sensitive` hides text; so do hidden and password inputs and names such as `cvv`;
 * - text or an attribute that contains something shaped like a card number (13–19 digits with any
 *   kind of space, dash, dot or URL escape between them, passing the Luhn check) or a US social
 *   security number is left out whole. posthog-js checks each word on its own, so
 *   `4111 1111 1111 1111` passes there, and only ASCII spaces and dashes join a number's groups.
 * Values are cut to their limit before they are checked (plus a little, so a number across the cut
 * is found whole): a 1 MB attribute costs a click what a short one does.
 */
import { attributeOf, closest, localNameOf, matches, nodeTypeOf, rootOf } from './dom';

/** Elements that are (or sit inside) this selector, crossing open shadow roots to their hosts. */
export function within(element: Element, selector: string): boolean {
  for (let node: Element | undefined = element; node; ) {
    if (closest(node, selector)) return true;
    // Only a shadow root has a host (a document's `host` may be an <img name="host">).
    const root = rootOf(node);
    node = nodeTypeOf(root) === 11 ? (root as ShadowRoot).host : undefined;
  }
  return false;
}

/**
 * The tag name as posthog-js records it (`tagName.toLowerCase()`), read from `localName`: tagName
 * builds an upper-case copy at every read, which profiled as a tenth of a click's cost.
 */
export const tagOf = (element: Element): string => localNameOf(element).toLowerCase();

/** Input types whose `value` attribute is the label the page wrote on them. */
const LABEL_INPUTS = ['button', 'submit', 'reset'];

/**
 * Whether the element's `value` attribute is what a form would send (any input's but a button's),
 * never recorded. `tag`: the element's tagOf().
 */
export const holdsValue = (element: Element, tag: string): boolean =>
  tag === 'input' && !LABEL_INPUTS.includes((element as HTMLInputElement).type);

/**
 * Form fields, options and editable content: nothing but their name, id, class and aria-label is
 * read. A checkbox is no field (nothing is typed into it), but its value is (holdsValue).
 * `tag`: the element's tagOf(), when the caller has it.
 */
export function isField(element: Element, tag = tagOf(element)): boolean {
  return (
    (holdsValue(element, tag) && (element as HTMLInputElement).type !== 'checkbox') ||
    tag === 'select' ||
    tag === 'textarea' ||
    tag === 'option' ||
    (element as HTMLElement).isContentEditable === true
  );
}

/** Names and ids that mark card, password or social security fields (letters and digits only). */
const SECRET_NAME = /^cc|cardnum|ccnum|creditcard|csc|cvc|cvv|exp|pass|pwd|routing|seccode|securitycode|securitynum|socialsec|socsec|ssn/i;

export const SENSITIVE = '.ph-sensitive,.ph-no-capture';

/**
 * Whether the element's text (and its `data-ph-capture-attribute-*`) may be read: not under
 * `ph-sensitive` or `ph-no-capture`, not a hidden or password input, no secret-looking name or id
 * (`ph-include` vouches for the name and type, never for an ancestor's `ph-sensitive`).
 * `unshielded`: the caller knows that neither the element nor anything around it is SENSITIVE.
 */
export function mayRead(element: Element, unshielded?: boolean): boolean {
  if (!unshielded && within(element, SENSITIVE)) return false;
  if (matches(element, '.ph-include')) return true;
  // (A form's `type` may be a field named so: it is never 'hidden' or 'password' then.)
  const type = (element as HTMLInputElement).type;
  if (type === 'hidden' || type === 'password') return false;
  const name = attributeOf(element, 'name') || attributeOf(element, 'id');
  return !name || !SECRET_NAME.test(name.replace(/[^a-zA-Z0-9]/g, ''));
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let digit = digits.charCodeAt(i) - 48;
    if (double && (digit *= 2) > 9) digit -= 9;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * A run of digits with what may stand between a card number's digits: any space (no-break, narrow,
 * thin, figure, ideographic…), dashes and hyphens, dots, `+`, soft hyphens and zero-width
 * characters, and URL escapes (`%20`, which NOT_DIGIT removes with the rest).
 */
const DIGIT_RUN = /\d(?:[\d\s.+\u00ad\u2010-\u2015\u2212\u200b-\u200d\u2060-]|%[\da-fA-F]{2})*\d/g;
const NOT_DIGIT = /%[\da-fA-F]{2}|\D/g;
/** An SSN's three groups, with nothing, a space of any kind or a dash between them. */
const SSN = /(?:^|\D)\d{3}[\s\u2010-\u2015\u2212-]?\d{2}[\s\u2010-\u2015\u2212-]?\d{4}(?!\d)/;

/** At least nine digits, the fewest an SSN or a card number has: one native scan, no JavaScript loop. */
const NINE_DIGITS = /^(?:\D*\d){9}/;

/** A card number (any 13–19 digit window of a run, Luhn-valid) or a US SSN anywhere in `text`. */
export function looksSecret(text: string): boolean {
  // Most text and attributes have few digits: answered without matchAll() (which clones its
  // regular expression) or a loop over every character (slow until the page's JIT has warmed up).
  if (!NINE_DIGITS.test(text)) return false;
  if (SSN.test(text)) return true;
  for (const [run] of text.matchAll(DIGIT_RUN)) {
    const digits = run.replace(NOT_DIGIT, '');
    for (let start = 0; start + 13 <= digits.length; start++) {
      for (let length = 13; length <= 19 && start + length <= digits.length; length++) {
        if (luhn(digits.slice(start, start + length))) return true;
      }
    }
  }
  return false;
}

/** Cut to `max` UTF-16 units without leaving half a surrogate pair at the end. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code < 0xdc00 ? max - 1 : max);
}

/** How far past its cut a value is read: a card number across the cut is found whole. */
export const STRADDLE = 64;

/**
 * The part of `value` that the card and SSN check reads when at most `max` characters of it are
 * shown: the first `max` and a little more, never the rest (a 1 MB value costs what a short one does).
 */
export const checkedPart = (value: string, max: number): string => (value.length > max + STRADDLE ? value.slice(0, max + STRADDLE) : value);
