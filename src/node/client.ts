/**
 * The Node client: the shared server client (core/server/client.ts) on node:http(s), native zlib,
 * an optional crash-safe journal, local flag evaluation with a personalApiKey, exception capture,
 * and process exit hooks that flush what a script forgot to.
 */
import { HogtailError } from '../core/errors';
import { ServerClient } from '../core/server/client';
import { createExceptionCapture, type ExceptionCapture } from './exception-capture';
import { registerForExit, unregisterForExit, type ExitAware } from './exit-hook';
import { gzipWithZlib } from './gzip';
import { createNodeExecutor } from './http-executor';
import { createLocalFlags, type LocalFlags } from './local-flags/local-flags';
import { resolveNodeOptions, type NodeOnlyOptions, type PostHogOptions } from './options';
import { openFilePersistence } from './persistence/file-persistence';

type Properties = Record<string, unknown>;

export class PostHog extends ServerClient implements ExitAware {
  readonly nodeOptions: NodeOnlyOptions;
  #exitFlushes = 0;
  /** Set when a personalApiKey was given: flags evaluated from polled definitions. */
  #local: LocalFlags | undefined;
  #exceptions: ExceptionCapture;

  constructor(apiKey: string, options: PostHogOptions = {}) {
    const problems: string[] = [];
    const nodeOptions = resolveNodeOptions(options ?? {}, problems);
    let local: LocalFlags | undefined;
    super(apiKey, options ?? {}, problems, (report, resolved) => {
      // Before any socket or timer exists, so a locked path throws without leaving anything behind.
      const persistence = nodeOptions.persistence ? openFilePersistence(nodeOptions.persistence, report) : undefined;
      const executor = createNodeExecutor();
      if (nodeOptions.personalApiKey !== undefined && !resolved.disabled) {
        local = createLocalFlags({
          host: resolved.host,
          projectKey: apiKey,
          personalKey: nodeOptions.personalApiKey,
          intervalMs: nodeOptions.featureFlagsPollingInterval,
          timeoutMs: resolved.requestTimeout,
          onError: report,
        });
      }
      return {
        lib: 'hogtail-node',
        executor: executor.execute,
        gzip: gzipWithZlib,
        persistence,
        local,
        strictLocal: nodeOptions.strictLocalEvaluation,
        release() {
          local?.poller.stop();
          persistence?.close();
          executor.destroy();
        },
      };
    });
    this.nodeOptions = nodeOptions;
    this.#local = local;
    this.#exceptions = createExceptionCapture(
      {
        capture: (message) => this.capture(message),
        countDrop: (reason) => this.queue.countDrop(reason),
        report: (error) => this.reporter.report(error),
        flushBeforeCrash: () => this.shutdown(nodeOptions.flushOnExitTimeout),
      },
      options?.enableExceptionAutocapture === true,
    );
    // Also with exit flushing off: what is still queued at exit is then at least reported.
    registerForExit(this);
  }

  /**
   * posthog-node's captureException: a `$exception` event for anything thrown (Error with its
   * causes, AggregateError, string, object), as `distinctId` or, without one, a personless id;
   * `uuid` for an idempotent resend, as in posthog-node.
   */
  captureException(error: unknown, distinctId?: string, additionalProperties?: Properties, uuid?: string): void {
    try {
      this.capture({ ...this.#exceptions.message(error, distinctId, additionalProperties, new Error().stack), uuid });
    } catch (problem) {
      this.reporter.report(new HogtailError(`captureException() failed: ${String(problem)}`));
    }
  }

  /** captureException, settling once that event is delivered (or rejecting with its drop). */
  captureExceptionImmediate(error: unknown, distinctId?: string, additionalProperties?: Properties): Promise<void> {
    return this.immediately(() => this.captureException(error, distinctId, additionalProperties));
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

  protected override beforeShutdown(): void {
    unregisterForExit(this);
    this.#exceptions.stop();
  }

  flushBeforeExit(): void {
    if (this.nodeOptions.flushOnExitTimeout === 0 || this.isShuttingDown || this.queue.pending === 0 || this.#exitFlushes >= 3) return;
    this.#exitFlushes++;
    // Our timers are unref'd; this one is not, so the process waits for the flush, but not forever:
    // at the deadline the client closes (reporting what is left) and drops its sockets, so a server
    // that never answers cannot hold the process open.
    const deadline = setTimeout(() => {
      if (this.queue.pending !== 0) this.close();
    }, this.nodeOptions.flushOnExitTimeout);
    void this.queue.flush().then(() => {
      if (this.queue.pending === 0) clearTimeout(deadline);
    });
  }

  reportAtExit(): void {
    if (!this.isShuttingDown) this.close();
  }
}
