/**
 * PostHog's evaluation of one flag: the first matching condition decides; conditions that force a
 * variant are tried first (a stable sort, as PostHog's server does); within a condition every filter
 * must match and then the rollout hash must fall under the percentage. A match on a multivariate
 * flag picks the variant from a second hash.
 *
 * A group-based flag hashes the group key instead of the distinct id and reads the group's
 * properties; without the group in the request it is off, as on PostHog.
 *
 * A filter that cannot be decided (see match-property.ts, property-groups.ts) makes its condition
 * undecided. A later condition may still decide the flag, unless the undecided one forces a variant
 * (it would have won); when nothing else decides, the outcome is inconclusive and the caller asks
 * the server.
 */
import { ownValue } from '../own';
import { textOf } from '../text-of';
import { createEvaluation, type Decision, type Evaluation } from './evaluation';
import type { FlagHasher } from './hash';
import { InconclusiveMatchError } from './inconclusive';
import { matchProperty } from './match-property';
import { matchFilter, type FilterMatcher } from './property-groups';
import type { ConditionGroup, EvaluationContext, FlagDefinition, FlagDefinitions, FlagOutcome, FlagReason, PropertyFilter } from './types';

export interface EngineOptions {
  hash: FlagHasher;
  /** true for `hogtail dev` (it is the server); false for an SDK evaluating locally. See match-property.ts. */
  knowsAllProperties: boolean;
  /** For relative dates; default Date.now(). */
  now?: number;
}

/**
 * One flag for one user. Pass the same `evaluation` to evaluate several flags of the same user
 * (getAllFlags): flags and cohorts they share are then decided once. Never throws: whatever goes
 * wrong inside (a definition shaped in a way nobody foresaw) is inconclusive, so the caller asks
 * the server instead of failing.
 */
export function evaluateFlag(
  flag: FlagDefinition,
  definitions: FlagDefinitions,
  context: EvaluationContext,
  options: EngineOptions,
  evaluation: Evaluation = startEvaluation(definitions, context, options),
): FlagOutcome {
  try {
    const { value, reason } = evaluation.decide(flag);
    const payload = value === false ? undefined : ownValue(flag.filters.payloads, String(value));
    return { decided: true, value, payload, reason };
  } catch (error) {
    if (error instanceof InconclusiveMatchError) return { decided: false, why: error.message };
    return { decided: false, why: `could not be evaluated: ${error instanceof Error ? `${error.name}: ${error.message}` : textOf(error)}` };
  }
}

/** A new evaluation of these definitions for this user, for evaluateFlag to share across flags. */
export function startEvaluation(definitions: FlagDefinitions, context: EvaluationContext, options: EngineOptions): Evaluation {
  return createEvaluation(definitions, context, (flag, evaluation) => decideFlag(flag, evaluation, options));
}

function decideFlag(flag: FlagDefinition, evaluation: Evaluation, options: EngineOptions): Decision {
  const { definitions, context } = evaluation;
  if (!flag.active) return { value: false, reason: { code: 'flag_disabled', description: 'Feature flag is disabled' } };
  if (flag.unusable !== undefined) throw new InconclusiveMatchError(flag.unusable);
  // The server remembers what each person saw before; nothing local can.
  if (flag.ensure_experience_continuity && !options.knowsAllProperties) {
    throw new InconclusiveMatchError('the flag keeps experience continuity, which only the server can evaluate');
  }

  const aggregation = flag.filters.aggregation_group_type_index;
  let hashId = context.distinctId;
  let properties = context.personProperties;
  if (aggregation === null && flag.bucketing_identifier === 'device_id') {
    const deviceId = ownValue(properties, '$device_id');
    // Without the device id nothing can be hashed; the server may know it.
    if (deviceId === undefined || deviceId === null || deviceId === '') {
      throw new InconclusiveMatchError('the flag is bucketed by $device_id, which was not given as a person property');
    }
    hashId = String(deviceId);
  }
  if (aggregation !== null) {
    const groupType = groupTypeName(definitions, aggregation);
    if (groupType === undefined && !options.knowsAllProperties) {
      throw new InconclusiveMatchError(`group type index ${aggregation} is not in group_type_mapping`);
    }
    const groupKey = groupType === undefined ? undefined : ownValue(context.groups, groupType);
    if (groupType === undefined || groupKey === undefined) {
      return { value: false, reason: { code: 'no_group_type', description: 'No group type' } };
    }
    hashId = groupKey;
    properties = ownValue(context.groupProperties, groupType) ?? {};
  }

  const matcher: FilterMatcher = {
    property: (filter, given) => matchProperty(filter, propertiesFor(filter, given), options),
    flagValue: (key) => evaluation.flagValue(key),
    inCohort: (id, given, match) => evaluation.inCohort(id, given, match),
  };
  const propertiesFor = (filter: PropertyFilter, given: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> => {
    if (filter.type !== 'group' || filter.group_type_index === aggregation) return given;
    const groupType = groupTypeName(definitions, filter.group_type_index);
    return (groupType === undefined ? undefined : ownValue(context.groupProperties, groupType)) ?? {};
  };
  // Held-out ids are kept out of the experiment before any condition is looked at.
  const holdout = flag.filters.holdout;
  if (holdout && (holdout.exclusion_percentage === 100 || options.hash('holdout', hashId, '', '-') <= holdout.exclusion_percentage / 100)) {
    return { value: `holdout-${holdout.id}`, reason: { code: 'holdout_condition_value', description: 'Held out of the experiment' } };
  }
  const scope = (condition: ConditionGroup): Scope => {
    const own = condition.aggregation_group_type_index;
    if (own === undefined || own === aggregation || own === null) return { hashId, properties };
    return groupScope(own, evaluation, options);
  };
  return matchConditions(flag, scope, matcher, options.hash);
}

type Scope = { hashId: string; properties: Readonly<Record<string, unknown>> } | 'skip';

/** The group type's name for an index of group_type_mapping. */
function groupTypeName(definitions: FlagDefinitions, index: number | undefined): string | undefined {
  return ownValue(definitions.group_type_mapping, String(index));
}

/** A mixed-targeting condition on a group: skipped without that group, undecided without its properties. */
function groupScope(index: number, evaluation: Evaluation, options: EngineOptions): Scope {
  const groupType = groupTypeName(evaluation.definitions, index);
  const groupKey = groupType === undefined ? undefined : ownValue(evaluation.context.groups, groupType);
  if (groupType === undefined || groupKey === undefined) return 'skip';
  const properties = ownValue(evaluation.context.groupProperties, groupType);
  if (properties === undefined && !options.knowsAllProperties) {
    throw new InconclusiveMatchError(`the properties of the ${groupType} group were not given`);
  }
  return { hashId: groupKey, properties: properties ?? {} };
}

function matchConditions(
  flag: FlagDefinition,
  scopeOf: (condition: ConditionGroup) => Scope,
  matcher: FilterMatcher,
  hash: FlagHasher,
): Decision {
  const conditions = flag.filters.groups
    .map((condition, index) => ({ condition, index }))
    .sort((a, b) => Number(b.condition.variant !== null) - Number(a.condition.variant !== null));
  let undecided: InconclusiveMatchError | undefined;
  let outOfRollout: number | undefined;
  for (const { condition, index } of conditions) {
    let matched: 'match' | 'no_match' | 'out_of_rollout';
    let hashId: string;
    try {
      const scope = scopeOf(condition);
      if (scope === 'skip') continue;
      hashId = scope.hashId;
      matched = matchCondition(flag.key, hashId, condition, scope.properties, matcher, hash);
    } catch (error) {
      if (!(error instanceof InconclusiveMatchError)) throw error;
      // An undecided override would have won had it matched: nothing after it can decide.
      if (condition.variant !== null) throw error;
      undecided ??= error;
      continue;
    }
    if (matched === 'out_of_rollout') {
      outOfRollout ??= index;
      // early_exit: targeted but rolled out of, so no later condition may turn the flag on.
      if (flag.filters.early_exit) break;
    }
    if (matched !== 'match') continue;
    const variants = flag.filters.multivariate?.variants;
    const reason: FlagReason = { code: 'condition_match', condition_index: index, description: `Matched condition set ${index + 1}` };
    if (condition.variant !== null && variants?.some((variant) => variant.key === condition.variant)) {
      return { value: condition.variant, reason };
    }
    return { value: matchingVariant(flag, hashId, hash) ?? true, reason };
  }
  if (undecided !== undefined) throw undecided;
  if (outOfRollout !== undefined) {
    return { value: false, reason: { code: 'out_of_rollout_bound', condition_index: outOfRollout, description: 'Out of rollout bound' } };
  }
  return { value: false, reason: { code: 'no_condition_match', description: 'No matching condition set' } };
}

/** Every filter must hold; one that definitely fails settles it even when another is undecided. */
function matchCondition(
  flagKey: string,
  hashId: string,
  condition: ConditionGroup,
  properties: Readonly<Record<string, unknown>>,
  matcher: FilterMatcher,
  hash: FlagHasher,
): 'match' | 'no_match' | 'out_of_rollout' {
  let undecided: InconclusiveMatchError | undefined;
  for (const filter of condition.properties) {
    try {
      if (!matchFilter(filter, properties, matcher)) return 'no_match';
    } catch (error) {
      if (!(error instanceof InconclusiveMatchError)) throw error;
      undecided ??= error;
    }
  }
  if (undecided !== undefined) throw undecided;
  const rollout = condition.rollout_percentage;
  return rollout === null || hash(flagKey, hashId) <= rollout / 100 ? 'match' : 'out_of_rollout';
}

/** Variants own consecutive slices of [0, 1) in definition order, sized by their percentages. */
function matchingVariant(flag: FlagDefinition, hashId: string, hash: FlagHasher): string | undefined {
  const variants = flag.filters.multivariate?.variants;
  if (variants === undefined) return undefined;
  const position = hash(flag.key, hashId, 'variant');
  let start = 0;
  for (const variant of variants) {
    const end = start + variant.rollout_percentage / 100;
    if (position >= start && position < end) return variant.key;
    start = end;
  }
  return undefined;
}
