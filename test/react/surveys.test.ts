// @vitest-environment happy-dom
// useThumbSurvey (posthog-js/react/surveys' hook) with the surveys extension from its npm entry and
// a real collector on 127.0.0.1 that answers flags (the project has surveys) and /api/surveys/:
// `survey shown` on mount, then a thumbs up is the first answer and the rest of the survey opens
// past it; its answer sends `survey sent` with both responses.
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHogtail, registerExtension } from '../../src/browser';
import { createCollector, defaultDecideResponse, type Collector } from '../../src/devserver';
import { surveys } from '../../src/extensions/surveys';
import { PostHogProvider, useThumbSurvey } from '../../src/react';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const THUMBS = {
  id: 'thumbs',
  name: 'Was this helpful?',
  type: 'api',
  start_date: '2026-01-01T00:00:00Z',
  questions: [
    { type: 'rating', id: 'q-thumb', question: 'Was this helpful?', display: 'emoji', scale: 2 },
    { type: 'open', id: 'q-why', question: 'What was missing?' },
  ],
};

let collector: Collector;
beforeAll(async () => {
  collector = await createCollector({ decide: () => ({ ...defaultDecideResponse(), surveys: true }), surveys: () => [THUMBS] });
});
afterAll(() => collector.close());

const until = async <T>(read: () => T): Promise<T> => {
  for (let i = 0; i < 400; i++) {
    const value = read();
    if (value) return value;
    await act(() => new Promise((resolve) => setTimeout(resolve, 25)));
  }
  throw new Error('timed out');
};

function Thumbs() {
  const { respond, response, triggerRef } = useThumbSurvey({ surveyId: 'thumbs', properties: { page: 'docs' } });
  return createElement('div', { ref: triggerRef }, createElement('button', { id: 'up', onClick: () => respond('up') }, response ?? 'up'));
}

it('sends survey shown on mount; a thumbs up opens the rest of the survey, whose answer sends both responses', async () => {
  registerExtension(surveys);
  const client = createHogtail();
  client.init('phc_thumbs', { api_host: collector.url, capture_pageview: false, flush_at: 1 });
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(createElement(PostHogProvider, { client }, createElement(Thumbs))));

  await collector.waitForEvents(1, 10_000);
  expect(collector.events[0]).toMatchObject({ event: 'survey shown', properties: { $survey_id: 'thumbs', page: 'docs' } });

  await act(async () => (container.querySelector('#up') as HTMLButtonElement).click());
  expect(container.querySelector('#up')!.textContent).toBe('up');
  const host = (await until(() => document.querySelector('.hogtail-survey')))!;
  const area = host.shadowRoot!.querySelector('textarea')!;
  expect(host.shadowRoot!.querySelector('label')!.textContent).toBe('What was missing?');
  area.value = 'More examples';
  area.dispatchEvent(new Event('input'));
  host.shadowRoot!.querySelector('form')!.requestSubmit();

  const events = await collector.waitForEvents(2, 10_000);
  expect(events.map((event) => event.event)).toEqual(['survey shown', 'survey sent']);
  expect(events[1]!.properties).toMatchObject({
    $survey_id: 'thumbs',
    page: 'docs',
    '$survey_response_q-thumb': 1,
    '$survey_response_q-why': 'More examples',
    $survey_completed: true,
  });
  await act(async () => root.unmount());
});
