/**
 * The crash-safe queue: ties the lock, the journal and its appender to the core queue's
 * persistence hook. The queue stays the only owner of delivery order; this only mirrors it to disk
 * and hands back, at start, what an earlier run left.
 *
 * Failure policy: a held lock throws (a usage error: two writers would corrupt each other's view);
 * anything else (unwritable directory, full disk, damaged journal) is reported and capturing goes
 * on, in memory if need be. The host app is never broken by its disk.
 */
import { join, resolve } from 'node:path';
import type { QueuedEvent } from '../../core/event';
import type { QueuePersistence } from '../../core/queue';
import { openAppender, type Appender } from './appender';
import { ensureDirectory } from './directory';
import { describeCause, PersistenceError } from './errors';
import { replayProblems, retainedError, unwritableError } from './journal-problems';
import { ackBody, addBody, frameRecord, HEADER_BYTES, JOURNAL_VERSION, parseJournal } from './journal-format';
import { readJournal, rewriteJournal } from './journal-file';
import { acquireLock, type HeldLock } from './lock';
import type { ResolvedFilePersistence } from './options';

export const JOURNAL_FILE = 'hogtail.journal';
export const LOCK_FILE = 'hogtail.lock';

export interface FilePersistence {
  /** For createQueue({ persistence }). */
  readonly hook: QueuePersistence;
  /** What earlier runs left undelivered, oldest first: for queue.restore(). */
  readonly restored: readonly QueuedEvent[];
  /** Syncs and closes the journal and releases the lock; undelivered events stay in the journal. */
  close(): void;
}

export function openFilePersistence(
  options: ResolvedFilePersistence,
  report: (error: PersistenceError) => void,
): FilePersistence {
  const dir = resolve(options.path);
  const journalPath = join(dir, JOURNAL_FILE);
  // Events whose add record is in the journal, in queue order, with their record sizes: what a
  // compaction writes out, and what retain() can promise the next run. Keyed by object, not uuid,
  // because an app may capture two events with the same uuid.
  const live = new Map<QueuedEvent, number>();
  let liveBytes = 0;
  let fileBytes = 0;
  let appender: Appender | undefined;
  let lock: HeldLock | undefined;
  let unwritable = false;
  let closed = false;
  let restored: QueuedEvent[] = [];

  // Problems found while opening are reported once the constructor has returned, so a listener
  // attached right after `new PostHog()` hears them.
  let opening = true;
  const startupProblems: PersistenceError[] = [];
  const tell = (error: PersistenceError) => (opening ? startupProblems.push(error) : report(error));

  function fallBackToMemory(error: unknown, doing: string): void {
    if (unwritable) return;
    unwritable = true;
    const current = appender;
    appender = undefined;
    try {
      current?.close();
    } catch {
      // the disk already failed us; the journal stays as it is
    }
    tell(unwritableError(error, doing, dir));
  }

  const openJournalAppender = () =>
    openAppender(journalPath, options.fsync, options.fsyncInterval, (error) => fallBackToMemory(error, 'sync the journal to disk'));

  function open(): void {
    const opened = lockAndRead(dir, journalPath);
    lock = opened.lock;
    if ('doing' in opened) return fallBackToMemory(opened.error, opened.doing);
    const bytes = opened.bytes;
    const replay = parseJournal(bytes);
    const problems = replayProblems(replay, journalPath, dir, JOURNAL_VERSION);
    problems.forEach(tell);
    if (problems[0]?.reason === 'unsupported') {
      unwritable = true;
      return;
    }
    restored = replay.live.map((record) => record.event);
    for (const record of replay.live) live.set(record.event, record.bytes);
    liveBytes = replay.liveBytes;

    try {
      // A journal holding anything but a header and live events is rewritten before appending:
      // this drops what was acknowledged or damaged, and a torn tail that would otherwise swallow
      // the next record.
      fileBytes = bytes.length === HEADER_BYTES + liveBytes ? bytes.length : rewriteJournal(journalPath, live.keys());
      appender = openJournalAppender();
    } catch (error) {
      // The events read stay in the old (or new) journal, complete either way; without a writable
      // journal their acknowledgements cannot be recorded, so the next run may resend them.
      fallBackToMemory(error, `rewrite the journal ${journalPath}`);
    }
  }

  function compactIfMostlyAcknowledged(): void {
    if (fileBytes < options.compactAtBytes || fileBytes - liveBytes <= liveBytes + HEADER_BYTES) return;
    try {
      fileBytes = rewriteJournal(journalPath, live.keys());
      // The old file is gone from the directory; syncing it would only cost time.
      appender?.close(false);
      appender = openJournalAppender();
    } catch (error) {
      fallBackToMemory(error, 'compact the journal');
    }
  }

  const hook: QueuePersistence = {
    appended(event) {
      if (appender === undefined) return;
      const record = frameRecord(addBody(event));
      try {
        appender.write(record, true);
      } catch (error) {
        return fallBackToMemory(error, 'append to the journal');
      }
      live.set(event, record.length);
      liveBytes += record.length;
      fileBytes += record.length;
    },

    removed(events) {
      const uuids: string[] = [];
      for (const event of events) {
        const size = live.get(event);
        if (size === undefined) continue; // never reached the journal (memory fallback)
        live.delete(event);
        liveBytes -= size;
        uuids.push(event.uuid);
      }
      if (appender === undefined || uuids.length === 0) return;
      const record = frameRecord(ackBody(uuids));
      try {
        appender.write(record, false);
      } catch (error) {
        return fallBackToMemory(error, 'append to the journal');
      }
      fileBytes += record.length;
      compactIfMostlyAcknowledged();
    },

    retain(events) {
      const kept: string[] = [];
      const lost: QueuedEvent[] = [];
      for (const event of events) {
        if (live.has(event)) kept.push(event.uuid);
        else lost.push(event);
      }
      if (kept.length > 0) report(retainedError(kept, journalPath, dir));
      return lost;
    },
  };

  open();
  opening = false;
  if (startupProblems.length > 0) queueMicrotask(() => startupProblems.forEach(report));

  return {
    hook,
    restored,
    close() {
      if (closed) return;
      closed = true;
      const current = appender;
      appender = undefined;
      try {
        current?.close();
      } catch (error) {
        report(new PersistenceError(`closing the journal in ${dir} failed (${describeCause(error)}); the next run may resend events the server already has.`, 'unwritable', dir, [], error));
      }
      lock?.release();
      lock = undefined;
    },
  };
}

/** The directory made, its lock taken and the journal read; or what failed. A held lock throws. */
function lockAndRead(dir: string, journalPath: string): { lock: HeldLock; bytes: Buffer } | { error: unknown; doing: string; lock?: HeldLock } {
  let lock: HeldLock;
  try {
    ensureDirectory(dir);
    lock = acquireLock(join(dir, LOCK_FILE), dir);
  } catch (error) {
    if (error instanceof PersistenceError) throw error;
    return { error, doing: 'create the persistence directory and its lock file' };
  }
  try {
    return { lock, bytes: readJournal(journalPath) };
  } catch (error) {
    return { error, doing: `read the journal ${journalPath}`, lock };
  }
}
