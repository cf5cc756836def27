/**
 * The rejects file: one JSON line per refused row with its source, line, row number and reason, plus
 * the record (or the raw text when it did not parse), so it can be fixed and imported on its own.
 *
 * Lines are appended only for acknowledged chunks, in order, so the file's length at a checkpoint
 * describes exactly the rows before it; --resume truncates back to that length and the rows after
 * it are judged again, which means no reject is listed twice or lost.
 */
import { open, stat, truncate, type FileHandle } from 'node:fs/promises';
import { describeFileError } from './checkpoint';

export interface RejectEntry {
  source: string;
  line: number;
  row: number;
  reason: string;
  record?: unknown;
  raw?: string;
}

export interface RejectsFile {
  readonly path: string;
  /** Bytes in the file so far. */
  readonly bytes: number;
  readonly count: number;
  append(entries: readonly RejectEntry[]): Promise<void>;
  close(): Promise<void>;
}

export function formatReject(entry: RejectEntry): string {
  try {
    return JSON.stringify(entry) + '\n';
  } catch {
    // A record too deep (or too large) to write out: the line number still finds it in the source.
    const { record: _dropped, ...rest } = entry;
    return JSON.stringify({ ...rest, record_omitted: 'the record could not be written here; see its line in the source' }) + '\n';
  }
}

/**
 * @param keepBytes resume: keep this many bytes of an earlier run's file. Undefined: start empty.
 * @param eager create the file now even if nothing is rejected (an explicit --rejects path should exist afterwards).
 */
export async function openRejectsFile(path: string, keepBytes: number | undefined, eager: boolean): Promise<RejectsFile> {
  let handle: FileHandle | undefined;
  let bytes = 0;
  let count = 0;
  let opening: Promise<FileHandle> | undefined;

  async function prepare(): Promise<FileHandle> {
    if (keepBytes !== undefined) {
      const existing = await stat(path).catch(() => undefined);
      if (existing !== undefined) {
        if (existing.size > keepBytes) await truncate(path, keepBytes);
        bytes = Math.min(existing.size, keepBytes);
        return open(path, 'a');
      }
    }
    return open(path, 'w');
  }

  const ensureOpen = (): Promise<FileHandle> => (opening ??= prepare().then((h) => (handle = h)));
  if (eager || keepBytes !== undefined) await ensureOpen();

  return {
    path,
    get bytes() {
      return bytes;
    },
    get count() {
      return count;
    },
    async append(entries) {
      if (entries.length === 0) return;
      const text = entries.map(formatReject).join('');
      try {
        const file = await ensureOpen();
        // A nearly full disk takes part of a write without an error; the rest then fails with ENOSPC.
        const data = Buffer.from(text);
        for (let written = 0; written < data.length; ) written += (await file.write(data, written)).bytesWritten;
      } catch (error) {
        throw new Error(`cannot write the rejects file ${path}: ${describeFileError(error)}`, { cause: error });
      }
      bytes += Buffer.byteLength(text);
      count += entries.length;
    },
    async close() {
      await handle?.close();
      handle = undefined;
    },
  };
}
