/**
 * The dev server's answer for one user: every flag through the shared engine, in the two shapes its
 * routes need (decide's `featureFlags` / `featureFlagPayloads`, and /flags v2's per-flag details).
 */
import {
  evaluateAllFlags,
  storedPayload,
  type EvaluationContext,
  type FlagDefinitions,
  type FlagReason,
  type FlagValue,
} from '../../core/flag-engine';
import { setOwn } from '../../core/own';
import { SERVER_ENGINE } from './hash';

export interface FlagDetail {
  key: string;
  enabled: boolean;
  variant: string | null;
  reason: FlagReason;
  metadata: { id: number; version: number; payload: string | null; description: string | null };
}

export interface FlagsEvaluation {
  /** Every flag that is not deleted: its variant, true, or false when off. */
  featureFlags: Record<string, FlagValue>;
  /** Payloads of the flags that are on, as stored: usually JSON text. */
  featureFlagPayloads: Record<string, string>;
  /** The /flags v2 `flags` object. */
  details: Record<string, FlagDetail>;
  /** One line per flag that could not be evaluated; those flags are left out of the answer. */
  errors: string[];
}

export function evaluateFlags(definitions: FlagDefinitions, context: EvaluationContext, keys?: ReadonlySet<string>): FlagsEvaluation {
  const result: FlagsEvaluation = { featureFlags: {}, featureFlagPayloads: {}, details: {}, errors: [] };
  for (const { flag, outcome } of evaluateAllFlags(definitions, context, SERVER_ENGINE, keys)) {
    if (!outcome.decided) {
      result.errors.push(`${flag.key}: ${outcome.why}`);
      continue;
    }
    const { value, reason } = outcome;
    const payload = storedPayload(outcome.payload);
    // Flag keys are any text, `__proto__` included: stored as entries, never by assignment.
    setOwn(result.featureFlags, flag.key, value);
    if (payload !== undefined) setOwn(result.featureFlagPayloads, flag.key, payload);
    setOwn(result.details, flag.key, {
      key: flag.key,
      enabled: value !== false,
      variant: typeof value === 'string' ? value : null,
      reason,
      metadata: { id: flag.id, version: flag.version, payload: payload ?? null, description: flag.name === flag.key ? null : flag.name },
    });
  }
  return result;
}
