/**
 * The flags handler `hogtail dev` and the collector mount for `/decide` and `/flags`: evaluates the
 * definitions (a file, or given directly) for the asking user with the shared engine in
 * core/flag-engine, filling in person and group properties the server already knows.
 */
import { ownValue, setOwn } from '../../core/own';
import { defaultDecideResponse } from '../ingest/decide';
import { isPlainObject } from '../ingest/json-shape';
import type { DecideHandler, DecideRequest, DecideResponse } from '../ingest/types';
import { openDefinitionsFile, type DefinitionsFileStatus } from './definitions-file';
import { evaluateFlags, type FlagsEvaluation } from './evaluate-flags';
import { parseFlagDefinitions, type EvaluationContext, type FlagDefinitions } from '../../core/flag-engine';

export interface FlagsDecideOptions {
  /** A JSON flags file, re-read when it changes (see definitions-file.ts). */
  file?: string;
  /** Definitions given directly, in either spelling parse-definitions.ts accepts. Ignored when `file` is set. */
  definitions?: unknown;
  /** Person properties the server already knows for a distinct id; the request's person_properties override them. */
  personProperties?: (distinctId: string) => Readonly<Record<string, unknown>> | undefined;
  /** Group properties the server already knows; the request's group_properties override them. */
  groupProperties?: (groupType: string, groupKey: string) => Readonly<Record<string, unknown>> | undefined;
  /** Told about every answer, e.g. to show what each user got. */
  onDecide?: (request: DecideRequest, response: DecideResponse) => void;
  onReload?: (definitions: FlagDefinitions) => void;
  /** The file changed into something unusable; the last good definitions stay in use. */
  onError?: (message: string) => void;
}

export interface FlagOverrides {
  groups?: Record<string, unknown>;
  person_properties?: Record<string, unknown>;
  group_properties?: Record<string, unknown>;
}

/** The collector's `decide` option, plus a way to evaluate without a request (the dev page's flag panel). */
export interface FlagsDecide extends DecideHandler {
  definitions(): FlagDefinitions;
  /** undefined when the definitions were given directly. */
  fileStatus(): DefinitionsFileStatus | undefined;
  evaluate(distinctId: string, overrides?: FlagOverrides, keys?: ReadonlySet<string>): FlagsEvaluation;
}

/**
 * Serves decide from flag definitions with PostHog's evaluation, so what a test or `hogtail dev`
 * answers is what PostHog would answer for the same flags and inputs. Throws FlagDefinitionsError
 * (or the file's read error) when the initial definitions are unusable: better at start than at the
 * first request.
 */
export function createFlagsDecide(options: FlagsDecideOptions): FlagsDecide {
  const file =
    options.file === undefined
      ? undefined
      : openDefinitionsFile(options.file, {
          ...(options.onReload ? { onReload: options.onReload } : {}),
          ...(options.onError ? { onError: options.onError } : {}),
        });
  const fixed = file === undefined ? parseFlagDefinitions(options.definitions ?? []) : undefined;
  const definitions = (): FlagDefinitions => file?.current() ?? fixed ?? { flags: [], group_type_mapping: {}, cohorts: {} };

  const evaluate = (distinctId: string, overrides: FlagOverrides = {}, keys?: ReadonlySet<string>): FlagsEvaluation =>
    evaluateFlags(definitions(), buildContext(distinctId, overrides, options), keys);

  const handler: DecideHandler = (request) => {
    // posthog-node asks /flags for just the flag being checked when it cannot answer from cache.
    const only = request.endpoint === '/flags/' ? request.body.flag_keys_to_evaluate : undefined;
    const keys = Array.isArray(only) ? new Set(only.filter((key): key is string => typeof key === 'string')) : undefined;
    const evaluation = evaluate(request.distinct_id, request, keys);
    const response: DecideResponse = {
      ...defaultDecideResponse(),
      featureFlags: evaluation.featureFlags,
      featureFlagPayloads: evaluation.featureFlagPayloads,
      errorsWhileComputingFlags: evaluation.errors.length > 0,
    };
    // The per-flag details (id, version, reason) only /flags v2 answers carry; see v2-response.ts.
    if (request.endpoint === '/flags/') response.flags = evaluation.details;
    options.onDecide?.(request, response);
    return response;
  };

  return Object.assign(handler, {
    definitions,
    fileStatus: () => file?.status(),
    evaluate,
  });
}

/** Stored properties first, the request's on top: PostHog lets the caller override per property. */
function buildContext(distinctId: string, overrides: FlagOverrides, options: FlagsDecideOptions): EvaluationContext {
  // Group types are any text, `__proto__` included: entries are stored with setOwn, read with ownValue.
  const groups: Record<string, string> = {};
  for (const [groupType, groupKey] of Object.entries(overrides.groups ?? {})) {
    // posthog-js may send a numeric key; PostHog hashes its text.
    if (typeof groupKey === 'string' || typeof groupKey === 'number') setOwn(groups, groupType, String(groupKey));
  }

  const groupProperties: Record<string, Record<string, unknown>> = {};
  const groupTypes = new Set([...Object.keys(groups), ...Object.keys(overrides.group_properties ?? {})]);
  for (const groupType of groupTypes) {
    const groupKey = ownValue(groups, groupType);
    const stored = groupKey === undefined ? undefined : options.groupProperties?.(groupType, groupKey);
    const override = ownValue(overrides.group_properties, groupType);
    setOwn(groupProperties, groupType, { ...stored, ...(isPlainObject(override) ? override : {}) });
  }

  return {
    distinctId,
    groups,
    personProperties: { ...options.personProperties?.(distinctId), ...overrides.person_properties },
    groupProperties,
  };
}
