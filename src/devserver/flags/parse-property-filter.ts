import { describeType, isAbsent, isPlainObject } from '../ingest/json-shape';
import type { PropertyFilter, PropertyOperator } from './types';

const OPERATORS: readonly PropertyOperator[] = [
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
];

const VALUELESS: readonly PropertyOperator[] = ['is_set', 'is_not_set'];

/**
 * Checks one filter when the file is loaded, so a typo in an operator or a broken regex is reported
 * once with its place in the file, instead of silently turning a flag off at every request.
 */
export function parsePropertyFilter(raw: unknown, at: string, problems: string[]): PropertyFilter | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${at} must be an object, got ${describeType(raw)}`);
    return undefined;
  }
  const { key } = raw;
  if (typeof key !== 'string' || key === '') {
    problems.push(`${at}.key must be a non-empty string`);
    return undefined;
  }
  const operator = isAbsent(raw.operator) ? 'exact' : raw.operator;
  if (!OPERATORS.includes(operator as PropertyOperator)) {
    problems.push(`${at}.operator ${JSON.stringify(operator)} is not one of ${OPERATORS.join(', ')}`);
    return undefined;
  }
  const type = isAbsent(raw.type) ? 'person' : raw.type;
  if (type !== 'person' && type !== 'group') {
    // Cohorts and flag dependencies need server state this collector does not have.
    problems.push(`${at}.type ${JSON.stringify(type)} is not supported (person or group)`);
    return undefined;
  }
  const filter: PropertyFilter = { key, operator: operator as PropertyOperator, type };
  if (type === 'group') {
    if (typeof raw.group_type_index !== 'number' || !Number.isInteger(raw.group_type_index)) {
      problems.push(`${at}: a group property filter needs an integer group_type_index`);
      return undefined;
    }
    filter.group_type_index = raw.group_type_index;
  }
  if (VALUELESS.includes(filter.operator)) return filter;
  if (!('value' in raw)) {
    problems.push(`${at}.value is missing (operator ${filter.operator})`);
    return undefined;
  }
  filter.value = raw.value;
  const valueProblem = checkValue(filter);
  if (valueProblem !== undefined) {
    problems.push(`${at}: ${valueProblem}`);
    return undefined;
  }
  return filter;
}

function checkValue(filter: PropertyFilter): string | undefined {
  const { operator, value } = filter;
  if (operator === 'regex' || operator === 'not_regex') {
    try {
      new RegExp(String(value));
    } catch (error) {
      return `value ${JSON.stringify(value)} is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  if ((operator === 'is_date_before' || operator === 'is_date_after') && Number.isNaN(Date.parse(String(value)))) {
    return `value ${JSON.stringify(value)} is not a date`;
  }
  return undefined;
}
