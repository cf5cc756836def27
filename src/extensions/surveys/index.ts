/**
 * `hogtail/surveys`: the surveys extension for bundlers. `registerExtension(surveys)` once, before
 * or after init(); it starts when the project's remote config says it has surveys, as the script
 * tag's file does.
 */
import { createSurveysExtension } from './extension';

export const surveys = /* @__PURE__ */ createSurveysExtension(false);
export { getNextSurveyStep } from './branching';
export type { SurveyStep } from './branching';
export type { Survey, SurveyAppearance, SurveyCallback, SurveyQuestion, SurveyRenderability, SurveysContext } from './types';
