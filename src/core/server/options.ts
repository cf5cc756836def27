/**
 * Options of the server client (Node and edge), named as posthog-node names them where it has a
 * name for them, resolved once here: every part of the client reads the resolved ones. Node adds
 * its own (persistence, exit flushing, exception autocapture) in src/node/options.ts.
 */
import type { RetryOptions } from '../backoff';
import { resolveHost } from './destination';
import { createFetchExecutor } from '../fetch-executor';
import type { Compressor, FetchLike, HttpExecutor } from '../transport';
import type { BeforeSendFn } from './messages';

/** A fetch-compatible function (the `fetch` option): called with a URL string and a GET or a POST with a string or bytes body. */
export type { FetchLike } from '../transport';

export interface ServerOptions {
  /**
   * Ingestion host: the http(s) URL of your PostHog instance (a wrong one is refused at construction).
   * @default 'https://us.i.posthog.com'
   */
  host?: string;
  /**
   * Start sending once this many events wait.
   * @default 20
   */
  flushAt?: number;
  /**
   * Or once the oldest event has waited this long, in ms.
   * @default 10_000
   */
  flushInterval?: number;
  /**
   * Most events in one request; a busy process sends bigger, better-compressed batches.
   * @default 1000
   */
  maxBatchSize?: number;
  /**
   * Most JSON characters in one request, at most 6,000,000 (far under the server's 20 MiB cap).
   * @default 5_000_000
   */
  maxBatchBytes?: number;
  /**
   * Most events waiting; the oldest are evicted (and reported) beyond it.
   * @default 100_000
   */
  maxQueueSize?: number;
  /**
   * Most JSON characters waiting (100,000,000 is about 100 MB).
   * @default 100_000_000
   */
  maxQueueBytes?: number;
  /**
   * Whole-request deadline in ms (a flag lookup's retries included).
   * @default 10_000
   */
  requestTimeout?: number;
  /**
   * posthog-node's meaning: a batch still failing after this many retries is dropped and reported
   * (DroppedEventsError, reason 'retries_exhausted'). Not set: retries go on, with backoff, while
   * the queue has room; nothing is dropped for a transient failure (flush() stops waiting after 8
   * failures in a row; the events stay queued).
   */
  fetchRetryCount?: number;
  /**
   * First retry delay in ms, doubled per failure (with jitter) up to `retry.maxDelayMs`.
   * @default 500
   */
  fetchRetryDelay?: number;
  /** The delivery backoff in detail (the table below); `fetchRetryCount` and `fetchRetryDelay` set its usual parts. */
  retry?: Partial<RetryOptions>;
  /**
   * Send `historical_migration: true` (imports of past events); events go strictly in capture order.
   * @default false
   */
  historicalMigration?: boolean;
  /**
   * 'gzip' (`Content-Encoding: gzip`, Node's native zlib) or 'none' (plain JSON).
   * @default 'gzip'
   */
  compression?: 'gzip' | 'none';
  /** Replace the gzip implementation. */
  compressor?: Compressor;
  /**
   * 'always' (like posthog-node): every event may create or update a person.
   * 'never': events carry `$process_person_profile: false` (except identify, alias, group identify).
   * @default 'always'
   */
  personProfiles?: 'always' | 'never';
  /**
   * Events carry `$geoip_disable: true` and flag requests `geoip_disable: true`, so the server does
   * not locate your users at your server's address, as in posthog-node; an event captured with
   * `ip` is located by that address unless you set this explicitly.
   * @default true (false for an event captured with `ip`)
   */
  disableGeoip?: boolean;
  /**
   * Capture nothing; captured events are counted as dropped with reason 'opted_out' (the first is reported).
   * @default false
   */
  disabled?: boolean;
  /**
   * Log every queued event, flush and response (bodies cut short), and every drop, retry and normalisation, to the console; `debug()` switches it later.
   * @default false
   */
  debug?: boolean;
  /**
   * Replace the HTTP layer entirely (tests, custom transports). Every request goes through it:
   * batches and flags (POST) and, with a personalApiKey, the flag definitions (GET).
   * @default node:http on Node, fetch on edge
   */
  executor?: HttpExecutor;
  /**
   * A fetch-compatible function used for every request instead of the built-in one (proxies,
   * instrumentation): batches, flags and the flag definitions, which carry the personal API key.
   */
  fetch?: FetchLike;
  /** Change or drop (return null) each event before it is queued; a function or a list run in order. */
  before_send?: BeforeSendFn | BeforeSendFn[];
  /**
   * A personal API key (phx_…) with feature flag read access: flags are then evaluated in-process
   * from polled definitions, with no request per check (core/server/local-flags). Only ever sent in
   * the Authorization header of the definitions request.
   */
  personalApiKey?: string;
  /**
   * How often flag definitions are re-polled, in ms, at least 100.
   * @default 30_000
   */
  featureFlagsPollingInterval?: number;
  /**
   * Never ask the server for a flag local evaluation cannot decide (answer undefined).
   * @default false
   */
  strictLocalEvaluation?: boolean;
  /** posthog-node's option, read by `@posthog/ai`: leave prompts and model outputs out of AI events. @default false */
  privacyMode?: boolean;
  /**
   * How long one flags answer is used per distinct id and override set (ms). 0 turns the cache off.
   * @default 60_000
   */
  flagsCacheTtl?: number;
  /**
   * Most (distinct id, overrides) flag sets cached; least recently used go first.
   * @default 10_000
   */
  flagsCacheSize?: number;
  /**
   * Most (distinct id, flag, value) triples remembered for `$feature_flag_called` dedup.
   * @default 50_000
   */
  flagCalledDedupSize?: number;
}

export interface ResolvedServerOptions {
  host: string;
  flushAt: number;
  flushInterval: number;
  maxBatchSize: number;
  maxBatchBytes: number;
  maxQueueSize: number;
  maxQueueBytes: number;
  requestTimeout: number;
  retry: Partial<RetryOptions>;
  historicalMigration: boolean;
  compression: 'gzip' | 'none';
  personProfiles: 'always' | 'never';
  /** Undefined: not set by the user (events without `ip` are then not located; with `ip` they are). */
  disableGeoip: boolean | undefined;
  disabled: boolean;
  debug: boolean;
  beforeSend: BeforeSendFn[];
  flagsCacheTtl: number;
  flagsCacheSize: number;
  flagCalledDedupSize: number;
  /** The user's transport (`executor`, or one on `fetch`); undefined: the platform's. */
  executor: HttpExecutor | undefined;
  /** The user's gzip (`compressor`); undefined: the platform's. */
  compressor: Compressor | undefined;
  /** Undefined: no local evaluation. */
  personalApiKey: string | undefined;
  featureFlagsPollingInterval: number;
  strictLocalEvaluation: boolean;
  privacyMode: boolean;
}

export function positive(name: string, value: number | undefined, fallback: number, problems: string[]): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    problems.push(`${name} must be a non-negative number; got ${String(value)}, using ${fallback}`);
    return fallback;
  }
  return value;
}

/**
 * A character of JSON is at most 3 bytes of UTF-8, so 6,000,000 characters stay under 18 MB, well
 * under the server's 20 MiB request cap (413 for the whole batch) whatever the text is.
 */
const MAX_BATCH_CHARS = 6_000_000;

function batchBytes(value: number | undefined, problems: string[]): number {
  const chosen = Math.max(1, positive('maxBatchBytes', value, 5_000_000, problems));
  if (chosen <= MAX_BATCH_CHARS) return chosen;
  problems.push(`maxBatchBytes ${chosen} could make a request over the server's 20 MiB cap; using ${MAX_BATCH_CHARS}`);
  return MAX_BATCH_CHARS;
}

/** A project key here would be sent as a bearer token and refused; say so instead of polling in vain. */
function personalKey(value: unknown, problems: string[]): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.startsWith('phc_')) {
    problems.push(
      'personalApiKey must be a personal API key (phx_…) with feature flag read access, not the project key (phc_…); local flag evaluation is off',
    );
    return undefined;
  }
  return value.trim();
}

/** A function option, or undefined (and a problem named) when something else was given. */
function functionOption<T>(name: string, value: T | undefined, problems: string[]): T | undefined {
  if (value === undefined || typeof value === 'function') return value;
  problems.push(`${name} must be a function; got ${typeof value}, using the built-in one`);
  return undefined;
}

function userExecutor(options: ServerOptions, problems: string[]): HttpExecutor | undefined {
  const fetchFn = functionOption('fetch', options.fetch, problems);
  return functionOption('executor', options.executor, problems) ?? (fetchFn && createFetchExecutor(fetchFn));
}

export function resolveServerOptions(options: ServerOptions, problems: string[]): ResolvedServerOptions {
  const retry: Partial<RetryOptions> = { ...options.retry };
  if (options.fetchRetryCount !== undefined)
    retry.maxRetries = Math.max(0, positive('fetchRetryCount', options.fetchRetryCount, 3, problems));
  if (options.fetchRetryDelay !== undefined) retry.initialDelayMs = options.fetchRetryDelay;
  const hooks = options.before_send;
  const beforeSend = (Array.isArray(hooks) ? hooks : hooks === undefined ? [] : [hooks]).filter((hook) => {
    if (typeof hook === 'function') return true;
    problems.push(`before_send must be a function or an array of functions; ignored ${typeof hook}`);
    return false;
  });
  return {
    host: resolveHost(options.host),
    flushAt: Math.max(1, positive('flushAt', options.flushAt, 20, problems)),
    flushInterval: positive('flushInterval', options.flushInterval, 10_000, problems),
    maxBatchSize: Math.max(1, positive('maxBatchSize', options.maxBatchSize, 1_000, problems)),
    maxBatchBytes: batchBytes(options.maxBatchBytes, problems),
    maxQueueSize: Math.max(1, positive('maxQueueSize', options.maxQueueSize, 100_000, problems)),
    maxQueueBytes: Math.max(1, positive('maxQueueBytes', options.maxQueueBytes, 100_000_000, problems)),
    requestTimeout: Math.max(1, positive('requestTimeout', options.requestTimeout, 10_000, problems)),
    retry,
    historicalMigration: options.historicalMigration === true,
    compression: options.compression === 'none' ? 'none' : 'gzip',
    personProfiles: options.personProfiles === 'never' ? 'never' : 'always',
    disableGeoip: typeof options.disableGeoip === 'boolean' ? options.disableGeoip : undefined,
    disabled: options.disabled === true,
    debug: options.debug === true,
    beforeSend,
    flagsCacheTtl: positive('flagsCacheTtl', options.flagsCacheTtl, 60_000, problems),
    flagsCacheSize: Math.max(1, positive('flagsCacheSize', options.flagsCacheSize, 10_000, problems)),
    flagCalledDedupSize: Math.max(1, positive('flagCalledDedupSize', options.flagCalledDedupSize, 50_000, problems)),
    executor: userExecutor(options, problems),
    compressor: functionOption('compressor', options.compressor, problems),
    personalApiKey: personalKey(options.personalApiKey, problems),
    featureFlagsPollingInterval: Math.max(
      100,
      positive('featureFlagsPollingInterval', options.featureFlagsPollingInterval, 30_000, problems),
    ),
    strictLocalEvaluation: options.strictLocalEvaluation === true,
    privacyMode: options.privacyMode === true,
  };
}
