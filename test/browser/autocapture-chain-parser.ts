/**
 * `$elements_chain` read back the way PostHog's server reads it (`chain_to_elements` in
 * posthog/models/element/element.py), rewritten in JavaScript from its three regular expressions:
 *
 *   split_chain_regex        (?:[^\s;"]|"(?:\\.|[^"])*")+          entries: `;`/whitespace outside quotes
 *   split_class_attributes   (.*?)($|:([a-zA-Z\-\_0-9]*=.*))       tag and classes | attributes
 *   parse_attributes_regex   (?P<key>.*?)\="(?P<value>(?:[^"\\]|\\.)*)"
 *
 * Python's `.` is any character but `\n` (JavaScript's also stops at `\r`, U+2028 and U+2029), so
 * it is written `[^\n]` here; Python's `\s` also matches U+001C–U+001F. Like the server, values come
 * back raw (escapes kept); `unescape` undoes hogtail's escaping for round-trip checks.
 */

export interface ParsedElement {
  tag_name: string | null;
  attr_class: string[] | null;
  text: string | null;
  href: string | null;
  attr_id: string | null;
  nth_child: number | null;
  nth_of_type: number | null;
  attributes: Record<string, string>;
}

// Python's \s also matches U+001C–U+001F: so must this.
// eslint-disable-next-line no-control-regex -- the separators Python's \s matches are control characters
const SPLIT_CHAIN = /(?:[^\s\x1c-\x1f;"]|"(?:\\[^\n]|[^"])*")+/g;
const SPLIT_CLASS_ATTRIBUTES = /([^\n]*?)($|:([a-zA-Z\-_0-9]*=[^\n]*))/;
const PARSE_ATTRIBUTES = /([^\n]*?)="((?:[^"\\]|\\[^\n])*)"/g;

const toInt = (value: string) => (/^[+-]?\d+$/.test(value.trim()) ? Number.parseInt(value, 10) : null);

function parseElement(entry: string): ParsedElement {
  const element: ParsedElement = {
    tag_name: null,
    attr_class: null,
    text: null,
    href: null,
    attr_id: null,
    nth_child: null,
    nth_of_type: null,
    attributes: {},
  };
  const match = SPLIT_CLASS_ATTRIBUTES.exec(entry);
  const tagPart = match?.[1] ?? '';
  const attrsPart = match?.[3];
  if (tagPart) {
    const dot = tagPart.indexOf('.');
    element.tag_name = dot < 0 ? tagPart : tagPart.slice(0, dot);
    if (dot >= 0)
      element.attr_class = tagPart
        .slice(dot + 1)
        .split('.')
        .filter((name) => name !== '');
  }
  if (attrsPart) {
    for (const [, key, value] of attrsPart.matchAll(PARSE_ATTRIBUTES)) {
      if (key === 'text' || key === 'href' || key === 'attr_id') element[key] = value!;
      else if (key === 'nth-child') element.nth_child = toInt(value!);
      else if (key === 'nth-of-type') element.nth_of_type = toInt(value!);
      else if (key) element.attributes[key] = value!;
    }
  }
  return element;
}

export function parseChain(chain: string): ParsedElement[] {
  return (chain.match(SPLIT_CHAIN) ?? []).map(parseElement);
}

/** hogtail's escapes (`\\`, `\"`, `\n`, `\r`) back to the characters. */
export function unescape(value: string): string {
  return value.replace(/\\([\s\S])/g, (_, char: string) => (char === 'n' ? '\n' : char === 'r' ? '\r' : char));
}
