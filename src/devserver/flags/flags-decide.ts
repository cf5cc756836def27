import { defaultDecideResponse } from '../ingest/decide';
import { isPlainObject } from '../ingest/json-shape';
import type { DecideHandler, DecideRequest, DecideResponse } from '../ingest/types';
import { openDefinitionsFile, type DefinitionsFileStatus } from './definitions-file';
import { evaluateFlags, type FlagsEvaluation } from './evaluate-flags';
import { parseFlagDefinitions } from './parse-definitions';
import type { EvaluationContext, FlagDefinitions } from './types';

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
  evaluate(distinctId: string, overrides?: FlagOverrides): FlagsEvaluation;
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
  const definitions = (): FlagDefinitions => file?.current() ?? fixed ?? { flags: [], group_type_mapping: {} };

  const evaluate = (distinctId: string, overrides: FlagOverrides = {}): FlagsEvaluation =>
    evaluateFlags(definitions(), buildContext(distinctId, overrides, options));

  const handler: DecideHandler = (request) => {
    const evaluation = evaluate(request.distinct_id, request);
    const response: DecideResponse = {
      ...defaultDecideResponse(),
      featureFlags: evaluation.featureFlags,
      featureFlagPayloads: evaluation.featureFlagPayloads,
      errorsWhileComputingFlags: evaluation.errors.length > 0,
    };
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
  const groups: Record<string, string> = {};
  for (const [groupType, groupKey] of Object.entries(overrides.groups ?? {})) {
    // posthog-js may send a numeric key; PostHog hashes its text.
    if (typeof groupKey === 'string' || typeof groupKey === 'number') groups[groupType] = String(groupKey);
  }

  const groupProperties: Record<string, Record<string, unknown>> = {};
  const groupTypes = new Set([...Object.keys(groups), ...Object.keys(overrides.group_properties ?? {})]);
  for (const groupType of groupTypes) {
    const groupKey = groups[groupType];
    const stored = groupKey === undefined ? undefined : options.groupProperties?.(groupType, groupKey);
    const override = overrides.group_properties?.[groupType];
    groupProperties[groupType] = { ...stored, ...(isPlainObject(override) ? override : {}) };
  }

  return {
    distinctId,
    groups,
    personProperties: { ...options.personProperties?.(distinctId), ...overrides.person_properties },
    groupProperties,
  };
}
