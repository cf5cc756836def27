/**
 * The browser products `hogtail dev` turns on in its remote config, so a page on hogtail or
 * posthog-js captures them with no line of app code, as a PostHog project with them switched on in
 * its settings would: web vitals (`capturePerformance`), heatmaps (`heatmaps`) and dead clicks
 * (`captureDeadClicks`). All on by default; each can be turned off (the devserver option
 * `products`, the CLI's `--no-web-vitals`, `--no-heatmaps`, `--no-dead-clicks`).
 *
 * Heatmaps are answered as `{ outline: true }`, not `true`: truthy to posthog-js and hogtail alike
 * (both read `!!heatmaps`), and hogtail's heatmaps extension then also sends the outline of the
 * page's clickable elements that the live page draws the clicks over (PostHog's own answer is
 * `true`, so nothing extra is sent there).
 */
export interface DevProducts {
  webVitals: boolean;
  heatmaps: boolean;
  deadClicks: boolean;
}

export const ALL_PRODUCTS: DevProducts = { webVitals: true, heatmaps: true, deadClicks: true };

/** The remote config keys for `products`, as PostHog's flags answer and `/array/<key>/config` carry them. */
export function productsRemoteConfig(products: DevProducts): Record<string, unknown> {
  return {
    capturePerformance: products.webVitals ? { web_vitals: true, network_timing: false } : false,
    heatmaps: products.heatmaps ? { outline: true } : false,
    captureDeadClicks: products.deadClicks,
  };
}
