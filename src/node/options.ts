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
  /**
   * A personal API key (phx_…) with feature flag read access: flags are then evaluated in-process
   * from polled definitions, with no request per check. Only ever sent in the
   * Authorization header of the definitions request.
   */
  personalApiKey?: string;
  /**
   * How often flag definitions are re-polled, in ms, at least 100.
   * @default 30_000
   */
  featureFlagsPollingInterval?: number;
  /**
   * Never ask the server for a flag local evaluation cannot decide (answer undefined).
   * @default false
   */
  strictLocalEvaluation?: boolean;
}

export interface NodeOnlyOptions {
  flushOnExitTimeout: number;
  /** Undefined: in memory. */
  persistence: ResolvedFilePersistence | undefined;
  /** Undefined: no local evaluation. */
  personalApiKey: string | undefined;
  featureFlagsPollingInterval: number;
  strictLocalEvaluation: boolean;
}

export interface ResolvedOptions extends ResolvedServerOptions, NodeOnlyOptions {}

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

export function resolveNodeOptions(options: PostHogOptions, problems: string[]): NodeOnlyOptions {
  return {
    flushOnExitTimeout: positive('flushOnExitTimeout', options.flushOnExitTimeout, 5_000, problems),
    persistence: resolvePersistence(options.persistence, problems),
    personalApiKey: personalKey(options.personalApiKey, problems),
    featureFlagsPollingInterval: Math.max(100, positive('featureFlagsPollingInterval', options.featureFlagsPollingInterval, 30_000, problems)),
    strictLocalEvaluation: options.strictLocalEvaluation === true,
  };
}

export function resolveOptions(options: PostHogOptions, problems: string[]): ResolvedOptions {
  return { ...resolveServerOptions(options, problems), ...resolveNodeOptions(options, problems) };
}
