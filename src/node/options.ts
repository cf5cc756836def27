/** Options of the Node client: the server client's (core/server/options.ts) plus Node's own. */
import { positive, resolveServerOptions, type ResolvedServerOptions, type ServerOptions } from '../core/server/options';
import { resolvePersistence, type PersistenceOption, type ResolvedFilePersistence } from './persistence/options';

export { DEFAULT_HOST } from '../core/defaults';

export interface PostHogOptions extends ServerOptions {
  /**
   * Flush on process `beforeExit`, waiting at most this long (ms). 0 turns it off (what is left is still reported).
   * @default 5000
   */
  flushOnExitTimeout?: number;
  /**
   * 'memory', or a crash-safe journal: `{ type: 'file', path, fsync: 'interval' | 'always' }`
   * (the table below; what it guarantees is in docs/node.md).
   * @default 'memory'
   */
  persistence?: PersistenceOption;
  /**
   * Capture uncaught exceptions and unhandled rejections as `$exception` events (rate-limited per
   * error type). Node's own behaviour is kept: without listeners of the app's own, the process
   * still exits with code 1, after up to flushOnExitTimeout ms to deliver the event.
   * @default false
   */
  enableExceptionAutocapture?: boolean;
}

export interface NodeOnlyOptions {
  flushOnExitTimeout: number;
  /** Undefined: in memory. */
  persistence: ResolvedFilePersistence | undefined;
}

export interface ResolvedOptions extends ResolvedServerOptions, NodeOnlyOptions {}

export function resolveNodeOptions(options: PostHogOptions, problems: string[]): NodeOnlyOptions {
  return {
    flushOnExitTimeout: positive('flushOnExitTimeout', options.flushOnExitTimeout, 5_000, problems),
    persistence: resolvePersistence(options.persistence, problems),
  };
}

export function resolveOptions(options: PostHogOptions, problems: string[]): ResolvedOptions {
  return { ...resolveServerOptions(options, problems), ...resolveNodeOptions(options, problems) };
}
