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

/** The journal as this run holds it: what the steps below read and change. */
interface Journal {
  readonly dir: string;
  readonly path: string;
  readonly options: ResolvedFilePersistence;
  /**
   * Events whose add record is in the journal, in queue order, with their record sizes: what a
   * compaction writes out, and what retain() can promise the next run. Keyed by object, not uuid,
   * because an app may capture two events with the same uuid.
   */
  readonly live: Map<QueuedEvent, number>;
  liveBytes: number;
  fileBytes: number;
  /** Undefined once writing stopped (memory fallback) or after close(). */
  appender: Appender | undefined;
  unwritable: boolean;
  /** Reports a problem (held back while opening: see openFilePersistence). */
  tell(error: PersistenceError): void;
}

/** Stops writing for the rest of the run, once, saying why: capturing goes on in memory. */
function fallBackToMemory(journal: Journal, error: unknown, doing: string): void {
  if (journal.unwritable) return;
  journal.unwritable = true;
  const current = journal.appender;
  journal.appender = undefined;
  try {
    current?.close();
  } catch {
    // the disk already failed us; the journal stays as it is
  }
  journal.tell(unwritableError(error, doing, journal.dir));
}

const openJournalAppender = (journal: Journal): Appender =>
  openAppender(journal.path, journal.options.fsync, journal.options.fsyncInterval, (error) =>
    fallBackToMemory(journal, error, 'sync the journal to disk'),
  );

/** Takes the lock and reads what earlier runs left; returns the lock (when taken) and the events to restore. */
function openJournal(journal: Journal): { lock?: HeldLock | undefined; restored: QueuedEvent[] } {
  const { dir, path, live } = journal;
  const opened = lockAndRead(dir, path);
  if ('doing' in opened) {
    fallBackToMemory(journal, opened.error, opened.doing);
    return { lock: opened.lock, restored: [] };
  }
  const bytes = opened.bytes;
  const replay = parseJournal(bytes);
  const problems = replayProblems(replay, path, dir, JOURNAL_VERSION);
  problems.forEach(journal.tell);
  if (problems[0]?.reason === 'unsupported') {
    journal.unwritable = true;
    return { lock: opened.lock, restored: [] };
  }
  for (const record of replay.live) live.set(record.event, record.bytes);
  journal.liveBytes = replay.liveBytes;
  try {
    // A journal holding anything but a header and live events is rewritten before appending:
    // this drops what was acknowledged or damaged, and a torn tail that would otherwise swallow
    // the next record.
    journal.fileBytes = bytes.length === HEADER_BYTES + journal.liveBytes ? bytes.length : rewriteJournal(path, live.keys());
    journal.appender = openJournalAppender(journal);
  } catch (error) {
    // The events read stay in the old (or new) journal, complete either way; without a writable
    // journal their acknowledgements cannot be recorded, so the next run may resend them.
    fallBackToMemory(journal, error, `rewrite the journal ${path}`);
  }
  return { lock: opened.lock, restored: replay.live.map((record) => record.event) };
}

function compactIfMostlyAcknowledged(journal: Journal): void {
  if (journal.fileBytes < journal.options.compactAtBytes || journal.fileBytes - journal.liveBytes <= journal.liveBytes + HEADER_BYTES)
    return;
  try {
    journal.fileBytes = rewriteJournal(journal.path, journal.live.keys());
    // The old file is gone from the directory; syncing it would only cost time.
    journal.appender?.close(false);
    journal.appender = openJournalAppender(journal);
  } catch (error) {
    fallBackToMemory(journal, error, 'compact the journal');
  }
}

/** The queue's persistence hook: an add record per event, an ack record per delivered batch. */
function journalHook(journal: Journal, report: (error: PersistenceError) => void): QueuePersistence {
  const { live } = journal;
  return {
    appended(event) {
      if (journal.appender === undefined) return;
      const record = frameRecord(addBody(event));
      try {
        journal.appender.write(record, true);
      } catch (error) {
        return fallBackToMemory(journal, error, 'append to the journal');
      }
      live.set(event, record.length);
      journal.liveBytes += record.length;
      journal.fileBytes += record.length;
    },

    removed(events) {
      const uuids: string[] = [];
      for (const event of events) {
        const size = live.get(event);
        if (size === undefined) continue; // never reached the journal (memory fallback)
        live.delete(event);
        journal.liveBytes -= size;
        uuids.push(event.uuid);
      }
      if (journal.appender === undefined || uuids.length === 0) return;
      const record = frameRecord(ackBody(uuids));
      try {
        journal.appender.write(record, false);
      } catch (error) {
        return fallBackToMemory(journal, error, 'append to the journal');
      }
      journal.fileBytes += record.length;
      compactIfMostlyAcknowledged(journal);
    },

    retain(events) {
      const kept: string[] = [];
      const lost: QueuedEvent[] = [];
      for (const event of events) {
        if (live.has(event)) kept.push(event.uuid);
        else lost.push(event);
      }
      if (kept.length > 0) report(retainedError(kept, journal.path, journal.dir));
      return lost;
    },
  };
}

export function openFilePersistence(options: ResolvedFilePersistence, report: (error: PersistenceError) => void): FilePersistence {
  const dir = resolve(options.path);
  // Problems found while opening are reported once the constructor has returned, so a listener
  // attached right after `new PostHog()` hears them.
  let opening = true;
  const startupProblems: PersistenceError[] = [];
  const journal: Journal = {
    dir,
    path: join(dir, JOURNAL_FILE),
    options,
    live: new Map(),
    liveBytes: 0,
    fileBytes: 0,
    appender: undefined,
    unwritable: false,
    tell: (error) => void (opening ? startupProblems.push(error) : report(error)),
  };
  let closed = false;
  const { lock: taken, restored } = openJournal(journal);
  let lock = taken;
  opening = false;
  if (startupProblems.length > 0) queueMicrotask(() => startupProblems.forEach(report));

  return {
    hook: journalHook(journal, report),
    restored,
    close() {
      if (closed) return;
      closed = true;
      const current = journal.appender;
      journal.appender = undefined;
      try {
        current?.close();
      } catch (error) {
        report(
          new PersistenceError(
            `closing the journal in ${dir} failed (${describeCause(error)}); the next run may resend events the server already has.`,
            'unwritable',
            dir,
            [],
            error,
          ),
        );
      }
      lock?.release();
      lock = undefined;
    },
  };
}

/** The directory made, its lock taken and the journal read; or what failed. A held lock throws. */
function lockAndRead(
  dir: string,
  journalPath: string,
): { lock: HeldLock; bytes: Buffer } | { error: unknown; doing: string; lock?: HeldLock } {
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
