/**
 * The attribution posthog-js sends with a metric (by default for INP and LCP): which element, and
 * where the time went. posthog-js loads web-vitals' attribution build for it and keeps a few
 * scalar fields; that build alone is about 5.4 KB gzipped (docs/budgets.md, "Issue #26"), over
 * this file's whole budget, so the same fields are computed here from the metric's own
 * performance entries and the navigation's timing.
 */
import type { Metric } from './metrics';
import { selectorOf } from '../common/selector';

type Attribution = Record<string, string | number | undefined>;

const navigation = () => performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;

/** Time to first byte, as web-vitals counts it (0 when the browser has no navigation timing). */
const firstByte = (nav = navigation()) => Math.max(0, nav?.responseStart ?? 0);

function lcp(metric: Metric): Attribution {
  const entry = metric.entries.at(-1) as LargestContentfulPaint | undefined;
  const ttfb = firstByte();
  const resource = entry?.url
    ? (performance.getEntriesByName(entry.url, 'resource')[0] as PerformanceResourceTiming | undefined)
    : undefined;
  const requestStart = Math.max(ttfb, resource ? resource.requestStart || resource.startTime : 0);
  const responseEnd = Math.min(metric.value, Math.max(requestStart, resource?.responseEnd ?? 0));
  return {
    target: selectorOf(entry?.element),
    url: entry?.url || undefined,
    timeToFirstByte: ttfb,
    resourceLoadDelay: requestStart - ttfb,
    resourceLoadDuration: responseEnd - requestStart,
    elementRenderDelay: metric.value - responseEnd,
  };
}

function loadState(at: number): string {
  const nav = navigation();
  if (!nav || at >= nav.domComplete) return 'complete';
  if (at >= nav.domContentLoadedEventStart) return 'dom-content-loaded';
  return at >= nav.domInteractive ? 'dom-interactive' : 'loading';
}

function inp(metric: Metric): Attribution {
  const entries = metric.entries as PerformanceEventTiming[];
  const first = entries[0];
  if (!first) return {};
  let processingStart = first.processingStart;
  let processingEnd = first.processingEnd;
  let target: Node | null = null;
  for (const entry of entries) {
    processingStart = Math.min(processingStart, entry.processingStart);
    processingEnd = Math.max(processingEnd, entry.processingEnd);
    target ||= entry.target;
  }
  return {
    interactionTarget: selectorOf(target),
    interactionType: first.name.startsWith('key') ? 'keyboard' : 'pointer',
    inputDelay: processingStart - first.startTime,
    processingDuration: processingEnd - processingStart,
    presentationDelay: Math.max(first.startTime + first.duration - processingEnd, 0),
    loadState: loadState(first.startTime),
  };
}

function cls(metric: Metric): Attribution {
  let largest: (PerformanceEntry & { value: number; sources?: { node?: Node | null }[] }) | undefined;
  for (const entry of metric.entries as (typeof largest & object)[]) if (!largest || entry.value > largest.value) largest = entry;
  return {
    largestShiftTarget: selectorOf(largest?.sources?.find((source) => source.node)?.node),
    largestShiftTime: largest?.startTime,
    largestShiftValue: largest?.value,
  };
}

const fcp = (metric: Metric): Attribution => ({ firstByteToFCP: metric.value - firstByte() });

const BY_METRIC: Record<string, (metric: Metric) => Attribution> = { LCP: lcp, INP: inp, CLS: cls, FCP: fcp };

/** The metric's attribution, its undefined fields left out. */
export function attributionOf(metric: Metric): Attribution {
  const out: Attribution = {};
  const found = BY_METRIC[metric.name]?.(metric) ?? {};
  for (const key in found) if (found[key] !== undefined) out[key] = found[key];
  return out;
}
