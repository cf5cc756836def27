/**
 * Reads a regex of a flag condition into a tree the linear-time matcher compiles (program.ts). The
 * pattern has already compiled as a JavaScript RegExp (without flags), so this reader only has to
 * understand valid patterns; it reads them as JavaScript does (one UTF-16 code unit at a time, a `{`
 * that starts no repetition count is a plain `{`).
 *
 * It refuses (UnsupportedRegexError) what a linear-time matcher cannot run, backreferences and
 * lookarounds, and the few spellings JavaScript and PostHog's server read differently (`\p{…}`,
 * `[]`, a `[` or `&&` inside a class, escaped letters with no agreed meaning).
 */
import { bracketClass, classEscape, isDigit, isNotLineEnd, only, type CodeSet } from './code-sets';
import { UnsupportedRegexError } from './unsupported';

export type Anchor = 'start' | 'end' | 'boundary' | 'not_boundary';

export type RegexNode =
  | { kind: 'char'; set: CodeSet }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; options: RegexNode[] }
  | { kind: 'repeat'; node: RegexNode; min: number; max: number }
  | { kind: 'assert'; anchor: Anchor };

interface Cursor {
  readonly text: string;
  at: number;
  depth: number;
}

/** Groups nested deeper than this are refused: reading them is recursive. */
const MAX_NESTING = 100;
const REPEAT_COUNT = /^\{(\d+)(?:(,)(\d*))?\}/;
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, v: 11, f: 12 };

const refuse = (what: string): never => {
  throw new UnsupportedRegexError(what);
};

export function parseRegex(pattern: string): RegexNode {
  const cursor: Cursor = { text: pattern, at: 0, depth: 0 };
  const node = disjunction(cursor);
  if (cursor.at < pattern.length) refuse(`an unmatched ")"`);
  return node;
}

function disjunction(cursor: Cursor): RegexNode {
  const options = [alternative(cursor)];
  while (cursor.text[cursor.at] === '|') {
    cursor.at++;
    options.push(alternative(cursor));
  }
  return options.length === 1 ? options[0]! : { kind: 'alt', options };
}

function alternative(cursor: Cursor): RegexNode {
  const items: RegexNode[] = [];
  for (let next = cursor.text[cursor.at]; next !== undefined && next !== '|' && next !== ')'; next = cursor.text[cursor.at]) {
    items.push(term(cursor));
  }
  return items.length === 1 ? items[0]! : { kind: 'seq', items };
}

function term(cursor: Cursor): RegexNode {
  const { text, at } = cursor;
  const first = text[at];
  if (first === '^' || first === '$') {
    cursor.at++;
    return { kind: 'assert', anchor: first === '^' ? 'start' : 'end' };
  }
  // (?: and (?<name> are groups; (?=, (?!, (?<=, (?<! (and modifiers such as (?i:) are not.
  if (
    first === '(' &&
    text[at + 1] === '?' &&
    text[at + 2] !== ':' &&
    !(text[at + 2] === '<' && text[at + 3] !== '=' && text[at + 3] !== '!')
  ) {
    refuse('a lookahead or lookbehind ((?=…), (?!…), (?<=…), (?<!…))');
  }
  const atom = atomOf(cursor);
  return atom.kind === 'assert' ? atom : quantified(cursor, atom);
}

function atomOf(cursor: Cursor): RegexNode {
  const char = cursor.text[cursor.at++]!;
  switch (char) {
    case '.':
      return { kind: 'char', set: isNotLineEnd };
    case '(':
      return group(cursor);
    case '[':
      return { kind: 'char', set: bracket(cursor) };
    case '\\': {
      const escaped = escape(cursor, false);
      if (typeof escaped === 'string') return { kind: 'assert', anchor: escaped };
      return { kind: 'char', set: typeof escaped === 'number' ? only(escaped) : escaped };
    }
    case '*':
    case '+':
    case '?':
      return refuse('a repetition with nothing to repeat');
    default:
      return { kind: 'char', set: only(char.charCodeAt(0)) };
  }
}

function group(cursor: Cursor): RegexNode {
  const { text } = cursor;
  if (text.startsWith('?:', cursor.at)) cursor.at += 2;
  else if (text.startsWith('?<', cursor.at)) cursor.at = text.indexOf('>', cursor.at) + 1;
  if (++cursor.depth > MAX_NESTING) refuse(`groups nested more than ${MAX_NESTING} deep`);
  const inner = disjunction(cursor);
  if (text[cursor.at] !== ')') refuse('an unclosed group');
  cursor.at++;
  cursor.depth--;
  return inner;
}

/** `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` after an atom; a lazy `?` after them matches the same strings. */
function quantified(cursor: Cursor, node: RegexNode): RegexNode {
  const { text } = cursor;
  let min: number;
  let max: number;
  const char = text[cursor.at];
  if (char === '*' || char === '+' || char === '?') {
    [min, max] = char === '*' ? [0, Infinity] : char === '+' ? [1, Infinity] : [0, 1];
    cursor.at++;
  } else if (char === '{') {
    const count = REPEAT_COUNT.exec(text.slice(cursor.at, cursor.at + 40));
    if (count === null) return node; // a plain `{`, read by the next term
    min = Number(count[1]);
    max = count[2] === undefined ? min : count[3] ? Number(count[3]) : Infinity;
    cursor.at += count[0].length;
  } else {
    return node;
  }
  if (text[cursor.at] === '?') cursor.at++;
  return { kind: 'repeat', node, min, max };
}

/** After `[`: single code units, ranges and class escapes up to the closing `]`. */
function bracket(cursor: Cursor): CodeSet {
  const { text } = cursor;
  const negated = text[cursor.at] === '^';
  if (negated) cursor.at++;
  if (text[cursor.at] === ']') refuse('an empty class ([] or [^]), which other regex engines read differently');
  const codes: number[] = [];
  const ranges: Array<[number, number]> = [];
  const sets: CodeSet[] = [];
  while (text[cursor.at] !== ']') {
    if (cursor.at >= text.length) refuse('an unclosed class');
    const pair = text.slice(cursor.at, cursor.at + 2);
    if (pair === '&&' || pair === '--' || pair === '~~')
      refuse(`"${pair}" inside a class, which PostHog's server reads as a set operation`);
    const low = classAtom(cursor);
    if (text[cursor.at] === '-' && cursor.at + 1 < text.length && text[cursor.at + 1] !== ']') {
      cursor.at++;
      const high = classAtom(cursor);
      if (typeof low !== 'number' || typeof high !== 'number') refuse('a range with a class escape at one end ([\\d-z])');
      ranges.push([low as number, high as number]);
    } else if (typeof low === 'number') {
      codes.push(low);
    } else {
      sets.push(low);
    }
  }
  cursor.at++;
  return bracketClass(codes, ranges, sets, negated);
}

function classAtom(cursor: Cursor): number | CodeSet {
  const char = cursor.text[cursor.at++]!;
  if (char === '[') refuse('a "[" inside a class, which PostHog\'s server reads as a nested class');
  if (char !== '\\') return char.charCodeAt(0);
  const escaped = escape(cursor, true);
  return typeof escaped === 'string' ? refuse('\\B inside a class') : escaped;
}

/** After a backslash: a code unit, a class escape, or outside a class the anchors `\b` and `\B`. */
function escape(cursor: Cursor, inClass: boolean): number | CodeSet | Anchor {
  const { text } = cursor;
  const letter = text[cursor.at++] ?? '';
  const set = classEscape(letter);
  if (set !== undefined) return set;
  const simple = Object.prototype.hasOwnProperty.call(SIMPLE_ESCAPES, letter) ? SIMPLE_ESCAPES[letter] : undefined;
  if (simple !== undefined) return simple;
  switch (letter) {
    case 'b':
      return inClass ? 8 : 'boundary';
    case 'B':
      return inClass ? refuse('\\B inside a class') : 'not_boundary';
    case '0':
      return isDigit(text.charCodeAt(cursor.at)) ? refuse('an octal escape (\\01)') : 0;
    case 'x':
    case 'u':
      return hex(cursor, letter === 'x' ? 2 : 4);
    case 'c': {
      const control = text.charCodeAt(cursor.at);
      if (!((control >= 65 && control <= 90) || (control >= 97 && control <= 122))) refuse('\\c without a letter after it');
      cursor.at++;
      return control % 32;
    }
    case 'k':
      return refuse('a named backreference (\\k<name>)');
    case 'p':
    case 'P':
      return refuse('a Unicode property escape (\\p{…}), which JavaScript reads as plain text without the u flag');
  }
  if (/^[1-9]$/.test(letter)) refuse(`a backreference or octal escape (\\${letter})`);
  if (/^[A-Za-z]?$/.test(letter)) refuse(`the escape \\${letter}, which regex engines read differently`);
  return letter.charCodeAt(0);
}

function hex(cursor: Cursor, digits: number): number {
  const text = cursor.text.slice(cursor.at, cursor.at + digits);
  if (text.length !== digits || !/^[0-9a-f]+$/i.test(text)) refuse(`\\${digits === 2 ? 'x' : 'u'} without ${digits} hex digits after it`);
  cursor.at += digits;
  return parseInt(text, 16);
}
