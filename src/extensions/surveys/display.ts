/**
 * Showing a survey and sending what happens to it: `survey shown` when it is on screen, `survey
 * sent` when answered (after each question too when the survey collects partial responses, with one
 * submission id), `survey dismissed` when closed before the end. All go through the client's
 * capture(), so consent, before_send and the persistent queue apply: an answer is not lost to a
 * closing page. The device remembers the survey as seen once it is answered or dismissed.
 */
import type { Hogtail } from '../../browser/hogtail';
import { dismissedProperties, interactionProperty, sentProperties, surveyProperties } from './events';
import { markSeen, markShown } from './memory';
import { showSurvey, type ShowOptions, type SurveyUi } from './render/popover';
import type { Survey } from './types';

const submissionId = (): string =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(16).slice(2);

/** Shows `survey` (inside `inline`, or as a popover); `extra`: properties added to its events; `onClose`: it left the screen. */
export function displaySurvey(
  client: Hogtail,
  survey: Survey,
  options: ShowOptions & { extra?: Record<string, unknown> | undefined; skipShownEvent?: boolean | undefined; onClose?: () => void } = {},
): SurveyUi {
  const id = submissionId();
  const extra = options.extra ?? {};
  return showSurvey(
    survey,
    {
      onShown() {
        markShown(new Date());
        if (!options.skipShownEvent) client.capture('survey shown', { ...surveyProperties(survey), ...extra });
      },
      onAnswer(responses, done) {
        if (!done && !survey.enable_partial_responses) return;
        markSeen(survey);
        client.capture(
          'survey sent',
          { ...sentProperties(survey, responses, id, done), ...extra },
          {
            $set: { [interactionProperty(survey, 'responded')]: true },
          },
        );
        // The internal targeting flag changes once the person answered: ask for fresh flags, as posthog-js does.
        if (done) client.reloadFeatureFlags();
      },
      onClose: options.onClose,
      onDismiss(responses) {
        markSeen(survey);
        client.capture(
          'survey dismissed',
          { ...dismissedProperties(survey, responses, id), ...extra },
          {
            $set: { [interactionProperty(survey, 'dismissed')]: true },
          },
        );
      },
    },
    options,
  );
}
