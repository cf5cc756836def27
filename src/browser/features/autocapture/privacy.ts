/**
 * What autocapture may read. The rules are posthog-js's (so the same page yields the same chain),
 * made stricter where posthog-js leaks and never configurable to be weaker:
 * - no value of an input, select or textarea is ever read (only their name, id, class and
 *   aria-label attributes), nor the text of anything editable;
 * - `ph-no-capture` on the element or any ancestor (across shadow roots, with no depth limit) drops
 *   the event; `ph-sensitive` hides text; so do hidden and password inputs and names such as `cvv`;
 * - text or an attribute that contains something shaped like a card number (13–19 digits, spaces
 *   or dashes between, passing the Luhn check) or a US social security number is left out whole.
 *   posthog-js checks each word on its own, so `4111 1111 1111 1111` passes there.
 */

/** Elements that are (or sit inside) this selector, crossing open shadow roots to their hosts. */
export function within(element: Element, selector: string): boolean {
  for (let node: Element | undefined = element; node; node = (node.getRootNode() as ShadowRoot).host) {
    if (node.closest(selector)) return true;
  }
  return false;
}

/**
 * The tag name as posthog-js records it (`tagName.toLowerCase()`), read from `localName`: tagName
 * builds an upper-case copy at every read, which profiled as a tenth of a click's cost.
 */
export const tagOf = (element: Element): string => element.localName.toLowerCase();

/** Input types whose value is a label the page wrote, not something the user typed. */
const BUTTON_INPUTS = ['button', 'checkbox', 'submit', 'reset'];

/**
 * Form fields and editable content: nothing but their name, id, class and aria-label is read.
 * `tag`: the element's tagOf(), when the caller has it.
 */
export function isField(element: Element, tag = tagOf(element)): boolean {
  return (
    (tag === 'input' && !BUTTON_INPUTS.includes((element as HTMLInputElement).type)) ||
    tag === 'select' ||
    tag === 'textarea' ||
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
  if (element.classList.contains('ph-include')) return true;
  const type = (element as HTMLInputElement).type;
  if (type === 'hidden' || type === 'password') return false;
  const name = (element as HTMLInputElement).name || element.id;
  return !name || typeof name !== 'string' || !SECRET_NAME.test(name.replace(/[^a-zA-Z0-9]/g, ''));
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

const DIGIT_RUN = /\d[\d -]*\d/g;
const SSN = /(?:^|\D)\d{3}-?\d{2}-?\d{4}(?!\d)/;

/** At least nine digits, the fewest an SSN or a card number has: one native scan, no JavaScript loop. */
const NINE_DIGITS = /^(?:\D*\d){9}/;

/** A card number (any 13–19 digit window of a run, Luhn-valid) or a US SSN anywhere in `text`. */
export function looksSecret(text: string): boolean {
  // Most text and attributes have few digits: answered without matchAll() (which clones its
  // regular expression) or a loop over every character (slow until the page's JIT has warmed up).
  if (!NINE_DIGITS.test(text)) return false;
  if (SSN.test(text)) return true;
  for (const [run] of text.matchAll(DIGIT_RUN)) {
    const digits = run.replace(/\D/g, '');
    for (let start = 0; start + 13 <= digits.length; start++) {
      for (let length = 13; length <= 19 && start + length <= digits.length; length++) {
        if (luhn(digits.slice(start, start + length))) return true;
      }
    }
  }
  return false;
}
