/**
 * A page's metrics until they are sent as one `$web_vitals` event, posthog-js's shape: for each
 * metric `$web_vitals_<NAME>_value` and `$web_vitals_<NAME>_event` (name, value, delta, rating,
 * id, the navigation's type, id, URL and start, `$current_url`, timestamp, `$session_id`, and
 * attribution where asked;
 * never the raw performance entries, which serialise to `[{}]`), and the page's `$current_url`.
 * A metric from another URL first sends what the previous page gathered.
 */
import type { Metric } from './metrics';
import { attributionOf } from './attribution';
import type { VitalsSettings } from './settings';

export interface VitalsBuffer {
  /** Adds a metric; sends the page's event once every allowed metric is in. */
  add(metric: Metric, url: string, sessionId: string | undefined): void;
  /** Sends what is gathered (nothing when empty). */
  flush(): void;
  /** The page is now at `currentUrl` (a route change): what another URL gathered is sent. */
  moved(currentUrl: string): void;
}

type Send = (properties: Record<string, unknown>) => void;

export function createVitalsBuffer(settings: () => VitalsSettings, send: Send): VitalsBuffer {
  let url: string | undefined;
  let metrics: Record<string, unknown>[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!metrics.length) return;
    const properties: Record<string, unknown> = { $current_url: url };
    for (const metric of metrics) {
      properties[`$web_vitals_${metric.name}_event`] = metric;
      properties[`$web_vitals_${metric.name}_value`] = metric.value;
    }
    metrics = [];
    url = undefined;
    send(properties);
  };

  const add = (metric: Metric, currentUrl: string, sessionId: string | undefined) => {
    const { metrics: allowed, attributed, delayMs, maxValue } = settings();
    // Values this large are measurement errors (a tab left in the background), as posthog-js judges.
    if (typeof metric.value !== 'number' || (maxValue && metric.value >= maxValue)) return;
    if (url !== currentUrl) {
      flush();
      url = currentUrl;
      // Poor is over 4 s: the page's first metric waits a little for the others.
      timer = setTimeout(flush, delayMs);
    }
    // Never the raw entries (they serialise to [{}]); attribution only as attributionOf() makes it.
    const { entries: _entries, ...fields } = metric;
    const kept: Record<string, unknown> = { ...fields, $current_url: currentUrl, timestamp: Date.now() };
    const { name } = metric;
    if (sessionId) kept.$session_id = sessionId;
    if (attributed.includes(name)) kept.attribution = attributionOf(metric);
    metrics = metrics.filter((each) => each.name !== name).concat(kept);
    if (metrics.length >= allowed.length) flush();
  };

  return { add, flush, moved: (currentUrl) => void (url !== currentUrl && flush()) };
}
