import { evaluateFlag } from './evaluate-flag';
import type { EvaluationContext, FlagDefinitions, FlagValue } from './types';

export interface FlagsEvaluation {
  /** Every flag that is not deleted: its variant, true, or false when off. */
  featureFlags: Record<string, FlagValue>;
  /** Payloads of the flags that are on, as stored: usually JSON text. */
  featureFlagPayloads: Record<string, string>;
  /** One line per flag that could not be evaluated; those flags are left out of featureFlags. */
  errors: string[];
}

export function evaluateFlags(definitions: FlagDefinitions, context: EvaluationContext): FlagsEvaluation {
  const result: FlagsEvaluation = { featureFlags: {}, featureFlagPayloads: {}, errors: [] };
  for (const flag of definitions.flags) {
    if (flag.deleted) continue;
    try {
      const { value, payload } = evaluateFlag(flag, context, definitions.group_type_mapping);
      result.featureFlags[flag.key] = value;
      if (payload !== undefined && payload !== null) result.featureFlagPayloads[flag.key] = storedPayload(payload);
    } catch (error) {
      // One broken flag must not take the others down: PostHog answers the rest and says so.
      result.errors.push(`${flag.key}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}

/**
 * PostHog stores payloads as JSON text and decide returns that text. A string in the file is taken as
 * that stored text; any other value is encoded, so `{"color":"red"}` may be written as an object.
 */
function storedPayload(payload: unknown): string {
  return typeof payload === 'string' ? payload : JSON.stringify(payload);
}
