/**
 * One question as a form part, with native controls so the browser gives keyboard use, focus and
 * roles for free: open text is a labelled textarea; a rating, a single choice and a multiple choice
 * are a fieldset of radio buttons or checkboxes whose legend is the question; an "other" choice has
 * its own labelled text field; a link question is the submit button. `value()` is the answer,
 * undefined while there is none.
 */
import type { SurveyAppearance, SurveyQuestion } from '../types';
import { el, uid } from './dom';

export interface QuestionView {
  readonly node: HTMLElement;
  value(): unknown;
}

/**
 * Told when the answer changes; `submitNow`: the question asks to go on without the button
 * (skipSubmitButton). Only a pointer's choice goes on by itself: arrow keys move through a radio
 * group choosing as they go, so a keyboard user goes on with Enter or the button, which stays.
 */
export type OnAnswer = (submitNow?: boolean) => void;

/** Whether the last input in `node` came from a pointer (a click), not the keyboard. */
function pointerTracker(node: HTMLElement): () => boolean {
  let pointer = false;
  node.addEventListener('pointerdown', () => (pointer = true));
  node.addEventListener('keydown', () => (pointer = false));
  return () => pointer;
}

const EMOJI: Record<number, string[]> = { 3: ['😞', '😐', '😊'], 5: ['😡', '😞', '😐', '😊', '😍'] };

/** The question's title and description, and the ids that name them. */
function heading(question: SurveyQuestion, tag: 'legend' | 'label', control?: string) {
  const id = uid('q');
  const describedBy = question.description ? uid('d') : undefined;
  const title = el(tag, { id, for: control }, question.question);
  const description = describedBy ? el('p', { id: describedBy }, question.description ?? '') : null;
  return { id, describedBy, title, description };
}

function openText(question: SurveyQuestion, appearance: SurveyAppearance, onAnswer: OnAnswer): QuestionView {
  const control = uid('t');
  const head = heading(question, 'label', control);
  const area = el('textarea', {
    id: control,
    placeholder: appearance.placeholder || undefined,
    'aria-describedby': head.describedBy,
    'aria-required': !question.optional || undefined,
    oninput: () => onAnswer(),
  });
  return { node: el('div', {}, head.title, head.description, area), value: () => area.value.trim() || undefined };
}

function link(question: SurveyQuestion): QuestionView {
  const head = heading(question, 'label');
  return { node: el('div', {}, el('h2', { id: head.id }, question.question), head.description), value: () => 'link clicked' };
}

/** A radio or checkbox group in a fieldset named by the question. */
function group(question: SurveyQuestion, ...items: Node[]) {
  const head = heading(question, 'legend');
  return el('fieldset', { 'aria-describedby': head.describedBy }, head.title, head.description, ...items);
}

function rating(question: SurveyQuestion, onAnswer: OnAnswer): QuestionView {
  const scale = question.scale ?? 5;
  const values = scale === 10 ? [...Array(11).keys()] : [...Array(scale).keys()].map((i) => i + 1);
  const emoji = question.display === 'emoji' ? EMOJI[scale] : undefined;
  const name = uid('r');
  let byPointer = () => false;
  const inputs = values.map((value) =>
    el('input', {
      class: 'sr',
      type: 'radio',
      name,
      value,
      'aria-label': emoji ? `${value} of ${scale}` : undefined,
      onchange: () => onAnswer(!!question.skipSubmitButton && byPointer()),
    }),
  );
  const scaleRow = el(
    'div',
    { class: 'scale' },
    ...inputs.map((input, i) =>
      el('label', {}, input, el('span', { 'aria-hidden': !!emoji || undefined }, emoji?.[i] ?? String(values[i]))),
    ),
  );
  // The bounds' words follow the scale, read in order after it ("Unlikely", "Very likely").
  const bounds = el(
    'div',
    { class: 'bounds' },
    el('span', {}, question.lowerBoundLabel ?? ''),
    el('span', {}, question.upperBoundLabel ?? ''),
  );
  const checked = () => inputs.find((input) => input.checked);
  const node = group(question, scaleRow, bounds);
  byPointer = pointerTracker(node);
  return { node, value: () => (checked() ? Number(checked()!.value) : undefined) };
}

function choices(question: SurveyQuestion, onAnswer: OnAnswer): QuestionView {
  const multiple = question.type === 'multiple_choice';
  const list = question.choices ?? [];
  const name = uid('c');
  let byPointer = () => false;
  let other: HTMLInputElement | undefined;
  const rows = list.map((choice, i) => {
    const id = uid('o');
    const isOther = !!question.hasOpenChoice && i === list.length - 1;
    const input = el('input', {
      id,
      type: multiple ? 'checkbox' : 'radio',
      name,
      value: choice,
      onchange: () => (
        isOther && input.checked && other?.focus(), onAnswer(!multiple && !isOther && !!question.skipSubmitButton && byPointer())
      ),
    });
    if (isOther) {
      other = el('input', {
        type: 'text',
        'aria-label': choice,
        oninput: () => ((input.checked = !!other!.value || input.checked), onAnswer()),
      });
    }
    return el('div', { class: 'choice' }, input, el('label', { for: id }, choice), isOther && other);
  });
  const inputs = rows.map((row) => row.querySelector('input')!);
  const answers = () =>
    inputs.flatMap((input, i) => {
      if (!input.checked) return [];
      const typed = question.hasOpenChoice && i === inputs.length - 1 ? other!.value.trim() : input.value;
      return typed ? [typed] : [];
    });
  const value = () => (multiple ? (answers().length ? answers() : undefined) : answers()[0]);
  const node = group(question, ...rows);
  byPointer = pointerTracker(node);
  return { node, value };
}

/** The form part for `question` (an unknown type: shown as text, answered by its button). */
export function questionView(question: SurveyQuestion, appearance: SurveyAppearance, onAnswer: OnAnswer): QuestionView {
  switch (question.type) {
    case 'open':
      return openText(question, appearance, onAnswer);
    case 'rating':
      return rating(question, onAnswer);
    case 'single_choice':
    case 'multiple_choice':
      return choices(question, onAnswer);
    default:
      return link(question);
  }
}
