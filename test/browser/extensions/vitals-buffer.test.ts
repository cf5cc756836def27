// @vitest-environment happy-dom
// A page's web vitals until they leave as one `$web_vitals` event: posthog-js's shape (each
// metric's _value and _event, no raw entries), sent once every allowed metric is in, when the
// page's URL changes, when asked, and never with a value too large to be believed.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createVitalsBuffer } from '../../../src/extensions/web-vitals/buffer';
import type { Metric } from '../../../src/extensions/web-vitals/metrics';
import type { VitalsSettings } from '../../../src/extensions/web-vitals/settings';

const metric = (name: string, value: number): Metric => ({
  name,
  value,
  delta: value,
  rating: 'good',
  id: `v1-${name}`,
  navigationType: 'navigate',
  navigationId: 1,
  navigationURL: 'https://app.test/',
  navigationStartTime: 0,
  entries: [{ startTime: 1 } as PerformanceEntry],
});

let sent: Record<string, unknown>[];
const settings: VitalsSettings = { metrics: ['LCP', 'FCP'], attributed: [], delayMs: 5000, maxValue: 15 * 60_000 };
beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
});
afterEach(() => vi.useRealTimers());

it('sends one event once every allowed metric is in, in posthog-js’s shape', () => {
  const buffer = createVitalsBuffer(
    () => settings,
    (properties) => sent.push(properties),
  );
  buffer.add(metric('FCP', 120), 'https://app.test/a', 'session-1');
  expect(sent).toEqual([]);
  buffer.add(metric('LCP', 900), 'https://app.test/a', 'session-1');
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({
    $current_url: 'https://app.test/a',
    $web_vitals_FCP_value: 120,
    $web_vitals_LCP_value: 900,
    $web_vitals_LCP_event: {
      name: 'LCP',
      value: 900,
      id: 'v1-LCP',
      navigationId: 1,
      $current_url: 'https://app.test/a',
      $session_id: 'session-1',
    },
  });
  expect(sent[0]!.$web_vitals_LCP_event).not.toHaveProperty('entries');
});

it('sends what a page gathered when the next metric comes from another URL, after the delay, or when moved', () => {
  const buffer = createVitalsBuffer(
    () => settings,
    (properties) => sent.push(properties),
  );
  buffer.add(metric('FCP', 100), 'https://app.test/a', undefined);
  buffer.add(metric('FCP', 200), 'https://app.test/b', undefined);
  expect(sent.map((each) => [each.$current_url, each.$web_vitals_FCP_value])).toEqual([['https://app.test/a', 100]]);
  vi.advanceTimersByTime(5000);
  expect(sent.map((each) => each.$current_url)).toEqual(['https://app.test/a', 'https://app.test/b']);
  buffer.add(metric('FCP', 300), 'https://app.test/c', undefined);
  buffer.moved('https://app.test/c');
  expect(sent).toHaveLength(2);
  buffer.moved('https://app.test/d');
  expect(sent.map((each) => each.$current_url)).toEqual(['https://app.test/a', 'https://app.test/b', 'https://app.test/c']);
});

it('leaves out values of 15 minutes or more, as posthog-js does', () => {
  const buffer = createVitalsBuffer(
    () => settings,
    (properties) => sent.push(properties),
  );
  buffer.add(metric('LCP', 15 * 60_000), 'https://app.test/a', undefined);
  buffer.flush();
  expect(sent).toEqual([]);
});
