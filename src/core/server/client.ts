/**
 * The server client, platform-free: posthog-node's API on hogtail's core, shared by the Node entry
 * (node:http, zlib, file persistence, exit hooks) and the edge entry (fetch, CompressionStream).
 * A class (not a factory, unlike the rest of the codebase) because posthog-node users write
 * `new PostHog(key, options)` and drop-in means the same line keeps working.
 */
import { DroppedEventsError, HogtailError } from '../errors';
import type { Queue, QueueStats } from '../queue';
import { createReporter, type ErrorListener, type Reporter } from '../reporter';
import { aliasEvent, groupIdentifyEvent, identifyEvent, isObject, screenEvent, surveyEvent, type SurveyAction } from '../special-events';
import { createImmediateRegistry, type CallRecord, type ImmediateRegistry } from './immediate';
import type {
  AliasMessage,
  EventMessage,
  GroupIdentifyMessage,
  IdentifyMessage,
  ScreenMessage,
  SurveyMessage,
  SurveySentMessage,
} from './messages';
import { checkProjectKey } from './destination';
import { resolveServerOptions, type ResolvedServerOptions, type ServerOptions } from './options';
import { wireServerParts, type ServerParts, type ServerPlatform } from './wiring';

export type { ServerPlatform } from './wiring';

export class ServerClient {
  readonly apiKey: string;
  readonly options: ResolvedServerOptions;
  protected readonly queue: Queue;
  protected readonly reporter: Reporter;
  #listeners = new Set<ErrorListener>();
  protected readonly platform: ServerPlatform;
  #disabled: boolean;
  #shutdown: Promise<void> | undefined;
  /** The queue's and the flags' machinery, the intake, local evaluation (wiring.ts). */
  protected readonly parts: ServerParts;
  #immediate: ImmediateRegistry = createImmediateRegistry();
  /** Set while an *Immediate call runs: what it queued. */
  #record: CallRecord | undefined;
  #closed = false;

  constructor(
    apiKey: string,
    options: ServerOptions,
    problems: string[],
    platform: (report: (error: HogtailError) => void, resolved: ResolvedServerOptions) => ServerPlatform,
  ) {
    this.apiKey = checkProjectKey(apiKey);
    this.options = resolveServerOptions(options, problems);
    this.#disabled = this.options.disabled;
    this.reporter = createReporter(this.#listeners, this.options.debug);
    for (const problem of problems) console.warn(`[hogtail] option ${problem}`);
    const report = (error: HogtailError) => this.#report(error);
    this.platform = platform(report, this.options);
    const parts = wireServerParts(apiKey, this.options, this.platform, {
      report,
      debug: (message) => this.reporter.debug(message),
      delivered: (events) => this.#immediate.delivered(events),
      geoipDisable: (perCall, ip) => this.#geoipDisable(perCall, ip),
      verbose: () => this.options.debug,
      disabled: () => this.#disabled,
      closed: () => this.#closed,
      wake: () => this.#wake(),
      record: () => this.#record,
    });
    this.parts = parts;
    this.queue = parts.queue;
  }

  capture(message: EventMessage): void {
    this.parts.intake.capture(message);
  }

  /** capture(), and a promise that settles when the event is acknowledged (or rejects with its drop). */
  captureImmediate(message: EventMessage): Promise<void> {
    return this.immediately(() => this.capture(message));
  }

  identify(message: IdentifyMessage): void {
    this.parts.intake.special(message, (m) => {
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
    this.parts.intake.special(message, (m) => aliasEvent(m.alias));
  }

  aliasImmediate(message: AliasMessage): Promise<void> {
    return this.immediately(() => this.alias(message));
  }

  groupIdentify(message: GroupIdentifyMessage): void {
    this.parts.intake.special(
      message,
      (m) => groupIdentifyEvent(m.groupType, m.groupKey, m.properties),
      (m) => m.distinctId ?? `$${String(m.groupType)}_${String(m.groupKey)}`,
    );
  }

  groupIdentifyImmediate(message: GroupIdentifyMessage): Promise<void> {
    return this.immediately(() => this.groupIdentify(message));
  }

  screen(message: ScreenMessage): void {
    this.parts.intake.special(message, (m) => screenEvent(m.name, m.properties));
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

  /** Resolves when everything captured before the call is delivered or given up. Never rejects. */
  flush(): Promise<void> {
    if (this.options.debug)
      this.reporter.debug(`flush: ${this.queue.stats().pending} event(s) queued, ${this.parts.held.waiting.size} waiting for their flags`);
    if (this.parts.held.waiting.size === 0) return this.queue.flush();
    return Promise.all([...this.parts.held.waiting]).then(() => this.queue.flush());
  }

  /**
   * Delivers what is queued, waiting at most `timeoutMs`, then stops timers and releases sockets.
   * Anything still undelivered at the deadline is reported as dropped with reason 'shutdown' (or,
   * with Node's file persistence, stays in the journal for the next run). The client stays
   * usable, as posthog-node's does: an event captured afterwards is queued and sent by the next
   * flush() or shutdown(), so a module-level client whose shutdown() each request hands to
   * `waitUntil` (Workers) delivers every request's events.
   */
  shutdown(timeoutMs = 30_000): Promise<void> {
    if (this.#shutdown) return this.#shutdown;
    this.beforeShutdown();
    this.#shutdown = (async () => {
      let expired = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(
          () => {
            expired = true;
            resolve();
          },
          Math.max(0, timeoutMs),
        );
      });
      await Promise.race([this.#flushAll(() => expired), deadline]);
      clearTimeout(timer);
      this.close();
    })().finally(() => (this.#shutdown = undefined));
    return this.#shutdown;
  }

  /** Flushes until nothing is queued, so events captured while a shutdown runs go with it. */
  async #flushAll(expired: () => boolean): Promise<void> {
    do await this.flush();
    while (!expired() && (this.queue.pending > 0 || this.parts.held.waiting.size > 0));
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
    this.options.debug = enabled;
    this.reporter.setDebug(enabled);
  }

  enable(): void {
    this.#disabled = false;
    this.parts.intake.resetOptOut();
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

  /** Whether a shutdown() is running. */
  protected get isShuttingDown(): boolean {
    return this.#shutdown !== undefined;
  }

  /** A hook for platforms: called when shutdown() starts. */
  protected beforeShutdown(): void {}

  /** A hook for platforms: called when a capture after shutdown() makes the client take events again. */
  protected afterReopen(): void {}

  /** A call that queues an event after shutdown() closed the client opens it again (posthog-node's behaviour). */
  #wake(): void {
    if (!this.#closed) return;
    this.#closed = false;
    this.queue.reopen();
    this.afterReopen();
  }

  /** Stops the queue (events held behind a flag lookup are reported with it) and the poll, and releases the platform. */
  protected close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const held = this.parts.held.clear();
    this.parts.local?.poller.stop();
    this.queue.close();
    if (held.length > 0) {
      this.queue.countDrop('shutdown', held.length);
      this.#report(
        new DroppedEventsError(
          `${held.length} event(s) were still waiting for their feature flags when the client shut down.`,
          'shutdown',
          held,
        ),
      );
    }
    this.platform.release();
  }

  #report(error: HogtailError): void {
    this.#immediate.reported(error);
    this.reporter.report(error);
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

  #survey(action: SurveyAction, message: SurveyMessage, withResponse = false): void {
    this.parts.intake.special(message, (m) =>
      surveyEvent(action, m.surveyId, m.properties, withResponse ? (m as SurveySentMessage).response : undefined),
    );
  }
}
