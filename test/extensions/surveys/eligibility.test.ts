// The display conditions as pure functions of what the page knows: each rule on its own, with the
// reason posthog-js's canRenderSurvey gives, and the URL and device operators as posthog-js's.
import { describe, expect, it } from 'vitest';
import {
  checkEligibility,
  checkRenderability,
  isRunning,
  pageMatches,
  shouldShow,
  waitPeriodPassed,
  type SurveyEnvironment,
} from '../../../src/extensions/surveys/eligibility';
import { matches } from '../../../src/extensions/surveys/match';
import type { Survey } from '../../../src/extensions/surveys/types';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const DAY = 86_400_000;

const base: Survey = {
  id: 'abc',
  name: 'NPS',
  type: 'popover',
  questions: [{ type: 'open', question: 'Why?' }],
  start_date: '2026-11-01T00:00:00Z',
  end_date: null,
};

function env(
  overrides: Partial<SurveyEnvironment> & { flags?: Record<string, unknown> } = {},
): SurveyEnvironment & { calls: [string, boolean][] } {
  const calls: [string, boolean][] = [];
  const { flags = {}, ...rest } = overrides;
  return {
    href: 'https://shop.example/checkout?step=2',
    deviceType: 'Desktop',
    now: NOW,
    lastShownAt: undefined,
    activated: new Set(),
    hasElement: () => false,
    flag: (key, sendEvent) => (calls.push([key, sendEvent]), flags[key]),
    wasSeen: () => false,
    calls,
    ...rest,
  };
}

describe('matches: posthog-js operators', () => {
  it('contains (the default) ignores case; exact, is_not, regex, not_regex, not_icontains', () => {
    const href = 'https://Shop.example/Checkout';
    expect(matches(href, ['checkout'])).toBe(true);
    expect(matches(href, ['checkout'], null)).toBe(true);
    expect(matches(href, ['cart'], 'icontains')).toBe(false);
    expect(matches(href, ['cart'], 'not_icontains')).toBe(true);
    expect(matches(href, ['CHECKOUT'], 'not_icontains')).toBe(false);
    expect(matches(href, [href], 'exact')).toBe(true);
    expect(matches(href, [href + '/'], 'exact')).toBe(false);
    expect(matches(href, [href], 'is_not')).toBe(false);
    expect(matches(href, ['other'], 'is_not')).toBe(true);
    expect(matches(href, ['^https://[A-Z]\\w+\\.example/'], 'regex')).toBe(true);
    expect(matches(href, ['/cart$'], 'regex')).toBe(false);
    expect(matches(href, ['/cart$'], 'not_regex')).toBe(true);
  });

  it('a regex that does not compile matches nothing and does not throw; an unknown operator matches nothing', () => {
    expect(matches('x', ['(unclosed'], 'regex')).toBe(false);
    expect(matches('x', ['(unclosed'], 'not_regex')).toBe(true);
    expect(matches('x', ['x'], 'gt' as never)).toBe(false);
  });
});

describe('checkEligibility', () => {
  it('a running popover with no conditions may be shown', () => {
    expect(checkEligibility(base, env())).toEqual({ eligible: true });
    expect(shouldShow(base, env())).toBe(true);
  });

  it('start and end dates: not before the start, not from the end on, no start date: not running', () => {
    expect(isRunning({ ...base, start_date: '2026-12-01T00:00:00Z' }, NOW)).toBe(false);
    expect(isRunning({ ...base, end_date: '2026-11-28T00:00:00Z' }, NOW)).toBe(false);
    expect(isRunning({ ...base, end_date: '2026-12-28T00:00:00Z' }, NOW)).toBe(true);
    expect(isRunning({ ...base, start_date: null }, NOW)).toBe(false);
    expect(checkEligibility({ ...base, end_date: '2026-11-28T00:00:00Z' }, env()).reason).toMatch(/not running/);
  });

  it('only popover, widget and api surveys render in the page', () => {
    expect(checkEligibility({ ...base, type: 'widget' }, env()).eligible).toBe(true);
    expect(checkEligibility({ ...base, type: 'api' }, env()).eligible).toBe(true);
    expect(checkEligibility({ ...base, type: 'external_survey' }, env()).reason).toBe(
      'surveys of type external_survey are not shown in the page',
    );
  });

  it('the linked flag must be on, for the variant when one is set ("any": any)', () => {
    const linked = { ...base, linked_flag_key: 'beta' };
    expect(checkEligibility(linked, env()).reason).toBe('the linked flag beta is not enabled');
    expect(checkEligibility(linked, env({ flags: { beta: true } })).eligible).toBe(true);
    const variant = { ...linked, conditions: { linkedFlagVariant: 'test' } };
    expect(checkEligibility(variant, env({ flags: { beta: 'control' } })).reason).toBe(
      'the linked flag beta is not enabled for variant test',
    );
    expect(checkEligibility(variant, env({ flags: { beta: 'test' } })).eligible).toBe(true);
    expect(checkEligibility({ ...linked, conditions: { linkedFlagVariant: 'any' } }, env({ flags: { beta: 'control' } })).eligible).toBe(
      true,
    );
  });

  it('the targeting and internal targeting flags must be on; survey-targeting flags are not counted as flag calls', () => {
    const targeted = { ...base, targeting_flag_key: 'survey-targeting-abc', internal_targeting_flag_key: 'survey-targeting-abc-internal' };
    expect(checkEligibility(targeted, env()).reason).toBe('the targeting flag survey-targeting-abc is not enabled');
    const on = env({ flags: { 'survey-targeting-abc': true } });
    expect(checkEligibility(targeted, on).reason).toMatch(/internal targeting flag is off/);
    expect(on.calls.every(([, sendEvent]) => sendEvent === false)).toBe(true);
    const linked = env({ flags: { beta: true } });
    checkEligibility({ ...base, linked_flag_key: 'beta' }, linked);
    expect(linked.calls).toEqual([['beta', true]]);
  });

  it('a survey that may repeat ignores the internal targeting flag and what was seen', () => {
    const repeating: Survey = {
      ...base,
      internal_targeting_flag_key: 'survey-targeting-abc-internal',
      conditions: { events: { repeatedActivation: true, values: [{ name: 'checkout' }] } },
    };
    expect(checkEligibility(repeating, env({ wasSeen: () => true })).eligible).toBe(true);
    expect(checkEligibility({ ...base, schedule: 'always' }, env({ wasSeen: () => true })).eligible).toBe(true);
    expect(checkEligibility(base, env({ wasSeen: () => true })).reason).toBe('it was seen already on this device');
  });

  it('the wait period counts whole days since any survey was last shown, rounded up', () => {
    expect(waitPeriodPassed(undefined, NOW - DAY, NOW)).toBe(true);
    expect(waitPeriodPassed(3, undefined, NOW)).toBe(true);
    expect(waitPeriodPassed(3, NOW - 3 * DAY, NOW)).toBe(false);
    expect(waitPeriodPassed(3, NOW - 3 * DAY - 1, NOW)).toBe(true);
    const waiting = { ...base, conditions: { seenSurveyWaitPeriodInDays: 7 } };
    expect(checkEligibility(waiting, env({ lastShownAt: NOW - 2 * DAY })).reason).toBe('a survey was shown less than its wait period ago');
    expect(checkEligibility(waiting, env({ lastShownAt: NOW - 8 * DAY })).eligible).toBe(true);
  });
});

describe('page conditions, triggers and the other flags', () => {
  it('URL with each match type, device types, and a selector present in the page', () => {
    const on = (conditions: Survey['conditions']) => pageMatches({ ...base, conditions }, env({ hasElement: (s) => s === '#pay' }));
    expect(on({ url: 'checkout' })).toBe(true);
    expect(on({ url: 'pricing' })).toBe(false);
    expect(on({ url: 'https://shop.example/checkout?step=2', urlMatchType: 'exact' })).toBe(true);
    expect(on({ url: 'https://shop.example/checkout', urlMatchType: 'exact' })).toBe(false);
    expect(on({ url: 'checkout', urlMatchType: 'not_icontains' })).toBe(false);
    expect(on({ url: '/checkout\\?step=\\d$', urlMatchType: 'regex' })).toBe(true);
    expect(on({ deviceTypes: ['Mobile', 'Tablet'] })).toBe(false);
    expect(on({ deviceTypes: ['Desktop'] })).toBe(true);
    expect(on({ deviceTypes: ['Mobile'], deviceTypesMatchType: 'is_not' })).toBe(true);
    expect(on({ selector: '#pay' })).toBe(true);
    expect(on({ selector: '#missing' })).toBe(false);
  });

  it('a survey triggered by an event waits for it: not shown, not renderable, until activated', () => {
    const byEvent: Survey = { ...base, conditions: { events: { values: [{ name: 'checkout' }] } } };
    expect(shouldShow(byEvent, env())).toBe(false);
    expect(checkRenderability(byEvent, env())).toEqual({ eligible: false, reason: 'its trigger event has not been captured yet' });
    expect(shouldShow(byEvent, env({ activated: new Set(['abc']) }))).toBe(true);
  });

  it('feature_flag_keys: each with a value names a flag that must be on', () => {
    const flagged = { ...base, feature_flag_keys: [{ key: 'linked_flag_key', value: 'beta' }, { key: 'empty' }] };
    expect(shouldShow(flagged, env())).toBe(false);
    expect(shouldShow(flagged, env({ flags: { beta: true } }))).toBe(true);
  });
});
