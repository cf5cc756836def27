/**
 * The Node client: the shared server client (core/server/client.ts) on node:http(s), native zlib,
 * an optional crash-safe journal, and process exit hooks that flush what a script forgot to.
 */
import type { HogtailError } from '../core/errors';
import { ServerClient } from '../core/server/client';
import { registerForExit, unregisterForExit, type ExitAware } from './exit-hook';
import { gzipWithZlib } from './gzip';
import { createNodeExecutor } from './http-executor';
import { resolveNodeOptions, type NodeOnlyOptions, type PostHogOptions } from './options';
import { openFilePersistence } from './persistence/file-persistence';

export type {
  AliasMessage,
  EventMessage,
  GroupIdentifyMessage,
  IdentifyMessage,
  ScreenMessage,
  SurveyMessage,
  SurveySentMessage,
} from '../core/server/messages';

export class PostHog extends ServerClient implements ExitAware {
  readonly nodeOptions: NodeOnlyOptions;
  #exitFlushes = 0;

  constructor(apiKey: string, options: PostHogOptions = {}) {
    const problems: string[] = [];
    const nodeOptions = resolveNodeOptions(options ?? {}, problems);
    super(apiKey, options ?? {}, problems, (report: (error: HogtailError) => void) => {
      // Before any socket or timer exists, so a locked path throws without leaving anything behind.
      const persistence = nodeOptions.persistence ? openFilePersistence(nodeOptions.persistence, report) : undefined;
      const executor = createNodeExecutor();
      return {
        lib: 'hogtail-node',
        executor: executor.execute,
        gzip: gzipWithZlib,
        persistence,
        release() {
          persistence?.close();
          executor.destroy();
        },
      };
    });
    this.nodeOptions = nodeOptions;
    // Also with exit flushing off: what is still queued at exit is then at least reported.
    registerForExit(this);
  }

  protected override beforeShutdown(): void {
    unregisterForExit(this);
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
