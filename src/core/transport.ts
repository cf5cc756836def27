/**
 * The contract between the platform-free core and whatever can make an HTTP request: Node's http
 * module, fetch, XMLHttpRequest or sendBeacon. The core owns batching, retry and splitting; the
 * platform only moves bytes.
 */
export interface HttpRequest {
  url: string;
  body: Uint8Array | string;
  headers: Record<string, string>;
  /** Give up (reject) when no full response arrived within this many ms. */
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  /** Response text (the server's errors are plain text). */
  body: string;
  /** The Retry-After header, when present. */
  retryAfter: string | null;
}

/** Resolves with any HTTP status; rejects only when no response arrived (network error, timeout). */
export type HttpExecutor = (request: HttpRequest) => Promise<HttpResponse>;

/** Compresses a request body. Returning a Promise lets a platform use native, off-thread zlib. */
export type Compressor = (body: string) => Uint8Array | Promise<Uint8Array>;

/** What one batch request came to, as the queue needs to know it. */
export type DeliveryResult =
  | { kind: 'ok' }
  /** Try the same events again later. */
  | { kind: 'retry'; message: string; status?: number; retryAfterMs?: number; cause?: unknown }
  /** Some event in the request is unacceptable (400, 413): halve until it is alone. */
  | { kind: 'split'; message: string; status: number }
  /** The request can never succeed, whatever it carries (bad key, wrong host). */
  | { kind: 'reject'; message: string; status: number };

/** Parses Retry-After (delta seconds or an HTTP date) into ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Classifies a response by the real server's rules (DESIGN §3). */
export function classifyResponse(response: HttpResponse): DeliveryResult {
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'ok' };
  const text = response.body.trim().slice(0, 300);
  const detail = text === '' ? '' : `: ${text}`;
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(response.retryAfter);
    return {
      kind: 'retry',
      status,
      message: `the server answered ${status}${detail}`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (status === 401) {
    return {
      kind: 'reject',
      status,
      message: `the server refused the project API key (401${detail}). Use the project key (phc_…) from your project settings, not a personal key (phx_…).`,
    };
  }
  if (status === 403 || status === 404 || status === 405) {
    return {
      kind: 'reject',
      status,
      message: `the server does not accept events at this address (${status}${detail}). Check the host option.`,
    };
  }
  return { kind: 'split', status, message: `the server answered ${status}${detail}` };
}
