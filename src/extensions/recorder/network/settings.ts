/**
 * Whether a recording carries the page's network requests, and what of them, read the way
 * posthog-js reads it so a project's settings mean the same here:
 * - timings (`recordPerformance`): the init option `capture_performance` (true/false, or
 *   `{ network_timing }`) when it says yes or no, else the project's `capturePerformance` (the
 *   flags answer's top level, same shapes);
 * - headers and bodies: `session_recording.recordHeaders` / `recordBody` of the init options, else
 *   the project's `sessionRecording.networkPayloadCapture`; an explicit `false` in the init options
 *   always wins. `recordBody` may also be a list of content types, or `{ request, response }`.
 * Any of the three turns the network plugin on (posthog-js then observes the page's resource
 * timings even with network timing off); without any, nothing of the network is recorded.
 */
import type { HogtailConfig, RemoteConfig } from '../../../browser/index';
import { isObject } from '../../../core/special-events';
import type { CapturedRequest } from './request-record';

/** Whether to record a kind of body: true/false, or the content types to record. */
export type BodyRule = boolean | readonly string[];
export type HeaderRule = boolean | { readonly request?: boolean; readonly response?: boolean };
export type RecordBody = BodyRule | { readonly request?: BodyRule; readonly response?: BodyRule };
/** The app's redaction: the record as it will be sent, or null/undefined to leave it out. */
export type MaskRequest = (request: CapturedRequest) => CapturedRequest | null | undefined;

export interface NetworkSettings {
  /** Network timing is on: the requests made before recording started are recorded too. */
  readonly timing: boolean;
  readonly headers: HeaderRule;
  readonly body: RecordBody;
  /** Hosts (suffixes) whose bodies are never recorded: the project's list and posthog-js's defaults. */
  readonly payloadHostDenyList: readonly string[];
  /** The app's mask function (maskCapturedNetworkRequestFn, or the older maskNetworkRequestFn on URLs). */
  readonly mask: MaskRequest | undefined;
  /** Said once: both mask functions were given (the older one is then not used, as in posthog-js). */
  readonly warning: string | undefined;
}

/** Analytics and replay vendors whose requests carry nothing worth replaying (posthog-js's defaults). */
const DENIED_HOSTS = [
  '.lr-ingest.io',
  '.ingest.sentry.io',
  '.clarity.ms',
  'google-analytics.com',
  'analytics.google.com',
  'nr-data.net',
  'datadoghq.com',
  'datadoghq.eu',
  'ddog-gov.com',
  'segment.io',
  'rudderstack.com',
  'amplitude.com',
  'mixpanel.com',
  'hotjar.com',
  'hotjar.io',
  'fullstory.com',
];

/** `capture_performance` / `capturePerformance`: a boolean, or an object whose `network_timing` says. */
const networkTiming = (value: unknown): unknown => (isObject(value) ? value.network_timing : value);

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []);

/** The app's mask function, posthog-js's two names (the newer wins); the older one sees only the URL. */
function maskOf(local: Record<string, unknown>): Pick<NetworkSettings, 'mask' | 'warning'> {
  const captured = local.maskCapturedNetworkRequestFn;
  const older = local.maskNetworkRequestFn;
  if (typeof captured === 'function') {
    const warning =
      typeof older === 'function'
        ? 'session replay: both session_recording.maskCapturedNetworkRequestFn and maskNetworkRequestFn are set; only maskCapturedNetworkRequestFn is used'
        : undefined;
    return { mask: captured as MaskRequest, warning };
  }
  if (typeof older !== 'function') return { mask: undefined, warning: undefined };
  const byUrl = older as (request: { url: string }) => { url?: string } | null | undefined;
  return {
    mask: (request) => {
      const kept = byUrl({ url: request.name ?? '' });
      // An initial request keeps its timing without its URL (request-mask.ts); the others go.
      return kept || !request.isInitial ? (kept ? { ...request, name: kept.url } : undefined) : undefined;
    },
    warning: undefined,
  };
}

/** The network settings, or undefined when the recording carries nothing of the network. */
export function readNetworkSettings(remote: RemoteConfig | undefined, config: HogtailConfig): NetworkSettings | undefined {
  const server = isObject(remote?.sessionRecording) ? remote.sessionRecording : {};
  const payload = isObject(server.networkPayloadCapture) ? server.networkPayloadCapture : {};
  const local = isObject(config.session_recording) ? config.session_recording : {};
  const headers = local.recordHeaders === false ? false : ((local.recordHeaders || payload.recordHeaders || false) as HeaderRule);
  const body = local.recordBody === false ? false : ((local.recordBody || payload.recordBody || false) as RecordBody);
  const own = networkTiming(config.capture_performance);
  const timing = typeof own === 'boolean' ? own : networkTiming(remote?.capturePerformance) === true;
  if (!timing && !headers && !body) return undefined;
  return {
    timing,
    headers,
    body,
    payloadHostDenyList: [...strings(payload.payloadHostDenyList), ...DENIED_HOSTS],
    ...maskOf(local),
  };
}
