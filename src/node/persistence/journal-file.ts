/**
 * Whole-journal file operations: reading it at start, and replacing it with only its live records
 * (at start, and whenever acknowledged records make up most of it).
 */
import { closeSync, fdatasyncSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { QueuedEvent } from '../../core/event';
import { errorCode } from './errors';
import { addBody, frameRecord, HEADER_BODY } from './journal-format';
import { unlinkQuietly } from './unlink-quietly';

export function readJournal(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

const CHUNK_BYTES = 1024 * 1024;

/**
 * Writes a header and the given events to a temporary file, syncs it, and renames it over `path`.
 * A crash at any point leaves either the old journal or the new one, both complete: rename is
 * atomic, and the sync before it means the new name never points at data still in flight.
 * Returns the new journal's size.
 */
export function rewriteJournal(path: string, events: Iterable<QueuedEvent>): number {
  const temp = path + '.tmp';
  const fd = openSync(temp, 'w');
  let total = 0;
  try {
    // Records are gathered into large writes: a syscall per record made a 100k-event compaction slow.
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    const put = (record: Buffer) => {
      if (used + record.length > chunk.length) {
        writeAll(fd, chunk.subarray(0, used));
        used = 0;
      }
      if (record.length > chunk.length) writeAll(fd, record);
      else used += record.copy(chunk, used);
      total += record.length;
    };
    put(frameRecord(HEADER_BODY));
    for (const event of events) put(frameRecord(addBody(event)));
    writeAll(fd, chunk.subarray(0, used));
    fdatasyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
  syncDirectory(dirname(path));
  return total;
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = writeSync(fd, bytes, offset, bytes.length - offset);
    if (written === 0) throw Object.assign(new Error('no bytes were written (is the disk full?)'), { code: 'ENOSPC' });
    offset += written;
  }
}

/** Makes the rename itself durable. Not possible on every platform (Windows cannot open a directory). */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // best effort: the rename is still atomic, only its durability across power loss is weaker
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
