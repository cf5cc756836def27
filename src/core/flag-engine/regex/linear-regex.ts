/**
 * `regex` and `not_regex` flag conditions, matched in time linear in the value. A flag definition's
 * pattern is written by whoever edits flags, and the value it is matched against is often sent by
 * a visitor: with JavaScript's backtracking RegExp, `^(a+)+$` or `^([\w.]+)+@corp\.com$` against
 * 40 characters blocks the event loop for hours (and the whole `hogtail dev` server with it). So
 * patterns run on our own matcher (parse.ts, program.ts), which cannot backtrack. What it does not
 * run (backreferences, lookarounds, spellings engines disagree on) and values too long to match
 * within the step budget are inconclusive: the server decides them. docs/feature-flags.md says why.
 */
import { createLru } from '../../lru';
import { InconclusiveMatchError } from '../inconclusive';
import { parseRegex } from './parse';
import { compileRegex, runProgram, type Program } from './program';
import { UnsupportedRegexError } from './unsupported';

/** Instruction visits allowed per match: about a 100,000-character value for a typical pattern. */
export const MAX_REGEX_STEPS = 2_000_000;
/** Compiled patterns kept (a set of definitions has a few; the bound is for a server fed many). */
const PATTERNS_KEPT = 500;

type Compiled = Program | 'invalid' | UnsupportedRegexError;

const compiled = createLru<string, Compiled>(PATTERNS_KEPT);

function compile(pattern: string): Compiled {
  let entry = compiled.get(pattern);
  if (entry !== undefined) return entry;
  try {
    // JavaScript's own reading decides what is a valid pattern (compiling runs nothing).
    new RegExp(pattern);
    entry = compileRegex(parseRegex(pattern));
  } catch (error) {
    entry = error instanceof UnsupportedRegexError ? error : 'invalid';
  }
  compiled.set(pattern, entry);
  return entry;
}

/** Why local evaluation will not run this pattern; undefined when it will (or when it is no valid pattern at all). */
export function unsupportedRegex(pattern: string): string | undefined {
  const entry = compile(pattern);
  return entry instanceof UnsupportedRegexError ? entry.message : undefined;
}

/**
 * What RegExp#test(value) answers for the pattern (no flags); 'invalid' when JavaScript cannot
 * compile it. Throws InconclusiveMatchError when the matcher does not run the pattern or the value
 * is too long for the step budget.
 */
export function testRegex(pattern: string, value: string): boolean | 'invalid' {
  const entry = compile(pattern);
  if (entry === 'invalid') return entry;
  if (entry instanceof UnsupportedRegexError) {
    throw new InconclusiveMatchError(`the regex ${JSON.stringify(pattern)} uses ${entry.message}, which local evaluation does not run`);
  }
  const matched = runProgram(entry, value, MAX_REGEX_STEPS);
  if (matched === undefined) {
    throw new InconclusiveMatchError(
      `matching the regex ${JSON.stringify(pattern)} against a ${value.length}-character value takes more than ${MAX_REGEX_STEPS} steps`,
    );
  }
  return matched;
}
