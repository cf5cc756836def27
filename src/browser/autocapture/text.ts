/**
 * The text autocapture records for an element, read as posthog-js reads it so the same element
 * gets the same `text` in the chain: an element's own text nodes (not its descendants'), each
 * trimmed, line breaks and runs of spaces made one space, joined with nothing between them; links
 * and buttons add the text of nested `<span>`s, space-separated. Never from form fields, editable
 * content, `ph-sensitive` subtrees, or text that looks like a card number or SSN (privacy.ts).
 */
import { isField, looksSecret, mayRead } from './privacy';

export const MAX_TEXT = 255;
/** Nested spans are followed this deep at most (the walk stays bounded on any page). */
const MAX_SPAN_DEPTH = 15;

/** Cut to `max` UTF-16 units without leaving half a surrogate pair at the end. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code < 0xdc00 ? max - 1 : max);
}

function nodeText(raw: string): string {
  const text = raw.trim().replace(/[\r\n]/g, ' ').replace(/ +/g, ' ');
  return looksSecret(text) ? '' : cut(text, MAX_TEXT);
}

/** The element's own text nodes. */
export function ownText(element: Element): string {
  if (!mayRead(element) || isField(element)) return '';
  let text = '';
  for (const child of element.childNodes) if (child.nodeType === 3) text += nodeText(child.textContent ?? '');
  return cut(text.trim(), MAX_TEXT);
}

function spanText(element: Element, depth: number): string {
  let text = '';
  if (depth < MAX_SPAN_DEPTH) {
    for (const child of element.children) {
      if (child.localName === 'span') {
        text = `${text} ${ownText(child)}`.trim();
        text = `${text} ${spanText(child, depth + 1)}`.trim();
      }
    }
  }
  return text;
}

/** A link's or button's label: its own text, then its nested spans' text. */
export function labelText(element: Element): string {
  const text = `${ownText(element)} ${spanText(element, 0)}`.trim();
  return looksSecret(text) ? '' : cut(text, MAX_TEXT);
}
