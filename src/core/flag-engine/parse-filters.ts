/** A flag's `filters`: condition groups, variants, payloads and group aggregation (see parse-definitions.ts). */
import { describeType, isAbsent, isPlainObject } from './json-shape';
import { parsePropertyFilter, type ParseMode } from './parse-property-filter';
import type { ConditionGroup, FlagFilters, Variant } from './types';

export function parseFilters(
  raw: unknown,
  at: string,
  mapping: Record<string, string>,
  problems: string[],
  mode: ParseMode,
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
  const aggregation = isAbsent(raw.aggregation_group_type_index) ? null : raw.aggregation_group_type_index;
  const groups = rawGroups
    .map((group, index) => parseCondition(group, `${at}.groups[${index}]`, aggregation, problems, mode))
    .filter((group): group is ConditionGroup => group !== undefined);

  const multivariate = parseMultivariate(raw.multivariate, `${at}.multivariate`, problems);
  for (const [index, group] of groups.entries()) {
    if (group.variant !== null && !multivariate?.variants.some((variant) => variant.key === group.variant) && mode.strict) {
      problems.push(`${at}.groups[${index}].variant ${JSON.stringify(group.variant)} is not one of the flag's variants`);
    }
  }

  const payloads = isAbsent(raw.payloads) ? {} : raw.payloads;
  if (!isPlainObject(payloads)) {
    problems.push(`${at}.payloads must be an object keyed by "true" or a variant key`);
    return undefined;
  }

  if (aggregation !== null) {
    if (typeof aggregation !== 'number' || !Number.isInteger(aggregation)) {
      problems.push(`${at}.aggregation_group_type_index must be an integer`);
    } else if (mapping[String(aggregation)] === undefined && mode.strict) {
      problems.push(`${at}.aggregation_group_type_index ${aggregation} has no name in group_type_mapping`);
    }
  }
  return {
    groups,
    multivariate,
    payloads,
    aggregation_group_type_index: aggregation as number | null,
    holdout: parseHoldout(raw.holdout),
    early_exit: raw.early_exit === true,
  };
}

/** A holdout missing its id or a numeric percentage is no holdout, as PostHog reads it; the percentage is clamped. */
function parseHoldout(raw: unknown): FlagFilters['holdout'] {
  if (!isPlainObject(raw) || typeof raw.id !== 'number') return null;
  const percentage = Number(raw.exclusion_percentage);
  if (isAbsent(raw.exclusion_percentage) || !Number.isFinite(percentage)) return null;
  return { id: raw.id, exclusion_percentage: Math.min(100, Math.max(0, percentage)) };
}

function parseCondition(raw: unknown, at: string, aggregation: unknown, problems: string[], mode: ParseMode): ConditionGroup | undefined {
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
    const filter = parsePropertyFilter(property, `${at}.properties[${index}]`, problems, mode);
    return filter === undefined ? [] : [filter];
  });
  const rollout = isAbsent(raw.rollout_percentage) ? null : raw.rollout_percentage;
  if (rollout !== null && !isPercentage(rollout)) {
    problems.push(`${at}.rollout_percentage must be a number from 0 to 100, got ${JSON.stringify(rollout)}`);
  }
  const variant = isAbsent(raw.variant) ? null : raw.variant;
  if (variant !== null && typeof variant !== 'string') problems.push(`${at}.variant must be a variant key`);
  const condition: ConditionGroup = { properties, rollout_percentage: rollout as number | null, variant: variant as string | null };
  // Mixed targeting: a condition aggregated differently from its flag.
  const own = raw.aggregation_group_type_index;
  if (own !== undefined && own !== aggregation) {
    if (own !== null && (typeof own !== 'number' || !Number.isInteger(own)))
      problems.push(`${at}.aggregation_group_type_index must be an integer or null`);
    else condition.aggregation_group_type_index = own;
  }
  return condition;
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
