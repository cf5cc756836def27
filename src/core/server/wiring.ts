/**
 * Assembles the server client's parts from its resolved options and platform: one executor for
 * every request (the user's `executor` or `fetch`, else the platform's), the batch sender (with the
 * next body prepared while the current request is in flight), the queue, and the flags stack (flags
 * client, per-user cache, local evaluation with a personalApiKey, posthog-node's flag methods), and
 * the intake that turns calls into queued events. The client class keeps the public calls.
 */
import { DEFAULT_RETRY } from '../backoff';
import { createBatchEncoder, createBatchSender } from '../batch-sender';
import { HogtailError } from '../errors';
import type { QueuedEvent } from '../event';
import { createFlagsClient } from '../flags/flags-client';
import { createPreparedBodies } from '../prepared-bodies';
import { createQueue, type Queue, type QueuePersistence } from '../queue';
import { serverCloser } from '../queue-close';
import type { Compressor, HttpExecutor } from '../transport';
import { logResponses } from './debug-log';
import { createFlagCache, type FlagCache } from './flag-cache';
import type { BuildSettings } from './build';
import { createServerFeatureFlags, type ServerFeatureFlags } from './feature-flags';
import { createHeldEvents, type HeldEvents } from './held-events';
import type { CallRecord } from './immediate';
import { createIntake, type Intake } from './intake';
import { createLocalFlags, type LocalFlags } from './local-flags/local-flags';
import type { ResolvedServerOptions } from './options';
import type { ContextStore } from './request-context';

/** What a platform hands the client. */
export interface ServerPlatform {
  /** `$lib` of every event. */
  lib: string;
  /** The transport when the user gives neither `executor` nor `fetch`. */
  executor: HttpExecutor;
  gzip: Compressor;
  /** Hex sha1 of a UTF-8 string, for local evaluation's bucketing hash. */
  sha1: (text: string) => string;
  persistence?: { hook: QueuePersistence; restored: readonly QueuedEvent[] } | undefined;
  /** The request context's store (Node's AsyncLocalStorage); without one, withContext() only runs its function. */
  context?: ContextStore | undefined;
  /** Releases sockets and files; called once, at shutdown or exit. */
  release(): void;
}

export interface WiringHooks {
  report(error: HogtailError): void;
  debug(message: string): void;
  delivered(events: readonly QueuedEvent[]): void;
  geoipDisable(perCall: boolean | undefined, ip: string | undefined): boolean;
  disabled(): boolean;
  closed(): boolean;
  /** Called before an event is queued: a client closed by shutdown() takes events again. */
  wake(): void;
  /** The *Immediate call running now, if any. */
  record(): CallRecord | undefined;
  /** Debug mode is on now (client.debug() can change it at any time). */
  verbose(): boolean;
}

export interface ServerParts {
  queue: Queue;
  flagCache: FlagCache;
  flags: ServerFeatureFlags;
  /** Set with a personalApiKey (and not disabled): flags decided in-process from polled definitions. */
  local: LocalFlags | undefined;
  held: HeldEvents;
  intake: Intake;
}

function startLocalFlags(
  apiKey: string,
  options: ResolvedServerOptions,
  platform: ServerPlatform,
  executor: HttpExecutor,
  hooks: WiringHooks,
) {
  if (options.personalApiKey === undefined || options.disabled) return undefined;
  return createLocalFlags({
    host: options.host,
    projectKey: apiKey,
    personalKey: options.personalApiKey,
    intervalMs: options.featureFlagsPollingInterval,
    timeoutMs: options.requestTimeout,
    executor,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    sha1: platform.sha1,
    onError: hooks.report,
  });
}

function startQueue(
  apiKey: string,
  options: ResolvedServerOptions,
  platform: ServerPlatform,
  executor: HttpExecutor,
  hooks: WiringHooks,
): Queue {
  const senderOptions = {
    host: options.host,
    apiKey,
    executor,
    compress: options.compression === 'gzip' ? (options.compressor ?? platform.gzip) : undefined,
    contentType: 'application/json',
    gzipSignal: 'header' as const,
    historicalMigration: options.historicalMigration,
    timeoutMs: options.requestTimeout,
  };
  // Batch n+1 is built and compressed while batch n is in flight (see prepared-bodies.ts).
  const preparedBodies = createPreparedBodies(createBatchEncoder(senderOptions));
  const queue = createQueue({
    send_: createBatchSender(senderOptions, preparedBodies.take),
    flushAt_: options.flushAt,
    flushIntervalMs_: options.flushInterval,
    maxBatchSize_: options.maxBatchSize,
    maxBatchBytes_: options.maxBatchBytes,
    maxQueueSize_: options.maxQueueSize,
    maxQueueBytes_: options.maxQueueBytes,
    retry_: options.retry,
    persistence_: platform.persistence?.hook,
    lookahead_: preparedBodies.prepare,
    onDrop_: hooks.report,
    onRetry_: hooks.report,
    onWarning_: hooks.report,
    onDelivered_: hooks.delivered,
    closer_: serverCloser, // shutdown(): a server closes its queue, a page never does
  });
  if (platform.persistence) queue.restore(platform.persistence.restored);
  return queue;
}

export function wireServerParts(apiKey: string, options: ResolvedServerOptions, platform: ServerPlatform, hooks: WiringHooks): ServerParts {
  const executor = logResponses(options.executor ?? platform.executor, hooks.verbose, hooks.debug);
  const queue = startQueue(apiKey, options, platform, executor, hooks);
  const flagCache = createFlagCache({
    flags: createFlagsClient({ host: options.host, apiKey, executor, timeoutMs: options.requestTimeout, retry: options.retry }),
    ttlMs: options.flagsCacheTtl,
    maxEntries: options.flagsCacheSize,
    onError: hooks.report,
  });
  const local = startLocalFlags(apiKey, options, platform, executor, hooks);
  let localOnlyWarned = false;
  const flags = createServerFeatureFlags({
    cache: flagCache,
    onCalled: (called) => intake.flagCalled(called),
    maxCalledEntries: options.flagCalledDedupSize,
    geoipDisable: hooks.geoipDisable,
    warnLocalOnly() {
      if (localOnlyWarned) return;
      localOnlyWarned = true;
      hooks.report(
        new HogtailError(
          'onlyEvaluateLocally needs local evaluation (the personalApiKey option); without it such lookups answer undefined.',
        ),
      );
    },
    local,
    strictLocal: options.strictLocalEvaluation,
  });
  const settings: BuildSettings = {
    lib: platform.lib,
    personProfiles: options.personProfiles,
    historicalMigration: options.historicalMigration,
    beforeSend: options.beforeSend,
    geoipDisable: hooks.geoipDisable,
    debug: hooks.debug,
    report: hooks.report,
  };
  const held = createHeldEvents((record) => queue.enqueue(record));
  const intake = createIntake({ ...hooks, settings, queue, held, flags, flagCache, local, strictLocal: options.strictLocalEvaluation });
  return { queue, flagCache, flags, local, held, intake };
}
