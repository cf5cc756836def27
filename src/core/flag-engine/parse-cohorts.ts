/** Reads `cohorts` as `send_cohorts` sends them: `{ "<id>": { "type": "AND" | "OR", "values": [...] } }`. */
import { setOwn } from '../own';
import { describeType, isAbsent, isPlainObject } from './json-shape';
import { parsePropertyFilter, type ParseMode } from './parse-property-filter';
import type { PropertyFilter, PropertyGroup } from './types';

export function parseCohorts(raw: unknown, problems: string[], mode: ParseMode): Record<string, PropertyGroup> {
  if (isAbsent(raw)) return {};
  if (!isPlainObject(raw)) {
    problems.push(`cohorts must be an object keyed by cohort id, got ${describeType(raw)}`);
    return {};
  }
  const cohorts: Record<string, PropertyGroup> = {};
  for (const [id, definition] of Object.entries(raw)) {
    const own: string[] = [];
    const group = parseGroup(definition, `cohorts.${id}`, own, mode);
    // Leniently read, a cohort that cannot be read is left out: flags using it then ask the server.
    if (group !== undefined && own.length === 0) setOwn(cohorts, id, group);
    if (mode.strict) problems.push(...own);
  }
  return cohorts;
}

function parseGroup(raw: unknown, at: string, problems: string[], mode: ParseMode): PropertyGroup | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${at} must be an object with type and values, got ${describeType(raw)}`);
    return undefined;
  }
  // PostHog's canonical empty group is {}; it matches everyone.
  if (Object.keys(raw).length === 0) return { type: 'AND', values: [] };
  // 'property' is an older spelling of AND.
  const type = raw.type === 'property' ? 'AND' : raw.type;
  if (type !== 'AND' && type !== 'OR') {
    problems.push(`${at}.type must be AND or OR, got ${JSON.stringify(raw.type)}`);
    return undefined;
  }
  const rawValues = isAbsent(raw.values) ? [] : raw.values;
  if (!Array.isArray(rawValues)) {
    problems.push(`${at}.values must be a list, got ${describeType(rawValues)}`);
    return undefined;
  }
  const values: Array<PropertyGroup | PropertyFilter> = [];
  rawValues.forEach((value, index) => {
    const where = `${at}.values[${index}]`;
    const parsed =
      isPlainObject(value) && 'values' in value
        ? parseGroup(value, where, problems, mode)
        : parsePropertyFilter(value, where, problems, mode);
    if (parsed !== undefined) values.push(parsed);
  });
  return { type, values };
}
