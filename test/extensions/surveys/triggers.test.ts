// Event triggers: which events activate a survey (by name and property filters), which cancel it,
// and when an activation is used up (posthog-js's rules: a repeating survey once shown, another
// once answered or dismissed).
import { describe, expect, it } from 'vitest';
import { createTriggers } from '../../../src/extensions/surveys/triggers';
import type { Survey } from '../../../src/extensions/surveys/types';

const survey = (id: string, conditions: Survey['conditions']): Survey => ({ id, name: id, type: 'popover', questions: [], conditions });

describe('triggers', () => {
  it('an event activates the surveys that name it, when its properties pass the filters', () => {
    const triggers = createTriggers();
    triggers.watch([
      survey('plain', { events: { values: [{ name: 'checkout' }] } }),
      survey('filtered', { events: { values: [{ name: 'checkout', propertyFilters: { plan: { values: ['pro'], operator: 'exact' } } }] } }),
      survey('other', { events: { values: [{ name: 'signup' }] } }),
    ]);
    expect(triggers.hear('pageview', {})).toBe(false);
    expect(triggers.hear('checkout', { plan: 'free' })).toBe(true);
    expect([...triggers.activated]).toEqual(['plain']);
    triggers.hear('checkout', { plan: 'pro' });
    expect([...triggers.activated].sort()).toEqual(['filtered', 'plain']);
    expect(triggers.hear('checkout', {})).toBe(false);
  });

  it('a missing filtered property does not pass; a cancel event deactivates', () => {
    const triggers = createTriggers();
    triggers.watch([
      survey('s', {
        events: { values: [{ name: 'buy', propertyFilters: { total: { values: ['10'], operator: 'icontains' } } }] },
        cancelEvents: { values: [{ name: 'refund' }] },
      }),
    ]);
    triggers.hear('buy', {});
    expect(triggers.activated.size).toBe(0);
    triggers.hear('buy', { total: 100 });
    expect(triggers.activated.has('s')).toBe(true);
    expect(triggers.hear('refund', {})).toBe(true);
    expect(triggers.activated.size).toBe(0);
  });

  it('a one-time survey stays active once shown, until answered or dismissed; a repeating one is used up when shown', () => {
    const triggers = createTriggers();
    triggers.watch([
      survey('once', { events: { values: [{ name: 'go' }] } }),
      survey('again', { events: { repeatedActivation: true, values: [{ name: 'go' }] } }),
    ]);
    triggers.hear('go', {});
    triggers.hear('survey shown', { $survey_id: 'once' });
    triggers.hear('survey shown', { $survey_id: 'again' });
    expect([...triggers.activated]).toEqual(['once']);
    triggers.hear('survey sent', { $survey_id: 'once', $survey_completed: false });
    expect([...triggers.activated]).toEqual(['once']);
    triggers.hear('survey dismissed', { $survey_id: 'once' });
    expect(triggers.activated.size).toBe(0);
    triggers.hear('go', {});
    expect([...triggers.activated].sort()).toEqual(['again', 'once']);
  });
});
