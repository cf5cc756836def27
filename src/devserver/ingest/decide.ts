/**
 * The `/decide` request as the SDKs send it, and the answer of a project with no flags.
 */
import { readProjectKey } from './api-key';
import { describeType, hasOwn, isAbsent, isPlainObject } from './json-shape';
import { refuse, type DecideRequest, type DecideResponse, type Refusal } from './types';

/** What a fresh project with no flags answers; a fresh object each time so handlers may mutate it. */
export function defaultDecideResponse(): DecideResponse {
  return {
    config: { enable_collect_everything: false },
    toolbarParams: {},
    errorsWhileComputingFlags: false,
    isAuthenticated: false,
    supportedCompression: ['gzip', 'gzip-js'],
    featureFlags: {},
    featureFlagPayloads: {},
  };
}

const OBJECT_FIELDS = ['groups', 'person_properties', 'group_properties'] as const;

/** posthog-js sends the key as token, posthog-node as api_key; either works, both is a 400 like capture. */
export function readDecideRequest(body: unknown, version: string | undefined): { ok: true; request: DecideRequest } | Refusal {
  if (!isPlainObject(body)) return refuse(400, `the decide body must be a JSON object, got ${describeType(body)}`);
  if (hasOwn(body, 'token') && hasOwn(body, 'api_key')) return refuse(400, 'the body has both token and api_key');

  const apiKey = readProjectKey(isAbsent(body.api_key) ? body.token : body.api_key);
  if (!apiKey.ok) return apiKey;

  const distinctId = body.distinct_id;
  if (isAbsent(distinctId)) return refuse(400, 'decide needs a distinct_id');
  if (typeof distinctId !== 'string') return refuse(400, `distinct_id must be a string, got ${describeType(distinctId)}`);
  if (distinctId.trim() === '') return refuse(400, 'distinct_id is blank');

  const request: DecideRequest = { api_key: apiKey.key, distinct_id: distinctId, body, version };
  for (const field of OBJECT_FIELDS) {
    const value = body[field];
    if (isAbsent(value)) continue;
    if (!isPlainObject(value)) return refuse(400, `${field} must be an object, got ${describeType(value)}`);
    request[field] = value;
  }
  return { ok: true, request };
}
