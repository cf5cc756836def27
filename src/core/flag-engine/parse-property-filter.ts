/**
 * Checks one filter when definitions are loaded. For a hand-written flags file (`strict`) a typo in
 * an operator or a broken regex is reported once with its place in the file, instead of silently
 * turning a flag off at every request. Definitions from a server are read leniently: an operator
 * this version does not know is kept and evaluates as inconclusive, so the server decides that flag.
 */
import { describeType, isAbsent, isPlainObject } from './json-shape';
import { isKnownOperator } from './match-property';
import { unsupportedRegex } from './regex/linear-regex';
import { parseFilterDate } from './relative-date';
import { isSemverFilterValue, SEMVER_OPERATORS } from './semver';
import type { PropertyFilter } from './types';

const VALUELESS = new Set(['is_set', 'is_not_set']);
const TYPES = new Set(['person', 'group', 'cohort', 'flag']);

export interface ParseMode {
  strict: boolean;
}

export function parsePropertyFilter(raw: unknown, at: string, problems: string[], mode: ParseMode): PropertyFilter | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${at} must be an object, got ${describeType(raw)}`);
    return undefined;
  }
  const { key } = raw;
  const type = isAbsent(raw.type) ? 'person' : raw.type;
  if (typeof type !== 'string' || !TYPES.has(type)) {
    problems.push(`${at}.type ${JSON.stringify(type)} is not one of person, group, cohort, flag`);
    return undefined;
  }
  if ((typeof key !== 'string' || key === '') && type !== 'cohort') {
    problems.push(`${at}.key must be a non-empty string`);
    return undefined;
  }
  const operator = isAbsent(raw.operator) ? defaultOperator(type) : raw.operator;
  if (typeof operator !== 'string') {
    problems.push(`${at}.operator must be a string`);
    return undefined;
  }
  const filter: PropertyFilter = { key: typeof key === 'string' ? key : 'id', operator, type: type as PropertyFilter['type'] };
  if (raw.negation === true) filter.negation = true;
  if ('value' in raw) filter.value = raw.value;
  const problem = checkByType(filter, raw, mode);
  if (problem !== undefined) {
    problems.push(`${at}: ${problem}`);
    return undefined;
  }
  return filter;
}

function defaultOperator(type: string): string {
  if (type === 'cohort') return 'in';
  return type === 'flag' ? 'flag_evaluates_to' : 'exact';
}

function checkByType(filter: PropertyFilter, raw: Record<string, unknown>, mode: ParseMode): string | undefined {
  switch (filter.type) {
    case 'cohort':
      if (filter.operator !== 'in' && filter.operator !== 'not_in')
        return `a cohort filter's operator is in or not_in, got ${JSON.stringify(filter.operator)}`;
      return typeof filter.value === 'string' || typeof filter.value === 'number'
        ? undefined
        : 'a cohort filter needs the cohort id as its value';
    case 'flag':
      if (filter.operator !== 'flag_evaluates_to')
        return `a flag filter's operator is flag_evaluates_to, got ${JSON.stringify(filter.operator)}`;
      return typeof filter.value === 'boolean' || typeof filter.value === 'string'
        ? undefined
        : 'a flag filter needs true, false or a variant key as its value';
    case 'group':
      if (typeof raw.group_type_index !== 'number' || !Number.isInteger(raw.group_type_index)) {
        return 'a group property filter needs an integer group_type_index';
      }
      filter.group_type_index = raw.group_type_index;
      return checkValue(filter, mode);
    case 'person':
      return checkValue(filter, mode);
  }
}

function checkValue(filter: PropertyFilter, mode: ParseMode): string | undefined {
  const { operator, value } = filter;
  if (!isKnownOperator(operator)) {
    return mode.strict ? `operator ${JSON.stringify(operator)} is not one of ${KNOWN_LIST}` : undefined;
  }
  if (VALUELESS.has(operator)) return undefined;
  if (!('value' in filter)) return `value is missing (operator ${operator})`;
  if (!mode.strict) return undefined;
  if (operator === 'regex' || operator === 'not_regex') {
    try {
      new RegExp(String(value));
    } catch (error) {
      return `value ${JSON.stringify(value)} is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`;
    }
    const unsupported = unsupportedRegex(String(value));
    if (unsupported !== undefined) {
      return `value ${JSON.stringify(value)} uses ${unsupported}; hogtail matches flag regexes in linear time, which rules these out: rewrite the pattern without it`;
    }
  }
  if ((operator === 'is_date_before' || operator === 'is_date_after') && parseFilterDate(value, 0) === undefined) {
    return `value ${JSON.stringify(value)} is not a date or a relative date such as "-7d"`;
  }
  if (SEMVER_OPERATORS.has(operator) && !isSemverFilterValue(operator, value)) {
    return `value ${JSON.stringify(value)} is not a version such as "1.2.3"${operator === 'semver_wildcard' ? ' or "1.2.*"' : ''}`;
  }
  return undefined;
}

const KNOWN_LIST =
  'exact, is_not, icontains, not_icontains, regex, not_regex, gt, gte, lt, lte, is_set, is_not_set, is_date_before, is_date_after, starts_with, not_starts_with, ends_with, not_ends_with, semver_eq, semver_neq, semver_gt, semver_gte, semver_lt, semver_lte, semver_tilde, semver_caret, semver_wildcard';
