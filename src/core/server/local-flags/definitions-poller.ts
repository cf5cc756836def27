/**
 * Keeps flag definitions fresh for local evaluation: one GET now, then one per polling interval,
 * with `If-None-Match` so an unchanged set costs a 304 and no parsing. posthog-node 5's path
 * (`/flags/definitions`) first; a server that answers 404 gets the older
 * `/api/feature_flag/local_evaluation/` for the rest of the client's life.
 *
 * The personal key travels only in the Authorization header of these requests, never in a URL or a
 * message. Failures never clear loaded definitions: a network error, 429 or 5xx retries sooner with
 * backoff (capped at the interval); 401/403 is reported once with what to check and retried at a
 * slower pace (the key may be fixed on the server). Timers are unref'd: polling never keeps a
 * process alive.
 */
import { HogtailError } from '../../core/errors';
import { FlagDefinitionsError, parseFlagDefinitions, type FlagDefinitions } from '../../core/flag-engine';
import { setBackgroundTimeout, type TimerHandle } from '../../core/timers';
import { textOf } from '../../core/text-of';

/** The subset of fetch the poller uses, so a user's `fetch` option can stand in for the global one. */
export type DefinitionsFetch = (
  url: string,
  init: { method: 'GET'; headers: Record<string, string>; signal?: AbortSignal },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export interface DefinitionsPollerOptions {
  host: string;
  projectKey: string;
  personalKey: string;
  intervalMs: number;
  timeoutMs: number;
  fetch?: DefinitionsFetch;
  onError: (error: HogtailError) => void;
  /** Each newly loaded set (not on a 304). */
  onLoad?: (definitions: FlagDefinitions) => void;
}

export interface DefinitionsPoller {
  /** The definitions in use; undefined until the first successful load. */
  readonly definitions: FlagDefinitions | undefined;
  /** Resolves when the first load attempt has ended, whatever its outcome. */
  readonly firstLoad: Promise<void>;
  /** Loads now (posthog-node's reloadFeatureFlags); resolves when that attempt ends. */
  reload(): Promise<void>;
  /** Definition requests made so far. */
  readonly requests: number;
  stop(): void;
}

const MAX_AUTH_BACKOFF_MS = 5 * 60_000;

export function createDefinitionsPoller(options: DefinitionsPollerOptions): DefinitionsPoller {
  const fetcher: DefinitionsFetch = options.fetch ?? (globalThis.fetch as unknown as DefinitionsFetch);
  const query = `?token=${encodeURIComponent(options.projectKey)}&send_cohorts`;
  let path = '/flags/definitions';
  let definitions: FlagDefinitions | undefined;
  let etag: string | undefined;
  let requests = 0;
  let failures = 0;
  let authReported = false;
  let lastProblem: string | undefined;
  let timer: TimerHandle | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped = false;

  const report = (message: string): void => options.onError(new HogtailError(message));

  async function attempt(): Promise<number> {
    requests++;
    const headers: Record<string, string> = { Authorization: `Bearer ${options.personalKey}`, Accept: 'application/json' };
    if (etag !== undefined) headers['If-None-Match'] = etag;
    const response = await fetcher(`${options.host}${path}${query}`, { method: 'GET', headers, signal: AbortSignal.timeout(options.timeoutMs) });
    if (response.status === 404 && path === '/flags/definitions') {
      path = '/api/feature_flag/local_evaluation/';
      etag = undefined;
      return attempt();
    }
    if (response.status === 200) accept(await response.text(), response.headers.get('etag'));
    return response.status;
  }

  function accept(text: string, newEtag: string | null): void {
    try {
      definitions = parseFlagDefinitions(JSON.parse(text) as unknown, { lenient: true });
      etag = newEtag ?? undefined;
      lastProblem = undefined;
      options.onLoad?.(definitions);
    } catch (error) {
      const reason = error instanceof FlagDefinitionsError || error instanceof SyntaxError ? error.message : textOf(error);
      const message = `the flag definitions from ${options.host}${path} could not be read (${reason}); ${definitions ? 'keeping the ones loaded before' : 'flags are evaluated by the server until they can be'}`;
      if (message !== lastProblem) report(message);
      lastProblem = message;
    }
  }

  async function load(): Promise<void> {
    let status: number | string;
    try {
      status = await attempt();
    } catch (error) {
      status = error instanceof Error ? error.message : textOf(error);
    }
    if (status === 200 || status === 304) {
      failures = 0;
      authReported = false;
    } else {
      failures++;
      describeFailure(status);
    }
    schedule(status);
  }

  function describeFailure(status: number | string): void {
    if (status === 401 || status === 403) {
      if (authReported) return;
      authReported = true;
      report(
        `the server refused the personal API key for local flag evaluation (${status} from ${options.host}${path}). Check that personalApiKey is a personal API key (phx_…) with feature flag read access for the project of ${options.projectKey}, and that host points at that project's PostHog. Flags are evaluated by the server meanwhile.`,
      );
      return;
    }
    // Transient trouble is reported once per run of failures, not at every retry.
    if (failures === 1) {
      report(`flag definitions could not be loaded from ${options.host}${path} (${typeof status === 'number' ? `status ${status}` : status}); retrying with backoff, flags are evaluated ${definitions ? 'with the definitions loaded before' : 'by the server meanwhile'}.`);
    }
  }

  function schedule(status: number | string): void {
    if (stopped) return;
    let delay = options.intervalMs;
    if (status === 401 || status === 403) delay = Math.min(options.intervalMs * 2 ** failures, Math.max(options.intervalMs, MAX_AUTH_BACKOFF_MS));
    else if (failures > 0) delay = Math.min(options.intervalMs, 500 * 2 ** (failures - 1));
    if (timer !== undefined) clearTimeout(timer);
    timer = setBackgroundTimeout(() => void reload(), delay);
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
