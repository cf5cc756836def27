import type { PropertyFilter } from './types';

/**
 * Does one filter hold for a set of properties? Follows PostHog's SDK matching (string comparisons
 * case-insensitive, an array value means "any of"), with one difference on purpose: this collector
 * holds every property it has been told, so a missing property is a plain "no match" (negated
 * operators and is_not_set match) rather than PostHog's "inconclusive, ask the server".
 */
export function matchProperty(filter: PropertyFilter, properties: Readonly<Record<string, unknown>>): boolean {
  const present = Object.prototype.hasOwnProperty.call(properties, filter.key) && properties[filter.key] !== undefined;
  const actual = present ? properties[filter.key] : undefined;
  const { operator, value } = filter;

  switch (operator) {
    case 'is_set':
      return present;
    case 'is_not_set':
      return !present;
    case 'is_not':
      return !present || !exactMatch(value, actual);
    case 'not_icontains':
      return !present || !lower(actual).includes(lower(value));
    case 'not_regex':
      return !present || !regexMatch(value, actual);
  }
  if (!present) return false;
  switch (operator) {
    case 'exact':
      return exactMatch(value, actual);
    case 'icontains':
      return lower(actual).includes(lower(value));
    case 'regex':
      return regexMatch(value, actual);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compare(actual, value, operator);
    case 'is_date_before':
    case 'is_date_after':
      return compareDates(actual, value, operator);
  }
}

function lower(value: unknown): string {
  return String(value).toLowerCase();
}

function exactMatch(expected: unknown, actual: unknown): boolean {
  const candidates = Array.isArray(expected) ? expected : [expected];
  return candidates.some((candidate) => lower(candidate) === lower(actual));
}

function regexMatch(pattern: unknown, actual: unknown): boolean {
  // The pattern was compiled once at load time; a failure here would mean the file changed under us.
  try {
    return new RegExp(String(pattern)).test(String(actual));
  } catch {
    return false;
  }
}

/** Numbers when both sides read as numbers (as PostHog's query engine casts), text otherwise. */
function compare(actual: unknown, expected: unknown, operator: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  const left = toNumber(actual);
  const right = toNumber(expected);
  const order = left !== undefined && right !== undefined ? Math.sign(left - right) : codeUnitOrder(String(actual), String(expected));
  switch (operator) {
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
  }
}

/** Plain code-unit order, as PostHog compares strings; localeCompare would vary with the machine's locale. */
function codeUnitOrder(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function compareDates(actual: unknown, expected: unknown, operator: 'is_date_before' | 'is_date_after'): boolean {
  const left = typeof actual === 'number' ? actual : Date.parse(String(actual));
  const right = Date.parse(String(expected));
  if (Number.isNaN(left) || Number.isNaN(right)) return false;
  return operator === 'is_date_before' ? left < right : left > right;
}
