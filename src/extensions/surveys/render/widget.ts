/**
 * The feedback-button widget: a survey the person opens themselves. `tab` puts a labelled button on
 * the edge of the page; `selector` makes the app's own element (appearance.widgetSelector) open it.
 * Either way the survey opens as a popover and focus returns to the button after it.
 */
import type { Hogtail } from '../../../browser/hogtail';
import { displaySurvey } from '../display';
import type { Survey } from '../types';
import { el } from './dom';
import { surveyStyles } from './styles';

/** Puts the widget on the page; answers how to take it off. */
export function showWidget(client: Hogtail, survey: Survey): () => void {
  const appearance = survey.appearance ?? {};
  let open = false;
  const openSurvey = () => {
    if (open) return;
    open = true;
    displaySurvey(client, survey, { onClose: () => (open = false) });
  };
  if (appearance.widgetType === 'selector') {
    const listener = (event: Event) => {
      const selector = appearance.widgetSelector;
      if (selector && (event.target as Element | null)?.closest?.(selector)) openSurvey();
    };
    document.addEventListener('click', listener);
    return () => document.removeEventListener('click', listener);
  }
  const { css, vars } = surveyStyles(appearance);
  const host = el('div', { class: 'hogtail-survey-widget', 'data-survey-id': survey.id, style: vars });
  const root = host.attachShadow({ mode: 'open' });
  root.append(
    el('style', {}, css),
    el('button', { class: 'tab', type: 'button', onclick: openSurvey }, appearance.widgetLabel || 'Feedback'),
  );
  document.body.append(host);
  return () => host.remove();
}
