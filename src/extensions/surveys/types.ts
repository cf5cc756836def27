/**
 * A survey as PostHog's `GET /api/surveys/?token=` answers it (and as posthog-js reads it), with
 * only the fields hogtail acts on named. Everything comes from the server: code that reads a field
 * checks its type first, so an odd definition hides one survey and never breaks the page.
 */

/** How a text is compared with a condition's value (posthog-js's property operators). */
export type MatchType = 'exact' | 'is_not' | 'icontains' | 'not_icontains' | 'regex' | 'not_regex';

export type QuestionType = 'open' | 'link' | 'rating' | 'single_choice' | 'multiple_choice';

/** Where a question leads once answered. */
export type Branching =
  | { type: 'next_question' }
  | { type: 'end' }
  | { type: 'specific_question'; index: number }
  /** By response: a choice's index, or a rating's bucket (negative, neutral, positive; detractors, passives, promoters) → a question index or 'end'. */
  | { type: 'response_based'; responseValues: Record<string, number | 'end'> };

export interface SurveyQuestion {
  type: QuestionType;
  question: string;
  id?: string;
  description?: string | null;
  descriptionContentType?: 'html' | 'text';
  optional?: boolean;
  buttonText?: string;
  branching?: Branching;
  /** link */
  link?: string | null;
  /** rating */
  display?: 'number' | 'emoji';
  scale?: number;
  lowerBoundLabel?: string;
  upperBoundLabel?: string;
  /** single and multiple choice */
  choices?: string[];
  /** The last choice is "other": the person types their own answer. */
  hasOpenChoice?: boolean;
  shuffleOptions?: boolean;
  skipSubmitButton?: boolean;
}

/** An event that shows the survey once captured, optionally only with some property values. */
export interface TriggerEvent {
  name: string;
  propertyFilters?: Record<string, { values: unknown[]; operator: MatchType }>;
}

export interface SurveyConditions {
  url?: string;
  urlMatchType?: MatchType;
  selector?: string;
  seenSurveyWaitPeriodInDays?: number;
  deviceTypes?: string[];
  deviceTypesMatchType?: MatchType;
  linkedFlagVariant?: string;
  events?: { repeatedActivation?: boolean; values: TriggerEvent[] } | null;
  cancelEvents?: { values: TriggerEvent[] } | null;
}

export interface SurveyAppearance {
  backgroundColor?: string;
  submitButtonColor?: string;
  submitButtonTextColor?: string;
  ratingButtonColor?: string;
  ratingButtonActiveColor?: string;
  borderColor?: string;
  textColor?: string;
  placeholder?: string;
  position?: string;
  maxWidth?: string;
  zIndex?: string;
  whiteLabel?: boolean;
  displayThankYouMessage?: boolean;
  thankYouMessageHeader?: string;
  thankYouMessageDescription?: string;
  thankYouMessageCloseButtonText?: string;
  surveyPopupDelaySeconds?: number;
  widgetType?: 'button' | 'tab' | 'selector';
  widgetLabel?: string;
  widgetColor?: string;
  widgetSelector?: string;
  shuffleQuestions?: boolean;
  hideCancelButton?: boolean;
  /** Leave focus where it is when the survey opens (hogtail moves it into the survey by default). */
  disableAutofocus?: boolean;
}

export interface Survey {
  id: string;
  name: string;
  description?: string;
  /** popover, widget and api render in the page; external_survey never does. */
  type: 'popover' | 'widget' | 'api' | 'external_survey';
  questions: SurveyQuestion[];
  appearance?: SurveyAppearance | null;
  conditions?: SurveyConditions | null;
  linked_flag_key?: string | null;
  targeting_flag_key?: string | null;
  internal_targeting_flag_key?: string | null;
  feature_flag_keys?: { key: string; value?: string }[] | null;
  start_date?: string | null;
  end_date?: string | null;
  current_iteration?: number | null;
  current_iteration_start_date?: string | null;
  schedule?: 'once' | 'recurring' | 'always' | null;
  enable_partial_responses?: boolean | null;
}

/** What getSurveys and the other callbacks are told besides the surveys (posthog-js's shape). */
export interface SurveysContext {
  isLoaded: boolean;
  error?: string;
}

export type SurveyCallback = (surveys: Survey[], context?: SurveysContext) => void;

/** Whether a survey may be shown now, and if not, why (posthog-js's canRenderSurvey answer). */
export interface SurveyRenderability {
  visible: boolean;
  disabledReason?: string;
}
