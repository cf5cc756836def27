/**
 * The text autocapture records for an element, read as posthog-js reads it so the same element
 * gets the same `text` in the chain: an element's own text nodes (not its descendants'), each
 * trimmed, line breaks and runs of spaces made one space, joined with nothing between them; links
 * and buttons add the text of nested `<span>`s, space-separated. Never from form fields, options,
 * editable content, `ph-sensitive` subtrees, or text that looks like a card number or SSN
 * (privacy.ts). Only the start of a long text is read: what can be shown and a little more.
 */
import { firstChildOf, firstElementOf, localNameOf, matches, nextElementOf, nextSiblingOf, nodeTypeOf } from './dom';
import { checkedPart, cut, isField, looksSecret, mayRead, SENSITIVE, STRADDLE, tagOf } from './privacy';

export const MAX_TEXT = 255;
/** Nested spans are followed this deep at most (the walk stays bounded on any page). */
const MAX_SPAN_DEPTH = 15;
/**
 * How much of a text node is made into text: enough for MAX_TEXT characters even when most of it
 * is indentation and line breaks, never a whole megabyte.
 */
const MAX_RAW = 4096;

/** `text` cut to MAX_TEXT, or '' when its start holds a card number or an SSN. */
const shown = (text: string) => (looksSecret(checkedPart(text, MAX_TEXT)) ? '' : cut(text, MAX_TEXT));

function nodeText(raw: string): string {
  // posthog-js makes line breaks spaces, then runs of spaces one space: the same as one space for
  // each run of spaces and line breaks. A single space is left alone (no new string for most text).
  if (raw.length > MAX_RAW) raw = raw.trimStart().slice(0, MAX_RAW);
  return shown(raw.trim().replace(/[ \r\n]{2,}|[\r\n]/g, ' '));
}

/**
 * The element's own text nodes. `unshielded`: the caller knows nothing around the element is
 * ph-sensitive (privacy.ts, mayRead). Siblings are followed by hand: iterating `childNodes` costs
 * an iterator and a call per node. Once there is more than can be shown (and checked), the rest is not read.
 */
function ownText(element: Element, unshielded?: boolean): string {
  if (!mayRead(element, unshielded) || isField(element)) return '';
  let text = '';
  for (let child = firstChildOf(element); child && text.length < MAX_TEXT + STRADDLE; child = nextSiblingOf(child)) {
    if (nodeTypeOf(child) === 3) text += nodeText((child as Text).data);
  }
  // Checked again as a whole: a number may be split across text nodes.
  return shown(text.trim());
}

function spanText(element: Element, depth: number, unshielded: boolean): string {
  let text = '';
  if (depth < MAX_SPAN_DEPTH) {
    for (let child = firstElementOf(element); child && text.length < MAX_TEXT + STRADDLE; child = nextElementOf(child)) {
      if (localNameOf(child) === 'span') {
        const clean = unshielded && !matches(child, SENSITIVE);
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
  return shown(`${own} ${spanText(element, 0, unshielded)}`.trim());
}
