/**
 * Surveys shown after an event: each captured event (the extension hears them all through its
 * beforeCapture hook) activates the surveys that name it, when its properties pass the trigger's
 * filters, and deactivates those that name it as a cancel event. As in posthog-js, a survey that
 * may repeat is used up once shown (the next trigger shows it again); one that may not stays active
 * until it is answered or dismissed. Kept for the page only.
 */
import { canRepeat } from './eligibility';
import { matches } from './match';
import type { Survey, TriggerEvent } from './types';

export interface Triggers {
  /** Survey ids activated and not used up. */
  readonly activated: ReadonlySet<string>;
  /** The surveys to listen for (replaces the previous ones). */
  watch(surveys: readonly Survey[]): void;
  /** A captured event; true when the set of active surveys changed. */
  hear(event: string, properties: Record<string, unknown> | undefined): boolean;
}

/** Whether the event's properties pass every filter of the trigger (posthog-js: a missing property fails). */
function passes(trigger: TriggerEvent, properties: Record<string, unknown> | undefined): boolean {
  return Object.entries(trigger.propertyFilters ?? {}).every(([name, filter]) => {
    const value = properties?.[name];
    return value != null && Array.isArray(filter?.values) && matches(String(value), filter.values, filter.operator);
  });
}

const named = (triggers: readonly TriggerEvent[] | undefined, event: string, properties?: Record<string, unknown>) =>
  !!triggers?.some((trigger) => trigger?.name === event && passes(trigger, properties));

/** What a survey event does to the survey it is about: used up, or nothing. */
function usedUp(survey: Survey | undefined, event: string, properties: Record<string, unknown> | undefined): boolean {
  if (event === 'survey sent' && properties?.$survey_completed === false) return false;
  if (!survey || canRepeat(survey)) return event === 'survey shown';
  return event === 'survey dismissed' || event === 'survey sent';
}

export function createTriggers(): Triggers {
  const activated = new Set<string>();
  let surveys: readonly Survey[] = [];
  return {
    activated,
    watch(next) {
      surveys = next;
    },
    hear(event, properties) {
      const before = activated.size;
      const about = properties?.$survey_id;
      let changed = false;
      if (
        typeof about === 'string' &&
        activated.has(about) &&
        usedUp(
          surveys.find((s) => s.id === about),
          event,
          properties,
        )
      ) {
        activated.delete(about);
        changed = true;
      }
      for (const survey of surveys) {
        if (named(survey.conditions?.cancelEvents?.values, event, properties)) changed = activated.delete(survey.id) || changed;
        if (named(survey.conditions?.events?.values, event, properties)) activated.add(survey.id);
      }
      return changed || activated.size !== before;
    },
  };
}
