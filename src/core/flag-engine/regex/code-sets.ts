/**
 * Sets of UTF-16 code units for the linear-time regex matcher: what `.`, `\d`, `\w`, `\s` and a
 * bracket class accept, with JavaScript's meanings (no `u` flag: one code unit at a time).
 */

/** Whether one code unit belongs to the set. */
export type CodeSet = (code: number) => boolean;

export const isDigit: CodeSet = (code) => code >= 48 && code <= 57;

/** `\w`, and what `\b` looks at on either side. */
export const isWord: CodeSet = (code) => isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

const SPACES = new Set([9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);

/** JavaScript's `\s`: ASCII and Unicode white space and line terminators. */
export const isSpace: CodeSet = (code) => SPACES.has(code) || (code >= 0x2000 && code <= 0x200a);

/** `.` without the `s` flag: anything but a line terminator. */
export const isNotLineEnd: CodeSet = (code) => code !== 10 && code !== 13 && code !== 0x2028 && code !== 0x2029;

export const only =
  (wanted: number): CodeSet =>
  (code) =>
    code === wanted;

const not =
  (set: CodeSet): CodeSet =>
  (code) =>
    !set(code);

/**
 * The same set, answering ASCII from a 128-entry table: values are mostly ASCII, and a class such
 * as `[\w.+-]` is then one array read per character instead of several calls.
 */
function tabled(set: CodeSet): CodeSet {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++) table[code] = set(code) ? 1 : 0;
  return (code) => (code < 128 ? table[code] === 1 : set(code));
}

const CLASS_ESCAPES: Readonly<Record<string, CodeSet>> = {
  d: tabled(isDigit),
  D: tabled(not(isDigit)),
  w: tabled(isWord),
  W: tabled(not(isWord)),
  s: tabled(isSpace),
  S: tabled(not(isSpace)),
};

/** `\d`, `\D`, `\w`, `\W`, `\s`, `\S`; undefined for any other letter. */
export function classEscape(letter: string): CodeSet | undefined {
  return Object.prototype.hasOwnProperty.call(CLASS_ESCAPES, letter) ? CLASS_ESCAPES[letter] : undefined;
}

/** A bracket class (`[a-z_\d]`, `[^,]`) from its single code units, ranges and class escapes. */
export function bracketClass(
  codes: readonly number[],
  ranges: ReadonlyArray<readonly [number, number]>,
  sets: readonly CodeSet[],
  negated: boolean,
): CodeSet {
  const singles = new Set(codes);
  const inside: CodeSet = (code) =>
    singles.has(code) || ranges.some(([low, high]) => code >= low && code <= high) || sets.some((set) => set(code));
  return tabled(negated ? not(inside) : inside);
}
