/**
 * The heatmaps extension: once `capture_heatmaps` / `enable_heatmaps` or the project's remote
 * `heatmaps` turns it on (wanted.ts), clicks and resting mouse positions are collected in page
 * coordinates (collector.ts) and sent as posthog-js sends them: a `$$heatmap` event through the
 * public client (so the batch endpoint, opt-out, consent and before_send apply) every 5 s while
 * the page is visible, and at pagehide before the unload beacon. The scroll heatmap needs nothing
 * here: PostHog reads it from `$prev_pageview_max_scroll_percentage` and its siblings, which the
 * client already sends on `$pageview` and `$pageleave`. For `hogtail dev`, whose remote config asks
 * for it, the first send from each URL also carries the outline of its clickable elements.
 */
import type { Extension, ExtensionContext } from '../../browser/features/feature';
import type { FeatureHooks } from '../../browser/features/hooks';
import { isObject } from '../../core/special-events';
import { safely } from '../common/report';
import { createHeatmapCollector, type HeatmapCollector } from './collector';
import { outlineOf } from './outline';
import { heatmapsWanted } from './wanted';
import { pageUrl } from '../common/page-url';

export const HEATMAPS = 'heatmaps';

function start(context: ExtensionContext): HeatmapCollector {
  const { client, config } = context;
  const own = isObject(config.capture_heatmaps) ? config.capture_heatmaps.flush_interval_milliseconds : undefined;
  const outlined = new Set<string>();
  const collector = createHeatmapCollector({
    flushMs: typeof own === 'number' && own > 0 ? own : 5000,
    rageclicks: config.rageclick !== false,
    scrollRoot: config.scroll_root_selector,
    url: () => pageUrl(context),
    send(data) {
      const properties: Record<string, unknown> = { $heatmap_data: data };
      const remote = context.remoteConfig()?.heatmaps;
      if (isObject(remote) && remote.outline === true && !outlined.has(location.href)) {
        outlined.add(location.href);
        properties.$heatmap_outline = outlineOf();
      }
      client.capture('$$heatmap', properties);
    },
  });
  // Capture phase, passive: an app's stopPropagation cannot hide a click, and nothing waits on us.
  const listen = { capture: true, passive: true };
  document.addEventListener('click', safely(context, HEATMAPS, 'a click', collector.click), listen);
  document.addEventListener('mousemove', safely(context, HEATMAPS, 'a mouse move', collector.move), listen);
  document.addEventListener('visibilitychange', safely(context, HEATMAPS, 'the schedule', collector.visibility));
  collector.visibility();
  return collector;
}

export const heatmaps: Extension = {
  name: HEATMAPS,
  setup(context): FeatureHooks {
    let collector: HeatmapCollector | undefined;
    const startIfWanted = (remote = context.remoteConfig()) => {
      if (!collector && heatmapsWanted(context.config, remote)) collector = start(context);
    };
    startIfWanted();
    return { onRemoteConfig: startIfWanted, onUnload: () => collector?.flush() };
  },
};
