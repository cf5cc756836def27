/**
 * Which question follows an answer: posthog-js's `getNextSurveyStep`, the same answers for the same
 * definitions, so a survey built with branching in PostHog's UI walks the same path here. A step is
 * a question index, or 'end'. A definition or response that makes no sense leads to the next
 * question instead of an exception: the person can still finish the survey.
 */
import type { Survey, SurveyQuestion } from './types';

export type SurveyStep = number | 'end';

/** The bucket a rating falls in, per scale, as PostHog's branching editor names them. */
export function ratingBucket(value: number, scale: number): string | undefined {
  if (scale === 10) return value < 0 || value > 10 ? undefined : value <= 6 ? 'detractors' : value <= 8 ? 'passives' : 'promoters';
  // 2 is thumbs up (1) or down (2); 3, 5 and 7 split into low, middle and high.
  if (scale === 2) return value === 1 ? 'positive' : value === 2 ? 'negative' : undefined;
  const middle = { 3: 2, 5: 3, 7: 4 }[scale];
  if (middle === undefined || value < 1 || value > scale) return undefined;
  return value < middle ? 'negative' : value === middle ? 'neutral' : 'positive';
}

/** The key of `responseValues` a response selects: a choice's index, or a rating's bucket. */
function responseKey(question: SurveyQuestion, response: unknown): string | undefined {
  if (question.type === 'single_choice') {
    const choices = question.choices ?? [];
    let index = choices.indexOf(String(response));
    // A typed "other" answer is none of the choices: it is the last (open) one.
    if (index === -1 && question.hasOpenChoice) index = choices.length - 1;
    return index === -1 ? undefined : String(index);
  }
  if (question.type === 'rating' && Number.isInteger(response)) return ratingBucket(response as number, question.scale ?? 0);
  return undefined;
}

const isStep = (step: unknown): step is SurveyStep => step === 'end' || Number.isInteger(step);

/** The step after question `index` answered with `response`. */
export function getNextSurveyStep(survey: Survey, index: number, response: unknown): SurveyStep {
  const questions = survey.questions ?? [];
  const question = questions[index];
  const next: SurveyStep = index + 1 >= questions.length ? 'end' : index + 1;
  const branching = question?.branching;
  if (!question || !branching?.type) return next;
  if (branching.type === 'end') return 'end';
  if (branching.type === 'specific_question') return Number.isInteger(branching.index) ? branching.index : next;
  if (branching.type === 'response_based') {
    const key = responseKey(question, response);
    const step = key === undefined ? undefined : branching.responseValues?.[key];
    if (isStep(step)) return step;
  }
  return next;
}
