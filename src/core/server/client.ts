/**
 * The server client, platform-free: posthog-node's API on hogtail's core, shared by the Node entry
 * (node:http, zlib, file persistence, exit hooks) and the edge entry (fetch, CompressionStream).
 * A class (not a factory, unlike the rest of the codebase) because posthog-node users write
 * `new PostHog(key, options)` and drop-in means the same line keeps working.
 */
import { createBatchEncoder, createBatchSender } from '../batch-sender';
import { DroppedEventsError, HogtailError, type InvalidEventError } from '../errors';
import type { QueuedEvent } from '../event';
import { createFetchExecutor } from '../fetch-executor';
import { featureProperties, type FlagValue } from '../flags/decide';
import { createFlagsClient } from '../flags/flags-client';
import { createPreparedBodies } from '../prepared-bodies';
import { createQueue, type Queue, type QueuePersistence, type QueueStats } from '../queue';
import { createReporter, type ErrorListener, type Reporter } from '../reporter';
import { aliasEvent, groupIdentifyEvent, identifyEvent, isObject, screenEvent, surveyEvent, type SpecialEvent, type SurveyAction } from '../special-events';
import type { Compressor, HttpExecutor } from '../transport';
import { uuidv7 } from '../uuid';
import { buildServerEvent, cleanGroups, type BuildSettings, type Envelope } from './build';
import { createFlagCache, type FlagCache } from './flag-cache';
import { createServerFeatureFlags, type FlagCalled, type FlagOptions, type LocalEvaluator, type ServerFeatureFlags } from './feature-flags';
import { createImmediateRegistry, type CallRecord, type ImmediateRegistry } from './immediate';
import { readMessage, readSpecial } from './read-message';
import type { AliasMessage, EventMessage, GroupIdentifyMessage, IdentifyMessage, ScreenMessage, SurveyMessage, SurveySentMessage } from './messages';
import { resolveServerOptions, type ResolvedServerOptions, type ServerOptions } from './options';

/** What a platform hands the client. */
export interface ServerPlatform {
  /** `$lib` of every event. */
  lib: string;
  /** The transport when the user gives neither `executor` nor `fetch`. */
  executor: HttpExecutor;
  gzip: Compressor;
  persistence?: { hook: QueuePersistence; restored: readonly QueuedEvent[] } | undefined;
  /** Releases sockets and files; called once, at shutdown or exit. */
  release(): void;
  /** Flags decided in-process (Node, given a personalApiKey). */
  local?: LocalEvaluator | undefined;
  /** Never ask the server for what `local` cannot decide. */
  strictLocal?: boolean;
}

interface HeldEvent {
  /** False while its flags are being fetched. */
  ready: boolean;
  uuid: string;
  /** Undefined until ready, or when the event turned out invalid (already reported). */
  record: QueuedEvent | undefined;
}

export class ServerClient {
  readonly apiKey: string;
  readonly options: ResolvedServerOptions;
  protected readonly queue: Queue;
  protected readonly reporter: Reporter;
  #listeners = new Set<ErrorListener>();
  #platform: ServerPlatform;
  #settings: BuildSettings;
  #disabled: boolean;
  #shutdown: Promise<void> | undefined;
  #flagCache: FlagCache;
  #flags: ServerFeatureFlags;
  #immediate: ImmediateRegistry = createImmediateRegistry();
  /** Set while an *Immediate call runs: what it queued. */
  #record: CallRecord | undefined;
  /** Events waiting for their flags before they can be queued; flush() waits for them. */
  #awaitingFlags = new Set<Promise<void>>();
  /**
   * Events captured after one that waits for its flags, in capture order: built (and validated) at
   * once but queued only behind it, so sendFeatureFlags never reorders events (which a historical
   * migration relies on). Empty almost always.
   */
  #held: HeldEvent[] = [];
  /** A disabled client reports its first dropped event, then only counts (stats().dropped.opted_out). */
  #optOutReported = false;
  #localOnlyWarned = false;
  #closed = false;

  constructor(
    apiKey: string,
    options: ServerOptions,
    problems: string[],
    platform: (report: (error: HogtailError) => void, resolved: ResolvedServerOptions) => ServerPlatform,
  ) {
    if (typeof apiKey !== 'string' || apiKey.trim() === '') {
      throw new TypeError("new PostHog(apiKey) needs your project's API key (phc_…) as the first argument.");
    }
    if (apiKey.startsWith('phx_')) {
      throw new TypeError(
        'the key passed to new PostHog() is a personal API key (phx_…). Capture needs the project API key (phc_…); keep personal keys for hogtail/api.',
      );
    }
    this.apiKey = apiKey;
    this.options = resolveServerOptions(options, problems);
    this.#disabled = this.options.disabled;
    this.reporter = createReporter(this.#listeners, this.options.debug);
    for (const problem of problems) console.warn(`[hogtail] option ${problem}`);
    const report = (error: HogtailError) => this.#report(error);
    this.#platform = platform(report, this.options);
    const execute = options.executor ?? (options.fetch ? createFetchExecutor(options.fetch) : this.#platform.executor);
    const senderOptions = {
      host: this.options.host,
      apiKey,
      executor: execute,
      compress: this.options.compression === 'gzip' ? (options.compressor ?? this.#platform.gzip) : undefined,
      gzipSignal: 'header' as const,
      historicalMigration: this.options.historicalMigration,
      timeoutMs: this.options.requestTimeout,
    };
    // Batch n+1 is built and compressed while batch n is in flight (see prepared-bodies.ts).
    const preparedBodies = createPreparedBodies(createBatchEncoder(senderOptions));
    this.#settings = {
      lib: this.#platform.lib,
      personProfiles: this.options.personProfiles,
      historicalMigration: this.options.historicalMigration,
      beforeSend: this.options.beforeSend,
      geoipDisable: (perCall, ip) => this.#geoipDisable(perCall, ip),
      debug: (message) => this.reporter.debug(message),
      report,
    };
    this.#flagCache = createFlagCache({
      flags: createFlagsClient({ host: this.options.host, apiKey, executor: execute, timeoutMs: this.options.requestTimeout, retry: this.options.retry }),
      ttlMs: this.options.flagsCacheTtl,
      maxEntries: this.options.flagsCacheSize,
      onError: report,
    });
    this.#flags = createServerFeatureFlags({
      cache: this.#flagCache,
      onCalled: (called) => this.#flagCalled(called),
      maxCalledEntries: this.options.flagCalledDedupSize,
      geoipDisable: (perCall, ip) => this.#geoipDisable(perCall, ip),
      warnLocalOnly: () => {
        if (this.#localOnlyWarned) return;
        this.#localOnlyWarned = true;
        report(new HogtailError('onlyEvaluateLocally needs local evaluation (the personalApiKey option); without it such lookups answer undefined.'));
      },
      local: this.#platform.local,
      strictLocal: this.#platform.strictLocal,
    });
    this.queue = createQueue({
      send: createBatchSender(senderOptions, preparedBodies.take),
      flushAt: this.options.flushAt,
      flushIntervalMs: this.options.flushInterval,
      maxBatchSize: this.options.maxBatchSize,
      maxBatchBytes: this.options.maxBatchBytes,
      maxQueueSize: this.options.maxQueueSize,
      maxQueueBytes: this.options.maxQueueBytes,
      retry: this.options.retry,
      persistence: this.#platform.persistence?.hook,
      lookahead: preparedBodies.prepare,
      onDrop: report,
      onRetry: report,
      onWarning: report,
      onDelivered: (events) => this.#immediate.delivered(events),
    });
    if (this.#platform.persistence) this.queue.restore(this.#platform.persistence.restored);
  }

  capture(message: EventMessage): void {
    const read = readMessage(message, (error) => this.#refuse(error));
    if (!read) return;
    try {
      if (read.sendFeatureFlags && typeof read.envelope.distinctId === 'string' && !this.#disabled) this.#captureWithFlags(read.event, read.properties, read.envelope);
      else this.#enqueue(read.event, read.properties, read.envelope);
    } catch (error) {
      // capture() never throws into the host app (a Proxy as groups, say): refused and reported.
      this.#refuse(new HogtailError(`"${String(read.event)}" could not be captured (${String(error)}); the event was not queued.`));
    }
  }

  /** capture(), and a promise that settles when the event is acknowledged (or rejects with its drop). */
  captureImmediate(message: EventMessage): Promise<void> {
    return this.immediately(() => this.capture(message));
  }

  identify(message: IdentifyMessage): void {
    this.#special(message, (m) => {
      const properties: unknown = m.properties ?? {};
      if (!isObject(properties)) return { error: `identify() properties must be an object; got ${typeof properties}` };
      // Keys beside `$set` go to `$set` too (posthog-node would drop them without a word).
      const { $set, $set_once, ...rest } = properties;
      return identifyEvent($set === undefined ? rest : isObject($set) ? { ...rest, ...$set } : $set, $set_once);
    });
  }

  identifyImmediate(message: IdentifyMessage): Promise<void> {
    return this.immediately(() => this.identify(message));
  }

  alias(message: AliasMessage): void {
    this.#special(message, (m) => aliasEvent(m.alias));
  }

  aliasImmediate(message: AliasMessage): Promise<void> {
    return this.immediately(() => this.alias(message));
  }

  groupIdentify(message: GroupIdentifyMessage): void {
    this.#special(message, (m) => groupIdentifyEvent(m.groupType, m.groupKey, m.properties), (m) => m.distinctId ?? `$${String(m.groupType)}_${String(m.groupKey)}`);
  }

  groupIdentifyImmediate(message: GroupIdentifyMessage): Promise<void> {
    return this.immediately(() => this.groupIdentify(message));
  }

  screen(message: ScreenMessage): void {
    this.#special(message, (m) => screenEvent(m.name, m.properties));
  }

  surveyShown(message: SurveyMessage): void {
    this.#survey('survey shown', message);
  }

  surveyDismissed(message: SurveyMessage): void {
    this.#survey('survey dismissed', message);
  }

  surveySent(message: SurveySentMessage): void {
    this.#survey('survey sent', message, true);
  }

  /** posthog-node's getFeatureFlag: the flag's value for this user, or undefined when unknown. */
  getFeatureFlag(key: string, distinctId: string, options?: FlagOptions): Promise<FlagValue | undefined> {
    return this.#flags.getFeatureFlag(key, distinctId, options);
  }

  isFeatureEnabled(key: string, distinctId: string, options?: FlagOptions): Promise<boolean | undefined> {
    return this.#flags.isFeatureEnabled(key, distinctId, options);
  }

  /** The payload of the flag's current value, JSON-parsed when it is a JSON string. */
  getFeatureFlagPayload(key: string, distinctId: string, matchValue?: FlagValue, options?: FlagOptions): Promise<unknown> {
    return this.#flags.getFeatureFlagPayload(key, distinctId, matchValue, options);
  }

  getAllFlags(distinctId: string, options?: FlagOptions): Promise<Record<string, FlagValue>> {
    return this.#flags.getAllFlags(distinctId, options);
  }

  getAllFlagsAndPayloads(
    distinctId: string,
    options?: FlagOptions,
  ): Promise<{ featureFlags: Record<string, FlagValue>; featureFlagPayloads: Record<string, unknown> }> {
    return this.#flags.getAllFlagsAndPayloads(distinctId, options);
  }

  /** Flag lookups that went to the server so far (the flag cache's effectiveness, for monitoring). */
  get decideRequests(): number {
    return this.#flagCache.decideRequests;
  }

  /** Resolves when everything captured before the call is delivered or given up. Never rejects. */
  flush(): Promise<void> {
    if (this.#awaitingFlags.size === 0) return this.queue.flush();
    return Promise.all([...this.#awaitingFlags]).then(() => this.queue.flush());
  }

  /**
   * Delivers what is queued, waiting at most `timeoutMs`, then stops timers and releases sockets.
   * Anything still undelivered at the deadline is reported as dropped with reason 'shutdown' (or,
   * with Node's file persistence, stays in the journal for the next run).
   */
  shutdown(timeoutMs = 30_000): Promise<void> {
    if (this.#shutdown) return this.#shutdown;
    this.beforeShutdown();
    this.#shutdown = (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, timeoutMs));
      });
      await Promise.race([this.flush(), deadline]);
      clearTimeout(timer);
      this.close();
    })();
    return this.#shutdown;
  }

  /** posthog-node's name for shutdown(). */
  _shutdown(timeoutMs?: number): Promise<void> {
    return this.shutdown(timeoutMs);
  }

  on(event: 'error', listener: (error: HogtailError) => void): () => void {
    if (event !== 'error') return () => {};
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  debug(enabled = true): void {
    this.reporter.setDebug(enabled);
  }

  enable(): void {
    this.#disabled = false;
    this.#optOutReported = false;
  }

  disable(): void {
    this.#disabled = true;
  }

  /** posthog-node's name for enable(). */
  async optIn(): Promise<void> {
    this.enable();
  }

  /** posthog-node's name for disable(). */
  async optOut(): Promise<void> {
    this.disable();
  }

  /** Counters for monitoring: enqueued, delivered, dropped by reason, requests, retries, pending. */
  stats(): QueueStats {
    return this.queue.stats();
  }

  /** Whether shutdown() has started. */
  protected get isShuttingDown(): boolean {
    return this.#shutdown !== undefined;
  }

  /** A hook for platforms: called when shutdown() starts. */
  protected beforeShutdown(): void {}

  /** Stops the queue (events held behind a flag lookup are reported with it) and releases the platform. */
  protected close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const held = this.#held.map((entry) => entry.record?.uuid ?? entry.uuid);
    this.#held = [];
    this.queue.close();
    if (held.length > 0) {
      this.queue.countDrop('shutdown', held.length);
      this.#report(new DroppedEventsError(`${held.length} event(s) were still waiting for their feature flags when the client shut down.`, 'shutdown', held));
    }
    this.#platform.release();
  }

  #report(error: HogtailError): void {
    this.#immediate.reported(error);
    this.reporter.report(error);
  }

  #refuse(error: InvalidEventError | HogtailError, reason: 'invalid' | 'too_large' = 'invalid'): void {
    this.queue.countDrop(reason);
    if (this.#record) this.#record.error = error;
    this.#report(error);
  }

  /** Runs a capturing call; the promise settles when what it queued is acknowledged or dropped. */
  protected immediately(call: () => void): Promise<void> {
    const promise = this.#immediate.track((record) => {
      this.#record = record;
      try {
        call();
      } finally {
        this.#record = undefined;
      }
    });
    void this.flush();
    return promise;
  }

  #geoipDisable(perCall: boolean | undefined, ip: string | undefined): boolean {
    // Unset: a server's events are not located at the server's address, but at the user's when given.
    return perCall ?? this.options.disableGeoip ?? !ip;
  }

  #captureWithFlags(event: unknown, properties: unknown, envelope: Envelope): void {
    const distinctId = envelope.distinctId as string;
    const groups = cleanGroups(envelope.groups, (message) => this.reporter.debug(message));
    const lookup = { groups, ip: envelope.ip, geoipDisable: this.#geoipDisable(envelope.disableGeoip, envelope.ip) };
    const local = this.#platform.local?.allNow(distinctId, lookup);
    if (local && (local.undecided.length === 0 || this.#platform.strictLocal)) {
      this.#enqueue(event, properties, envelope, featureProperties(local.flags));
      return;
    }
    const cached = this.#flagCache.peek(distinctId, lookup);
    if (cached?.fresh) {
      this.#enqueue(event, properties, envelope, featureProperties(cached.snapshot.flags));
      return;
    }
    // Fix the event's identity and time now, so waiting for flags changes neither; later events wait
    // behind it (#held) so the queue still sees capture order.
    const fixed = { ...envelope, timestamp: envelope.timestamp ?? new Date(), uuid: envelope.uuid ?? uuidv7() };
    const slot: HeldEvent = { ready: false, uuid: fixed.uuid, record: undefined };
    this.#held.push(slot);
    this.#record?.uuids.push(fixed.uuid);
    const waiting = this.#flags
      .propertiesFor(distinctId, lookup)
      .catch((error: unknown) => {
        this.reporter.debug(`flags for "${distinctId}" not added to its event: ${String(error)}`);
        return {};
      })
      .then((flagProperties) => {
        if (this.#closed) return;
        slot.record = this.#build(event, properties, fixed, flagProperties);
        slot.ready = true;
        while (this.#held[0]?.ready) {
          const record = this.#held.shift()!.record;
          if (record) this.queue.enqueue(record);
        }
      })
      .finally(() => this.#awaitingFlags.delete(waiting));
    this.#awaitingFlags.add(waiting);
  }

  #flagCalled({ distinctId, key, value, requestId, error, groups, disableGeoip, locallyEvaluated, definition }: FlagCalled): void {
    // A value that could not be had is never recorded as false: it is left out, with the reason.
    const properties: Record<string, unknown> = { $feature_flag: key, locally_evaluated: locallyEvaluated };
    if (value !== undefined) {
      properties.$feature_flag_response = value;
      properties['$feature/' + key] = value;
    }
    if (requestId !== undefined) properties.$feature_flag_request_id = requestId;
    if (error !== undefined) properties.$feature_flag_error = error;
    if (definition) Object.assign(properties, { $feature_flag_id: definition.id, $feature_flag_version: definition.version, $feature_flag_reason: 'Evaluated locally' });
    this.#enqueue('$feature_flag_called', properties, { distinctId, groups, disableGeoip });
  }

  #survey(action: SurveyAction, message: SurveyMessage, withResponse = false): void {
    this.#special(message, (m) => surveyEvent(action, m.surveyId, m.properties, withResponse ? (m as SurveySentMessage).response : undefined));
  }

  /** Reads the message once (a throwing getter or Proxy is refused, never thrown), then queues its event. */
  #special<M extends object>(message: M, make: (m: M) => SpecialEvent, distinctIdOf?: (m: M) => unknown): void {
    const read = readSpecial(message, make, distinctIdOf, (error) => this.#refuse(error));
    if (read) this.#enqueue(read.event, read.properties, read.envelope);
  }

  #enqueue(event: unknown, properties: unknown, envelope: Envelope, extra?: Record<string, unknown>): void {
    const record = this.#build(event, properties, envelope, extra);
    if (record === undefined) return;
    this.#record?.uuids.push(record.uuid);
    if (this.#held.length > 0) this.#held.push({ ready: true, uuid: record.uuid, record });
    else this.queue.enqueue(record);
  }

  /** Validates and serialises one event; undefined (reported and counted) when it cannot be sent. */
  #build(event: unknown, properties: unknown, envelope: Envelope, extra?: Record<string, unknown>): QueuedEvent | undefined {
    if (this.#disabled) {
      this.queue.countDrop('opted_out');
      const error = new DroppedEventsError(
        'capture is disabled (the disabled option, disable() or optOut()): events are counted in stats().dropped.opted_out and not sent. Call enable() or optIn() to send again.',
        'opted_out',
        [],
      );
      if (this.#record) this.#record.error = error;
      if (!this.#optOutReported) {
        this.#optOutReported = true;
        this.reporter.report(error);
      }
      return undefined;
    }
    let merged = properties;
    if (extra) {
      try {
        merged = { ...extra, ...(properties as object) };
      } catch (error) {
        this.#refuse(new HogtailError(`the properties of "${String(event)}" could not be read (${String(error)}); the event was not queued.`));
        return undefined;
      }
    }
    const outcome = buildServerEvent(this.#settings, event, merged, envelope);
    if (outcome.kind === 'event') return outcome.record;
    if (outcome.kind === 'before_send') this.queue.countDrop('before_send');
    else this.#refuse(outcome.error, outcome.reason);
    return undefined;
  }
}
