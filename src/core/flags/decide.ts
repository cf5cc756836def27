/**
 * The flags answer (both shapes: `/flags/?v=2` and the legacy decide) and merging, shared by the
 * browser and the server clients; the request is built in flags-request.ts and sent by
 * flags-client.ts. Merging follows the real server's signals: `errorsWhileComputingFlags` means
 * some values are missing (merge, don't replace), `quotaLimited` with `feature_flags` means none
 * are fresh (keep). See docs/flags-protocol.md.
 */
import { attempt } from '../safe-json';
import { isObject } from '../special-events';

export type FlagValue = boolean | string;

export interface FlagsSnapshot {
  flags: Record<string, FlagValue>;
  /** Raw payloads as the server stores them (usually JSON strings). */
  payloads: Record<string, unknown>;
  /** The server's id for the evaluation, sent back as `$feature_flag_request_id`. */
  requestId?: string | undefined;
}

export interface DecideOverrides {
  groups?: Record<string, string | number> | undefined;
  personProperties?: Record<string, unknown> | undefined;
  groupProperties?: Record<string, Record<string, unknown>> | undefined;
}

/** Internal names (`_`: the script tags' minifier shortens them): never public, stored or sent. */
export interface DecideResult extends FlagsSnapshot {
  /** The answer's `errorsWhileComputingFlags`: some values are missing. */
  partial_: boolean;
  /** The answer's `quotaLimited` names `feature_flags`: none are evaluated. */
  quotaLimited_: boolean;
  /** The whole answer: the project's remote config when asked for (`config=true`), for the browser's features. */
  remoteConfig_: Record<string, unknown>;
}

/** A flags answer's `supportedCompression` names gzip (`gzip` or `gzip-js`): the batch endpoint takes it. */
export const takesGzip = (supportedCompression: unknown): boolean =>
  Array.isArray(supportedCompression) && supportedCompression.some((name) => name === 'gzip' || name === 'gzip-js');

/**
 * Reads a flags answer in either shape: v2 `flags: { key: { enabled, variant, metadata: { payload } } }`
 * or the legacy `featureFlags` / `featureFlagPayloads`. Throws a message naming what was wrong when
 * it is neither.
 */
export function parseDecideResponse(text: string): DecideResult {
  const parsed: unknown = attempt(() => JSON.parse(text), 0);
  if (!isObject(parsed)) throw new Error(`the flags answer is not a JSON object: ${text.slice(0, 120)}`);
  const { flags: details, featureFlags, featureFlagPayloads, quotaLimited, requestId } = parsed;
  const v2 = isObject(details);
  // Entries collected, then made objects: a flag named `__proto__` stays a flag (an assignment would
  // set the prototype instead), and every read elsewhere checks own properties (core/own.ts).
  const flags: [string, FlagValue][] = [];
  const payloads: [string, unknown][] = !v2 && isObject(featureFlagPayloads) ? Object.entries(featureFlagPayloads) : [];
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  for (const [key, answer] of Object.entries(v2 ? details : isObject(featureFlags) ? featureFlags : {})) {
    const { enabled, variant, metadata } = Object(answer) as Record<string, unknown>;
    const value = !v2 ? answer : typeof enabled === 'boolean' ? enabled && (typeof variant === 'string' ? variant : true) : undefined;
    if (typeof value !== 'boolean' && typeof value !== 'string') continue;
    flags.push([key, value]);
    const payload = v2 ? (Object(metadata) as Record<string, unknown>).payload : undefined;
    if (payload != null) payloads.push([key, payload]);
  }
  return {
    flags: Object.fromEntries(flags),
    payloads: Object.fromEntries(payloads),
    requestId: typeof requestId === 'string' ? requestId : undefined,
    partial_: parsed.errorsWhileComputingFlags === true,
    quotaLimited_: list(quotaLimited).includes('feature_flags'),
    remoteConfig_: parsed,
  };
}

/** The flags to use after a decide answer, given the ones we had. */
export function mergeDecide(previous: FlagsSnapshot | undefined, result: DecideResult): FlagsSnapshot {
  if (result.quotaLimited_) return previous ?? { flags: {}, payloads: {} };
  const kept = result.partial_ && previous;
  return {
    flags: { ...(kept && kept.flags), ...result.flags },
    payloads: { ...(kept && kept.payloads), ...result.payloads },
    requestId: result.requestId,
  };
}

/** `$feature/<key>` for every known flag (false included) and `$active_feature_flags`. */
export function featureProperties(flags: Record<string, FlagValue>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const active: string[] = [];
  for (const [key, value] of Object.entries(flags)) {
    properties['$feature/' + key] = value;
    if (value !== false) active.push(key);
  }
  properties.$active_feature_flags = active;
  return properties;
}

/** Payloads are stored as JSON strings; hand back the value, or the string when it is not JSON. */
export function parsePayload(payload: unknown): unknown {
  return typeof payload === 'string' ? attempt(() => JSON.parse(payload), payload) : payload;
}
