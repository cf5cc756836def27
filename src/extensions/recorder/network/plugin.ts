/**
 * The network requests in the recording, as posthog-js's recorder records them: rrweb plugin
 * events (type 6) of the plugin `rrweb/network@1`, payload `{ requests: [...] }` (request-record.ts),
 * which PostHog's player shows in its network tab.
 * - The browser's timing entries (PerformanceObserver: the document's navigation and every
 *   resource of the kinds posthog-js lists), from the moment recording starts; with network timing
 *   on, the ones from before it too (marked `isInitial`, sent as one `isInitial` payload).
 * - With headers or bodies on, fetch and XMLHttpRequest are wrapped (wrap-fetch.ts, wrap-xhr.ts)
 *   and record those requests themselves (with method, status, headers, bodies), so their timing
 *   entries are not recorded twice.
 * Every record passes request-mask.ts first (the SDK's own requests out, credentials redacted,
 * sizes capped, the app's mask function); an app's mask function that throws drops the record and
 * is reported once. Stopping the recording disconnects the observer and unwraps fetch and XHR.
 */
import type { RecordPlugin } from '../rrweb-types';
import type { CapturedRequest } from './request-record';
import { requestRecords } from './request-record';
import { isOwnRequest, maskRequest } from './request-mask';
import type { NetworkSettings } from './settings';
import type { NetworkSink } from './sink';
import { wrapFetch } from './wrap-fetch';
import { wrapXhr } from './wrap-xhr';

export const NETWORK_PLUGIN = 'rrweb/network@1';

/** The kinds of resource timing recorded (posthog-js's list: everything a page loads but `other`). */
const INITIATORS = [
  'audio',
  'beacon',
  'body',
  'css',
  'early-hint',
  'embed',
  'fetch',
  'frame',
  'iframe',
  'icon',
  'image',
  'img',
  'input',
  'link',
  'navigation',
  'object',
  'ping',
  'script',
  'track',
  'video',
  'xmlhttprequest',
];
const WRAPPED = ['fetch', 'xmlhttprequest'];

export interface NetworkPluginOptions {
  readonly settings: NetworkSettings;
  /** api_host and the snapshots' path: the SDK's own requests, never recorded. */
  readonly host: string;
  readonly endpoint: string;
  /** The app's mask function threw (said once). */
  readonly maskFailed: (error: unknown) => void;
}

/** A finished navigation entry: before the load event ends, its timings are still incomplete. */
const completeNavigation = (win: Window, entry: PerformanceEntry) =>
  entry.entryType === 'navigation' && win.document.readyState === 'complete' && (entry as PerformanceNavigationTiming).loadEventEnd > 0;

const resourceOf = (entry: PerformanceEntry, skipWrapped: boolean) =>
  entry.entryType === 'resource' &&
  INITIATORS.includes((entry as PerformanceResourceTiming).initiatorType) &&
  !(skipWrapped && WRAPPED.includes((entry as PerformanceResourceTiming).initiatorType));

function observe(
  win: Window,
  options: NetworkPluginOptions,
  record: (records: CapturedRequest[], initial?: boolean) => void,
  wraps: boolean,
) {
  const { timing } = options.settings;
  const before = win.performance.getEntries().filter((entry) => completeNavigation(win, entry) || (timing && resourceOf(entry, false)));
  record(
    before.flatMap((entry) => requestRecords(win, entry, {}, undefined, true)),
    true,
  );
  const Observer = (win as Window & typeof globalThis).PerformanceObserver;
  const types = (Observer?.supportedEntryTypes ?? []).filter((type) => type === 'navigation' || type === 'resource');
  if (types.length === 0) return undefined;
  const observer = new Observer((list) => {
    const entries = list.getEntries().filter((entry) => entry.entryType === 'navigation' || resourceOf(entry, wraps));
    record(entries.flatMap((entry) => requestRecords(win, entry, {})));
  });
  observer.observe({ entryTypes: types });
  return () => observer.disconnect();
}

export function networkPlugin(options: NetworkPluginOptions): RecordPlugin {
  const { settings, host, endpoint } = options;
  let failed = false;
  /** One request's records, masked; when the request itself is left out, its server timings go too. */
  const masked = (records: CapturedRequest[]): CapturedRequest[] => {
    const kept: CapturedRequest[] = [];
    let parentKept = false;
    for (const request of records) {
      if (request.entryType === 'serverTiming' && !parentKept) continue;
      let result: CapturedRequest | undefined;
      try {
        result = maskRequest(request, host, endpoint, settings.mask);
      } catch (error) {
        if (!failed) options.maskFailed(error);
        failed = true;
      }
      if (request.entryType !== 'serverTiming')
        parentKept = result !== undefined && !(request.isInitial && result.name === '' && request.name !== '');
      if (result) kept.push(result);
    }
    return kept;
  };
  return {
    name: NETWORK_PLUGIN,
    observer(emit: (payload: unknown) => void, win: Window & typeof globalThis) {
      if (!win.performance) return () => undefined;
      let active = true;
      const record = (records: CapturedRequest[], initial?: boolean) => {
        const requests = active ? masked(records) : [];
        if (requests.length > 0) emit(initial ? { requests, isInitial: true } : { requests });
      };
      const wraps = !!(settings.headers || settings.body);
      const sink: NetworkSink = { settings, own: (url) => isOwnRequest(url, host, endpoint), record };
      const stops = [observe(win, options, record, wraps)];
      if (wraps) stops.push(wrapFetch(win, sink), wrapXhr(win, sink));
      return () => {
        active = false;
        for (const stop of stops) stop?.();
      };
    },
    options: {},
  };
}
