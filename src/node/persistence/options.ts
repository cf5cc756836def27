/**
 * The `persistence` option of the Node client.
 *
 * `'memory'` (the default) keeps the queue in memory only, as posthog-node does: events not yet
 * delivered are lost if the process dies.
 *
 * `{ type: 'file', path }` keeps a crash-safe journal in the directory `path` (created if missing):
 * - Every captured event is written to the journal before capture() returns, and leaves it only
 *   after a 2xx for a request that carried it (or a counted, reported drop: rejected, evicted).
 * - A new client on the same path sends what an earlier one left (killed, crashed, or shut down
 *   before delivering) first, with the original uuids. Events the server had accepted just before a
 *   crash may be sent again, with the same uuid, so the server can recognise them.
 * - One client per path: a second one, in this process or another live one, makes the constructor
 *   throw a PersistenceError ('locked') naming the path and pid. A dead owner's lock is taken over.
 * - A record cut short by a crash is ignored, a damaged one skipped; both are reported through
 *   on('error') as PersistenceError ('torn', 'corrupt'), never fatal.
 * - When the directory or disk cannot be written (full, read-only, not a directory), the client
 *   reports PersistenceError ('unwritable') once and keeps capturing in memory.
 * - At shutdown(), undelivered events stay in the journal: reported as PersistenceError
 *   ('retained') with their uuids, not as dropped.
 * - `fsync` is the durability against power loss and kernel crashes; see appender.ts:
 *   'interval' (default) may lose the last `fsyncInterval` ms of events to a power cut, 'always'
 *   loses none and costs one disk flush per event. Both lose nothing when only the process dies.
 */
import type { FsyncMode } from './appender';

export interface FilePersistenceOptions {
  /** A journal on disk (`'memory'`, the option's default, keeps none). */
  type: 'file';
  /** A directory of its own for this client's journal (`hogtail.journal`) and lock (`hogtail.lock`). */
  path: string;
  /**
   * 'interval' may lose the last `fsyncInterval` ms of events to a power cut; 'always' loses none and costs one disk flush per event. Both lose nothing when only the process dies.
   * @default 'interval'
   */
  fsync?: FsyncMode;
  /**
   * With fsync 'interval': most ms between a write and its fsync.
   * @default 100
   */
  fsyncInterval?: number;
  /**
   * Compaction is considered from this journal size (bytes) on, and done once acknowledged records are most of it.
   * @default 4_194_304 (4 MiB)
   */
  compactAtBytes?: number;
}

export type PersistenceOption = 'memory' | { type: 'memory' } | FilePersistenceOptions;

export interface ResolvedFilePersistence {
  path: string;
  fsync: FsyncMode;
  fsyncInterval: number;
  compactAtBytes: number;
}

export const DEFAULT_FSYNC_INTERVAL_MS = 100;
export const DEFAULT_COMPACT_AT_BYTES = 4 * 1024 * 1024;

/**
 * Undefined for memory. Throws a TypeError when durability was asked for but cannot be honoured
 * as written (no path, an unknown type): silently running in memory would lose what the caller
 * chose this option to keep.
 */
export function resolvePersistence(option: unknown, problems: string[]): ResolvedFilePersistence | undefined {
  if (option === undefined || option === 'memory') return undefined;
  const type = typeof option === 'object' && option !== null ? (option as { type?: unknown }).type : option;
  if (type === 'memory') return undefined;
  if (type !== 'file') {
    throw new TypeError(`persistence must be 'memory' or { type: 'file', path: '/var/lib/myapp/hogtail' }; got ${JSON.stringify(option)}.`);
  }
  const { path, fsync, fsyncInterval, compactAtBytes } = option as Partial<FilePersistenceOptions>;
  if (typeof path !== 'string' || path.trim() === '') {
    throw new TypeError(
      "persistence { type: 'file' } needs `path`, a directory for this client's journal, e.g. { type: 'file', path: '/var/lib/myapp/hogtail' }.",
    );
  }
  let mode: FsyncMode = 'interval';
  if (fsync === 'always') mode = 'always';
  else if (fsync !== undefined && fsync !== 'interval')
    problems.push(`persistence.fsync must be 'always' or 'interval'; got ${String(fsync)}, using 'interval'`);
  return {
    path,
    fsync: mode,
    fsyncInterval: positiveOr('persistence.fsyncInterval', fsyncInterval, DEFAULT_FSYNC_INTERVAL_MS, problems),
    compactAtBytes: positiveOr('persistence.compactAtBytes', compactAtBytes, DEFAULT_COMPACT_AT_BYTES, problems),
  };
}

function positiveOr(name: string, value: unknown, fallback: number, problems: string[]): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  problems.push(`${name} must be a positive number; got ${String(value)}, using ${fallback}`);
  return fallback;
}
