/**
 * The reserved events of spec §6, shared by the browser and Node clients. Each returns the event
 * name and properties, or an error message naming what was wrong.
 */
export type SpecialEvent = { event: string; properties: Record<string, unknown> } | { error: string };

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `$identify` carries person properties in `$set` / `$set_once`. */
export function identifyEvent(set: unknown, setOnce: unknown, extra?: Record<string, unknown>): SpecialEvent {
  if (set !== undefined && set !== null && !isObject(set)) return { error: `identify() $set must be an object; got ${typeof set}` };
  if (setOnce !== undefined && setOnce !== null && !isObject(setOnce)) {
    return { error: `identify() $set_once must be an object; got ${typeof setOnce}` };
  }
  return { event: '$identify', properties: { ...extra, $set: set ?? {}, $set_once: setOnce ?? {} } };
}

export function aliasEvent(alias: unknown): SpecialEvent {
  if (typeof alias === 'number' && Number.isFinite(alias)) alias = String(alias);
  if (!isText(alias)) return { error: `alias() needs the alias as a non-blank string; got ${typeof alias}` };
  return { event: '$create_alias', properties: { alias } };
}

export function groupIdentifyEvent(groupType: unknown, groupKey: unknown, groupSet: unknown): SpecialEvent {
  if (typeof groupKey === 'number' && Number.isFinite(groupKey)) groupKey = String(groupKey);
  if (!isText(groupType)) return { error: `group identify needs groupType as a non-blank string; got ${typeof groupType}` };
  if (!isText(groupKey)) return { error: `group identify needs groupKey as a non-blank string; got ${typeof groupKey}` };
  if (groupSet !== undefined && groupSet !== null && !isObject(groupSet)) {
    return { error: `group identify properties must be an object; got ${typeof groupSet}` };
  }
  return { event: '$groupidentify', properties: { $group_type: groupType, $group_key: groupKey, $group_set: groupSet ?? {} } };
}

export function screenEvent(name: unknown, properties: unknown): SpecialEvent {
  if (!isText(name)) return { error: `screen() needs the screen name as a non-blank string; got ${typeof name}` };
  return { event: '$screen', properties: { ...(isObject(properties) ? properties : {}), $screen_name: name } };
}

export type SurveyAction = 'survey shown' | 'survey dismissed' | 'survey sent';

export function surveyEvent(action: SurveyAction, surveyId: unknown, properties: unknown, response?: unknown): SpecialEvent {
  if (!isText(surveyId)) return { error: `${action} needs surveyId as a non-blank string; got ${typeof surveyId}` };
  const props: Record<string, unknown> = { ...(isObject(properties) ? properties : {}), $survey_id: surveyId };
  if (action === 'survey sent') {
    if (response === undefined) return { error: 'survey sent needs a response ($survey_response)' };
    props.$survey_response = response;
  }
  return { event: action, properties: props };
}

/** The server drops these when they carry `$process_person_profile: false`. */
export const PERSON_EVENTS: ReadonlySet<string> = new Set(['$identify', '$create_alias', '$groupidentify']);
