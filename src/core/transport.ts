/**
 * The contract between the platform-free core and whatever can make an HTTP request: Node's http
 * module, fetch, XMLHttpRequest or sendBeacon. The core owns batching, retry and splitting; the
 * platform only moves bytes.
 */
import { textOf } from './text-of';
export interface HttpRequest {
  url: string;
  /** POST for batches and flags, GET for the flag definitions (and an extension's files). */
  method: 'GET' | 'POST';
  /** Absent for a GET. */
  body?: Uint8Array | string | undefined;
  headers: Record<string, string>;
  /** Give up (reject) when no full response arrived within this many ms. */
  timeoutMs: number;
  /**
   * Read at most this many bytes of the answer (response-caps.ts has one cap per request kind);
   * the rest is discarded, the connection closed, and `truncated` set.
   */
  maxResponseBytes: number;
}

export interface HttpResponse {
  status: number;
  /** Response text (the server's errors are plain text), at most the request's maxResponseBytes of it. */
  body: string;
  /** The Retry-After header, when present. */
  retryAfter: string | null;
  /** The ETag header, for a conditional GET next time; absent or null when there is none. */
  etag?: string | null | undefined;
  /** The body went on past maxResponseBytes: `body` is only its beginning. */
  truncated?: boolean | undefined;
  /** The Content-Type header, when the executor reads it: a wrong host's HTML page is named by it, not dumped. */
  contentType?: string | null | undefined;
}

/** A fetch-compatible function (the server's `fetch` option; the page's own fetch). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Resolves with any HTTP status; rejects only when no response arrived (network error, timeout). */
export type HttpExecutor = (request: HttpRequest) => Promise<HttpResponse>;

/** Compresses a request body. Returning a Promise lets a platform use native, off-thread zlib. */
export type Compressor = (body: string) => Uint8Array | Promise<Uint8Array>;

/** What one batch request came to, as the queue needs to know it. */
export type DeliveryResult =
  | { kind: 'ok' }
  /** Try the same events again later. */
  | { kind: 'retry'; message: string; status?: number; retryAfterMs?: number; cause?: unknown; misconfigured?: true }
  /** Some event in the request is unacceptable (400, 413): halve until it is alone. */
  | { kind: 'split'; message: string; status: number }
  /** The request can never succeed, whatever it carries (bad key, wrong host). */
  | { kind: 'reject'; message: string; status: number };

/** No answer at all (network error, timeout, a body that could not be built): try again later. */
export function noResponse(cause: unknown): DeliveryResult {
  return { kind: 'retry', message: `no response (${cause instanceof Error ? cause.message : textOf(cause)})`, cause };
}

/** Parses Retry-After (delta seconds or an HTTP date) into ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value?.trim()) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}

/**
 * A PostHog server answers a batch with a JSON object (or nothing, 204 for a beacon). Anything else
 * with a 2xx, typically an app's own HTML catch-all page at a wrong host, did not take the events.
 */
function isPostHogAnswer(body: string): boolean {
  const text = body.trim();
  return text === '' || text[0] === '{';
}

/**
 * What a response said, on one line for a warning: the server's plain-text error, cut short; a web
 * page (an app or a proxy at a wrong host) only by its content type, never its markup.
 */
function detailOf({ body, contentType }: HttpResponse): string {
  const text = body.trim();
  if (text[0] === '<' || /html/i.test(contentType ?? '')) return `: an HTML page (${contentType || 'no content type'})`;
  return text && ': ' + text.replace(/\s+/g, ' ').slice(0, 300);
}

/**
 * Classifies a response by the real server's rules (docs/wire-protocol.md, "Statuses").
 * @param host named in the message when the answer says the host is wrong (a misconfigured host).
 */
export function classifyResponse(response: HttpResponse, host: string): DeliveryResult {
  const { status } = response;
  const detail = detailOf(response);
  if (status >= 200 && status < 300) {
    if (isPostHogAnswer(response.body)) return { kind: 'ok' };
    return {
      kind: 'retry',
      status,
      misconfigured: true,
      message: `${host} answered ${status}${detail}, not a PostHog answer; events kept; check the host`,
    };
  }
  if (status === 408 || status === 429 || status >= 500) {
    // retryAfterMs may be undefined: absent and undefined mean the same to backoffDelay.
    return { kind: 'retry', status, message: `the server answered ${status}${detail}`, retryAfterMs: parseRetryAfter(response.retryAfter) };
  }
  if (status === 401) {
    return {
      kind: 'reject',
      status,
      message: `the server refused the project API key (401${detail}); use the project key (phc_…), not a personal key`,
    };
  }
  // A redirect is refused too: Node does not follow one, and a browser's fetch would turn the POST
  // into a GET. Either way nothing this host says will ever take the events.
  if (status < 400 || status === 403 || status === 404 || status === 405) {
    return {
      kind: 'reject',
      status,
      message: `${host} answered ${status}${detail}; no events accepted there; check the host`,
    };
  }
  return { kind: 'split', status, message: `the server answered ${status}${detail}` };
}
