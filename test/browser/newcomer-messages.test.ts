// @vitest-environment happy-dom
// What the page client tells a newcomer: an empty key is called empty (not "personal"), an api_host
// without a scheme is named with what to write, and calls made before an init() that never comes
// are said, once, after a few seconds (at once in debug mode) instead of waiting in silence.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createHogtail } from '../../src/browser/drop-in';

let errors: string[] = [];
let warnings: string[] = [];
beforeEach(() => {
  localStorage.clear();
  errors = [];
  warnings = [];
  vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
  vi.spyOn(console, 'warn').mockImplementation((line: string) => void warnings.push(line));
  // Nothing here may reach a network: the flags request at init fails at once.
  (globalThis as { fetch: unknown }).fetch = () => Promise.reject(new Error('no network in this test'));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it('an empty or missing project key is called empty or missing, not personal', () => {
  createHogtail().init('', { api_host: 'https://collector.test' });
  createHogtail().init(undefined as never);
  createHogtail().init('phx_personal', { api_host: 'https://collector.test' });
  expect(errors).toEqual([
    '[hogtail] init() needs the project key (phc_…); got an empty string',
    '[hogtail] init() needs the project key (phc_…); got nothing',
    '[hogtail] init() needs the project key (phc_…), not a personal key',
  ]);
});

it('an api_host without a scheme warns and says what to write; full URLs and same-origin paths do not', () => {
  createHogtail().init('phc_a', { api_host: 'us.i.posthog.com', capture_pageview: false, advanced_disable_flags: true });
  createHogtail().init('phc_b', { api_host: 'localhost:8010', capture_pageview: false, advanced_disable_flags: true });
  expect(warnings).toEqual([
    '[hogtail] api_host "us.i.posthog.com" has no scheme; write "https://us.i.posthog.com"',
    '[hogtail] api_host "localhost:8010" has no scheme; write "https://localhost:8010"',
  ]);
  warnings.length = 0;
  for (const api_host of ['https://eu.i.posthog.com', 'http://127.0.0.1:8010', '/ingest', '//collector.test']) {
    createHogtail().init(`phc_${api_host}`, { api_host, capture_pageview: false, advanced_disable_flags: true });
  }
  expect(warnings).toEqual([]);
});

it('calls before an init() that never comes: one warning after 5 s, not before and not again', () => {
  vi.useFakeTimers();
  const client = createHogtail();
  client.capture('signed up');
  client.identify('user-1');
  vi.advanceTimersByTime(4_999);
  expect(warnings).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(warnings).toEqual(['[hogtail] 2 call(s) wait for init(); nothing is sent until it runs']);
  client.capture('again');
  vi.advanceTimersByTime(60_000);
  expect(warnings).toHaveLength(1);
});

it('with debug() called first, the warning comes at once', () => {
  vi.useFakeTimers();
  const client = createHogtail();
  client.debug();
  client.capture('signed up');
  expect(warnings).toEqual(['[hogtail] 1 call(s) wait for init(); nothing is sent until it runs']);
});

it('an init() within the wait says nothing, and the early calls run', () => {
  vi.useFakeTimers();
  const client = createHogtail();
  client.register({ plan: 'pro' });
  vi.advanceTimersByTime(1_000);
  client.init('phc_in_time', { api_host: 'https://collector.test', capture_pageview: false, advanced_disable_flags: true });
  vi.advanceTimersByTime(60_000);
  expect(warnings).toEqual([]);
  expect(client.get_property('plan')).toBe('pro');
});
