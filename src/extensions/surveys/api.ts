/**
 * posthog-js's survey methods, as the extension hands them to the client (ExtensionContext.provide):
 * getSurveys, getActiveMatchingSurveys, renderSurvey, displaySurvey, canRenderSurvey(Async),
 * onSurveysLoaded, onActiveMatchingSurveysChanged, cancelPendingSurvey and getNextSurveyStep, with
 * posthog-js's arguments and answers. With `disable_surveys` they answer as posthog-js does when
 * surveys are off: no surveys, nothing shown.
 */
import type { ExtensionContext } from '../../browser/features/feature';
import { getNextSurveyStep } from './branching';
import { displaySurvey } from './display';
import { checkRenderability } from './eligibility';
import { pageEnvironment } from './environment';
import type { SurveyManager } from './manager';
import type { Survey, SurveyCallback, SurveyRenderability } from './types';

/** posthog-js's displaySurvey options. */
interface DisplayOptions {
  ignoreConditions?: boolean;
  ignoreDelay?: boolean;
  displayType?: 'popover' | 'inline';
  /** inline: the element to render in; popover at `next_to_trigger`: the element to sit next to. */
  selector?: string;
  properties?: Record<string, unknown>;
  /** Answers by question index, given already: the popover opens past them (sent as posthog-js does). */
  initialResponses?: Record<number, unknown>;
  position?: string;
  skipShownEvent?: boolean;
}

/** A popover next to `selector`'s element (below it, kept on screen), for position `next_to_trigger`. */
function nextTo(selector: string | undefined): string | undefined {
  const rect = selector ? document.querySelector(selector)?.getBoundingClientRect() : undefined;
  if (!rect) return undefined;
  const left = Math.max(8, Math.min(rect.left, innerWidth - 320));
  return `left:${left}px;top:${Math.min(rect.bottom + 8, innerHeight - 120)}px`;
}

const OFF = 'surveys are turned off (disable_surveys)';

export function surveyMethods(context: ExtensionContext, manager: SurveyManager) {
  const { client, config } = context;
  const { definitions } = manager;
  const find = (id: unknown): Survey | undefined =>
    typeof id === 'object' && id ? (id as Survey) : definitions.cached?.find((survey) => survey.id === id);
  const renderability = (survey: Survey | undefined): SurveyRenderability => {
    if (config.disable_surveys) return { visible: false, disabledReason: OFF };
    if (client.has_opted_out_capturing())
      return { visible: false, disabledReason: 'capturing is opted out, so an answer could not be recorded' };
    if (!survey)
      return { visible: false, disabledReason: definitions.cached ? 'no survey with this id' : 'the surveys are not loaded yet' };
    const { eligible, reason } = checkRenderability(survey, pageEnvironment(client, manager.triggers.activated));
    return { visible: eligible, disabledReason: reason };
  };
  const loaded = (callback: SurveyCallback, forceReload?: boolean, filter = (surveys: Survey[]) => surveys) => {
    if (config.disable_surveys) return callback([], { isLoaded: false, error: OFF });
    void definitions.load(forceReload).then(({ surveys, context: loadContext }) => callback(filter(surveys), loadContext));
  };
  const inline = (survey: Survey | undefined, selector: string, properties?: Record<string, unknown>) => {
    const element = survey && document.querySelector(selector);
    if (!survey || !element) return context.debug(`renderSurvey: ${survey ? 'no element matches ' + selector : 'no such survey'}`);
    displaySurvey(client, survey, { inline: element, extra: properties });
  };

  return {
    getSurveys: (callback: SurveyCallback, forceReload?: boolean) => loaded(callback, forceReload),
    getActiveMatchingSurveys: (callback: SurveyCallback, forceReload?: boolean) => loaded(callback, forceReload, manager.matching),
    renderSurvey: (id: string | Survey, selector: string, properties?: Record<string, unknown>) =>
      !config.disable_surveys && void definitions.load().then(() => inline(find(id), selector, properties)),
    displaySurvey(id: string, options: DisplayOptions = {}) {
      if (config.disable_surveys) return;
      void definitions.load().then(() => {
        const survey = find(id);
        if (!survey) return context.debug(`displaySurvey: no survey ${id}`);
        if (!options.ignoreConditions && !renderability(survey).visible)
          return context.debug(`displaySurvey: ${renderability(survey).disabledReason}`);
        if (options.displayType === 'inline') return inline(survey, options.selector ?? '', options.properties);
        const style = options.position === 'next_to_trigger' ? nextTo(options.selector) : undefined;
        const placed =
          options.position && !style ? { ...survey, appearance: { ...survey.appearance, position: options.position } } : survey;
        manager.popover(placed, {
          extra: options.properties,
          initial: options.initialResponses,
          skipShownEvent: options.skipShownEvent,
          style,
        });
      });
    },
    canRenderSurvey: (id: string | Survey) => renderability(find(id)),
    canRenderSurveyAsync: (id: string, forceReload?: boolean) =>
      config.disable_surveys
        ? Promise.resolve(renderability(undefined))
        : definitions.load(forceReload).then(() => renderability(find(id))),
    onSurveysLoaded(callback: SurveyCallback) {
      let on = true;
      loaded((surveys, loadContext) => on && callback(surveys, loadContext));
      return () => void (on = false);
    },
    onActiveMatchingSurveysChanged(callback: (surveys: Survey[], context?: { isLoaded: boolean }) => void) {
      const listener = (surveys: Survey[]) => callback(surveys, { isLoaded: true });
      manager.changed.add(listener);
      if (definitions.cached) listener(manager.matching(definitions.cached));
      return () => void manager.changed.delete(listener);
    },
    cancelPendingSurvey: (id: string) => manager.cancel(id),
    getNextSurveyStep: (survey: Survey, index: number, response: unknown) => getNextSurveyStep(survey, index, response),
  };
}
