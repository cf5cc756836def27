/**
 * The dev collector, plus a record of when each request was in flight and which events it carried,
 * so a test can check that no event was ever in two requests at the same time, and count unique
 * uuids (resends of the same event are allowed; losses are not).
 */
import { createCollector, type Collector, type CollectorOptions, type Exchange } from '../../../src/devserver';

export interface RequestSpan {
  requestId: number;
  start: number;
  end: number;
  beacon: boolean;
  uuids: string[];
  /** The Referer header: which page sent it, when the page's referrer policy says (`unsafe-url`). */
  referer: string | undefined;
}

export interface RecordingCollector extends Collector {
  spans: RequestSpan[];
  uniqueUuids(): Set<string>;
  /** Resolves once every uuid in `expected` arrived, or with what is missing after `timeoutMs`. */
  waitForUuids(expected: Iterable<string>, timeoutMs: number): Promise<string[]>;
  /** Resolves once `count` distinct events named `event` arrived (or after the timeout). */
  waitForDistinct(event: string, count: number, timeoutMs: number): Promise<number>;
  /**
   * Checks `check` now and after every request the collector answers, until it returns something
   * truthy (resolved with it) or `timeoutMs` passes (resolved with its last answer). No polling.
   */
  waitUntil<T>(check: () => T, timeoutMs: number): Promise<T>;
  /** Pairs of overlapping requests that shared an event, among `spans` (default: all of them). */
  overlaps(spans?: readonly RequestSpan[]): string[];
  /** Replace how requests are answered (fault injection); undefined restores normal answers. */
  setFault(fault: ((exchange: Exchange) => boolean) | undefined): void;
}

export async function startRecordingCollector(
  options: Omit<CollectorOptions, 'handleExchange' | 'onRequest'> = {},
): Promise<RecordingCollector> {
  const starts = new Map<number, { at: number; referer: string | undefined }>();
  const spans: RequestSpan[] = [];
  let fault: ((exchange: Exchange) => boolean) | undefined;
  /** Called after every answered request: the checks of pending waitUntil calls. */
  const watchers = new Set<() => void>();
  const collector = await createCollector({
    ...options,
    onRequest: (info) => starts.set(info.requestId, { at: performance.now(), referer: info.headers.referer }),
    handleExchange(exchange) {
      // A fault handler returns true when it answered the request itself.
      if (fault?.(exchange)) return void watchers.forEach((watch) => watch());
      exchange.record();
      exchange.respond();
      watchers.forEach((watch) => watch());
      const { outcome } = exchange;
      if (outcome.kind !== 'accepted') return;
      spans.push({
        requestId: exchange.requestId,
        start: starts.get(exchange.requestId)?.at ?? 0,
        end: performance.now(),
        beacon: outcome.beacon,
        uuids: outcome.events.map((event) => event.uuid ?? ''),
        referer: starts.get(exchange.requestId)?.referer,
      });
    },
  });

  const uniqueUuids = () => new Set(collector.events.map((event) => event.uuid ?? ''));
  const waitUntil = <T>(check: () => T, timeoutMs: number): Promise<T> =>
    new Promise((resolve) => {
      const watch = (): void => {
        const value = check();
        if (!value) return;
        finish(value);
      };
      const finish = (value: T): void => {
        watchers.delete(watch);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => finish(check()), timeoutMs);
      watchers.add(watch);
      watch();
    });
  return {
    ...collector,
    get requests() {
      return collector.requests;
    },
    spans,
    uniqueUuids,
    async waitForUuids(expected, timeoutMs) {
      const wanted = [...expected];
      const missing = () => {
        const seen = uniqueUuids();
        return wanted.filter((uuid) => !seen.has(uuid));
      };
      await waitUntil(() => missing().length === 0, timeoutMs);
      return missing();
    },
    async waitForDistinct(event, count, timeoutMs) {
      const distinct = () => new Set(collector.events.filter((e) => e.event === event).map((e) => e.uuid)).size;
      await waitUntil(() => distinct() >= count, timeoutMs);
      return distinct();
    },
    waitUntil,
    overlaps(among = spans) {
      const found: string[] = [];
      for (let i = 0; i < among.length; i++) {
        for (let j = i + 1; j < among.length; j++) {
          const a = among[i]!;
          const b = among[j]!;
          if (a.start >= b.end || b.start >= a.end) continue;
          const shared = a.uuids.filter((uuid) => b.uuids.includes(uuid));
          if (shared.length > 0)
            found.push(
              `requests ${a.requestId} and ${b.requestId} overlapped and both carried ${shared.length} event(s), e.g. ${shared[0]}`,
            );
        }
      }
      return found;
    },
    setFault(next) {
      fault = next;
    },
  };
}
