/**
 * The decide request and response (docs/flags-protocol.md), shared by the browser and Node.
 * Merging follows the real server's signals: `errorsWhileComputingFlags` means some values are
 * missing (merge, don't replace), `quotaLimited` with `feature_flags` means none are fresh (keep).
 */
import { attempt } from '../safe-json';
import { isObject } from '../special-events';

export type FlagValue = boolean | string;

export interface FlagsSnapshot {
  flags: Record<string, FlagValue>;
  /** Raw payloads as the server stores them (usually JSON strings). */
  payloads: Record<string, unknown>;
}

export interface DecideOverrides {
  groups?: Record<string, string | number> | undefined;
  personProperties?: Record<string, unknown> | undefined;
  groupProperties?: Record<string, Record<string, unknown>> | undefined;
}

export interface DecideResult extends FlagsSnapshot {
  errorsWhileComputingFlags: boolean;
  quotaLimited: boolean;
  supportedCompression: string[];
}

export function decideUrl(host: string): string {
  return host.replace(/\/+$/, '') + '/decide/?v=3';
}

/** Overrides that are absent or empty are left out, as posthog-js and posthog-node leave them out. */
export function decideBody(apiKey: string, distinctId: string, overrides: DecideOverrides = {}): string {
  // JSON.stringify drops undefined members, so an empty override costs nothing on the wire.
  const some = (value: object | undefined) => (value && Object.keys(value).length > 0 ? value : undefined);
  return JSON.stringify({
    api_key: apiKey,
    distinct_id: distinctId,
    groups: some(overrides.groups),
    person_properties: some(overrides.personProperties),
    group_properties: some(overrides.groupProperties),
  });
}


/** Reads a decide answer; throws a message naming what was wrong when it is not one. */
export function parseDecideResponse(text: string): DecideResult {
  const parsed: unknown = attempt(() => JSON.parse(text), 0);
  if (!isObject(parsed)) throw new Error(`decide answer is not JSON or not an object: ${text.slice(0, 120)}`);
  const { featureFlags, featureFlagPayloads, quotaLimited, supportedCompression } = parsed;
  const flags: Record<string, FlagValue> = {};
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  for (const [key, value] of Object.entries(isObject(featureFlags) ? featureFlags : {})) {
    if (typeof value === 'boolean' || typeof value === 'string') flags[key] = value;
  }
  return {
    flags,
    payloads: { ...(isObject(featureFlagPayloads) ? featureFlagPayloads : {}) },
    errorsWhileComputingFlags: parsed.errorsWhileComputingFlags === true,
    quotaLimited: list(quotaLimited).includes('feature_flags'),
    supportedCompression: list(supportedCompression).filter((c): c is string => typeof c === 'string'),
  };
}

/** The flags to use after a decide answer, given the ones we had. */
export function mergeDecide(previous: FlagsSnapshot | undefined, result: DecideResult): FlagsSnapshot {
  if (result.quotaLimited) return previous ?? { flags: {}, payloads: {} };
  if (result.errorsWhileComputingFlags && previous) {
    return { flags: { ...previous.flags, ...result.flags }, payloads: { ...previous.payloads, ...result.payloads } };
  }
  return { flags: result.flags, payloads: result.payloads };
}

/** `gzip` or `gzip-js` in supportedCompression means the batch endpoint takes gzip. */
export function acceptsGzip(result: DecideResult): boolean {
  return result.supportedCompression.some((name) => name === 'gzip' || name === 'gzip-js');
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
