/**
 * Whether dead clicks are on, by posthog-js's rule: `capture_dead_clicks` true/false wins, an
 * object of its settings turns them on; else the project's remote `captureDeadClicks`. Shared by
 * the script tag's loader and the extension, so both decide alike.
 */
import type { HogtailConfig } from '../../browser/hogtail';
import type { RemoteConfig } from '../../browser/features/hooks';
import { isObject } from '../../core/special-events';

export function deadClicksWanted(config: HogtailConfig, remote: RemoteConfig | undefined): boolean {
  const own = config.capture_dead_clicks;
  return typeof own === 'boolean' ? own : isObject(own) || !!remote?.captureDeadClicks;
}
