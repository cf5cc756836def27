/**
 * One request as the `rrweb/network@1` plugin event carries it, the shape PostHog's player reads
 * (its network tab and waterfall): the browser's own timing entry (`PerformanceResourceTiming` /
 * `PerformanceNavigationTiming` as JSON: `name` is the URL, with every phase, sizes and
 * `responseStatus`), plus `startTime`/`endTime` rounded to whole ms, `timeOrigin` and `timestamp` in
 * epoch ms (whole numbers: PostHog stores them as integers), and what the wrapped fetch/XHR saw
 * (`method`, `status`, headers, bodies). Requests made before the recording started are marked
 * `isInitial`. Each server timing of an entry follows it as its own `serverTiming` record.
 */

/** What a wrapped fetch or XHR learnt about its request beyond the timing entry. */
export interface Observed {
  method?: string | undefined;
  status?: number | undefined;
  requestHeaders?: Record<string, string> | undefined;
  responseHeaders?: Record<string, string> | undefined;
  requestBody?: string | null | undefined;
  responseBody?: string | null | undefined;
}

/** One request record: its timing entry's fields, then what the wrapper saw. */
export interface CapturedRequest extends Observed {
  name?: string | undefined;
  entryType?: string | undefined;
  initiatorType?: string | undefined;
  startTime?: number | undefined;
  endTime?: number | undefined;
  duration?: number | undefined;
  timeOrigin?: number | undefined;
  timestamp?: number | undefined;
  isInitial?: boolean | undefined;
  [field: string]: unknown;
}

/** Where the record's times come from when the browser has no timing entry for it. */
export interface Fallback {
  url: string;
  initiatorType: string;
  start: number | undefined;
  end: number | undefined;
}

type TimingEntry = PerformanceEntry & { serverTiming?: readonly { name: string; duration: number }[] };

/**
 * The records for `entry` (or, without one, for `fallback`'s URL and times): the request's, then
 * one per server timing. Times count from `win`'s own time origin.
 */
export function requestRecords(
  win: Window,
  entry: TimingEntry | undefined,
  observed: Observed,
  fallback?: Fallback,
  isInitial?: boolean,
): CapturedRequest[] {
  const start = entry ? entry.startTime : fallback?.start;
  const end = entry ? (entry as PerformanceResourceTiming).responseEnd : fallback?.end;
  // Date.now() - performance.now(), not performance.timeOrigin: the latter drifts from the wall
  // clock the other rrweb events are stamped with on a long-lived page.
  const timeOrigin = Math.floor(Date.now() - win.performance.now());
  const timestamp = Math.floor(timeOrigin + (start ?? 0));
  // toJSON(): plain values only (a PerformanceServerTiming object would not serialise).
  const fields = entry ? (JSON.parse(JSON.stringify(entry.toJSON())) as CapturedRequest) : { name: fallback?.url };
  const record: CapturedRequest = {
    ...fields,
    startTime: start === undefined ? undefined : Math.round(start),
    endTime: end === undefined ? undefined : Math.round(end),
    timeOrigin,
    timestamp,
    initiatorType: fallback?.initiatorType ?? (entry as PerformanceResourceTiming | undefined)?.initiatorType,
    ...observed,
    isInitial,
  };
  const serverTimings = entry?.entryType === 'navigation' || entry?.entryType === 'resource' ? (entry.serverTiming ?? []) : [];
  return [
    record,
    ...serverTimings.map((timing) => ({
      timeOrigin,
      timestamp,
      startTime: Math.round(entry!.startTime),
      name: timing.name,
      duration: timing.duration,
      entryType: 'serverTiming',
    })),
  ];
}
