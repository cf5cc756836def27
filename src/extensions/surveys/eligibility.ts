/**
 * Whether a survey may be shown on this page now: posthog-js's display conditions, in its order and
 * with its reasons, as pure functions of what the page knows (`SurveyEnvironment`), so each rule is
 * tested on its own and the same code answers getActiveMatchingSurveys, canRenderSurvey and the
 * popover. One difference, on purpose: start and end dates are compared with the clock, so a survey
 * scheduled to start or end later is off until then (posthog-js reads any end date as ended).
 */
import { matches } from './match';
import type { Survey } from './types';

/** What the page knows that the conditions read. */
export interface SurveyEnvironment {
  /** The page's URL, as the URL condition sees it. */
  readonly href: string;
  /** Desktop, Mobile or Tablet (posthog-js's `$device_type`). */
  readonly deviceType: string;
  /** ms */
  readonly now: number;
  /** When a survey was last shown on this device (ms), if ever. */
  readonly lastShownAt: number | undefined;
  /** Surveys activated by a trigger event since the page loaded. */
  readonly activated: ReadonlySet<string>;
  hasElement(selector: string): boolean;
  /** A flag's value; `sendEvent`: count it as a flag call (`$feature_flag_called`). */
  flag(key: string, sendEvent: boolean): unknown;
  /** Answered or dismissed before (this round of a recurring survey). */
  wasSeen(survey: Survey): boolean;
}

export interface Eligibility {
  eligible: boolean;
  reason?: string;
}

/** Surveys rendered in the page; `external_survey` is a hosted page of its own. */
const IN_APP = ['popover', 'widget', 'api'];
const DAY = 86_400_000;

/** PostHog creates a `survey-targeting-…` flag per survey: checking it is not a flag call the app made. */
const flagOn = (env: SurveyEnvironment, key: string | null | undefined, variant?: string): boolean => {
  if (!key) return true;
  const value = env.flag(key, !key.startsWith('survey-targeting-'));
  return !!value && (!variant || variant === 'any' || value === variant);
};

const time = (date: string | null | undefined): number => (date ? Date.parse(date) : NaN);

export function isRunning(survey: Survey, now: number): boolean {
  const start = time(survey.start_date);
  const end = time(survey.end_date);
  return start <= now && !(end <= now);
}

/** Shown again after being seen: triggered by events with repeats on, or scheduled "always". */
export const canRepeat = (survey: Survey): boolean =>
  (!!survey.conditions?.events?.values?.length && !!survey.conditions.events.repeatedActivation) || survey.schedule === 'always';

/** posthog-js counts whole days, rounded up, and wants more than the wait period. */
export function waitPeriodPassed(days: number | undefined, lastShownAt: number | undefined, now: number): boolean {
  if (!days || lastShownAt === undefined) return true;
  return Math.ceil(Math.abs(now - lastShownAt) / DAY) > days;
}

/** The survey's own rules: dates, type, flags, the wait period and what was seen. */
export function checkEligibility(survey: Survey, env: SurveyEnvironment): Eligibility {
  const no = (reason: string): Eligibility => ({ eligible: false, reason });
  if (!isRunning(survey, env.now)) return no('the survey is not running (start and end dates)');
  if (!IN_APP.includes(survey.type)) return no(`surveys of type ${survey.type} are not shown in the page`);
  const variant = survey.conditions?.linkedFlagVariant;
  if (!flagOn(env, survey.linked_flag_key, variant)) {
    return no(`the linked flag ${survey.linked_flag_key} is not enabled` + (variant ? ` for variant ${variant}` : ''));
  }
  if (!flagOn(env, survey.targeting_flag_key)) return no(`the targeting flag ${survey.targeting_flag_key} is not enabled`);
  if (!canRepeat(survey) && !flagOn(env, survey.internal_targeting_flag_key)) {
    return no('the person has answered or dismissed it (its internal targeting flag is off)');
  }
  if (!waitPeriodPassed(survey.conditions?.seenSurveyWaitPeriodInDays, env.lastShownAt, env.now)) {
    return no('a survey was shown less than its wait period ago');
  }
  if (env.wasSeen(survey) && !canRepeat(survey)) return no('it was seen already on this device');
  return { eligible: true };
}

/** The page conditions: URL, device type and CSS selector. */
export function pageMatches(survey: Survey, env: SurveyEnvironment): boolean {
  const conditions = survey.conditions;
  if (!conditions) return true;
  const { url, deviceTypes, selector } = conditions;
  return (
    (!url || matches(env.href, [url], conditions.urlMatchType)) &&
    (!deviceTypes?.length || matches(env.deviceType, deviceTypes, conditions.deviceTypesMatchType)) &&
    (!selector || env.hasElement(selector))
  );
}

/** A survey shown after an event waits for one; others need none. */
export const triggered = (survey: Survey, env: SurveyEnvironment): boolean =>
  !survey.conditions?.events?.values?.length || env.activated.has(survey.id);

/** The other flags a survey names (`feature_flag_keys`): each with a key must be on. */
const otherFlagsOn = (survey: Survey, env: SurveyEnvironment): boolean =>
  (survey.feature_flag_keys ?? []).every(({ key, value }) => !key || !value || flagOn(env, value));

/** Everything: the survey may be shown on this page now (what getActiveMatchingSurveys lists). */
export const shouldShow = (survey: Survey, env: SurveyEnvironment): boolean =>
  checkEligibility(survey, env).eligible && pageMatches(survey, env) && triggered(survey, env) && otherFlagsOn(survey, env);

/** canRenderSurvey's answer: eligible, and its trigger event (if any) has happened. */
export function checkRenderability(survey: Survey, env: SurveyEnvironment): Eligibility {
  const eligibility = checkEligibility(survey, env);
  if (eligibility.eligible && !triggered(survey, env)) return { eligible: false, reason: 'its trigger event has not been captured yet' };
  return eligibility;
}
