/**
 * The Node client: the shared server client (core/server/client.ts, local flag evaluation
 * included) on node:http(s), native zlib and node:crypto's sha1, with an optional crash-safe
 * journal, exception capture, and process exit hooks that flush what a script forgot to.
 */
import { HogtailError } from '../core/errors';
import { PostHogServerClient } from '../core/server/posthog-client';
import { createExceptionCapture, type ExceptionCapture } from './exception-capture';
import { createContextStore } from './context-store';
import { registerForExit, unregisterForExit, type ExitAware } from './exit-hook';
import { gzipWithZlib } from './gzip';
import { createNodeExecutor } from './http-executor';
import { resolveNodeOptions, type NodeOnlyOptions, type PostHogOptions } from './options';
import { openFilePersistence } from './persistence/file-persistence';
import { sha1Hex } from './sha1';

type Properties = Record<string, unknown>;

export class PostHog extends PostHogServerClient implements ExitAware {
  readonly nodeOptions: NodeOnlyOptions;
  #exitFlushes = 0;
  #exceptions: ExceptionCapture;

  constructor(apiKey: string, options: PostHogOptions = {}) {
    const problems: string[] = [];
    const nodeOptions = resolveNodeOptions(options ?? {}, problems);
    super(apiKey, options ?? {}, problems, (report) => {
      // Before any socket or timer exists, so a locked path throws without leaving anything behind.
      const persistence = nodeOptions.persistence ? openFilePersistence(nodeOptions.persistence, report) : undefined;
      const executor = createNodeExecutor();
      return {
        lib: 'hogtail-node',
        executor: executor.execute,
        gzip: gzipWithZlib,
        sha1: sha1Hex,
        persistence,
        context: createContextStore(),
        release() {
          persistence?.close();
          executor.destroy();
        },
      };
    });
    this.nodeOptions = nodeOptions;
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

  protected override beforeShutdown(): void {
    unregisterForExit(this);
    this.#exceptions.stop();
  }

  /** A capture after shutdown(): what it queues is flushed at exit again (exception capture stays off). */
  protected override afterReopen(): void {
    registerForExit(this);
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
