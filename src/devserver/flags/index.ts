/** Feature-flag definitions and their evaluation for decide and /flags, shared by `hogtail dev` and the flag tests. */
export { createFlagsDecide, type FlagOverrides, type FlagsDecide, type FlagsDecideOptions } from './flags-decide';
export { evaluateFlags, type FlagDetail, type FlagsEvaluation } from './evaluate-flags';
export { flagHash } from './hash';
export { FlagDefinitionsError, matchProperty, parseFlagDefinitions } from '../../core/flag-engine';
export type { DefinitionsFileStatus } from './definitions-file';
export type {
  ConditionGroup,
  EvaluationContext,
  FlagDefinition,
  FlagDefinitions,
  FlagFilters,
  FlagValue,
  PropertyFilter,
  PropertyOperator,
  Variant,
} from '../../core/flag-engine';
