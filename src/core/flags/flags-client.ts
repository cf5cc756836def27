/**
 * One flags lookup over HTTP, shared by every platform: `/flags/?v=2` first, and `/decide/?v=3` for
 * the rest of the client's life once `/flags` answers 404 or 405 (an older self-hosted server, or
 * one that speaks only the ingestion spec's decide). Network errors, timeouts, 408, 429 and 5xx are
 * retried with the batch backoff (Retry-After honoured), all within the call's one deadline.
 */
import { backoffDelay, DEFAULT_RETRY, type RetryOptions } from '../backoff';
import type { HttpExecutor } from '../transport';
import { parseRetryAfter } from '../transport';
import { decideUrl, parseDecideResponse, type DecideOverrides, type DecideResult } from './decide';
import { flagsBody, flagsUrl, type FlagsRequestExtras } from './flags-request';

export interface FlagsClientOptions {
  host: string;
  apiKey: string;
  executor: HttpExecutor;
  /** The whole lookup, retries and their waits included, ends within this many ms. */
  timeoutMs: number;
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  retry?: Partial<RetryOptions>;
  /** Jitter source; tests pass a fixed one. */
  random?: () => number;
}

export interface FlagsLookupExtras extends FlagsRequestExtras {
  /** Extra request headers (X-Forwarded-For with the end user's address). */
  headers?: Record<string, string> | undefined;
}

export interface FlagsClient {
  /** The server's answer, or a rejection whose message says why none could be had. */
  fetch(distinctId: string, overrides?: DecideOverrides, extras?: FlagsLookupExtras): Promise<DecideResult>;
  /** Which endpoint the next lookup goes to. */
  readonly endpoint: 'flags' | 'decide';
  /** HTTP requests made so far, retries included. */
  readonly requests: number;
}

const isTransient = (status: number) => status === 408 || status === 429 || status >= 500;

/** One request's outcome; a final failure (a 4xx, an answer that is not one) throws instead. */
type Attempt = { kind: 'answer'; result: DecideResult } | { kind: 'fallback' } | { kind: 'retry'; problem: string; retryAfterMs?: number | undefined };

export function createFlagsClient(options: FlagsClientOptions): FlagsClient {
  const retries = Math.max(0, options.retries ?? 2);
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const random = options.random ?? Math.random;
  let endpoint: 'flags' | 'decide' = 'flags';
  let requests = 0;

  async function attemptOnce(body: string, headers: Record<string, string>, timeoutMs: number): Promise<Attempt> {
    requests++;
    // What this request asked: a concurrent one may switch `endpoint` while it is in flight.
    const asked = endpoint;
    const url = asked === 'flags' ? flagsUrl(options.host) : decideUrl(options.host);
    let response;
    try {
      response = await options.executor({ url, body, headers, timeoutMs });
    } catch (error) {
      return { kind: 'retry', problem: error instanceof Error ? error.message : String(error) };
    }
    const { status } = response;
    if (asked === 'flags' && (status === 404 || status === 405)) {
      endpoint = 'decide';
      return { kind: 'fallback' };
    }
    if (status >= 200 && status < 300) return { kind: 'answer', result: parseDecideResponse(response.body) };
    const problem = `${asked} answered ${status}: ${response.body.trim().slice(0, 200)}`;
    if (!isTransient(status)) throw new Error(problem);
    return { kind: 'retry', problem, retryAfterMs: parseRetryAfter(response.retryAfter) };
  }

  async function fetchFlags(distinctId: string, overrides: DecideOverrides = {}, extras: FlagsLookupExtras = {}): Promise<DecideResult> {
    const deadline = Date.now() + options.timeoutMs;
    const body = flagsBody(options.apiKey, distinctId, overrides, extras);
    const headers = { 'Content-Type': 'application/json', ...extras.headers };
    for (let failures = 0; ; ) {
      const outcome = await attemptOnce(body, headers, Math.max(1, deadline - Date.now()));
      if (outcome.kind === 'answer') return outcome.result;
      if (outcome.kind === 'fallback') continue; // straight to decide: a fall-back is no failure
      failures++;
      if (failures > retries) throw new Error(`${outcome.problem} (after ${retries} retries)`);
      const delay = backoffDelay(failures, retry, random, outcome.retryAfterMs);
      if (Date.now() + delay >= deadline) {
        throw new Error(`${outcome.problem} (no time left for a retry within ${options.timeoutMs} ms)`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  return {
    fetch: fetchFlags,
    get endpoint() {
      return endpoint;
    },
    get requests() {
      return requests;
    },
  };
}
