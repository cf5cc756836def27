/**
 * What of a request may be recorded, posthog-js's rules (so a project's recordings show the same),
 * applied to every record before it joins the recording:
 * - the SDK's own requests (events, snapshots, flags, extension files, surveys to `api_host`) are
 *   never recorded: a recorded snapshot upload would be sent by the next one, without end;
 * - credentials never leave the page: a header on the deny-list (`authorization`, `cookie`,
 *   `set-cookie`, `x-api-key`, forwarding and CSRF headers, any name with `auth`, `token`,
 *   `secret`, `session`, `password`, `cookie`, `csrf`…) keeps its name, its value becomes
 *   `redacted`, whatever the app's mask function does;
 * - a body over MAX_BODY_BYTES is replaced by a note saying so;
 * - then the app's mask function decides (`maskCapturedNetworkRequestFn`); without one, a body
 *   that mentions a password, secret, token, API key or credentials, or holds something shaped
 *   like a card number or US social security number, is replaced by a note.
 * A request made before recording started keeps its timing even when the app's function drops it
 * (PostHog's waterfall needs it), but nothing that names it: no URL, no content.
 */
import { looksSecret } from '../../../browser/features/autocapture/privacy';
import type { CapturedRequest } from './request-record';
import type { MaskRequest } from './settings';

/**
 * posthog-js caps each body at 1 MB; one record here carries both bodies and must fit one
 * `$snapshot` event (under 900 KB, the server refuses an event over about 1 MB), so each gets less.
 */
export const MAX_BODY_BYTES = 400_000;
export const REDACTED = 'redacted';

const DENIED_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-forwarded-for',
  'x-real-ip',
  'remote-addr',
  'forwarded',
  'x-csrf-token',
  'x-csrftoken',
  'x-xsrf-token',
];
/** Parts of a header name that mark a credential (a custom `x-user-token`). */
const DENIED_HEADER_PARTS = [
  'auth',
  'token',
  'secret',
  'session',
  'api-key',
  'apikey',
  'api_key',
  'credential',
  'password',
  'passwd',
  'cookie',
  'csrf',
  'xsrf',
];
/** Words that make a body too risky to record when the app gave no mask function. */
const DENIED_BODY_WORDS = [
  'password',
  'secret',
  'passwd',
  'api_key',
  'apikey',
  'auth',
  'credentials',
  'mysql_pwd',
  'privatekey',
  'private_key',
  'token',
];
/** The SDK's paths under `api_host`. */
const SDK_PATHS = ['/s/', '/e/', '/i/', '/batch', '/flags', '/decide', '/static/', '/api/surveys'];

export const isDeniedHeader = (name: string): boolean => {
  const lower = name.toLowerCase();
  return DENIED_HEADERS.includes(lower) || DENIED_HEADER_PARTS.some((part) => lower.includes(part));
};

function redactHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isDeniedHeader(name) ? REDACTED : value;
  return out;
}

/** Whether `url` is one of the SDK's own requests to `host` (api_host; `endpoint`: the snapshots' path). */
export function isOwnRequest(url: string | undefined, host: string, endpoint = '/s/'): boolean {
  const base = host.replace(/\/+$/, '');
  if (!url || !base || !url.startsWith(base)) return false;
  const path = url.slice(base.length);
  return path === '' || [...SDK_PATHS, endpoint].some((prefix) => path.startsWith(prefix));
}

/** UTF-8 bytes of `text`, counted only when its length alone cannot settle the comparison with `limit`. */
export function overLimit(text: string, limit = MAX_BODY_BYTES): boolean {
  if (text.length > limit) return true;
  return text.length * 3 > limit && new TextEncoder().encode(text).length > limit;
}

export const tooLargeNote = (label: string, limit = MAX_BODY_BYTES) =>
  `[SessionReplay] ${label} body too large to record (over ${limit} bytes)`;

const capBody = (body: string | null | undefined, label: string) =>
  typeof body === 'string' && overLimit(body) ? tooLargeNote(label) : body;

/** The default scrub (no mask function of the app's): a body that may hold a credential or a card number is replaced by a note. */
export function scrubBody(body: string | null | undefined, label: string): string | null | undefined {
  if (typeof body !== 'string' || body === '') return body;
  if (looksSecret(body)) return `[SessionReplay] ${label} body ${REDACTED}: it may hold a card or social security number`;
  const word = DENIED_BODY_WORDS.find((denied) => body.includes(denied));
  return word === undefined ? body : `[SessionReplay] ${label} body ${REDACTED} as it may contain: ${word}`;
}

/** What is left of an initial request the app's function dropped: its timing, nothing naming it. */
const timingOnly = (request: CapturedRequest): CapturedRequest => ({
  name: '',
  entryType: request.entryType,
  startTime: request.startTime,
  duration: request.duration,
  endTime: request.endTime,
  timeOrigin: request.timeOrigin,
  timestamp: request.timestamp,
  isInitial: true,
});

/**
 * The record as it may be recorded, or undefined to leave it out. `mask`: the app's function
 * (it may throw: the caller drops the record then).
 */
export function maskRequest(
  request: CapturedRequest,
  host: string,
  endpoint: string,
  mask: MaskRequest | undefined,
): CapturedRequest | undefined {
  if (request.entryType !== 'serverTiming' && isOwnRequest(request.name, host, endpoint)) return undefined;
  const cleaned: CapturedRequest = {
    ...request,
    requestHeaders: redactHeaders(request.requestHeaders),
    responseHeaders: redactHeaders(request.responseHeaders),
    requestBody: capBody(request.requestBody, 'Request'),
    responseBody: capBody(request.responseBody, 'Response'),
  };
  if (!mask) {
    cleaned.requestBody = scrubBody(cleaned.requestBody, 'Request');
    cleaned.responseBody = scrubBody(cleaned.responseBody, 'Response');
    return cleaned;
  }
  const fallback = cleaned.isInitial ? timingOnly(cleaned) : undefined;
  // The app's function gets a copy: what it changes in place must not reach the fallback.
  const masked = mask({ ...cleaned }) ?? fallback;
  if (typeof masked !== 'object' || masked === null) return undefined;
  // A header the app's function put back is redacted again: credentials never leave the page.
  return { ...masked, requestHeaders: redactHeaders(masked.requestHeaders), responseHeaders: redactHeaders(masked.responseHeaders) };
}
