/**
 * Web vitals' settings, posthog-js's names and defaults: which metrics (`web_vitals_allowed_metrics`
 * from the init option, else from the remote `capturePerformance`; all four by default), which
 * carry attribution (`web_vitals_attribution`: true, false or a list; INP and LCP by default), how
 * long a page's first metric waits for the others (`web_vitals_delayed_flush_ms`, 5 s), and the
 * largest value believed (`__web_vitals_max_value`, 15 minutes; 0 turns the check off).
 */
import type { HogtailConfig } from '../../browser/hogtail';
import type { RemoteConfig } from '../../browser/features/hooks';
import { isObject } from '../../core/special-events';

export const ALL_METRICS = ['LCP', 'CLS', 'FCP', 'INP'];
const FIFTEEN_MINUTES = 15 * 60_000;

export interface VitalsSettings {
  readonly metrics: string[];
  readonly attributed: string[];
  readonly delayMs: number;
  readonly maxValue: number;
}

const names = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : undefined;

export function vitalsSettings(config: HogtailConfig, remote: RemoteConfig | undefined): VitalsSettings {
  const own = isObject(config.capture_performance) ? config.capture_performance : {};
  const server = isObject(remote?.capturePerformance) ? remote.capturePerformance : {};
  const attribution = own.web_vitals_attribution;
  const max = typeof own.__web_vitals_max_value === 'number' ? own.__web_vitals_max_value : FIFTEEN_MINUTES;
  return {
    metrics: names(own.web_vitals_allowed_metrics) ?? names(server.web_vitals_allowed_metrics) ?? ALL_METRICS,
    attributed: typeof attribution === 'boolean' ? (attribution ? ALL_METRICS : []) : (names(attribution) ?? ['INP', 'LCP']),
    delayMs:
      typeof own.web_vitals_delayed_flush_ms === 'number' && own.web_vitals_delayed_flush_ms > 0 ? own.web_vitals_delayed_flush_ms : 5000,
    // As posthog-js: a maximum of a minute or less is a mistake, read as the default.
    maxValue: max > 0 && max <= 60_000 ? FIFTEEN_MINUTES : max,
  };
}
