import { flagHash } from './hash';
import { matchProperty } from './match-property';
import type { ConditionGroup, EvaluationContext, FlagDefinition, FlagValue, PropertyFilter } from './types';

export interface FlagResult {
  value: FlagValue;
  /** The stored payload for the value, when the flag is on and has one. */
  payload?: unknown;
}

/**
 * PostHog's flag evaluation: the first matching condition decides; conditions that force a variant
 * are tried first; within a condition every property must match and then the rollout hash must fall
 * under the percentage. A match on a multivariate flag picks the variant from a second hash.
 *
 * A group-based flag hashes the group key instead of the distinct id and reads the group's
 * properties; without the group in the request it is off, as on PostHog.
 */
export function evaluateFlag(
  flag: FlagDefinition,
  context: EvaluationContext,
  groupTypeMapping: Readonly<Record<string, string>>,
): FlagResult {
  if (!flag.active) return { value: false };

  const aggregation = flag.filters.aggregation_group_type_index;
  let hashId = context.distinctId;
  let properties = context.personProperties;
  if (aggregation !== null) {
    const groupType = groupTypeMapping[String(aggregation)];
    const groupKey = groupType === undefined ? undefined : context.groups[groupType];
    if (groupType === undefined || groupKey === undefined) return { value: false };
    hashId = groupKey;
    properties = context.groupProperties[groupType] ?? {};
  }

  const propertiesFor = (filter: PropertyFilter): Readonly<Record<string, unknown>> => {
    if (filter.type !== 'group' || filter.group_type_index === aggregation) return properties;
    const groupType = groupTypeMapping[String(filter.group_type_index)];
    return groupType === undefined ? {} : (context.groupProperties[groupType] ?? {});
  };

  const value = matchConditions(flag, hashId, propertiesFor);
  if (value === false) return { value };
  const payload = flag.filters.payloads[String(value)];
  return payload === undefined ? { value } : { value, payload };
}

function matchConditions(
  flag: FlagDefinition,
  hashId: string,
  propertiesFor: (filter: PropertyFilter) => Readonly<Record<string, unknown>>,
): FlagValue {
  // Stable sort: overrides first, otherwise file order, as posthog-node sorts them.
  const conditions = [...flag.filters.groups].sort((a, b) => Number(b.variant !== null) - Number(a.variant !== null));
  for (const condition of conditions) {
    if (!conditionMatches(flag.key, hashId, condition, propertiesFor)) continue;
    const variants = flag.filters.multivariate?.variants;
    if (condition.variant !== null && variants?.some((variant) => variant.key === condition.variant)) {
      return condition.variant;
    }
    return matchingVariant(flag, hashId) ?? true;
  }
  return false;
}

function conditionMatches(
  flagKey: string,
  hashId: string,
  condition: ConditionGroup,
  propertiesFor: (filter: PropertyFilter) => Readonly<Record<string, unknown>>,
): boolean {
  for (const filter of condition.properties) {
    if (!matchProperty(filter, propertiesFor(filter))) return false;
  }
  const rollout = condition.rollout_percentage;
  return rollout === null || flagHash(flagKey, hashId) <= rollout / 100;
}

/** Variants own consecutive slices of [0, 1) in file order, sized by their percentages. */
function matchingVariant(flag: FlagDefinition, hashId: string): string | undefined {
  const variants = flag.filters.multivariate?.variants;
  if (variants === undefined) return undefined;
  const hash = flagHash(flag.key, hashId, 'variant');
  let start = 0;
  for (const variant of variants) {
    const end = start + variant.rollout_percentage / 100;
    if (hash >= start && hash < end) return variant.key;
    start = end;
  }
  return undefined;
}
