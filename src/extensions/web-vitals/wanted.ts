/**
 * Whether web vitals are on, by posthog-js's rule: `capture_performance` (true/false, or its
 * `web_vitals` key) wins; when it says nothing, the project's remote `capturePerformance.web_vitals`
 * decides. Shared by the script tag's loader (whether to fetch the file) and the extension itself
 * (whether to start, for npm apps that import it statically), so both decide alike.
 */
import type { HogtailConfig } from '../../browser/hogtail';
import type { RemoteConfig } from '../../browser/features/hooks';
import { isObject } from '../../core/special-events';

export function webVitalsWanted(config: HogtailConfig, remote: RemoteConfig | undefined): boolean {
  const own = config.capture_performance;
  const local = isObject(own) ? own.web_vitals : own;
  if (typeof local === 'boolean') return local;
  const server = remote?.capturePerformance;
  return isObject(server) && !!server.web_vitals;
}
