/**
 * The survey events, with posthog-js's names and properties, so PostHog's survey results count
 * hogtail's answers: `survey shown`, `survey sent` (each response under `$survey_response_<question
 * id>`, `$survey_questions`, a submission id shared by partial and final sends) and
 * `survey dismissed`; the person gets `$survey_responded/<id>` or `$survey_dismissed/<id>` (with
 * `/<iteration>` for a recurring survey's round).
 */
import type { Survey } from './types';

type Properties = Record<string, unknown>;

/** What every survey event carries about its survey. */
export const surveyProperties = (survey: Survey): Properties => ({
  $survey_name: survey.name,
  $survey_id: survey.id,
  $survey_iteration: survey.current_iteration ?? null,
  $survey_iteration_start_date: survey.current_iteration_start_date ?? null,
});

/** The person property that says the person answered (`responded`) or dismissed the survey. */
export const interactionProperty = (survey: Survey, action: 'responded' | 'dismissed'): string =>
  `$survey_${action}/${survey.id}` + ((survey.current_iteration ?? 0) > 0 ? `/${survey.current_iteration}` : '');

/** The responses as posthog-js sends them: each under its key, and `$survey_questions` with every question. */
export const responseProperties = (survey: Survey, responses: Properties): Properties => ({
  $survey_questions: survey.questions.map((question, index) => ({
    id: question.id,
    question: question.question,
    response: responses['$survey_response_' + (question.id ?? index)] ?? null,
  })),
  ...responses,
});

/** `survey sent`: `completed` false for a partial response (the survey goes on). */
export const sentProperties = (survey: Survey, responses: Properties, submissionId: string, completed: boolean): Properties => ({
  ...surveyProperties(survey),
  $survey_submission_id: submissionId,
  $survey_completed: completed,
  ...responseProperties(survey, responses),
});

/** `survey dismissed`, with what was answered before. */
export const dismissedProperties = (survey: Survey, responses: Properties, submissionId: string): Properties => ({
  ...surveyProperties(survey),
  $survey_submission_id: submissionId,
  $survey_partially_completed: Object.values(responses).some((value) => value != null),
  ...responseProperties(survey, responses),
});
