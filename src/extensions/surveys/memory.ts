/**
 * What the page remembers about surveys between visits: which were seen (answered or dismissed) and
 * when the last one was shown. In localStorage under posthog-js's keys (`seenSurvey_<id>`,
 * `seenSurvey_<id>_<iteration>` for a recurring survey's round, `lastSeenSurveyDate`), so a site
 * switching from posthog-js keeps its visitors' memory and nobody is asked twice. Storage that is
 * blocked or full is read as "nothing remembered" and written to memory for the page.
 */
import type { Survey } from './types';

const LAST_SEEN = 'lastSeenSurveyDate';
const fallback = new Map<string, string>();

function read(key: string): string | null {
  try {
    return localStorage.getItem(key) ?? fallback.get(key) ?? null;
  } catch {
    return fallback.get(key) ?? null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    fallback.set(key, value);
  }
}

/** The key of a survey's current round: a recurring survey asks again in each iteration. */
export const seenKey = (survey: Pick<Survey, 'id' | 'current_iteration'>): string =>
  'seenSurvey_' + survey.id + ((survey.current_iteration ?? 0) > 0 ? '_' + survey.current_iteration : '');

export const wasSeen = (survey: Pick<Survey, 'id' | 'current_iteration'>): boolean => !!read(seenKey(survey));

/** Remembers that `survey` was answered or dismissed: not shown again (unless it may repeat). */
export const markSeen = (survey: Pick<Survey, 'id' | 'current_iteration'>): void => write(seenKey(survey), 'true');

/** Remembers that a survey was shown now: every survey's wait period counts from here. */
export const markShown = (now: Date): void => write(LAST_SEEN, now.toISOString());

/** When the last survey was seen (ms), if one was. */
export function lastSeenAt(): number | undefined {
  const time = Date.parse(read(LAST_SEEN) ?? '');
  return Number.isNaN(time) ? undefined : time;
}
