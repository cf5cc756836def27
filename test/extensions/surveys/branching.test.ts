// getNextSurveyStep: the same steps as posthog-js's for the same definitions (compared with its own
// function, shipped in its package, where the definition is valid), and no exception where the
// definition or the response makes no sense.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { getNextSurveyStep, ratingBucket } from '../../../src/extensions/surveys/branching';
import type { Survey, SurveyQuestion } from '../../../src/extensions/surveys/types';

// posthog-js's own branching (its package does not export the file: loaded by path).
const theirs: (survey: never, index: number, response: never) => unknown = createRequire(import.meta.url)(
  '../../../node_modules/@posthog/browser-common/dist/surveys/survey-branching.js',
).getNextSurveyStep;

const survey = (...questions: SurveyQuestion[]): Survey => ({ id: 's', name: 'S', type: 'popover', questions });
const open = (branching?: SurveyQuestion['branching']): SurveyQuestion => ({ type: 'open', question: 'Why?', branching });
const choice: SurveyQuestion = {
  type: 'single_choice',
  question: 'Which?',
  choices: ['Red', 'Blue', 'Other'],
  hasOpenChoice: true,
  branching: { type: 'response_based', responseValues: { 0: 2, 1: 'end' } },
};
const rating = (scale: number): SurveyQuestion => ({
  type: 'rating',
  question: 'How likely?',
  display: 'number',
  scale,
  branching: { type: 'response_based', responseValues: { detractors: 1, promoters: 'end', negative: 1, positive: 'end' } },
});

describe('getNextSurveyStep', () => {
  const cases: [string, Survey, number, unknown][] = [
    ['no branching: the next question', survey(open(), open()), 0, 'x'],
    ['no branching on the last question: the end', survey(open(), open()), 1, 'x'],
    ['branching to the end', survey(open({ type: 'end' }), open()), 0, 'x'],
    ['branching to a question', survey(open({ type: 'specific_question', index: 2 }), open(), open()), 0, 'x'],
    ['next_question', survey(open({ type: 'next_question' }), open()), 0, 'x'],
    ['a choice that leads to a question', survey(choice, open(), open()), 0, 'Red'],
    ['a choice that leads to the end', survey(choice, open(), open()), 0, 'Blue'],
    ['a typed "other" answer is the open choice (none set: the next)', survey(choice, open(), open()), 0, 'my own words'],
    ['NPS detractor', survey(rating(10), open(), open()), 0, 3],
    ['NPS passive (none set: the next)', survey(rating(10), open(), open()), 0, 7],
    ['NPS promoter', survey(rating(10), open(), open()), 0, 10],
    ['5-point negative', survey(rating(5), open(), open()), 0, 2],
    ['5-point neutral', survey(rating(5), open(), open()), 0, 3],
    ['5-point positive', survey(rating(5), open(), open()), 0, 5],
    ['3-point positive', survey(rating(3), open(), open()), 0, 3],
    ['7-point negative', survey(rating(7), open(), open()), 0, 3],
    ['thumbs up', survey(rating(2), open(), open()), 0, 1],
    ['thumbs down', survey(rating(2), open(), open()), 0, 2],
  ];
  it.each(cases)('%s: as posthog-js', (_name, definition, index, response) => {
    expect(getNextSurveyStep(definition, index, response)).toBe(theirs(definition as never, index, response as never));
  });

  it('answers what the cases above mean', () => {
    expect(getNextSurveyStep(survey(choice, open(), open()), 0, 'Red')).toBe(2);
    expect(getNextSurveyStep(survey(choice, open(), open()), 0, 'Blue')).toBe('end');
    expect(getNextSurveyStep(survey(rating(10), open(), open()), 0, 3)).toBe(1);
    expect(getNextSurveyStep(survey(open(), open()), 1, 'x')).toBe('end');
  });

  it('never throws where posthog-js does: a rating that is no number, out of its scale, an unknown scale', () => {
    const definition = survey(rating(5), open(), open());
    expect(() => theirs(definition as never, 0, 'five' as never)).toThrow();
    expect(getNextSurveyStep(definition, 0, 'five')).toBe(1);
    expect(getNextSurveyStep(definition, 0, 9)).toBe(1);
    expect(getNextSurveyStep(survey(rating(4), open()), 0, 1)).toBe(1);
    expect(getNextSurveyStep(survey(), 0, 'x')).toBe('end');
  });

  it('rating buckets per scale', () => {
    expect([0, 6, 7, 8, 9, 10].map((value) => ratingBucket(value, 10))).toEqual([
      'detractors',
      'detractors',
      'passives',
      'passives',
      'promoters',
      'promoters',
    ]);
    expect([1, 2, 3, 4, 5].map((value) => ratingBucket(value, 5))).toEqual(['negative', 'negative', 'neutral', 'positive', 'positive']);
    expect([1, 2, 3].map((value) => ratingBucket(value, 3))).toEqual(['negative', 'neutral', 'positive']);
    expect([3, 4, 5].map((value) => ratingBucket(value, 7))).toEqual(['negative', 'neutral', 'positive']);
  });
});
