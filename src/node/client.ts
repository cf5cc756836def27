/**
 * The Node client: posthog-node's API on hogtail's core. A class (not a factory, unlike the rest of
 * the codebase) because posthog-node users write `new PostHog(key, options)` and drop-in means the
 * same line keeps working.
 */
import { createBatchEncoder, createBatchSender } from '../core/batch-sender';
import { DroppedEventsError, HogtailError, InvalidEventError } from '../core/errors';
import { buildEvent, DEFAULT_MAX_EVENT_BYTES, type QueuedEvent } from '../core/event';
import { createPreparedBodies } from '../core/prepared-bodies';
import { createQueue, type Queue, type QueueStats } from '../core/queue';
import { createReporter, type ErrorListener, type Reporter } from '../core/reporter';
import {
  aliasEvent,
  groupIdentifyEvent,
  identifyEvent,
  isObject,
  PERSON_EVENTS,
  screenEvent,
  surveyEvent,
  type SpecialEvent,
  type SurveyAction,
} from '../core/special-events';
import { LIB_VERSION } from '../core/version';
import { featureProperties, type FlagValue } from '../core/flags/decide';
import { uuidv7 } from '../core/uuid';
import { createExceptionCapture, type ExceptionCapture } from './exception-capture';
import { registerForExit, unregisterForExit, type ExitAware } from './exit-hook';
import { createFlagCache, type FlagCache } from './flag-cache';
import { createNodeFeatureFlags, type FlagCalled, type FlagOptions, type NodeFeatureFlags } from './feature-flags';
import { gzipWithZlib } from './gzip';
import { createNodeExecutor, type NodeExecutor } from './http-executor';
import { createLocalFlags, type LocalFlags } from './local-flags/local-flags';
import { resolveOptions, type PostHogOptions, type ResolvedOptions } from './options';
import { openFilePersistence, type FilePersistence } from './persistence/file-persistence';

type Properties = Record<string, unknown>;

// Frozen so the event builder can serialise them once (the server drops person events that say they
// process no person, hence two variants).
const SDK_PROPERTIES: Properties = Object.freeze({ $lib: 'hogtail-node', $lib_version: LIB_VERSION });
const SDK_PROPERTIES_PERSONLESS: Properties = Object.freeze({ ...SDK_PROPERTIES, $process_person_profile: false });
// A migration keeps the library that recorded the event: its `$lib` is history, not ours to overwrite.
const NO_SDK_PROPERTIES: Properties = Object.freeze({});
const NO_SDK_PROPERTIES_PERSONLESS: Properties = Object.freeze({ $process_person_profile: false });
type Timestamp = Date | string | number;

export interface EventMessage {
  distinctId: string;
  event: string;
  properties?: Properties;
  /** Group type to group key, sent as `$groups`. */
  groups?: Record<string, string | number>;
  timestamp?: Timestamp;
  /** A UUID to use instead of a fresh UUIDv7 (for idempotent re-sends from your own outbox). */
  uuid?: string;
  /**
   * Tag the event with `$feature/<key>` and `$active_feature_flags` for this user. Uses the flag
   * cache when fresh; otherwise the event waits for one decide request (flush() waits for it too).
   */
  sendFeatureFlags?: boolean;
  /** The end user's IP address, sent to decide as X-Forwarded-For (with sendFeatureFlags). */
  ip?: string;
  disableGeoip?: boolean;
}

export interface IdentifyMessage {
  distinctId: string;
  /** Person properties; `$set` / `$set_once` inside are honoured, anything else goes to `$set`. */
  properties?: Properties;
  timestamp?: Timestamp;
  uuid?: string;
  disableGeoip?: boolean;
}

export interface AliasMessage {
  distinctId: string;
  alias: string;
  timestamp?: Timestamp;
  uuid?: string;
  disableGeoip?: boolean;
}

export interface GroupIdentifyMessage {
  groupType: string;
  groupKey: string | number;
  properties?: Properties;
  /** Defaults to `$<groupType>_<groupKey>`, as posthog-node does. */
  distinctId?: string;
  timestamp?: Timestamp;
  uuid?: string;
  disableGeoip?: boolean;
}

export interface ScreenMessage {
  distinctId: string;
  name: string;
  properties?: Properties;
  groups?: Record<string, string | number>;
  timestamp?: Timestamp;
  uuid?: string;
}

export interface SurveyMessage {
  distinctId: string;
  surveyId: string;
  properties?: Properties;
  timestamp?: Timestamp;
  uuid?: string;
}

export interface SurveySentMessage extends SurveyMessage {
  response: unknown;
}

interface Envelope {
  distinctId: unknown;
  timestamp?: Timestamp | undefined;
  uuid?: string | undefined;
  groups?: Record<string, string | number> | undefined;
  disableGeoip?: boolean | undefined;
}

export class PostHog implements ExitAware {
  readonly apiKey: string;
  readonly options: ResolvedOptions;
  #queue: Queue;
  #reporter: Reporter;
  /** `on('error')` subscribers: 'error' is the only event. */
  #listeners = new Set<ErrorListener>();
  #executor: NodeExecutor | undefined;
  #persistence: FilePersistence | undefined;
  #disabled: boolean;
  #shutdown: Promise<void> | undefined;
  #exitFlushes = 0;
  #flagCache: FlagCache;
  #flags: NodeFeatureFlags;
  /** Set when a personalApiKey was given: flags evaluated from polled definitions. */
  #local: LocalFlags | undefined;
  /** Events waiting for their flags before they can be queued; flush() waits for them. */
  #awaitingFlags = new Set<Promise<void>>();
  /**
   * Events captured after one that waits for its flags, in capture order: they are built (and
   * validated) at once but queued only behind it, so sendFeatureFlags never reorders events (which
   * a historical migration relies on). Empty almost always.
   */
  #held: HeldEvent[] = [];
  /** A disabled client reports its first dropped event, then only counts (stats().dropped.opted_out). */
  #optOutReported = false;
  #closed = false;
  #exceptions: ExceptionCapture;

  constructor(apiKey: string, options: PostHogOptions = {}) {
    if (typeof apiKey !== 'string' || apiKey.trim() === '') {
      throw new TypeError("hogtail: new PostHog(apiKey) needs your project's API key (phc_…) as the first argument.");
    }
    if (apiKey.startsWith('phx_')) {
      throw new TypeError(
        'hogtail: the key passed to new PostHog() is a personal API key (phx_…). Capture needs the project API key (phc_…); keep personal keys for hogtail/api.',
      );
    }
    this.apiKey = apiKey;
    const problems: string[] = [];
    this.options = resolveOptions(options, problems);
    this.#disabled = this.options.disabled;
    this.#reporter = createReporter(this.#listeners, this.options.debug);
    for (const problem of problems) console.warn(`[hogtail] option ${problem}`);
    // Before any socket or timer exists, so a locked path throws without leaving anything behind.
    if (this.options.persistence) {
      this.#persistence = openFilePersistence(this.options.persistence, (error) => this.#reporter.report(error));
    }

    let execute = options.executor;
    if (!execute) {
      this.#executor = createNodeExecutor();
      execute = this.#executor.execute;
    }
    const senderOptions = {
      host: this.options.host,
      apiKey,
      executor: execute,
      compress: this.options.compression === 'gzip' ? (options.compressor ?? gzipWithZlib) : undefined,
      historicalMigration: this.options.historicalMigration,
      timeoutMs: this.options.requestTimeout,
    };
    // Batch n+1 is built and compressed while batch n is in flight (see prepared-bodies.ts).
    const preparedBodies = createPreparedBodies(createBatchEncoder(senderOptions));
    const send = createBatchSender(senderOptions, preparedBodies.take);
    this.#flagCache = createFlagCache({
      host: this.options.host,
      apiKey,
      executor: execute,
      timeoutMs: this.options.requestTimeout,
      ttlMs: this.options.flagsCacheTtl,
      maxEntries: this.options.flagsCacheSize,
      onError: (error) => this.#reporter.report(error),
    });
    if (this.options.personalApiKey !== undefined && !this.#disabled) {
      this.#local = createLocalFlags({
        host: this.options.host,
        projectKey: apiKey,
        personalKey: this.options.personalApiKey,
        intervalMs: this.options.featureFlagsPollingInterval,
        timeoutMs: this.options.requestTimeout,
        onError: (error) => this.#reporter.report(error),
      });
    }
    this.#flags = createNodeFeatureFlags(
      this.#flagCache,
      (called) => this.#flagCalled(called),
      this.options.flagCalledDedupSize,
      this.#local,
      this.options.strictLocalEvaluation,
    );
    this.#queue = createQueue({
      send,
      flushAt: this.options.flushAt,
      flushIntervalMs: this.options.flushInterval,
      maxBatchSize: this.options.maxBatchSize,
      maxBatchBytes: this.options.maxBatchBytes,
      maxQueueSize: this.options.maxQueueSize,
      maxQueueBytes: this.options.maxQueueBytes,
      retry: this.options.retry,
      persistence: this.#persistence?.hook,
      onDrop: (error) => this.#reporter.report(error),
      onRetry: (error) => this.#reporter.report(error),
    }, undefined, preparedBodies.prepare);
    if (this.#persistence) this.#queue.restore(this.#persistence.restored);
    this.#exceptions = createExceptionCapture(
      {
        capture: (message) => this.capture(message),
        countDrop: (reason) => this.#queue.countDrop(reason),
        report: (error) => this.#reporter.report(error),
        flushBeforeCrash: () => this.shutdown(this.options.flushOnExitTimeout),
      },
      options.enableExceptionAutocapture === true,
    );
    // Also with exit flushing off: what is still queued at exit is then at least reported.
    registerForExit(this);
  }

  capture(message: EventMessage): void {
    const { event, properties } = message ?? ({} as EventMessage);
    if (message?.sendFeatureFlags && typeof message.distinctId === 'string' && !this.#disabled) {
      this.#captureWithFlags(message);
      return;
    }
    this.#enqueue(event, properties, message);
  }

  /**
   * posthog-node's captureException: a `$exception` event for anything thrown (Error with its
   * causes, AggregateError, string, object), as `distinctId` or, without one, a personless id.
   */
  captureException(error: unknown, distinctId?: string, additionalProperties?: Properties): void {
    try {
      this.capture(this.#exceptions.message(error, distinctId, additionalProperties, new Error().stack));
    } catch (problem) {
      this.#reporter.report(new HogtailError(`captureException() failed: ${String(problem)}`));
    }
  }

  /** captureException, resolving once the event is delivered or given up (like flush()). */
  captureExceptionImmediate(error: unknown, distinctId?: string, additionalProperties?: Properties): Promise<void> {
    this.captureException(error, distinctId, additionalProperties);
    return this.flush();
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

  /**
   * posthog-node's name: resolves true once flag definitions are loaded for local evaluation, false
   * when the first load failed, there is no personalApiKey, or `timeoutMs` passed first.
   */
  async waitForLocalEvaluationReady(timeoutMs = 30_000): Promise<boolean> {
    if (this.#local === undefined) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, timeoutMs));
      timer.unref();
    });
    await Promise.race([this.#local.poller.firstLoad, deadline]);
    clearTimeout(timer);
    return this.isLocalEvaluationReady();
  }

  /** True once flag definitions are loaded (posthog-node's name). */
  isLocalEvaluationReady(): boolean {
    return this.#local?.poller.definitions !== undefined;
  }

  /** Polls the flag definitions now instead of at the next interval (posthog-node's name). */
  async reloadFeatureFlags(): Promise<void> {
    await this.#local?.poller.reload();
  }

  /** Flag-definition requests made so far (local evaluation's cost, for monitoring and benchmarks). */
  get definitionRequests(): number {
    return this.#local?.poller.requests ?? 0;
  }

  /** Decide requests made so far (the flag cache's effectiveness, for monitoring and benchmarks). */
  get decideRequests(): number {
    return this.#flagCache.decideRequests;
  }

  identify(message: IdentifyMessage): void {
    const properties: unknown = message?.properties ?? {};
    if (!isObject(properties)) {
      this.#special({ error: `identify() properties must be an object; got ${typeof properties}` }, message);
      return;
    }
    // Keys beside `$set` go to `$set` too (posthog-node would drop them without a word).
    const { $set, $set_once, ...rest } = properties;
    this.#special(identifyEvent($set === undefined ? rest : isObject($set) ? { ...rest, ...$set } : $set, $set_once), message);
  }

  alias(message: AliasMessage): void {
    this.#special(aliasEvent(message?.alias), message);
  }

  groupIdentify(message: GroupIdentifyMessage): void {
    const { groupType, groupKey } = message ?? ({} as GroupIdentifyMessage);
    const special = groupIdentifyEvent(groupType, groupKey, message?.properties);
    const distinctId = message?.distinctId ?? `$${String(groupType)}_${String(groupKey)}`;
    this.#special(special, { ...message, distinctId });
  }

  screen(message: ScreenMessage): void {
    this.#special(screenEvent(message?.name, message?.properties), message);
  }

  surveyShown(message: SurveyMessage): void {
    this.#survey('survey shown', message);
  }

  surveyDismissed(message: SurveyMessage): void {
    this.#survey('survey dismissed', message);
  }

  surveySent(message: SurveySentMessage): void {
    this.#survey('survey sent', message, message?.response);
  }

  /** Resolves when everything captured before the call is delivered or given up. Never rejects. */
  flush(): Promise<void> {
    if (this.#awaitingFlags.size === 0) return this.#queue.flush();
    return Promise.all([...this.#awaitingFlags]).then(() => this.#queue.flush());
  }

  /**
   * Delivers what is queued, waiting at most `timeoutMs`, then stops timers and closes sockets.
   * Anything still undelivered at the deadline is reported as dropped with reason 'shutdown' or,
   * with file persistence, stays in the journal for the next run (reported as 'retained').
   */
  shutdown(timeoutMs = 30_000): Promise<void> {
    if (this.#shutdown) return this.#shutdown;
    unregisterForExit(this);
    this.#exceptions.stop();
    this.#shutdown = (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, timeoutMs));
      });
      await Promise.race([this.flush(), deadline]);
      clearTimeout(timer);
      this.#close();
      this.#persistence?.close();
      this.#executor?.destroy();
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
    this.#reporter.setDebug(enabled);
  }

  enable(): void {
    this.#disabled = false;
    this.#optOutReported = false;
  }

  disable(): void {
    this.#disabled = true;
  }

  /** Counters for monitoring: enqueued, delivered, dropped by reason, requests, retries, pending. */
  stats(): QueueStats {
    return this.#queue.stats();
  }

  flushBeforeExit(): void {
    if (this.options.flushOnExitTimeout === 0 || this.#shutdown || this.#queue.pending === 0 || this.#exitFlushes >= 3) return;
    this.#exitFlushes++;
    // Our timers are unref'd; this one is not, so the process waits for the flush, but not forever:
    // at the deadline the client closes (reporting what is left) and drops its sockets, so a server
    // that never answers cannot hold the process open.
    const deadline = setTimeout(() => {
      if (this.#queue.pending === 0) return;
      this.#close();
      this.#persistence?.close();
      this.#executor?.destroy();
    }, this.options.flushOnExitTimeout);
    void this.#queue.flush().then(() => {
      if (this.#queue.pending === 0) clearTimeout(deadline);
    });
  }

  reportAtExit(): void {
    if (this.#shutdown) return;
    this.#close();
    this.#persistence?.close();
  }

  /** Stops the queue; events still held behind a flag lookup are reported with it, never lost silently. */
  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#local?.poller.stop();
    const held = this.#held.map((entry) => entry.record?.uuid ?? entry.uuid);
    this.#held = [];
    this.#queue.close();
    if (held.length > 0) {
      this.#queue.countDrop('shutdown', held.length);
      this.#reporter.report(
        new DroppedEventsError(`${held.length} event(s) were still waiting for their feature flags when the client shut down.`, 'shutdown', held),
      );
    }
  }

  #captureWithFlags(message: EventMessage): void {
    const lookup = { groups: message.groups, ip: message.ip };
    const local = this.#local?.allNow(message.distinctId, lookup);
    if (local && (local.undecided.length === 0 || this.options.strictLocalEvaluation)) {
      this.#enqueue(message.event, { ...featureProperties(local.flags), ...message.properties }, message);
      return;
    }
    const cached = this.#flagCache.peek(message.distinctId, lookup);
    if (cached?.fresh) {
      this.#enqueue(message.event, { ...featureProperties(cached.snapshot.flags), ...message.properties }, message);
      return;
    }
    // Fix the event's identity and time now, so waiting for decide changes neither; later events wait
    // behind it (#held) so the queue still sees capture order.
    const envelope = { ...message, timestamp: message.timestamp ?? new Date(), uuid: message.uuid ?? uuidv7() };
    const slot: HeldEvent = { ready: false, uuid: envelope.uuid, record: undefined };
    this.#held.push(slot);
    const waiting = this.#flags
      .propertiesFor(message.distinctId, lookup)
      .then((flagProperties) => {
        if (this.#closed) return;
        slot.record = this.#build(message.event, { ...flagProperties, ...message.properties }, envelope);
        slot.ready = true;
        while (this.#held[0]?.ready) {
          const record = this.#held.shift()!.record;
          if (record) this.#queue.enqueue(record);
        }
      })
      .finally(() => this.#awaitingFlags.delete(waiting));
    this.#awaitingFlags.add(waiting);
  }

  #flagCalled({ distinctId, key, value, groups, locallyEvaluated }: FlagCalled): void {
    this.#enqueue(
      '$feature_flag_called',
      {
        $feature_flag: key,
        $feature_flag_response: value ?? false,
        ['$feature/' + key]: value ?? false,
        locally_evaluated: locallyEvaluated,
      },
      { distinctId, groups },
    );
  }

  #survey(action: SurveyAction, message: SurveyMessage, response?: unknown): void {
    this.#special(surveyEvent(action, message?.surveyId, message?.properties, response), message);
  }

  #special(special: SpecialEvent, envelope: Envelope | undefined): void {
    if ('error' in special) {
      this.#queue.countDrop('invalid');
      this.#reporter.report(new InvalidEventError(`hogtail: ${special.error}. The event was not queued.`, 'invalid', undefined));
      return;
    }
    this.#enqueue(special.event, special.properties, envelope);
  }

  #enqueue(event: unknown, properties: unknown, envelope: Envelope | undefined): void {
    const record = this.#build(event, properties, envelope);
    if (record === undefined) return;
    if (this.#held.length > 0) this.#held.push({ ready: true, uuid: record.uuid, record });
    else this.#queue.enqueue(record);
  }

  /** Validates and serialises one event; undefined (reported and counted) when it cannot be sent. */
  #build(event: unknown, properties: unknown, envelope: Envelope | undefined): QueuedEvent | undefined {
    try {
      if (this.#disabled) {
        this.#queue.countDrop('opted_out');
        if (!this.#optOutReported) {
          this.#optOutReported = true;
          this.#reporter.report(
            new DroppedEventsError(
              'capture is disabled (the disabled option, or disable()): events are counted in stats().dropped.opted_out and not sent. Call enable() to send again.',
              'opted_out',
              [],
            ),
          );
        }
        return undefined;
      }
      const personless =
        this.options.personProfiles === 'never' && !(typeof event === 'string' && PERSON_EVENTS.has(event));
      const keepsLib = this.options.historicalMigration && isObject(properties) && '$lib' in properties;
      let sdk: Properties = keepsLib
        ? personless ? NO_SDK_PROPERTIES_PERSONLESS : NO_SDK_PROPERTIES
        : personless ? SDK_PROPERTIES_PERSONLESS : SDK_PROPERTIES;
      const groups = envelope?.groups;
      if (groups !== undefined && groups !== null) {
        if (typeof groups === 'object' && !Array.isArray(groups)) sdk = { ...sdk, $groups: groups };
        else this.#reporter.debug(`groups must be an object of group type to key; ignored ${typeof groups}`);
      }
      if (envelope?.disableGeoip) sdk = { ...sdk, $geoip_disable: true };
      const built = buildEvent(
        { event, distinctId: envelope?.distinctId, properties, timestamp: envelope?.timestamp, uuid: envelope?.uuid },
        sdk,
        DEFAULT_MAX_EVENT_BYTES,
      );
      if (!built.ok) {
        this.#queue.countDrop(built.error.reason);
        this.#reporter.report(built.error);
        return undefined;
      }
      for (const note of built.notes) this.#reporter.debug(`"${String(event)}": ${note}`);
      return built.record;
    } catch (error) {
      // capture() never throws into the host app; an internal bug is reported, not raised.
      this.#queue.countDrop('invalid');
      this.#reporter.report(new HogtailError(`hogtail: internal error while capturing "${String(event)}": ${String(error)}`));
      return undefined;
    }
  }
}

interface HeldEvent {
  /** False while its flags are being fetched. */
  ready: boolean;
  uuid: string;
  /** Undefined until ready, or when the event turned out invalid (already reported). */
  record: QueuedEvent | undefined;
}

