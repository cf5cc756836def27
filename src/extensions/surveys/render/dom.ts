/**
 * Building elements in a few bytes: plain DOM, no UI library. The survey's text comes from the
 * project's definitions and goes in as text (textContent), never as HTML, so a question cannot
 * inject markup or script into the page.
 */

type Attributes = Record<string, string | number | boolean | undefined | null | ((event: Event) => void)>;

/** `<tag attributes>children</tag>`: `on…` attributes are listeners; false, null and undefined are left out. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string | false | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value != null) element.setAttribute(name, String(value));
  }
  for (const child of children) if (child || child === '') element.append(child);
  return element;
}

let counter = 0;
/** An id unique in the page, for label and aria references. */
export const uid = (prefix: string): string => `hogtail-${prefix}-${++counter}`;
