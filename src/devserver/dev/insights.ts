/**
 * What the live page shows of the browser products (products.ts), gathered as events arrive so
 * no PostHog account is needed to see them: per page, the web vitals (`$web_vitals`: each metric's
 * 75th percentile, the figure Google's thresholds judge, and its rating), and per page URL, the
 * heatmap's clicks (`$$heatmap`) with the outline of the page's clickable elements that hogtail's
 * heatmaps extension sends to hogtail dev. Pages are keyed without query or fragment. Bounded: the
 * latest pages, and the latest samples and clicks of each.
 */
import type { ReceivedEvent } from '../ingest/types';

const MAX_PAGES = 50;
const MAX_SAMPLES = 500;
const MAX_CLICKS = 2000;
const MAX_BOXES = 400;
/** Google's thresholds: good up to the first, poor from the second. */
const THRESHOLDS: Record<string, [number, number]> = { LCP: [2500, 4000], FCP: [1800, 3000], CLS: [0.1, 0.25], INP: [200, 500] };

export interface VitalFigure {
  p75: number;
  rating: 'good' | 'needs-improvement' | 'poor';
  samples: number;
}

export interface HeatmapClick {
  x: number;
  y: number;
  fixed: boolean;
  type: string;
}

export interface PageOutline {
  width: number;
  height: number;
  /** Clickable elements as [x, y, width, height] in page coordinates. */
  boxes: number[][];
}

export interface DevInsights {
  webVitals: Array<{ page: string; metrics: Record<string, VitalFigure> }>;
  heatmaps: Array<{ page: string; clicks: HeatmapClick[]; clicksTotal: number; outline: PageOutline | null }>;
}

interface PageRecord {
  samples: Map<string, number[]>;
  clicks: HeatmapClick[];
  clicksTotal: number;
  outline: PageOutline | null;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The page a URL is on: no query, no fragment (undefined for what is not a URL). */
export function pageOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return undefined;
  }
}

function p75(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.75) - 1)] ?? 0;
}

function readOutline(value: unknown): PageOutline | null {
  if (!isObject(value) || !isNumber(value.width) || !isNumber(value.height) || !Array.isArray(value.boxes)) return null;
  const boxes = value.boxes.filter((box): box is number[] => Array.isArray(box) && box.length === 4 && box.every(isNumber));
  return { width: value.width, height: value.height, boxes: boxes.slice(0, MAX_BOXES) };
}

export function createInsights() {
  let pages = new Map<string, PageRecord>();

  const page = (key: string): PageRecord => {
    let record = pages.get(key);
    if (record) pages.delete(key); // re-inserted last: the map's order is most recent last
    record ??= { samples: new Map(), clicks: [], clicksTotal: 0, outline: null };
    pages.set(key, record);
    if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value as string);
    return record;
  };

  const vitals = (properties: Record<string, unknown>) => {
    const key = pageOf(properties.$current_url);
    if (!key) return;
    const record = page(key);
    for (const name of Object.keys(THRESHOLDS)) {
      const value = properties[`$web_vitals_${name}_value`];
      if (!isNumber(value)) continue;
      const samples = record.samples.get(name) ?? [];
      samples.push(value);
      record.samples.set(name, samples.slice(-MAX_SAMPLES));
    }
  };

  const heatmap = (properties: Record<string, unknown>) => {
    const data = properties.$heatmap_data;
    for (const [url, points] of Object.entries(isObject(data) ? data : {})) {
      const key = pageOf(url);
      if (!key || !Array.isArray(points)) continue;
      const record = page(key);
      for (const point of points) {
        if (!isObject(point) || !isNumber(point.x) || !isNumber(point.y) || point.type !== 'click') continue;
        record.clicksTotal++;
        record.clicks.push({ x: point.x, y: point.y, fixed: point.target_fixed === true, type: 'click' });
      }
      if (record.clicks.length > MAX_CLICKS) record.clicks = record.clicks.slice(-MAX_CLICKS);
    }
    const outline = properties.$heatmap_outline;
    const key = isObject(outline) ? pageOf(outline.url) : undefined;
    if (key) page(key).outline = readOutline(outline) ?? page(key).outline;
  };

  return {
    observe(event: ReceivedEvent): void {
      if (event.event === '$web_vitals') vitals(event.properties);
      else if (event.event === '$$heatmap') heatmap(event.properties);
    },
    reset(): void {
      pages = new Map();
    },
    summary(): DevInsights {
      const recent = [...pages].reverse();
      return {
        webVitals: recent
          .filter(([, record]) => record.samples.size > 0)
          .map(([key, record]) => ({
            page: key,
            metrics: Object.fromEntries(
              [...record.samples].map(([name, samples]) => {
                const value = p75(samples);
                const [good, poor] = THRESHOLDS[name]!;
                const rating = value <= good ? 'good' : value > poor ? 'poor' : 'needs-improvement';
                return [name, { p75: value, rating, samples: samples.length }];
              }),
            ),
          })),
        heatmaps: recent
          .filter(([, record]) => record.clicksTotal > 0)
          .map(([key, record]) => ({ page: key, clicks: record.clicks, clicksTotal: record.clicksTotal, outline: record.outline })),
      };
    },
  };
}

export type Insights = ReturnType<typeof createInsights>;
