/**
 * Does one person or group filter hold for a set of properties? PostHog's SDK matching: string
 * comparisons case-insensitive, an array value means "any of", numbers compared as numbers when
 * both sides read as numbers.
 *
 * What a missing property means depends on who evaluates. An SDK holds only the properties it was
 * given, so a missing one is inconclusive (the server may know it): `knowsAllProperties: false`.
 * `hogtail dev` is the server and holds every property it has been told, so for it a missing
 * property is simply not set: negated operators and is_not_set match, the rest do not.
 */
import { InconclusiveMatchError } from './inconclusive';
import { testRegex } from './regex/linear-regex';
import { parseFilterDate, parsePropertyDate } from './relative-date';
import { matchSemver, SEMVER_OPERATORS } from './semver';
import type { PropertyFilter } from './types';

export interface MatchOptions {
  knowsAllProperties: boolean;
  /** For relative dates; default Date.now(). */
  now?: number;
}

const NEGATED = new Set(['is_not', 'not_icontains', 'not_regex', 'not_starts_with', 'not_ends_with']);

export function matchProperty(
  filter: PropertyFilter,
  properties: Readonly<Record<string, unknown>>,
  options: MatchOptions = { knowsAllProperties: true },
): boolean {
  const { operator, value, key } = filter;
  const present = Object.prototype.hasOwnProperty.call(properties, key) && properties[key] !== undefined;
  if (!present) {
    if (!options.knowsAllProperties) throw new InconclusiveMatchError(`the property "${key}" was not given`);
    if (operator === 'is_not_set') return true;
    checkOperator(operator);
    return NEGATED.has(operator);
  }
  const actual = properties[key];
  switch (operator) {
    case 'is_set':
      return true;
    case 'is_not_set':
      return false;
    case 'exact':
      return exactMatch(value, actual);
    case 'is_not':
      return !exactMatch(value, actual);
    case 'icontains':
      return lower(actual).includes(lower(value));
    case 'not_icontains':
      return !lower(actual).includes(lower(value));
    case 'starts_with':
      return lower(actual).startsWith(lower(value));
    case 'not_starts_with':
      return !lower(actual).startsWith(lower(value));
    case 'ends_with':
      return lower(actual).endsWith(lower(value));
    case 'not_ends_with':
      return !lower(actual).endsWith(lower(value));
    case 'regex':
    case 'not_regex': {
      const matched = regexMatch(value, actual);
      // A pattern that does not compile matches nothing either way, as on PostHog.
      return matched !== undefined && matched === (operator === 'regex');
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return actual !== null && compare(actual, value, operator);
    case 'is_date_before':
    case 'is_date_after':
      return compareDates(actual, value, operator, options);
    default:
      if (SEMVER_OPERATORS.has(operator)) return semver(operator, actual, value, options);
      throw new InconclusiveMatchError(`the operator "${operator}" is not known to this version of hogtail`);
  }
}

function semver(operator: string, actual: unknown, expected: unknown, options: MatchOptions): boolean {
  const matched = matchSemver(operator, actual, expected);
  if (matched !== undefined) return matched;
  if (options.knowsAllProperties) return false;
  throw new InconclusiveMatchError(`"${String(actual)}" or "${String(expected)}" is not a version`);
}

function checkOperator(operator: string): void {
  if (!isKnownOperator(operator)) throw new InconclusiveMatchError(`the operator "${operator}" is not known to this version of hogtail`);
}

const KNOWN = new Set([
  'exact',
  'is_not',
  'icontains',
  'not_icontains',
  'regex',
  'not_regex',
  'gt',
  'gte',
  'lt',
  'lte',
  'is_set',
  'is_not_set',
  'is_date_before',
  'is_date_after',
  'starts_with',
  'not_starts_with',
  'ends_with',
  'not_ends_with',
]);

export function isKnownOperator(operator: string): boolean {
  return KNOWN.has(operator) || SEMVER_OPERATORS.has(operator);
}

function lower(value: unknown): string {
  return String(value).toLowerCase();
}

function exactMatch(expected: unknown, actual: unknown): boolean {
  const candidates = Array.isArray(expected) ? expected : [expected];
  const wanted = lower(actual);
  return candidates.some((candidate) => lower(candidate) === wanted);
}

/** Linear-time matching (regex/linear-regex.ts): a visitor's value must not hang the server or the page. */
function regexMatch(pattern: unknown, actual: unknown): boolean | undefined {
  const matched = testRegex(String(pattern), String(actual));
  return matched === 'invalid' ? undefined : matched;
}

/** Numbers when both sides read as numbers (parseFloat, as PostHog's SDKs), text in code-unit order otherwise. */
function compare(actual: unknown, expected: unknown, operator: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  const left = typeof actual === 'number' ? actual : parseFloat(String(actual));
  const right = typeof expected === 'number' ? expected : parseFloat(String(expected));
  const numeric = Number.isFinite(left) && Number.isFinite(right);
  const a = numeric ? left : String(actual);
  const b = numeric ? right : String(expected);
  switch (operator) {
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
  }
}

function compareDates(actual: unknown, expected: unknown, operator: 'is_date_before' | 'is_date_after', options: MatchOptions): boolean {
  const right = parseFilterDate(expected, options.now ?? Date.now());
  const left = parsePropertyDate(actual);
  if (right === undefined || left === undefined) {
    if (options.knowsAllProperties) return false;
    throw new InconclusiveMatchError(`"${String(right === undefined ? expected : actual)}" is not a date`);
  }
  return operator === 'is_date_before' ? left < right : left > right;
}
