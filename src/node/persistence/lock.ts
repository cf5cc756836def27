/**
 * One writer per journal. Two processes appending to the same journal would each resend the
 * other's events or compact them away, so the second one must fail loudly at construction.
 *
 * The lock is a file holding its owner's pid. It appears complete or not at all (written to a
 * temporary file, then hard-linked into place, which fails if the name exists), so a reader never
 * sees an empty lock. A process that died without releasing it (SIGKILL, OOM, power loss) leaves a
 * lock whose pid no longer exists; the next starter takes it over.
 */
import { hostname } from 'node:os';
import { linkSync, readFileSync, writeFileSync } from 'node:fs';
import { errorCode, PersistenceError } from './errors';
import { unlinkQuietly } from './unlink-quietly';

export interface HeldLock {
  release(): void;
}

// Locks this process holds: a second client on the same path in the same process is refused like
// another process would be, and our own pid in a lock we do not hold means a previous incarnation.
const heldHere = new Set<string>();

/** Throws PersistenceError 'locked' when a live owner holds it; any other failure is an I/O error. */
export function acquireLock(lockPath: string, dir: string): HeldLock {
  if (heldHere.has(lockPath)) {
    throw lockedError(dir, lockPath, `another client in this process (pid ${process.pid})`);
  }
  const content = JSON.stringify({ pid: process.pid, hostname: hostname(), since: new Date().toISOString() }) + '\n';
  const temp = `${lockPath}.${process.pid}.tmp`;
  writeFileSync(temp, content);
  try {
    // Each pass either takes the lock, finds a live owner (throws), or clears a dead owner's lock and
    // tries again; a few passes cover another starter racing us for the same stale lock.
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(temp, lockPath);
        heldHere.add(lockPath);
        return { release: () => release(lockPath, content) };
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      const seen = readIfPresent(lockPath);
      if (seen === undefined) continue; // released meanwhile
      const pid = ownerPid(seen);
      if (pid !== undefined && isAlive(pid)) throw lockedError(dir, lockPath, `process ${pid}`);
      // Remove the dead owner's lock only if it is still the one we judged: a racing starter may
      // have replaced it with its own live lock since we read it.
      if (readIfPresent(lockPath) === seen) unlinkQuietly(lockPath);
    }
    throw lockedError(dir, lockPath, 'other processes starting at the same moment');
  } finally {
    unlinkQuietly(temp);
  }
}

function release(lockPath: string, content: string): void {
  if (!heldHere.delete(lockPath)) return;
  // Never delete a lock that is no longer ours (someone removed ours by hand and took the path).
  if (readIfPresent(lockPath) === content) unlinkQuietly(lockPath);
}

function ownerPid(content: string): number | undefined {
  try {
    const pid = (JSON.parse(content) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // damaged: nobody can prove ownership, so it is treated as dead
  }
}

function isAlive(pid: number): boolean {
  // Our own pid in a lock we do not hold was written by an earlier process with the same pid, as
  // happens when a container restarts and the app is pid 1 again.
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user; only ESRCH proves it is gone.
    return errorCode(error) !== 'ESRCH';
  }
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function lockedError(dir: string, lockPath: string, owner: string): PersistenceError {
  return new PersistenceError(
    `the persistence path ${dir} is in use by ${owner} (lock file ${lockPath}). ` +
      'Each client needs a path of its own: shut the other client down first, or, if that process is not a hogtail client, delete the lock file.',
    'locked',
    dir,
  );
}
