/**
 * The decide request and response (spec §2.3–2.4, DESIGN §3), shared by the browser and Node.
 * Merging follows the real server's signals: `errorsWhileComputingFlags` means some values are
 * missing (merge, don't replace), `quotaLimited` with `feature_flags` means none are fresh (keep).
 */
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

export function decideBody(apiKey: string, distinctId: string, overrides: DecideOverrides = {}): string {
  const body: Record<string, unknown> = { api_key: apiKey, distinct_id: distinctId };
  if (overrides.groups && Object.keys(overrides.groups).length > 0) body.groups = overrides.groups;
  if (overrides.personProperties && Object.keys(overrides.personProperties).length > 0) {
    body.person_properties = overrides.personProperties;
  }
  if (overrides.groupProperties && Object.keys(overrides.groupProperties).length > 0) {
    body.group_properties = overrides.groupProperties;
  }
  return JSON.stringify(body);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a decide answer; throws a message naming what was wrong when it is not one. */
export function parseDecideResponse(text: string): DecideResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`decide answered something that is not JSON: ${text.slice(0, 120)}`);
  }
  if (!isRecord(parsed)) throw new Error('decide answered JSON that is not an object');
  const flags: Record<string, FlagValue> = {};
  if (isRecord(parsed.featureFlags)) {
    for (const [key, value] of Object.entries(parsed.featureFlags)) {
      if (typeof value === 'boolean' || typeof value === 'string') flags[key] = value;
    }
  }
  const payloads = isRecord(parsed.featureFlagPayloads) ? { ...parsed.featureFlagPayloads } : {};
  const quota = parsed.quotaLimited;
  return {
    flags,
    payloads,
    errorsWhileComputingFlags: parsed.errorsWhileComputingFlags === true,
    quotaLimited: Array.isArray(quota) && quota.includes('feature_flags'),
    supportedCompression: Array.isArray(parsed.supportedCompression)
      ? parsed.supportedCompression.filter((c): c is string => typeof c === 'string')
      : [],
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
  return result.supportedCompression.includes('gzip') || result.supportedCompression.includes('gzip-js');
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
  if (typeof payload !== 'string') return payload;
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}
