/**
 * Whether heatmaps are on, by posthog-js's rule: `capture_heatmaps` (anything but false turns
 * them on), else `enable_heatmaps`, else the project's remote `heatmaps`. Shared by the script
 * tag's loader and the extension, so both decide alike.
 */
import type { HogtailConfig } from '../../browser/hogtail';
import type { RemoteConfig } from '../../browser/features/hooks';

export function heatmapsWanted(config: HogtailConfig, remote: RemoteConfig | undefined): boolean {
  if (config.capture_heatmaps != null) return config.capture_heatmaps !== false;
  if (config.enable_heatmaps != null) return !!config.enable_heatmaps;
  return !!remote?.heatmaps;
}
