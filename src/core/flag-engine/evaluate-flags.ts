/**
 * Every flag of a set of definitions for one user, sharing dependency results. What the dev
 * server's /decide and /flags answer from, and what the Node client's getAllFlags reads locally.
 */
import { evaluateFlag, type DependencyCache, type EngineOptions } from './evaluate-flag';
import type { EvaluationContext, FlagDefinition, FlagDefinitions, FlagOutcome } from './types';

export interface FlagEvaluation {
  flag: FlagDefinition;
  outcome: FlagOutcome;
}

/** Deleted flags are left out; `keys` limits the answer to those flags (dependencies still evaluate). */
export function evaluateAllFlags(
  definitions: FlagDefinitions,
  context: EvaluationContext,
  options: EngineOptions,
  keys?: ReadonlySet<string>,
): FlagEvaluation[] {
  const cache: DependencyCache = new Map();
  const results: FlagEvaluation[] = [];
  for (const flag of definitions.flags) {
    if (flag.deleted || (keys !== undefined && !keys.has(flag.key))) continue;
    let outcome: FlagOutcome;
    try {
      outcome = evaluateFlag(flag, definitions, context, options, cache);
    } catch (error) {
      // One broken flag must not take the others down: PostHog answers the rest and says so.
      outcome = { decided: false, why: `could not be evaluated: ${error instanceof Error ? error.message : String(error)}` };
    }
    results.push({ flag, outcome });
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
