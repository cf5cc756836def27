/**
 * The feature-flag engine shared by `hogtail dev` and the Node client's local evaluation:
 * definitions parsing, PostHog's hashing, rollout, variants, property / cohort / dependency
 * matching, and "inconclusive" when a flag cannot be decided with what is known.
 */
export { createFlagHasher, type FlagHasher, type Sha1Hex } from './hash';
export { evaluateFlag, startEvaluation, type EngineOptions } from './evaluate-flag';
export type { Evaluation } from './evaluation';
export { evaluateAllFlags, storedPayload, type FlagEvaluation } from './evaluate-flags';
export { matchProperty, type MatchOptions } from './match-property';
export { parseFlagDefinitions, type ParseOptions } from './parse-definitions';
export { FlagDefinitionsError } from './definitions-error';
export { InconclusiveMatchError } from './inconclusive';
export type {
  ConditionGroup,
  EvaluationContext,
  FlagDefinition,
  FlagDefinitions,
  FlagFilters,
  FlagOutcome,
  FlagReason,
  FlagValue,
  PropertyFilter,
  PropertyGroup,
  PropertyOperator,
  Variant,
} from './types';
