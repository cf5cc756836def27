/**
 * The text autocapture records for an element, read as posthog-js reads it so the same element
 * gets the same `text` in the chain: an element's own text nodes (not its descendants'), each
 * trimmed, line breaks and runs of spaces made one space, joined with nothing between them; links
 * and buttons add the text of nested `<span>`s, space-separated. Never from form fields, editable
 * content, `ph-sensitive` subtrees, or text that looks like a card number or SSN (privacy.ts).
 */
import { isField, looksSecret, mayRead, SENSITIVE, tagOf } from './privacy';

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
  // posthog-js makes line breaks spaces, then runs of spaces one space: the same as one space for
  // each run of spaces and line breaks. A single space is left alone (no new string for most text).
  const text = raw.trim().replace(/[ \r\n]{2,}|[\r\n]/g, ' ');
  return text && !looksSecret(text) ? cut(text, MAX_TEXT) : '';
}

/**
 * The element's own text nodes. `unshielded`: the caller knows nothing around the element is
 * ph-sensitive (privacy.ts, mayRead). Siblings are followed by hand: iterating `childNodes` costs
 * an iterator and a call per node.
 */
function ownText(element: Element, unshielded?: boolean): string {
  if (!mayRead(element, unshielded) || isField(element)) return '';
  let text = '';
  for (let child = element.firstChild; child; child = child.nextSibling) if (child.nodeType === 3) text += nodeText((child as Text).data);
  return cut(text.trim(), MAX_TEXT);
}

function spanText(element: Element, depth: number, unshielded: boolean): string {
  let text = '';
  if (depth < MAX_SPAN_DEPTH) {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      if (child.localName === 'span') {
        const clean = unshielded && !child.matches(SENSITIVE);
        text = `${text} ${ownText(child, clean)}`.trim();
        text = `${text} ${spanText(child, depth + 1, clean)}`.trim();
      }
    }
  }
  return text;
}

/**
 * An element's text: its own text nodes, and for a link or button (its label) then the text of
 * its nested spans. `tag`: the element's tagOf(), when the caller has it.
 */
export function elementText(element: Element, unshielded: boolean, tag = tagOf(element)): string {
  const own = ownText(element, unshielded);
  if (tag !== 'a' && tag !== 'button') return own;
  const text = `${own} ${spanText(element, 0, unshielded)}`.trim();
  return looksSecret(text) ? '' : cut(text, MAX_TEXT);
}
