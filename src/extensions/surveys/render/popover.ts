/**
 * A survey on screen: a popover in a corner of the page, or inline in an element the app names
 * (renderSurvey), in a shadow root so the page's styles and ours stay apart. It walks the questions
 * by their branching, then thanks the person or closes; it reports each step to its caller, which
 * sends the events. Keyboard first: focus moves to the first control when it opens and back to where
 * it was when it closes, Escape dismisses, Tab stays in reading order, every control is labelled.
 */
import { getNextSurveyStep, type SurveyStep } from '../branching';
import type { Survey, SurveyAppearance } from '../types';
import { el, uid } from './dom';
import { questionView, type QuestionView } from './questions';
import { positionStyle, surveyStyles } from './styles';

/** What the caller hears: the events are its business. */
export interface SurveyUiEvents {
  /** On screen. */
  onShown(): void;
  /** Question `index` answered; `done`: the last one (by branching). */
  onAnswer(responses: Record<string, unknown>, done: boolean): void;
  /** Closed before the end. */
  onDismiss(responses: Record<string, unknown>): void;
  /** Off the screen, whatever the reason. */
  onClose?(): void;
}

export interface SurveyUi {
  readonly host: HTMLElement;
  /** Takes it off the page (no event). */
  remove(): void;
}

/** The response key of a question: posthog-js's `$survey_response_<id>`. */
export const responseKey = (survey: Survey, index: number): string => '$survey_response_' + (survey.questions[index]?.id ?? index);

/** The focused element, inside shadow roots too (a feedback button lives in one). */
function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active as HTMLElement | null;
}

/** How a survey is shown: inline in an element, and answers given before it opens. */
export interface ShowOptions {
  /** Inside this element instead of as a popover (renderSurvey). */
  inline?: Element | undefined;
  /** Answers by question index, given already (posthog-js's initialResponses): it opens past them. */
  initial?: Record<number, unknown> | undefined;
  /** The popover's placement instead of the survey's position (next to an element). */
  style?: string | undefined;
}

/** Records the `initial` answers and answers the step after them, as their branching leads. */
function prefill(survey: Survey, initial: Record<number, unknown> | undefined, responses: Record<string, unknown>): SurveyStep {
  let step: SurveyStep = survey.questions.length ? 0 : 'end';
  while (step !== 'end' && initial && step in initial) {
    responses[responseKey(survey, step)] = initial[step];
    step = getNextSurveyStep(survey, step, initial[step]);
    if (step !== 'end' && (step >= survey.questions.length || step < 0)) step = 'end';
  }
  return step;
}

/** "Survey by PostHog" under the survey, unless the project turned it off (whiteLabel). */
const poweredBy = (appearance: SurveyAppearance) => !appearance.whiteLabel && el('span', { class: 'powered' }, 'Survey by PostHog');

/** The thanks after the last answer (displayThankYouMessage), with its close button `done`. */
function thankYouScreen(appearance: SurveyAppearance, titleId: string, done: HTMLElement): HTMLElement {
  return el(
    'div',
    {},
    el('h2', { id: titleId }, appearance.thankYouMessageHeader || 'Thank you for your feedback!'),
    appearance.thankYouMessageDescription && el('p', {}, appearance.thankYouMessageDescription),
    el('div', { class: 'actions' }, done),
    poweredBy(appearance),
  );
}

/** Shows `survey` (options: inline, prefilled, placed). */
export function showSurvey(survey: Survey, events: SurveyUiEvents, { inline, initial, style }: ShowOptions = {}): SurveyUi {
  const appearance = survey.appearance ?? {};
  const { css, vars } = surveyStyles(appearance);
  const host = el('div', { class: 'hogtail-survey', 'data-survey-id': survey.id, style: vars });
  const root = host.attachShadow({ mode: 'open' });
  const returnFocus = deepActiveElement();
  const responses: Record<string, unknown> = {};
  const titleId = uid('title');
  const place = inline ? 'inline' : (appearance.position ?? 'right').includes('_') ? '' : 'bottom';
  const box = el('div', {
    class: `box ${place}`,
    role: inline ? 'region' : 'dialog',
    'aria-labelledby': titleId,
    style: inline ? undefined : (style ?? positionStyle(appearance.position)),
    onkeydown: (event) => (event as KeyboardEvent).key === 'Escape' && !inline && dismiss(),
  });
  /** Answered to the end: closing it now is no dismissal. */
  let finished = false;

  const remove = () => {
    host.remove();
    if (returnFocus?.isConnected) returnFocus.focus();
    events.onClose?.();
  };
  const dismiss = () => {
    if (!host.isConnected) return;
    remove();
    if (!finished) events.onDismiss(responses);
  };
  const close = el('button', { class: 'close', type: 'button', 'aria-label': 'Close survey', onclick: dismiss }, '×');

  const footer = () => poweredBy(appearance);
  const thankYou = () => {
    const done = el('button', { class: 'submit', type: 'button', onclick: remove }, appearance.thankYouMessageCloseButtonText || 'Close');
    box.replaceChildren(close, thankYouScreen(appearance, titleId, done));
    done.focus();
  };

  const showQuestion = (index: number) => {
    const question = survey.questions[index]!;
    let view: QuestionView;
    const submit = el('button', { class: 'submit', type: 'submit' }, question.buttonText || (question.type === 'link' ? 'Open' : 'Submit'));
    const ready = () => question.optional || question.type === 'link' || view.value() !== undefined;
    const next = () => {
      if (!ready()) return;
      const value = view.value();
      if (value !== undefined) responses[responseKey(survey, index)] = value;
      if (question.type === 'link' && question.link && /^(https?:|mailto:)/.test(question.link))
        window.open(question.link, '_blank', 'noopener');
      const step = getNextSurveyStep(survey, index, value);
      const done = step === 'end' || step >= survey.questions.length || step < 0;
      finished = done;
      events.onAnswer(responses, done);
      if (!done) return showQuestion(step);
      if (appearance.displayThankYouMessage) thankYou();
      else remove();
    };
    view = questionView(question, appearance, (submitNow) => {
      submit.disabled = !ready();
      if (submitNow) next();
    });
    const form = el(
      'form',
      { onsubmit: (event) => (event.preventDefault(), next()) },
      view.node,
      el('div', { class: 'actions' }, submit),
      footer() || null,
    );
    // The question's own title names the dialog.
    view.node.querySelector('legend,label,h2')?.setAttribute('id', titleId);
    submit.disabled = !ready();
    box.replaceChildren(close, form);
    if (!appearance.disableAutofocus) ((view.node.querySelector('input,textarea') as HTMLElement | null) ?? submit).focus();
  };

  root.append(el('style', {}, css), box);
  (inline ?? document.body).append(host);
  const first = prefill(survey, initial, responses);
  events.onShown();
  if (first !== 'end') {
    if (first > 0) events.onAnswer(responses, false);
    showQuestion(first);
  } else {
    finished = true;
    events.onAnswer(responses, true);
    if (appearance.displayThankYouMessage) thankYou();
    else remove();
  }
  return { host, remove };
}
