/** Options of the Node client, named as posthog-node names them where it has a name for them. */
import type { RetryOptions } from '../core/backoff';
import type { Compressor, HttpExecutor } from '../core/transport';
import { resolvePersistence, type PersistenceOption, type ResolvedFilePersistence } from './persistence/options';

export interface PostHogOptions {
  /** Ingestion host. Default `https://us.i.posthog.com`. */
  host?: string;
  /** Start sending once this many events wait. Default 20. */
  flushAt?: number;
  /** Or once the oldest event has waited this long, in ms. Default 10,000. */
  flushInterval?: number;
  /** Most events in one request; a busy process sends bigger, better-compressed batches. Default 1,000. */
  maxBatchSize?: number;
  /** Most JSON characters in one request, far under the server's 20 MiB cap. Default 5,000,000, at most 6,000,000. */
  maxBatchBytes?: number;
  /** Most events waiting; the oldest are evicted (and reported) beyond it. Default 100,000. */
  maxQueueSize?: number;
  /** Most JSON characters waiting. Default 100,000,000 (about 100 MB). */
  maxQueueBytes?: number;
  /** Whole-request deadline in ms. Default 10,000. */
  requestTimeout?: number;
  /** Consecutive failed attempts after which flush() stops waiting (events stay queued). Default 8. */
  fetchRetryCount?: number;
  /** First retry delay in ms, doubled per failure up to `retry.maxDelayMs`. Default 500. */
  fetchRetryDelay?: number;
  retry?: Partial<RetryOptions>;
  /** Send `historical_migration: true`; events go strictly in capture order. Default false. */
  historicalMigration?: boolean;
  /** 'gzip' (default) or 'none'. */
  compression?: 'gzip' | 'none';
  /** Replace the gzip implementation (default: Node's native zlib, off the main thread). */
  compressor?: Compressor;
  /**
   * 'always' (default, like posthog-node): every event may create or update a person.
   * 'never': events carry `$process_person_profile: false` (except identify, alias, group identify).
   */
  personProfiles?: 'always' | 'never';
  /** Capture nothing; captured events are counted as dropped with reason 'opted_out'. */
  disabled?: boolean;
  /** Log every drop, retry and normalisation to the console. */
  debug?: boolean;
  /** Replace the HTTP layer (tests, proxies, edge runtimes). */
  executor?: HttpExecutor;
  /** Flush on process `beforeExit`, waiting at most this long (ms). 0 turns it off. Default 5,000. */
  flushOnExitTimeout?: number;
  /** How long one decide answer is used per distinct id and override set (ms). Default 60,000. */
  flagsCacheTtl?: number;
  /** Most (distinct id, overrides) flag sets cached; least recently used go first. Default 10,000. */
  flagsCacheSize?: number;
  /** Most (distinct id, flag, value) triples remembered for `$feature_flag_called` dedup. Default 50,000. */
  flagCalledDedupSize?: number;
  /**
   * 'memory' (default), or a crash-safe journal: `{ type: 'file', path, fsync: 'interval' | 'always' }`.
   * Semantics and trade-offs in persistence/options.ts.
   */
  persistence?: PersistenceOption;
  /**
   * Capture uncaught exceptions and unhandled rejections as `$exception` events (rate-limited per
   * error type). Node's own behaviour is kept: without listeners of the app's own, the process
   * still exits with code 1, after up to flushOnExitTimeout ms to deliver the event. Default false.
   */
  enableExceptionAutocapture?: boolean;
  /**
   * A personal API key (phx_…) with feature flag read access: flags are then evaluated in-process
   * from polled definitions, with no request per check (local-flags/). Only ever sent in the
   * Authorization header of the definitions request.
   */
  personalApiKey?: string;
  /** How often flag definitions are re-polled, in ms. Default 30,000, at least 100. */
  featureFlagsPollingInterval?: number;
  /** Never ask the server for a flag local evaluation cannot decide (answer undefined). Default false. */
  strictLocalEvaluation?: boolean;
}

export const DEFAULT_HOST = 'https://us.i.posthog.com';

export interface ResolvedOptions {
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
  disabled: boolean;
  debug: boolean;
  flushOnExitTimeout: number;
  flagsCacheTtl: number;
  flagsCacheSize: number;
  flagCalledDedupSize: number;
  /** Undefined: in memory. */
  persistence: ResolvedFilePersistence | undefined;
  /** Undefined: no local evaluation. */
  personalApiKey: string | undefined;
  featureFlagsPollingInterval: number;
  strictLocalEvaluation: boolean;
}

function positive(name: string, value: number | undefined, fallback: number, problems: string[]): number {
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

export function resolveOptions(options: PostHogOptions, problems: string[]): ResolvedOptions {
  const retry: Partial<RetryOptions> = { ...options.retry };
  if (options.fetchRetryCount !== undefined) retry.maxAttempts = Math.max(1, options.fetchRetryCount);
  if (options.fetchRetryDelay !== undefined) retry.initialDelayMs = options.fetchRetryDelay;
  return {
    host: (options.host ?? DEFAULT_HOST).replace(/\/+$/, ''),
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
    disabled: options.disabled === true,
    debug: options.debug === true,
    flushOnExitTimeout: positive('flushOnExitTimeout', options.flushOnExitTimeout, 5_000, problems),
    flagsCacheTtl: positive('flagsCacheTtl', options.flagsCacheTtl, 60_000, problems),
    flagsCacheSize: Math.max(1, positive('flagsCacheSize', options.flagsCacheSize, 10_000, problems)),
    flagCalledDedupSize: Math.max(1, positive('flagCalledDedupSize', options.flagCalledDedupSize, 50_000, problems)),
    persistence: resolvePersistence(options.persistence, problems),
    personalApiKey: personalKey(options.personalApiKey, problems),
    featureFlagsPollingInterval: Math.max(100, positive('featureFlagsPollingInterval', options.featureFlagsPollingInterval, 30_000, problems)),
    strictLocalEvaluation: options.strictLocalEvaluation === true,
  };
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
