// Which products the init options and the remote config turn on: posthog-js's rules, the init
// option winning whenever it says anything, shared by the script tag's loader and each extension.
import { expect, it } from 'vitest';
import type { HogtailConfig } from '../../../src/browser/hogtail';
import { deadClicksWanted } from '../../../src/extensions/dead-clicks/wanted';
import { heatmapsWanted } from '../../../src/extensions/heatmaps/wanted';
import { webVitalsWanted } from '../../../src/extensions/web-vitals/wanted';

const config = (options: Record<string, unknown>) => options as HogtailConfig;

it('web vitals: capture_performance (or its web_vitals) wins, else the remote capturePerformance.web_vitals', () => {
  const on = { capturePerformance: { web_vitals: true } };
  expect(webVitalsWanted(config({}), undefined)).toBe(false);
  expect(webVitalsWanted(config({}), on)).toBe(true);
  expect(webVitalsWanted(config({}), { capturePerformance: true })).toBe(false);
  expect(webVitalsWanted(config({}), { capturePerformance: { network_timing: true } })).toBe(false);
  expect(webVitalsWanted(config({ capture_performance: false }), on)).toBe(false);
  expect(webVitalsWanted(config({ capture_performance: { web_vitals: false } }), on)).toBe(false);
  expect(webVitalsWanted(config({ capture_performance: true }), undefined)).toBe(true);
  expect(webVitalsWanted(config({ capture_performance: { web_vitals: true } }), { capturePerformance: false })).toBe(true);
  // An object without web_vitals says nothing about them: the remote config decides.
  expect(webVitalsWanted(config({ capture_performance: { network_timing: false } }), on)).toBe(true);
});

it('heatmaps: capture_heatmaps (anything but false), else enable_heatmaps, else the remote heatmaps', () => {
  expect(heatmapsWanted(config({}), undefined)).toBe(false);
  expect(heatmapsWanted(config({}), { heatmaps: true })).toBe(true);
  expect(heatmapsWanted(config({}), { heatmaps: { outline: true } })).toBe(true);
  expect(heatmapsWanted(config({ enable_heatmaps: false }), { heatmaps: true })).toBe(false);
  expect(heatmapsWanted(config({ capture_heatmaps: { flush_interval_milliseconds: 1000 } }), { heatmaps: false })).toBe(true);
  expect(heatmapsWanted(config({ capture_heatmaps: false, enable_heatmaps: true }), undefined)).toBe(false);
});

it('dead clicks: capture_dead_clicks true/false wins, an object of settings turns them on, else the remote captureDeadClicks', () => {
  expect(deadClicksWanted(config({}), undefined)).toBe(false);
  expect(deadClicksWanted(config({}), { captureDeadClicks: true })).toBe(true);
  expect(deadClicksWanted(config({ capture_dead_clicks: false }), { captureDeadClicks: true })).toBe(false);
  expect(deadClicksWanted(config({ capture_dead_clicks: { mutation_threshold_ms: 1000 } }), { captureDeadClicks: false })).toBe(true);
});
