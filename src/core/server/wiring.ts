/**
 * Assembles the server client's parts from its options and platform: the batch sender (with the
 * next body prepared while the current request is in flight), the queue, and the flags stack
 * (flags client, per-user cache, posthog-node's flag methods). The client class keeps the calls.
 */
import { createBatchEncoder, createBatchSender } from '../batch-sender';
import type { HogtailError } from '../errors';
import type { QueuedEvent } from '../event';
import { createFetchExecutor } from '../fetch-executor';
import { createFlagsClient } from '../flags/flags-client';
import { createPreparedBodies } from '../prepared-bodies';
import { createQueue, type Queue, type QueuePersistence } from '../queue';
import { closeQueue } from '../queue-close';
import type { Compressor, HttpExecutor } from '../transport';
import { createFlagCache, type FlagCache } from './flag-cache';
import { createServerFeatureFlags, type FlagCalled, type LocalEvaluator, type ServerFeatureFlags } from './feature-flags';
import type { ResolvedServerOptions, ServerOptions } from './options';

/** What a platform hands the client. */
export interface ServerPlatform {
  /** `$lib` of every event. */
  lib: string;
  /** The transport when the user gives neither `executor` nor `fetch`. */
  executor: HttpExecutor;
  gzip: Compressor;
  persistence?: { hook: QueuePersistence; restored: readonly QueuedEvent[] } | undefined;
  /** Releases sockets, files and pollers; called once, at shutdown or exit. */
  release(): void;
  /** Flags decided in-process (Node, given a personalApiKey). */
  local?: LocalEvaluator | undefined;
  /** Never ask the server for what `local` cannot decide. */
  strictLocal?: boolean;
}

export interface WiringHooks {
  report(error: HogtailError): void;
  delivered(events: readonly QueuedEvent[]): void;
  flagCalled(called: FlagCalled): void;
  geoipDisable(perCall: boolean | undefined, ip: string | undefined): boolean;
  /** onlyEvaluateLocally without local evaluation. */
  warnLocalOnly(): void;
}

export interface ServerParts {
  queue: Queue;
  flagCache: FlagCache;
  flags: ServerFeatureFlags;
}

export function wireServerParts(
  apiKey: string,
  given: ServerOptions,
  options: ResolvedServerOptions,
  platform: ServerPlatform,
  hooks: WiringHooks,
): ServerParts {
  const executor = given.executor ?? (given.fetch ? createFetchExecutor(given.fetch) : platform.executor);
  const senderOptions = {
    host: options.host,
    apiKey,
    executor,
    compress: options.compression === 'gzip' ? (given.compressor ?? platform.gzip) : undefined,
    contentType: 'application/json',
    gzipSignal: 'header' as const,
    historicalMigration: options.historicalMigration,
    timeoutMs: options.requestTimeout,
  };
  // Batch n+1 is built and compressed while batch n is in flight (see prepared-bodies.ts).
  const preparedBodies = createPreparedBodies(createBatchEncoder(senderOptions));
  const flagCache = createFlagCache({
    flags: createFlagsClient({ host: options.host, apiKey, executor, timeoutMs: options.requestTimeout, retry: options.retry }),
    ttlMs: options.flagsCacheTtl,
    maxEntries: options.flagsCacheSize,
    onError: hooks.report,
  });
  const flags = createServerFeatureFlags({
    cache: flagCache,
    onCalled: hooks.flagCalled,
    maxCalledEntries: options.flagCalledDedupSize,
    geoipDisable: hooks.geoipDisable,
    warnLocalOnly: hooks.warnLocalOnly,
    local: platform.local,
    strictLocal: platform.strictLocal,
  });
  const queue = createQueue({
    send: createBatchSender(senderOptions, preparedBodies.take),
    flushAt: options.flushAt,
    flushIntervalMs: options.flushInterval,
    maxBatchSize: options.maxBatchSize,
    maxBatchBytes: options.maxBatchBytes,
    maxQueueSize: options.maxQueueSize,
    maxQueueBytes: options.maxQueueBytes,
    retry: options.retry,
    persistence: platform.persistence?.hook,
    lookahead: preparedBodies.prepare,
    onDrop: hooks.report,
    onRetry: hooks.report,
    onWarning: hooks.report,
    onDelivered: hooks.delivered,
    closer: closeQueue, // shutdown(): a server closes its queue, a page never does
  });
  if (platform.persistence) queue.restore(platform.persistence.restored);
  return { queue, flagCache, flags };
}
