/**
 * One flags lookup over HTTP, shared by every platform: `/flags/?v=2` first, and `/decide/?v=3` for
 * the rest of the client's life once `/flags` answers 404 or 405 (an older self-hosted server, or
 * one that speaks only the ingestion spec's decide). Network errors, timeouts, 408, 429 and 5xx are
 * retried with the batch backoff (Retry-After honoured), all within the call's one deadline.
 */
import { BROWSER_BUILD } from '../build-flags';
import { backoffDelay, DEFAULT_RETRY, type RetryOptions } from '../backoff';
import type { HttpExecutor } from '../transport';
import { parseRetryAfter } from '../transport';
import { describeCap, FLAGS_RESPONSE_CAP } from '../response-caps';
import { parseDecideResponse, type DecideOverrides, type DecideResult } from './decide';
import { DECIDE_PATH, FLAGS_PATH, flagsBody, type FlagsRequestExtras } from './flags-request';
import { textOf } from '../text-of';

export interface FlagsClientOptions {
  host: string;
  apiKey: string;
  executor: HttpExecutor;
  /** The whole lookup, retries and their waits included, ends within this many ms. */
  timeoutMs: number;
  /** The batch backoff's timing; a lookup retries at most twice. */
  retry?: Partial<RetryOptions>;
  /**
   * Headers of every request. Default `Content-Type: application/json`, as server SDKs send it.
   * The browser passes none: its string body then goes as text/plain, a CORS "simple" request, so
   * a collector on another origin costs no preflight round trip.
   */
  headers?: Record<string, string>;
  /**
   * Appended to the `/flags/?v=2` URL. The browser's `&config=true` makes the answer carry the
   * project's config as decide's did (supportedCompression, autocapture_opt_out).
   */
  query?: string;
}

export interface FlagsLookupExtras extends FlagsRequestExtras {
  /** Extra request headers (X-Forwarded-For with the end user's address). */
  headers?: Record<string, string> | undefined;
}

export interface FlagsClient {
  /** The server's answer, or a rejection whose message says why none could be had. */
  fetch(distinctId: string, overrides?: DecideOverrides, extras?: FlagsLookupExtras): Promise<DecideResult>;
}

const RETRIES = 2;
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const isTransient = (status: number) => status === 408 || status === 429 || status >= 500;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : textOf(error));

export function createFlagsClient(options: FlagsClientOptions): FlagsClient {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const host = options.host.replace(/\/+$/, '');
  // DECIDE_PATH for the client's life once /flags answers 404 or 405.
  let path = FLAGS_PATH + (options.query ?? '');

  return {
    async fetch(distinctId, overrides, extras = {}) {
      const deadline = Date.now() + options.timeoutMs;
      const body = flagsBody(options.apiKey, distinctId, overrides, extras);
      // The browser passes no headers and no extras (so its minifier drops this).
      const headers = BROWSER_BUILD ? {} : { ...(options.headers ?? JSON_HEADERS), ...extras.headers };
      for (let failures = 0; ; ) {
        // What this request asks: a concurrent lookup may switch to decide while it is in flight.
        const asked = path;
        const url = host + asked;
        // No answer at all (a network error, the timeout) comes back as its message, and is retried.
        const timeoutMs = Math.max(1, deadline - Date.now());
        const response = await options
          .executor({ url, method: 'POST', body, headers, timeoutMs, maxResponseBytes: FLAGS_RESPONSE_CAP })
          .catch(messageOf);
        let problem = response as string;
        let retryAfterMs: number | undefined;
        if (typeof response !== 'string') {
          const { status } = response;
          if (status >= 200 && status < 300) {
            // The page's cap is the same, but a page with 16 MiB of flags is left to the parse error (bytes of the script tag).
            if (!BROWSER_BUILD && response.truncated)
              throw new Error(`${url} answered with more than ${describeCap(FLAGS_RESPONSE_CAP)} of flags, the cap on a flags answer`);
            return parseDecideResponse(response.body);
          }
          if (asked !== DECIDE_PATH && (status === 404 || status === 405)) {
            path = DECIDE_PATH;
            continue; // straight to decide: a fall-back is no failure
          }
          problem = `${url} answered ${status}: ${response.body.trim().slice(0, 200)}`;
          if (!isTransient(status)) throw new Error(problem);
          retryAfterMs = parseRetryAfter(response.retryAfter);
        }
        const delay = backoffDelay(++failures, retry, Math.random, retryAfterMs);
        if (failures > RETRIES || Date.now() + delay >= deadline) {
          throw new Error(`${problem} (after ${failures - 1} retries; ${options.timeoutMs} ms allowed)`);
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    },
  };
}
