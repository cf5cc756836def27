/**
 * From a DOM event's element to the properties of an `$autocapture` event: the element path
 * (target first, up through open shadow roots to their hosts, at most 15 ancestors, `body`
 * included as posthog-js includes it), each element as the chain records it (chain.ts), `$el_text`,
 * `$external_click_url`, and `data-ph-capture-attribute-<name>` as property `<name>`.
 * Field-for-field what posthog-js records, with the privacy rules of privacy.ts. Elements are read
 * through dom.ts, since a form on the path may have fields named like the DOM's own properties.
 *
 * A `data-ph-capture-attribute-*` value is page content, possibly the app's users' content: it
 * gets the same checks as every other attribute (card numbers, mask_all_element_attributes,
 * element_attribute_ignorelist), and never becomes a `$` property, `token` or `distinct_id`,
 * which would override what the SDK sets (the session, the URL, the chain, the project).
 */
import { chainEntry, chainField } from './chain';
import { attributeNamesOf, attributeOf, localNameOf, nodeTypeOf, parentOf, previousElementOf } from './dom';
import { checkedPart, cut, holdsValue, isField, looksSecret, mayRead, SENSITIVE, tagOf, within } from './privacy';
import { elementText } from './text';

export const MAX_ANCESTORS = 15;
const MAX_ATTRIBUTE = 1024;
const SVG = 'http://www.w3.org/2000/svg';
/** Tags whose text posthog-js records for every element of the path, not only the target. */
const TEXT_TAGS = ['a', 'button', 'form', 'input', 'select', 'textarea', 'label'];
/** An SVG icon's click inside a link or button is theirs. */
const CONTROLS = ['a', 'button'];
/** Attributes a form field keeps (never its value, placeholder or anything typed). */
const FIELD_ATTRIBUTES = ['name', 'id', 'class', 'aria-label'];
/**
 * Names the chain can carry unambiguously (see chain.ts): not Alpine's `@click` or `:class`, nor
 * Angular's generated `_ngcontent-*` / `_nghost-*`.
 */
const CHAIN_NAME = /^(?!_ng(?:content|host))[\w-]+$/;
const AUGMENT_PREFIX = 'data-ph-capture-attribute-';
/** Property names an attribute never sets (besides any `$` one). */
const RESERVED = ['token', 'distinct_id'];

export interface DescribeSettings {
  maskText_: boolean;
  maskAttributes_: boolean;
  /** Attribute names never recorded (`element_attribute_ignorelist`). */
  ignoredAttributes_: readonly string[];
}

/** The target and its ancestors up to `body`, through shadow roots to their hosts. */
export function elementPath(target: Element): Element[] {
  const path = [target];
  for (let node = target; path.length <= MAX_ANCESTORS && tagOf(node) !== 'body'; ) {
    const parent: Node | null = parentOf(node);
    const next = parent && (nodeTypeOf(parent) === 11 ? (parent as ShadowRoot).host : parent);
    if (!next || nodeTypeOf(next) !== 1) break;
    path.push((node = next as Element));
  }
  return path;
}

const limit = (value: string) => (value.length > MAX_ATTRIBUTE ? cut(value, MAX_ATTRIBUTE) + '...' : value);

/** An attribute's value as it may be recorded: cut to its limit, or undefined when it holds a card number or an SSN. */
function attributeValue(element: Element, name: string): string | undefined {
  // Cut before anything reads it: the check never scans more than what can be sent (and a little).
  const value = checkedPart(attributeOf(element, name) ?? '', MAX_ATTRIBUTE);
  return looksSecret(value) ? undefined : value;
}

/**
 * The event properties for the element path (elementPath's, target first), once the caller has
 * checked that the event may be captured at all.
 */
export function describe(path: Element[], eventType: string, settings: DescribeSettings, pageHost: string): Record<string, unknown> {
  const { maskAttributes_: maskAttributes, ignoredAttributes_: ignoredAttributes } = settings;
  let target = path[0]!;
  let maskText = settings.maskText_;
  // A click on an SVG icon (or a part of one) inside a link or button is the control's click.
  const control = eventType === 'click' && target.namespaceURI === SVG ? path.findIndex((el) => CONTROLS.includes(tagOf(el))) : -1;
  if (control > 0) {
    maskText ||= path.slice(0, control + 1).some((el) => !mayRead(el) || isField(el));
    path = path.slice(control);
    target = path[0]!;
  }
  // Nothing around the target is ph-sensitive (the usual case): then no element of the path is,
  // and one walk up answers what would otherwise be a walk per element.
  const unshielded = !within(target, SENSITIVE);
  let href: string | undefined;
  if (!maskAttributes && !ignoredAttributes.includes('href')) {
    for (const element of path) {
      if (tagOf(element) !== 'a') continue;
      const value = attributeValue(element, 'href');
      // The outermost link decides, as in posthog-js.
      href = value && mayRead(element, unshielded) ? limit(value) : undefined;
    }
  }
  const text = maskText ? undefined : elementText(target, unshielded) || undefined;
  // No prototype: an attribute named `...-constructor` is a property like any other.
  const augment: Record<string, string> = Object.create(null) as Record<string, string>;

  /**
   * One element's chain entry (chain.ts), built straight from the DOM: each attribute is read
   * once, for the chain and for `augment` (the innermost element's win). The target (index 0) has
   * describe()'s `href` and `text`; an ancestor's text follows posthog-js's rule for the path.
   */
  const entry = (element: Element, index: number): string => {
    const tag = tagOf(element);
    const field = isField(element, tag);
    const hideValue = holdsValue(element, tag);
    // mask_all_element_attributes: not one, nor a data-ph-capture-attribute-* (none are read).
    const names = maskAttributes ? [] : attributeNamesOf(element);
    let link = index ? undefined : href;
    // The target's href is the outermost link's, placed among its attributes even when it has none.
    if (link && !names.includes('href')) names.push('href');
    let attributes = '';
    let classes: string | undefined;
    let id: string | undefined;
    let readable: boolean | undefined; // asked only of elements with data attributes to copy
    for (const name of names.sort()) {
      if (name === 'href' && link) {
        attributes += chainField('attr__href', link);
        continue;
      }
      const key = name.startsWith(AUGMENT_PREFIX) ? name.slice(AUGMENT_PREFIX.length) : '';
      const copied = key && key[0] !== '$' && !RESERVED.includes(key);
      const chained = !(field && !FIELD_ATTRIBUTES.includes(name)) && !(hideValue && name === 'value') && CHAIN_NAME.test(name);
      if ((!copied && !chained) || ignoredAttributes.includes(name)) continue;
      let value = attributeValue(element, name);
      if (value === undefined) continue;
      if (copied && (readable ??= mayRead(element, unshielded))) augment[key] ??= limit(value);
      if (!chained) continue;
      if (name === 'class') {
        // One space between names; most class attributes have that already (no split for them).
        classes = value = limit(/^\s|\s$|\s\s|[^\S ]/.test(value) ? value.trim().split(/\s+/).join(' ') : value);
      } else {
        value = limit(value);
        if (name === 'id') id = value;
        else if (name === 'href') link = value;
      }
      attributes += chainField('attr__' + name, value);
    }
    const localName = localNameOf(element);
    let nthChild = 1;
    let nthOfType = 1;
    for (let sibling = previousElementOf(element); sibling; sibling = previousElementOf(sibling)) {
      nthChild++;
      if (localNameOf(sibling) === localName) nthOfType++;
    }
    const own = index ? (!maskText && TEXT_TAGS.includes(tag) ? elementText(element, unshielded, tag) : undefined) : text;
    return chainEntry(tag, classes, attributes, nthChild, nthOfType, id, link, own);
  };

  const properties: Record<string, unknown> = { $event_type: eventType, $ce_version: 1, $elements_chain: path.map(entry).join(';') };
  if (text) properties.$el_text = text;
  if (href && eventType === 'click') {
    try {
      const host = new URL(href, target.ownerDocument.baseURI).host;
      if (host && host !== pageHost) properties.$external_click_url = href;
    } catch {
      // not a URL: no external click
    }
  }
  return Object.assign(properties, augment);
}
