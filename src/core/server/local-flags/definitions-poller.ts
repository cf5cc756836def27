/**
 * Keeps flag definitions fresh for local evaluation: one GET now, then one per polling interval,
 * with `If-None-Match` so an unchanged set costs a 304 and no parsing. posthog-node 5's path
 * (`/flags/definitions`) first; a server that answers 404 gets the older
 * `/api/feature_flag/local_evaluation/` for the rest of the client's life. The request goes through
 * the client's executor like every other (the user's `fetch` or `executor` option included), and
 * its answer is read up to the definitions cap (core/response-caps.ts).
 *
 * The personal key travels only in the Authorization header of these requests, never in a URL or a
 * message. A failed poll (no answer, 408, 429, 5xx, another 4xx) is retried with the batch
 * sender's backoff (core/backoff.ts: Retry-After honoured, else exponential with jitter), never
 * later than the polling interval unless the server asked for it; 401/403 is reported once with
 * what to check and retried at a slower pace (the key may be fixed on the server). A 402 (the
 * project's flag quota is exceeded) drops the definitions, so every flag is asked of the server, as
 * posthog-node does. No other failure clears loaded definitions. Timers never keep a process alive.
 */
import { backoffDelay, type RetryOptions } from '../../backoff';
import { HogtailError } from '../../errors';
import { FlagDefinitionsError, parseFlagDefinitions, type FlagDefinitions } from '../../flag-engine';
import { DEFINITIONS_RESPONSE_CAP, describeCap } from '../../response-caps';
import { setBackgroundTimeout, type TimerHandle } from '../../timers';
import { textOf } from '../../text-of';
import { parseRetryAfter, type HttpExecutor, type HttpResponse } from '../../transport';

export interface DefinitionsPollerOptions {
  host: string;
  projectKey: string;
  personalKey: string;
  intervalMs: number;
  timeoutMs: number;
  executor: HttpExecutor;
  /** The client's retry timing (the batch sender's). */
  retry: RetryOptions;
  onError: (error: HogtailError) => void;
  /** Each newly loaded set (not on a 304). */
  onLoad?: (definitions: FlagDefinitions) => void;
}

export interface DefinitionsPoller {
  /** The definitions in use; undefined until the first successful load, and after a 402. */
  readonly definitions: FlagDefinitions | undefined;
  /** Resolves when the first load attempt has ended, whatever its outcome. */
  readonly firstLoad: Promise<void>;
  /** Loads now (posthog-node's reloadFeatureFlags); resolves when that attempt ends. */
  reload(): Promise<void>;
  /** Definition requests made so far. */
  readonly requests: number;
  stop(): void;
}

/** What one load came to: a status, or why no answer came. */
type Outcome = { status: number; retryAfterMs?: number | undefined } | { problem: string };

const NEW_PATH = '/flags/definitions';
const OLD_PATH = '/api/feature_flag/local_evaluation/';
const MAX_AUTH_BACKOFF_MS = 5 * 60_000;
const statusOf = (outcome: Outcome) => ('status' in outcome ? outcome.status : undefined);

export function createDefinitionsPoller(options: DefinitionsPollerOptions): DefinitionsPoller {
  const { host, intervalMs } = options;
  const query = `?token=${encodeURIComponent(options.projectKey)}&send_cohorts`;
  // A failed poll is retried sooner than the interval, never later (unless Retry-After says so).
  const transientRetry: RetryOptions = { ...options.retry, maxDelayMs: Math.min(options.retry.maxDelayMs, intervalMs) };
  // A refused key is retried more slowly: from twice the interval, up to five minutes.
  const authRetry: RetryOptions = {
    ...options.retry,
    initialDelayMs: intervalMs * 2,
    maxDelayMs: Math.max(intervalMs, MAX_AUTH_BACKOFF_MS),
  };
  let path = NEW_PATH;
  let definitions: FlagDefinitions | undefined;
  let etag: string | undefined;
  let requests = 0;
  let failures = 0;
  /** Problems already reported in this run of failures (each kind once). */
  const reported = new Set<string>();
  let timer: TimerHandle | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped = false;

  const reportOnce = (kind: string, message: string): void => {
    if (reported.has(kind)) return;
    reported.add(kind);
    options.onError(new HogtailError(message));
  };
  const where = () => `${host}${path}`;
  const meanwhile = () => (definitions ? 'keeping the ones loaded before' : 'flags are evaluated by the server until they can be');

  async function request(): Promise<HttpResponse> {
    requests++;
    const headers: Record<string, string> = { Authorization: `Bearer ${options.personalKey}`, Accept: 'application/json' };
    if (etag !== undefined) headers['If-None-Match'] = etag;
    const url = host + path + query;
    const response = await options.executor({
      url,
      method: 'GET',
      headers,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: DEFINITIONS_RESPONSE_CAP,
    });
    if (response.status !== 404 || path !== NEW_PATH) return response;
    path = OLD_PATH;
    etag = undefined;
    return request();
  }

  function accept(response: HttpResponse): void {
    if (response.truncated) {
      const over = `larger than ${describeCap(DEFINITIONS_RESPONSE_CAP)}, the cap on a definitions answer`;
      return reportOnce('size', `the flag definitions from ${where()} are ${over}; ${meanwhile()}`);
    }
    try {
      definitions = parseFlagDefinitions(JSON.parse(response.body) as unknown, { lenient: true });
      etag = response.etag ?? undefined;
      reported.clear();
      options.onLoad?.(definitions);
    } catch (error) {
      const reason = error instanceof FlagDefinitionsError || error instanceof SyntaxError ? error.message : textOf(error);
      reportOnce(`unreadable ${reason}`, `the flag definitions from ${where()} could not be read (${reason}); ${meanwhile()}`);
    }
  }

  /** posthog-node's answer to a 402: nothing is evaluated locally until the definitions are served again. */
  function dropForQuota(): void {
    definitions = undefined;
    etag = undefined; // the next 200 must bring the definitions, not a 304 for ones no longer held
    reportOnce(
      'quota',
      `the server answered 402 to ${where()}: the project's feature flag quota is exceeded. Local evaluation is off and flags are asked of the server until the quota allows it again (see your PostHog billing limits).`,
    );
  }

  async function load(): Promise<void> {
    let outcome: Outcome;
    try {
      const response = await request();
      outcome = { status: response.status, retryAfterMs: parseRetryAfter(response.retryAfter) };
      if (response.status === 200) accept(response);
      if (response.status === 402) dropForQuota();
    } catch (error) {
      outcome = { problem: error instanceof Error ? error.message : textOf(error) };
    }
    const status = statusOf(outcome);
    if (status === 200 || status === 304 || status === 402) {
      failures = 0;
      // A new run of failures is reported again.
      reported.delete('transient');
      reported.delete('auth');
    } else {
      failures++;
      describeFailure(outcome);
    }
    schedule(outcome);
  }

  function describeFailure(outcome: Outcome): void {
    const status = statusOf(outcome);
    if (status === 401 || status === 403) {
      return reportOnce(
        'auth',
        `the server refused the personal API key for local flag evaluation (${status} from ${where()}). Check that personalApiKey is a personal API key (phx_…) with feature flag read access for the project of ${options.projectKey}, and that host points at that project's PostHog. Flags are evaluated by the server meanwhile.`,
      );
    }
    const what = 'problem' in outcome ? outcome.problem : `status ${outcome.status}`;
    reportOnce(
      'transient',
      `flag definitions could not be loaded from ${where()} (${what}); retrying with backoff, flags are evaluated ${definitions ? 'with the definitions loaded before' : 'by the server meanwhile'}.`,
    );
  }

  function delayAfter(outcome: Outcome): number {
    if (failures === 0) return intervalMs;
    const status = statusOf(outcome);
    const retryAfterMs = 'status' in outcome ? outcome.retryAfterMs : undefined;
    const timing = status === 401 || status === 403 ? authRetry : transientRetry;
    return backoffDelay(failures, timing, Math.random, retryAfterMs);
  }

  function schedule(outcome: Outcome): void {
    if (stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setBackgroundTimeout(() => void reload(), delayAfter(outcome));
  }

  function reload(): Promise<void> {
    if (stopped) return Promise.resolve();
    inFlight ??= load().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  const firstLoad = reload();
  return {
    get definitions() {
      return definitions;
    },
    firstLoad,
    reload,
    get requests() {
      return requests;
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
