/**
 * The heatmap's points until they are sent, keyed by the page URL they were taken on, as
 * posthog-js's `$$heatmap` event carries them (`$heatmap_data: { [url]: [{ x, y, target_fixed,
 * type }] }`): clicks, `rageclick` for the third quick click in one place, and `mousemove` once
 * the pointer rests for half a second. Sent every `flushMs` while the page is visible (posthog-js's
 * schedule: 5 s) and when the page is left.
 */
import { createRageclickDetector } from '../../browser/features/autocapture/rageclick';
import { pointOf, type HeatmapPoint } from './position';

export interface HeatmapCollector {
  click(event: MouseEvent): void;
  move(event: MouseEvent): void;
  /** The page became visible or hidden: the schedule runs only while it is visible. */
  visibility(): void;
  flush(): void;
}

export interface CollectorOptions {
  flushMs: number;
  rageclicks: boolean;
  scrollRoot: string | string[] | undefined;
  /** The page's URL, the key of its points (masked as the page's events mask it). */
  url(): string;
  send(data: Record<string, HeatmapPoint[]>): void;
}

const isPointer = (event: MouseEvent) => typeof event.clientX === 'number' && typeof event.clientY === 'number';

export function createHeatmapCollector({ flushMs, rageclicks, scrollRoot, url, send }: CollectorOptions): HeatmapCollector {
  let data: Record<string, HeatmapPoint[]> = {};
  let empty = true;
  let resting: ReturnType<typeof setTimeout> | undefined;
  let schedule: ReturnType<typeof setInterval> | undefined;
  const isRage = createRageclickDetector(30, 1000, 3);

  const add = (point: HeatmapPoint) => {
    (data[url()] ||= []).push(point);
    empty = false;
  };
  const flush = () => {
    if (empty) return;
    const sent = data;
    data = {};
    empty = true;
    send(sent);
  };
  return {
    click(event) {
      if (!isPointer(event)) return;
      const point = pointOf(event, 'click', scrollRoot);
      if (rageclicks && event.detail > 0 && isRage(event.clientX, event.clientY, event.timeStamp)) add({ ...point, type: 'rageclick' });
      add(point);
    },
    move(event) {
      if (!isPointer(event)) return;
      clearTimeout(resting);
      resting = setTimeout(() => add(pointOf(event, 'mousemove', scrollRoot)), 500);
    },
    visibility() {
      clearInterval(schedule);
      schedule = document.visibilityState === 'visible' ? setInterval(flush, flushMs) : undefined;
    },
    flush,
  };
}
