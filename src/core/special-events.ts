/**
 * The reserved events (docs/wire-protocol.md), shared by the browser and Node clients. Each returns the event
 * name and properties, or an error message naming what was wrong.
 */
export type SpecialEvent = { event: string; properties: Record<string, unknown> } | { error: string };

export const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Absent, or an object. */
const isOptionalObject = (value: unknown): value is Record<string, unknown> | null | undefined =>
  value === undefined || value === null || isObject(value);
// One wording for every refusal, so each says what it needs and what it got.
const needs = (what: string, kind: string, value: unknown): SpecialEvent => ({ error: `${what} must be ${kind}; got ${typeof value}` });
/** A finite number as its string (ids may be numeric); anything else unchanged. */
export const asText = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value);

/** `$identify` carries person properties in `$set` / `$set_once`. */
export function identifyEvent(set: unknown, setOnce: unknown, extra?: Record<string, unknown>): SpecialEvent {
  if (!isOptionalObject(set)) return needs('identify() $set', 'an object', set);
  if (!isOptionalObject(setOnce)) return needs('identify() $set_once', 'an object', setOnce);
  return { event: '$identify', properties: { ...extra, $set: set ?? {}, $set_once: setOnce ?? {} } };
}

export function aliasEvent(alias: unknown): SpecialEvent {
  alias = asText(alias);
  if (!isText(alias)) return needs('alias() alias', 'a non-blank string', alias);
  return { event: '$create_alias', properties: { alias } };
}

export function groupIdentifyEvent(groupType: unknown, groupKey: unknown, groupSet: unknown): SpecialEvent {
  groupKey = asText(groupKey);
  if (!isText(groupType)) return needs('group identify groupType', 'a non-blank string', groupType);
  if (!isText(groupKey)) return needs('group identify groupKey', 'a non-blank string', groupKey);
  if (!isOptionalObject(groupSet)) return needs('group identify properties', 'an object', groupSet);
  return { event: '$groupidentify', properties: { $group_type: groupType, $group_key: groupKey, $group_set: groupSet ?? {} } };
}

export function screenEvent(name: unknown, properties: unknown): SpecialEvent {
  if (!isText(name)) return needs('screen() name', 'a non-blank string', name);
  if (!isOptionalObject(properties)) return needs('screen() properties', 'an object', properties);
  return { event: '$screen', properties: { ...properties, $screen_name: name } };
}

export type SurveyAction = 'survey shown' | 'survey dismissed' | 'survey sent';

export function surveyEvent(action: SurveyAction, surveyId: unknown, properties: unknown, response?: unknown): SpecialEvent {
  if (!isText(surveyId)) return needs(`${action} surveyId`, 'a non-blank string', surveyId);
  if (!isOptionalObject(properties)) return needs(`${action} properties`, 'an object', properties);
  const props: Record<string, unknown> = { ...properties, $survey_id: surveyId };
  if (action === 'survey sent') {
    if (response === undefined) return { error: 'survey sent needs a response' };
    props.$survey_response = response;
  }
  return { event: action, properties: props };
}

/** The server drops these when they carry `$process_person_profile: false`. */
export const PERSON_EVENTS: ReadonlySet<string> = new Set(['$identify', '$create_alias', '$groupidentify']);
