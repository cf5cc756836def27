/**
 * Every flag of a set of definitions for one user, sharing dependency results. What the dev
 * server's /decide and /flags answer from, and what the Node client's getAllFlags reads locally.
 */
import { evaluateFlag, startEvaluation, type EngineOptions } from './evaluate-flag';
import type { EvaluationContext, FlagDefinition, FlagDefinitions, FlagOutcome } from './types';

export interface FlagEvaluation {
  flag: FlagDefinition;
  outcome: FlagOutcome;
}

/**
 * Deleted flags are left out; `keys` limits the answer to those flags (dependencies still evaluate).
 * One broken flag never takes the others down: it is inconclusive, the rest are answered.
 */
export function evaluateAllFlags(
  definitions: FlagDefinitions,
  context: EvaluationContext,
  options: EngineOptions,
  keys?: ReadonlySet<string>,
): FlagEvaluation[] {
  const evaluation = startEvaluation(definitions, context, options);
  const results: FlagEvaluation[] = [];
  for (const flag of definitions.flags) {
    if (flag.deleted || (keys !== undefined && !keys.has(flag.key))) continue;
    results.push({ flag, outcome: evaluateFlag(flag, definitions, context, options, evaluation) });
  }
  return results;
}

/**
 * PostHog stores payloads as JSON text and its answers carry that text. A string in the definitions
 * is taken as that stored text; any other value is encoded, so `{"color":"red"}` may be written as an
 * object in a hand-written file.
 */
export function storedPayload(payload: unknown): string | undefined {
  if (payload === undefined || payload === null) return undefined;
  return typeof payload === 'string' ? payload : JSON.stringify(payload);
}
