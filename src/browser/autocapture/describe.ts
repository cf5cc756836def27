/**
 * From a DOM event's element to the properties of an `$autocapture` event: the element path
 * (target first, up through open shadow roots to their hosts, at most 15 ancestors, `body`
 * included as posthog-js includes it), each element as the chain records it (chain.ts), `$el_text`,
 * `$external_click_url`, and `data-ph-capture-attribute-<name>` as property `<name>`.
 * Field-for-field what posthog-js records, with the privacy rules of privacy.ts.
 */
import { elementsChain, type ChainElement } from './chain';
import { isField, looksSecret, mayRead, SENSITIVE, tagOf, within } from './privacy';
import { cut, labelText, ownText } from './text';

export const MAX_ANCESTORS = 15;
const MAX_ATTRIBUTE = 1024;
const SVG = 'http://www.w3.org/2000/svg';
/** Tags whose text posthog-js records for every element of the path, not only the target. */
const TEXT_TAGS = ['a', 'button', 'form', 'input', 'select', 'textarea', 'label'];
/** Links and buttons: their label (text.ts) is their text; an SVG icon's click is theirs. */
const CONTROLS = ['a', 'button'];
/** Attributes a form field keeps (never its value, placeholder or anything typed). */
const FIELD_ATTRIBUTES = ['name', 'id', 'class', 'aria-label'];
/** Names the chain can carry unambiguously (see chain.ts); Alpine's `@click` or `:class` cannot. */
const CHAIN_SAFE_NAME = /^[\w-]+$/;
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

function position(element: Element): [number, number] {
  const name = element.localName;
  let nthChild = 1;
  let nthOfType = 1;
  for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
    nthChild++;
    if (sibling.localName === name) nthOfType++;
  }
  return [nthChild, nthOfType];
}

function limit(value: string): string {
  return value.length > MAX_ATTRIBUTE ? cut(value, MAX_ATTRIBUTE) + '...' : value;
}

/** Data attributes become event properties (the innermost element wins); only `readable` elements'. */
type Augment = Record<string, string>;

/**
 * One element of the chain. Its `data-ph-capture-attribute-*` go into `augment` in the same pass
 * over its attributes (each read once). `ancestor`: the target's text is read by describe() under
 * its own rule, never here.
 */
function chainElement(element: Element, settings: DescribeSettings, maskText: boolean, ancestor: boolean, unshielded: boolean, augment: Augment): ChainElement {
  let readable: boolean | undefined; // asked only of elements with data attributes to copy
  const tag = tagOf(element);
  const field = !settings.maskAttributes && isField(element);
  const attributes: Record<string, string> = {};
  // Names, then values: iterating element.attributes makes an Attr object for each one.
  for (const name of element.getAttributeNames()) {
    const value = element.getAttribute(name)!;
    if (name.startsWith(AUGMENT_PREFIX) && (readable ??= mayRead(element, unshielded))) augment[name.slice(AUGMENT_PREFIX.length)] ??= value;
    if (
      settings.maskAttributes ||
      (field && !FIELD_ATTRIBUTES.includes(name)) ||
      settings.ignoredAttributes.includes(name) ||
      !CHAIN_SAFE_NAME.test(name) ||
      name.startsWith('_ngcontent') ||
      name.startsWith('_nghost') ||
      looksSecret(value)
    ) {
      continue;
    }
    // Class names are joined by one space: a test first, since most class attributes already are.
    attributes['attr__' + name] = limit(name === 'class' && /^\s|\s$|\s\s|[^\S ]/.test(value) ? value.trim().split(/\s+/).join(' ') : value);
  }
  const [nthChild, nthOfType] = position(element);
  const className = attributes.attr__class;
  return {
    tag,
    classes: className ? className.split(' ') : [],
    nthChild,
    nthOfType,
    text: ancestor && !maskText && TEXT_TAGS.includes(tag) ? elementText(element, unshielded) : undefined,
    href: attributes.attr__href,
    id: attributes.attr__id,
    attributes,
  };
}

const elementText = (element: Element, unshielded: boolean) =>
  CONTROLS.includes(tagOf(element)) ? labelText(element, unshielded) : ownText(element, unshielded);

export interface Described {
  /** The element the event is attributed to (a click on an icon inside a button is the button's). */
  target: Element;
  properties: Record<string, unknown>;
}

/**
 * The event properties for the element path (elementPath's, target first), once the caller has
 * checked that the event may be captured at all.
 */
export function describe(path: Element[], eventType: string, settings: DescribeSettings, pageHost: string): Described {
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
  const augment: Augment = {};
  let href: string | undefined;
  const elements = path.map((element, index) => {
    if (tagOf(element) === 'a' && !settings.maskAttributes && !settings.ignoredAttributes.includes('href')) {
      const value = element.getAttribute('href');
      // The outermost link decides, as in posthog-js.
      href = value && mayRead(element, unshielded) && !looksSecret(value) ? value : undefined;
    }
    return chainElement(element, settings, maskText, index > 0, unshielded, augment);
  });
  const first = elements[0]!;
  first.text = maskText ? undefined : elementText(target, unshielded);
  if (href) first.href = first.attributes.attr__href = href;
  let external: string | undefined;
  if (href && eventType === 'click') {
    try {
      const host = new URL(href, target.ownerDocument.baseURI).host;
      if (host && host !== pageHost) external = href;
    } catch {
      // not a URL: no external click
    }
  }
  const properties: Record<string, unknown> = { $event_type: eventType, $ce_version: 1, $elements_chain: elementsChain(elements) };
  if (first.text) properties.$el_text = first.text;
  if (external) properties.$external_click_url = external;
  return { target, properties: Object.assign(properties, augment) };
}
