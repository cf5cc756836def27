/** Feature-flag definitions and their evaluation for decide, shared by `hogtail dev` and the flag tests. */
export { createFlagsDecide, type FlagOverrides, type FlagsDecide, type FlagsDecideOptions } from './flags-decide';
export { parseFlagDefinitions } from './parse-definitions';
export { FlagDefinitionsError } from './definitions-error';
export { evaluateFlag, type FlagResult } from './evaluate-flag';
export { evaluateFlags, type FlagsEvaluation } from './evaluate-flags';
export { flagHash } from './hash';
export { matchProperty } from './match-property';
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
} from './types';
