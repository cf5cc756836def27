/**
 * Reads a flags file. Two spellings of a flag are accepted:
 *
 * PostHog's own (paste from `/api/feature_flag/local_evaluation`):
 *   { "key": "beta", "active": true, "filters": { "groups": [{ "properties": [], "rollout_percentage": 45 }],
 *     "multivariate": { "variants": [...] }, "payloads": { "true": "{\"a\":1}" }, "aggregation_group_type_index": 0 } }
 *
 * A short hand-written one, turned into the above:
 *   { "key": "beta", "rollout_percentage": 45, "properties": [...], "variants": [...], "payloads": {...},
 *     "group_type": "company" }
 * with `conditions` (a list of condition groups) in place of `properties` + `rollout_percentage` when
 * a flag needs several.
 *
 * The file is either a list of flags or `{ "flags": [...], "group_type_mapping": { "0": "company" } }`.
 */
import { describeType, isAbsent, isPlainObject } from '../ingest/json-shape';
import { FlagDefinitionsError } from './definitions-error';
import { parsePropertyFilter } from './parse-property-filter';
import type { ConditionGroup, FlagDefinition, FlagDefinitions, FlagFilters, Variant } from './types';

const SHORTHAND_KEYS = ['rollout_percentage', 'properties', 'conditions', 'variants', 'payloads', 'group_type'] as const;

/** Throws FlagDefinitionsError listing every problem found. */
export function parseFlagDefinitions(input: unknown): FlagDefinitions {
  const problems: string[] = [];
  let rawFlags: unknown;
  let rawMapping: unknown;
  if (Array.isArray(input)) {
    rawFlags = input;
  } else if (isPlainObject(input)) {
    rawFlags = input.flags;
    rawMapping = input.group_type_mapping;
  } else {
    throw new FlagDefinitionsError([`the file must hold a list of flags or { "flags": [...] }, got ${describeType(input)}`]);
  }
  if (!Array.isArray(rawFlags)) throw new FlagDefinitionsError([`flags must be a list, got ${describeType(rawFlags)}`]);

  const mapping = parseMapping(rawMapping, problems);
  const flags: FlagDefinition[] = [];
  const seen = new Set<string>();
  rawFlags.forEach((raw, index) => {
    const key = isPlainObject(raw) ? raw.key : undefined;
    if (typeof key === 'string') {
      if (seen.has(key)) problems.push(`flags[${index}]: the key ${JSON.stringify(key)} is used twice`);
      seen.add(key);
    }
    const flag = parseFlag(raw, `flags[${index}]`, mapping, problems);
    if (flag !== undefined) flags.push(flag);
  });
  if (problems.length > 0) throw new FlagDefinitionsError(problems);
  return { flags, group_type_mapping: mapping };
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
  for (const field of ['active', 'deleted'] as const) {
    if (!isAbsent(raw[field]) && typeof raw[field] !== 'boolean') problems.push(`${where}.${field} must be true or false`);
  }
  const shorthand = SHORTHAND_KEYS.filter((name) => raw[name] !== undefined);
  if (raw.filters !== undefined && shorthand.length > 0) {
    problems.push(`${where}: give either filters or ${shorthand.join('/')}, not both`);
    return undefined;
  }
  const before = problems.length;
  const rawFilters = raw.filters !== undefined ? raw.filters : shorthandFilters(raw, where, mapping, problems);
  const filters = parseFilters(rawFilters, `${where}.filters`, mapping, problems);
  if (filters === undefined || problems.length > before) return undefined;
  return {
    key,
    name: typeof raw.name === 'string' ? raw.name : key,
    active: raw.active !== false,
    deleted: raw.deleted === true,
    filters,
  };
}

/** The short form, rewritten into PostHog's `filters` object. */
function shorthandFilters(
  raw: Record<string, unknown>,
  where: string,
  mapping: Record<string, string>,
  problems: string[],
): Record<string, unknown> {
  const groups = raw.conditions !== undefined
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

function parseFilters(
  raw: unknown,
  at: string,
  mapping: Record<string, string>,
  problems: string[],
): FlagFilters | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${at} must be an object, got ${describeType(raw)}`);
    return undefined;
  }
  const rawGroups = isAbsent(raw.groups) ? [] : raw.groups;
  if (!Array.isArray(rawGroups)) {
    problems.push(`${at}.groups must be a list, got ${describeType(rawGroups)}`);
    return undefined;
  }
  const groups = rawGroups
    .map((group, index) => parseCondition(group, `${at}.groups[${index}]`, problems))
    .filter((group): group is ConditionGroup => group !== undefined);

  const multivariate = parseMultivariate(raw.multivariate, `${at}.multivariate`, problems);
  for (const [index, group] of groups.entries()) {
    if (group.variant !== null && !multivariate?.variants.some((variant) => variant.key === group.variant)) {
      problems.push(`${at}.groups[${index}].variant ${JSON.stringify(group.variant)} is not one of the flag's variants`);
    }
  }

  const payloads = isAbsent(raw.payloads) ? {} : raw.payloads;
  if (!isPlainObject(payloads)) {
    problems.push(`${at}.payloads must be an object keyed by "true" or a variant key`);
    return undefined;
  }

  const aggregation = isAbsent(raw.aggregation_group_type_index) ? null : raw.aggregation_group_type_index;
  if (aggregation !== null) {
    if (typeof aggregation !== 'number' || !Number.isInteger(aggregation)) {
      problems.push(`${at}.aggregation_group_type_index must be an integer`);
    } else if (mapping[String(aggregation)] === undefined) {
      problems.push(`${at}.aggregation_group_type_index ${aggregation} has no name in group_type_mapping`);
    }
  }
  return { groups, multivariate, payloads, aggregation_group_type_index: aggregation as number | null };
}

function parseCondition(raw: unknown, at: string, problems: string[]): ConditionGroup | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${at} must be an object, got ${describeType(raw)}`);
    return undefined;
  }
  const rawProperties = isAbsent(raw.properties) ? [] : raw.properties;
  if (!Array.isArray(rawProperties)) {
    problems.push(`${at}.properties must be a list, got ${describeType(rawProperties)}`);
    return undefined;
  }
  const properties = rawProperties.flatMap((property, index) => {
    const filter = parsePropertyFilter(property, `${at}.properties[${index}]`, problems);
    return filter === undefined ? [] : [filter];
  });
  const rollout = isAbsent(raw.rollout_percentage) ? null : raw.rollout_percentage;
  if (rollout !== null && !isPercentage(rollout)) {
    problems.push(`${at}.rollout_percentage must be a number from 0 to 100, got ${JSON.stringify(rollout)}`);
  }
  const variant = isAbsent(raw.variant) ? null : raw.variant;
  if (variant !== null && typeof variant !== 'string') problems.push(`${at}.variant must be a variant key`);
  return { properties, rollout_percentage: rollout as number | null, variant: variant as string | null };
}

function parseMultivariate(raw: unknown, at: string, problems: string[]): { variants: Variant[] } | null {
  if (isAbsent(raw)) return null;
  const rawVariants = isPlainObject(raw) ? raw.variants : undefined;
  if (!Array.isArray(rawVariants) || rawVariants.length === 0) {
    problems.push(`${at}.variants must be a non-empty list`);
    return null;
  }
  const variants: Variant[] = [];
  rawVariants.forEach((variant, index) => {
    const where = `${at}.variants[${index}]`;
    if (!isPlainObject(variant) || typeof variant.key !== 'string' || variant.key === '') {
      problems.push(`${where} must be { "key": "...", "rollout_percentage": n }`);
      return;
    }
    if (!isPercentage(variant.rollout_percentage)) {
      problems.push(`${where}.rollout_percentage must be a number from 0 to 100`);
      return;
    }
    const parsed: Variant = { key: variant.key, rollout_percentage: variant.rollout_percentage };
    if (typeof variant.name === 'string') parsed.name = variant.name;
    variants.push(parsed);
  });
  const total = variants.reduce((sum, variant) => sum + variant.rollout_percentage, 0);
  // PostHog refuses to save variants that do not add up to 100; a typo here would skew an experiment.
  if (variants.length === rawVariants.length && Math.abs(total - 100) > 1e-9) {
    problems.push(`${at}: variant percentages add up to ${total}, not 100`);
  }
  return { variants };
}

function isPercentage(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;
}
