/**
 * Reads flag definitions. Two spellings of a flag are accepted:
 *
 * PostHog's own (what `/flags/definitions` and `/api/feature_flag/local_evaluation` return):
 *   { "key": "beta", "active": true, "filters": { "groups": [{ "properties": [], "rollout_percentage": 45 }],
 *     "multivariate": { "variants": [...] }, "payloads": { "true": "{\"a\":1}" }, "aggregation_group_type_index": 0 } }
 *
 * A short hand-written one (the dev server's flags file), turned into the above:
 *   { "key": "beta", "rollout_percentage": 45, "properties": [...], "variants": [...], "payloads": {...},
 *     "group_type": "company" }
 * with `conditions` (a list of condition groups) in place of `properties` + `rollout_percentage` when
 * a flag needs several.
 *
 * The input is a list of flags or `{ "flags": [...], "group_type_mapping": {...}, "cohorts": {...} }`.
 *
 * Strict (the default, for files people write): every problem is collected and thrown together as a
 * FlagDefinitionsError. Lenient (`{ lenient: true }`, for a server's answer): a flag with a problem is
 * kept, marked unusable, and evaluates as inconclusive, so one odd flag never hides the others.
 */
import { ownValue } from '../own';
import { FlagDefinitionsError } from './definitions-error';
import { describeType, isAbsent, isPlainObject } from './json-shape';
import { parseCohorts } from './parse-cohorts';
import { parseFilters } from './parse-filters';
import type { ParseMode } from './parse-property-filter';
import type { FlagDefinition, FlagDefinitions } from './types';

export interface ParseOptions {
  lenient?: boolean;
}

const SHORTHAND_KEYS = ['properties', 'rollout_percentage', 'conditions', 'variants', 'payloads', 'group_type'] as const;

export function parseFlagDefinitions(input: unknown, options: ParseOptions = {}): FlagDefinitions {
  const mode: ParseMode = { strict: options.lenient !== true };
  const problems: string[] = [];
  let rawFlags: unknown;
  let rawMapping: unknown;
  let rawCohorts: unknown;
  if (Array.isArray(input)) {
    rawFlags = input;
  } else if (isPlainObject(input)) {
    ({ flags: rawFlags, group_type_mapping: rawMapping, cohorts: rawCohorts } = input);
  } else {
    throw new FlagDefinitionsError([`flag definitions must be a list of flags or { "flags": [...] }, got ${describeType(input)}`]);
  }
  if (!Array.isArray(rawFlags)) throw new FlagDefinitionsError([`flags must be a list, got ${describeType(rawFlags)}`]);

  const mapping = parseMapping(rawMapping, problems);
  const cohorts = parseCohorts(rawCohorts, problems, mode);
  const flags: FlagDefinition[] = [];
  const seen = new Set<string>();
  rawFlags.forEach((raw, index) => {
    const key = isPlainObject(raw) ? raw.key : undefined;
    if (typeof key === 'string') {
      if (seen.has(key) && mode.strict) problems.push(`flags[${index}]: the key ${JSON.stringify(key)} is used twice`);
      seen.add(key);
    }
    const own: string[] = [];
    const flag = parseFlag(raw, `flags[${index}]`, mapping, own, mode);
    if (mode.strict) problems.push(...own);
    if (flag !== undefined) flags.push(own.length > 0 ? { ...flag, unusable: own.join('; ') } : flag);
  });
  if (mode.strict) checkReferences(flags, cohorts, problems);
  if (problems.length > 0 && (mode.strict || flags.length === 0)) throw new FlagDefinitionsError(problems);
  return { flags, group_type_mapping: mapping, cohorts };
}

function parseMapping(raw: unknown, problems: string[]): Record<string, string> {
  if (isAbsent(raw)) return {};
  if (!isPlainObject(raw)) {
    problems.push(`group_type_mapping must be an object like {"0": "company"}, got ${describeType(raw)}`);
    return {};
  }
  const mapping: Record<string, string> = {};
  for (const [index, name] of Object.entries(raw)) {
    if (!/^\d+$/.test(index) || typeof name !== 'string' || name === '') {
      problems.push(`group_type_mapping: ${JSON.stringify(index)}: ${JSON.stringify(name)} must map an index to a group type name`);
      continue;
    }
    mapping[index] = name;
  }
  return mapping;
}

function parseFlag(
  raw: unknown,
  at: string,
  mapping: Record<string, string>,
  problems: string[],
  mode: ParseMode,
): FlagDefinition | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${at} must be an object, got ${describeType(raw)}`);
    return undefined;
  }
  const { key } = raw;
  if (typeof key !== 'string' || key.trim() === '') {
    problems.push(`${at}.key must be a non-empty string`);
    return undefined;
  }
  const where = `${at} (${key})`;
  for (const field of ['active', 'deleted', 'ensure_experience_continuity'] as const) {
    if (!isAbsent(raw[field]) && typeof raw[field] !== 'boolean') problems.push(`${where}.${field} must be true or false`);
  }
  const shorthand = SHORTHAND_KEYS.filter((name) => raw[name] !== undefined);
  const base = {
    key,
    name: typeof raw.name === 'string' ? raw.name : key,
    id: typeof raw.id === 'number' ? raw.id : 0,
    version: typeof raw.version === 'number' ? raw.version : 1,
    active: raw.active !== false,
    deleted: raw.deleted === true,
    ensure_experience_continuity: raw.ensure_experience_continuity === true,
    bucketing_identifier: raw.bucketing_identifier === 'device_id' ? ('device_id' as const) : ('distinct_id' as const),
  };
  const empty = { groups: [], multivariate: null, payloads: {}, aggregation_group_type_index: null };
  if (raw.filters !== undefined && shorthand.length > 0) {
    problems.push(`${where}: give either filters or ${shorthand.join('/')}, not both`);
    return { ...base, filters: empty };
  }
  const rawFilters = raw.filters !== undefined ? raw.filters : shorthandFilters(raw, where, mapping, problems);
  const filters = parseFilters(rawFilters, `${where}.filters`, mapping, problems, mode);
  return { ...base, filters: filters ?? empty };
}

/** The short form, rewritten into PostHog's `filters` object. */
function shorthandFilters(
  raw: Record<string, unknown>,
  where: string,
  mapping: Record<string, string>,
  problems: string[],
): Record<string, unknown> {
  const groups =
    raw.conditions !== undefined
      ? raw.conditions
      : [{ properties: raw.properties ?? [], rollout_percentage: raw.rollout_percentage ?? null }];
  if (raw.conditions !== undefined && (raw.properties !== undefined || raw.rollout_percentage !== undefined)) {
    problems.push(`${where}: give either conditions or properties/rollout_percentage, not both`);
  }
  const filters: Record<string, unknown> = { groups, payloads: raw.payloads ?? {} };
  if (raw.variants !== undefined) filters.multivariate = { variants: raw.variants };
  if (raw.group_type !== undefined) {
    if (typeof raw.group_type !== 'string' || raw.group_type === '') {
      problems.push(`${where}.group_type must be a group type name such as "company"`);
    } else {
      filters.aggregation_group_type_index = groupTypeIndex(raw.group_type, mapping);
    }
  }
  return filters;
}

/** A group type named in the short form gets the next free index unless the mapping already has it. */
function groupTypeIndex(name: string, mapping: Record<string, string>): number {
  const known = Object.entries(mapping).find(([, candidate]) => candidate === name);
  if (known !== undefined) return Number(known[0]);
  let index = 0;
  while (mapping[String(index)] !== undefined) index++;
  mapping[String(index)] = name;
  return index;
}

/** In a file someone wrote, a cohort or flag named but not defined is a typo worth stopping for. */
function checkReferences(flags: FlagDefinition[], cohorts: FlagDefinitions['cohorts'], problems: string[]): void {
  const keys = new Set(flags.map((flag) => flag.key));
  for (const flag of flags) {
    for (const condition of flag.filters.groups) {
      for (const filter of condition.properties) {
        if (filter.type === 'cohort' && ownValue(cohorts, String(filter.value)) === undefined) {
          problems.push(`${flag.key}: cohort ${JSON.stringify(filter.value)} is not defined under "cohorts"`);
        }
        if (filter.type === 'flag' && !keys.has(filter.key)) {
          problems.push(`${flag.key}: it depends on the flag ${JSON.stringify(filter.key)}, which is not defined`);
        }
      }
    }
  }
}
