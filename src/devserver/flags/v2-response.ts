/**
 * The `/flags/?v=2` answer (what posthog-js 1.4xx and posthog-node 5 ask for) built from a decide
 * answer, so `/flags` and `/decide` always agree: the per-flag `flags` object that v2 readers use,
 * plus `featureFlags` / `featureFlagPayloads` for older readers. A handler that knows each flag's id,
 * version and reason (createFlagsDecide) hands them in as `flags`; for any other handler they are
 * derived from the values.
 */
import { ownValue, setOwn } from '../../core/own';
import type { DecideResponse } from '../ingest/types';

interface FlagDetail {
  key: string;
  enabled: boolean;
  variant: string | null;
  reason: { code: string; description: string; condition_index?: number };
  metadata: { id: number; version: number; payload: string | null; description: string | null };
}

export function flagsV2Response(response: DecideResponse, requestId: number): Record<string, unknown> {
  const given = isDetails(response.flags) ? response.flags : undefined;
  const flags: Record<string, FlagDetail> = {};
  for (const [key, value] of Object.entries(response.featureFlags)) {
    const payload = ownValue(response.featureFlagPayloads, key);
    setOwn(
      flags,
      key,
      ownValue(given, key) ?? {
        key,
        enabled: value !== false,
        variant: typeof value === 'string' ? value : null,
        reason: { code: value === false ? 'no_condition_match' : 'condition_match', description: 'Answered by the decide handler' },
        metadata: {
          id: 0,
          version: 1,
          payload: payload === undefined || payload === null ? null : typeof payload === 'string' ? payload : JSON.stringify(payload),
          description: null,
        },
      },
    );
  }
  return { ...response, flags, requestId: `hogtail-dev-${requestId}` };
}

function isDetails(value: unknown): value is Record<string, FlagDetail> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
