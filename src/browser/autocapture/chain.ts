/**
 * `$elements_chain`: PostHog's wire format for the clicked element and its ancestors, one entry
 * per element, target first, joined by `;`. An entry is the tag, its sorted classes (`.a.b`), a `:`
 * and the attributes sorted by name, each `name="value"`:
 *
 *     button.btn.primary:attr__class="btn primary"attr__id="go"attr_id="go"nth-child="2"nth-of-type="1"text="Go"
 *
 * The server splits entries on `;` and whitespace outside double quotes, reads a value up to the
 * first `"` that no backslash escapes, stops reading an entry's attributes at its first line break,
 * and takes the first name after the tag from `[A-Za-z0-9_-]*`. So values escape `\` and `"` with a
 * backslash and write line breaks as `\n` / `\r` (posthog-js escapes only `"`: a value ending in
 * `\` swallows the rest of its entry, and a line break cuts off the element's attributes there), class
 * names lose `"` and `;`, and attribute names outside `[A-Za-z0-9_-]` never reach this file
 * (describe.ts leaves them out). Values without `\`, `"` or line breaks are written as they are.
 */

/** One element as the chain carries it. Values are raw (unescaped) text. */
export interface ChainElement {
  tag: string;
  /** Class names in document order; the chain sorts them. */
  classes: string[];
  /** 1-based position among all element siblings, and among siblings of the same tag. */
  nthChild: number;
  nthOfType: number;
  text?: string | undefined;
  href?: string | undefined;
  id?: string | undefined;
  /** `attr__<name>` → value (no other keys: see entry()). */
  attributes: Record<string, string>;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r' };
const ESCAPED = /[\\"\n\r]/;
const escapeValue = (value: string) => (ESCAPED.test(value) ? value.replace(/[\\"\n\r]/g, (char) => ESCAPES[char]!) : value);

const field = (name: string, value: string) => name + '="' + escapeValue(value) + '"';

function entry(element: ChainElement): string {
  let out = element.tag;
  for (const name of [...element.classes].sort()) out += '.' + name.replace(/[";]/g, '');
  out += ':';
  // Fields in the order of their names (UTF-16 code units: the server's, Python's, order and
  // posthog-js's), without sorting them all: every `attr__<name>` sorts before `attr_id` ('_' < 'i'),
  // and then come href, nth-child, nth-of-type and text.
  const { attributes } = element;
  for (const name of Object.keys(attributes).sort()) out += field(name, attributes[name]!);
  if (element.id) out += field('attr_id', element.id);
  if (element.href) out += field('href', element.href);
  out += `nth-child="${element.nthChild}"nth-of-type="${element.nthOfType}"`;
  return element.text ? out + field('text', element.text) : out;
}

export function elementsChain(elements: readonly ChainElement[]): string {
  return elements.map(entry).join(';');
}
