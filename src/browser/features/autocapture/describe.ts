/**
 * From a DOM event's element to the properties of an `$autocapture` event: the element path
 * (target first, up through open shadow roots to their hosts, at most 15 ancestors, `body`
 * included as posthog-js includes it), each element as the chain records it (chain.ts), `$el_text`,
 * `$external_click_url`, and `data-ph-capture-attribute-<name>` as property `<name>`.
 * Field-for-field what posthog-js records, with the privacy rules of privacy.ts.
 */
import { chainEntry, chainField } from './chain';
import { isField, looksSecret, mayRead, SENSITIVE, tagOf, within } from './privacy';
import { cut, elementText } from './text';

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

export interface DescribeSettings {
  maskText: boolean;
  maskAttributes: boolean;
  /** Attribute names never recorded (`element_attribute_ignorelist`). */
  ignoredAttributes: readonly string[];
}


/** The target and its ancestors up to `body`, through shadow roots to their hosts. */
export function elementPath(target: Element): Element[] {
  const path = [target];
  for (let node = target; path.length <= MAX_ANCESTORS && tagOf(node) !== 'body'; ) {
    const parent: Node | null = node.parentNode;
    const next = parent && (parent.nodeType === 11 ? (parent as ShadowRoot).host : parent);
    if (!next || next.nodeType !== 1) break;
    path.push((node = next as Element));
  }
  return path;
}

const limit = (value: string) => (value.length > MAX_ATTRIBUTE ? cut(value, MAX_ATTRIBUTE) + '...' : value);

/**
 * The event properties for the element path (elementPath's, target first), once the caller has
 * checked that the event may be captured at all.
 */
export function describe(path: Element[], eventType: string, settings: DescribeSettings, pageHost: string): Record<string, unknown> {
  const { maskAttributes, ignoredAttributes } = settings;
  let target = path[0]!;
  let maskText = settings.maskText;
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
      const value = element.getAttribute('href');
      // The outermost link decides, as in posthog-js.
      href = value && mayRead(element, unshielded) && !looksSecret(value) ? value : undefined;
    }
  }
  const text = maskText ? undefined : elementText(target, unshielded) || undefined;
  const augment: Record<string, string> = {};

  /**
   * One element's chain entry (chain.ts), built straight from the DOM: each attribute is read
   * once, for the chain and for `augment` (the innermost element's win). The target (index 0) has
   * describe()'s `href` and `text`; an ancestor's text follows posthog-js's rule for the path.
   */
  const entry = (element: Element, index: number): string => {
    const tag = tagOf(element);
    const field = !maskAttributes && isField(element, tag);
    const names = element.getAttributeNames();
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
      let value = element.getAttribute(name)!;
      if (name.startsWith(AUGMENT_PREFIX) && (readable ??= mayRead(element, unshielded))) augment[name.slice(AUGMENT_PREFIX.length)] ??= value;
      if (maskAttributes || (field && !FIELD_ATTRIBUTES.includes(name)) || ignoredAttributes.includes(name) || !CHAIN_NAME.test(name) || looksSecret(value)) {
        continue;
      }
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
    const localName = element.localName;
    let nthChild = 1;
    let nthOfType = 1;
    for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
      nthChild++;
      if (sibling.localName === localName) nthOfType++;
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
