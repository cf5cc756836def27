/**
 * What decides, on the page, which survey shows: after the definitions load, after each flags
 * answer, after a trigger event, and once a second while a survey waits only for a page condition
 * (a URL in a single-page app, an element appearing), as posthog-js re-checks. One popover at a
 * time; a popover with a delay waits it out and is checked again before it shows. A feedback
 * widget survey puts its button on the page instead.
 */
import type { ExtensionContext } from '../../browser/features/feature';
import { createDefinitions, type Definitions } from './definitions';
import { displaySurvey } from './display';
import { checkEligibility, shouldShow, type SurveyEnvironment } from './eligibility';
import { pageEnvironment } from './environment';
import { createTriggers, type Triggers } from './triggers';
import type { Survey } from './types';
import { showWidget } from './render/widget';

export interface SurveyManager {
  readonly definitions: Definitions;
  readonly triggers: Triggers;
  /** Checks every survey now (once the manager is started). */
  evaluate(): void;
  start(): void;
  /** The surveys that may show on this page now. */
  matching(surveys: readonly Survey[], page?: SurveyEnvironment): Survey[];
  /** Drops a popover still waiting for its delay. */
  cancel(id: string): void;
  /** Tells the onActiveMatchingSurveysChanged listeners. */
  readonly changed: Set<(surveys: Survey[]) => void>;
  /** Shows `survey` now as a popover (displaySurvey): `options` as displaySurvey's. */
  popover(survey: Survey, options?: PopoverOptions): void;
}

/** displaySurvey's popover options, as the renderer takes them. */
export type PopoverOptions = Omit<Parameters<typeof displaySurvey>[2], 'onClose' | 'inline'>;

const byDelay = (a: Survey, b: Survey) => (a.appearance?.surveyPopupDelaySeconds ?? 0) - (b.appearance?.surveyPopupDelaySeconds ?? 0);

export function createManager(context: ExtensionContext): SurveyManager {
  const { client } = context;
  const definitions = createDefinitions(context);
  const triggers = createTriggers();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const widgets = new Map<string, () => void>();
  const changed = new Set<(surveys: Survey[]) => void>();
  let started = false;
  let open: string | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let lastMatching = '';

  const env = () => pageEnvironment(client, triggers.activated);
  /** One look at the page for all the surveys of a check (it runs every second while one waits). */
  const matching = (surveys: readonly Survey[], page = env()) => surveys.filter((survey) => shouldShow(survey, page));

  const popover = (survey: Survey, options: PopoverOptions = {}) => {
    open = survey.id;
    displaySurvey(client, survey, { ...options, onClose: () => ((open = undefined), evaluate()) });
  };

  const schedule = (survey: Survey) => {
    if (open || pending.has(survey.id)) return;
    const delay = (survey.appearance?.surveyPopupDelaySeconds ?? 0) * 1000;
    if (delay <= 0) return popover(survey);
    pending.set(
      survey.id,
      setTimeout(() => {
        pending.delete(survey.id);
        if (!open && shouldShow(survey, env())) popover(survey);
      }, delay),
    );
  };

  const place = (surveys: Survey[], active: Survey[], page: SurveyEnvironment) => {
    for (const survey of active) {
      if (survey.type === 'popover') schedule(survey);
      else if (survey.type === 'widget' && !widgets.has(survey.id)) widgets.set(survey.id, showWidget(client, survey));
    }
    // A widget whose conditions no longer hold leaves the page.
    for (const [id, remove] of widgets) {
      if (active.some((survey) => survey.id === id)) continue;
      remove();
      widgets.delete(id);
    }
    // Polled while a survey could show but for a page condition (or its delay): posthog-js re-checks every second.
    const waiting = surveys.some((survey) => !active.includes(survey) && checkEligibility(survey, page).eligible);
    if (waiting && !poll) poll = setInterval(evaluate, 1000);
    if (!waiting && poll) poll = void clearInterval(poll);
  };

  const tell = (active: Survey[]) => {
    const ids = active.map((survey) => survey.id).join();
    if (ids === lastMatching) return;
    lastMatching = ids;
    for (const listener of changed) listener(active);
  };

  function evaluate(): void {
    if (!started) return;
    void definitions.load().then(({ surveys }) => {
      triggers.watch(surveys);
      // Opted out: an answer could not be recorded, so nothing is shown (posthog-js's rule too).
      if (client.has_opted_out_capturing()) return;
      const page = env();
      const active = matching(surveys, page).sort(byDelay);
      place(surveys, active, page);
      tell(active);
    });
  }

  return {
    definitions,
    triggers,
    evaluate,
    start() {
      if (started || context.config.disable_surveys) return;
      started = true;
      evaluate();
      client.onFeatureFlags(() => evaluate());
    },
    matching,
    cancel(id) {
      clearTimeout(pending.get(id));
      pending.delete(id);
    },
    changed,
    popover,
  };
}
