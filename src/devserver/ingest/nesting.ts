/**
 * How deep a JSON text nests, found by a scan of its brackets rather than a recursive walk, so the
 * check itself cannot overflow the stack it protects. The same scan measures the longest object or
 * array at each of the first levels, which bounds every event's size without serialising it again
 * (see `SERIALISED_BYTES_PER_CHAR`).
 */

/** The real capture service parses with serde_json, whose default recursion limit is 128. */
export const MAX_NESTING_DEPTH = 128;

/**
 * Re-serialised as UTF-8, a JSON value takes at most this many bytes per character of its source:
 * JSON.stringify escapes only what the source had to escape, so strings never grow, except that a
 * lone surrogate (1 unit) becomes `\udXXX` (6 bytes); any other unit is at most 3 bytes; a number
 * grows at most from `1e20` (4 characters) to 21 digits.
 */
export const SERIALISED_BYTES_PER_CHAR = 6;

/** How many levels `longestContainer` measures: a batch body's events open at level 3. */
const MEASURED_LEVELS = 3;

export interface JsonShape {
  tooDeep: boolean;
  /**
   * `longestContainer[d - 1]`: characters of the longest object or array that opens at level d (the
   * body is level 1, a member of it level 2, …), 0 when there is none, for d up to 3.
   */
  longestContainer: number[];
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function scanJsonShape(text: string, limit = MAX_NESTING_DEPTH): JsonShape {
  const longestContainer = new Array<number>(MEASURED_LEVELS).fill(0);
  const openedAt = new Array<number>(MEASURED_LEVELS).fill(0);
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = closingQuote(text, index);
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return { tooDeep: true, longestContainer };
      if (depth <= MEASURED_LEVELS) openedAt[depth - 1] = index;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (depth >= 1 && depth <= MEASURED_LEVELS) {
        longestContainer[depth - 1] = Math.max(longestContainer[depth - 1] ?? 0, index + 1 - (openedAt[depth - 1] ?? 0));
      }
      depth--;
    }
  }
  return { tooDeep: false, longestContainer };
}

/**
 * Where the string opened at `start` ends (its text's length if never). Strings are most of an
 * event's characters, so they are skipped with indexOf rather than walked one character at a time.
 */
function closingQuote(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
  return end === -1 ? text.length : end;
}

/** A quote is escaped when an odd number of backslashes stands right before it. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}
