/**
 * The surveys of the Chromium survey scenarios, shared by hogtail's tests (surveys.test.ts) and the
 * same scenarios against posthog-js (surveys-posthog.test.ts).
 */
const running = { type: 'popover', start_date: '2026-01-01T00:00:00Z', end_date: null };
const openQuestion = (id: string) => ({ type: 'open', id, question: 'What could we do better?' });

/** What the collector's /api/surveys/ lists: one survey per scenario, each kept to its page by its URL condition. */
export const SURVEYS = [
  {
    ...running,
    id: 'answer-me',
    name: 'Checkout feedback',
    conditions: { url: '/answer.html' },
    appearance: { displayThankYouMessage: true, thankYouMessageHeader: 'Thanks a lot!' },
    questions: [
      openQuestion('q-open'),
      {
        type: 'rating',
        id: 'q-rate',
        question: 'How likely are you to recommend us?',
        display: 'number',
        scale: 5,
        lowerBoundLabel: 'Unlikely',
        upperBoundLabel: 'Very likely',
      },
    ],
  },
  { ...running, id: 'dismiss-me', name: 'Dismissable', conditions: { url: '/dismiss.html' }, questions: [openQuestion('q-d')] },
  {
    ...running,
    id: 'wrong-url',
    name: 'Elsewhere',
    conditions: { url: '/flags.html?no', urlMatchType: 'exact' },
    questions: [openQuestion('q-w')],
  },
  { ...running, id: 'flag-off', name: 'Flag off', linked_flag_key: 'beta-off', questions: [openQuestion('q-f')] },
  {
    ...running,
    id: 'flag-on',
    name: 'Flag on',
    linked_flag_key: 'beta-on',
    conditions: { url: '/flags.html' },
    questions: [openQuestion('q-n')],
  },
  {
    ...running,
    id: 'partial',
    name: 'Partial responses',
    enable_partial_responses: true,
    conditions: { url: '/partial.html' },
    questions: [openQuestion('q-p1'), { type: 'open', id: 'q-p2', question: 'Anything else?' }],
  },
  {
    ...running,
    id: 'on-event',
    name: 'After checkout',
    conditions: {
      url: '/trigger.html',
      events: { values: [{ name: 'checkout', propertyFilters: { plan: { values: ['pro'], operator: 'exact' } } }] },
    },
    questions: [openQuestion('q-e')],
  },
];
