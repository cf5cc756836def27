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
  /** `attr__<name>` → value (no other keys: see chainEntry()). */
  attributes: Record<string, string>;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r' };
const TO_ESCAPE = /[\\"\n\r]/;

/**
 * One field, `name="value"`, the value escaped. Most values have nothing to escape: a test first,
 * since a replace() with a function costs about 5× a test even when nothing matches (about 5 µs of a
 * click's chain, measured in Chromium).
 */
export const chainField = (name: string, value: string) =>
  name + '="' + (TO_ESCAPE.test(value) ? value.replace(/[\\"\n\r]/g, (char) => ESCAPES[char]!) : value) + '"';

/**
 * One entry of the chain. `attributes`: the element's `attr__<name>` fields (chainField), in the
 * order of their names. Fields are in the order of their names (UTF-16 code units: the server's,
 * Python's, order and posthog-js's), with no sort of them all: every `attr__<name>` sorts before
 * `attr_id` ('_' < 'i'), and then come href, nth-child, nth-of-type and text.
 */
export function chainEntry(
  tag: string,
  /** The class names, one space between them. */
  classes: string | undefined,
  attributes: string,
  nthChild: number,
  nthOfType: number,
  id?: string,
  href?: string,
  text?: string,
): string {
  // Sorted, joined, then cleaned as one string: one replace, not one per class (and none for the
  // usual class names, which have nothing to clean).
  const names = classes && classes.split(' ').sort().join('.');
  let out = names ? tag + '.' + (/[";]/.test(names) ? names.replace(/[";]/g, '') : names) : tag;
  out += ':' + attributes;
  if (id) out += chainField('attr_id', id);
  if (href) out += chainField('href', href);
  out += 'nth-child="' + nthChild + '"nth-of-type="' + nthOfType + '"';
  return text ? out + chainField('text', text) : out;
}

/** The chain of elements described field by field (describe.ts builds its entries directly). */
export function elementsChain(elements: readonly ChainElement[]): string {
  return elements
    .map((element) => {
      const { attributes } = element;
      let fields = '';
      for (const name of Object.keys(attributes).sort()) fields += chainField(name, attributes[name]!);
      return chainEntry(
        element.tag,
        element.classes.join(' '),
        fields,
        element.nthChild,
        element.nthOfType,
        element.id,
        element.href,
        element.text,
      );
    })
    .join(';');
}
