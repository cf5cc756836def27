/**
 * The checkpoint: how far the server has acknowledged, per source, written after acknowledged
 * chunks. It is replaced atomically (write a temp file, fsync, rename) so a crash at any instant
 * leaves either the old or the new checkpoint, never half of one. It never runs ahead of the
 * server: a row counts only once its 2xx came back, so --resume loses nothing. What it may re-send,
 * always with the same uuids, is what was sent but not yet recorded as acknowledged: the request in
 * flight (a chunk is normally one request's rows), and an acknowledgement that arrived while the
 * previous write was still on its way to disk (checkpoint-writer.ts).
 *
 * It is first written before any request, and records what the input was (path, size, identity,
 * and a digest of the text through the last acknowledged row), so --resume can refuse an input
 * that changed instead of re-sending its rows under other uuids (checkpoint-match.ts).
 */
import { open, readFile, rename, rm } from 'node:fs/promises';

export interface SourceProgress {
  label: string;
  identity: string;
  /** Rows (valid or rejected) of this source fully handled: every valid one acknowledged. */
  rows: number;
  complete: boolean;
  /** Absolute path; null for stdin. The fields below are absent in checkpoints of earlier versions. */
  path?: string | null;
  /** Size on disk when the import started; null for stdin. */
  sizeBytes?: number | null;
  /** sha256 of the decoded text through the end of row `rows` (input-digest.ts). */
  digest?: string;
}

export interface Checkpoint {
  version: 1;
  sources: SourceProgress[];
  /** The rejects file and its length covering exactly the rows above, so a resume can truncate to it. */
  rejects: { path: string; bytes: number } | null;
  /** Totals over every run so far. */
  sent: number;
  rejected: number;
  updatedAt: string;
}

export async function readCheckpoint(path: string): Promise<Checkpoint | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<Checkpoint>;
  if (parsed.version !== 1 || !Array.isArray(parsed.sources)) throw new Error(`${path} is not a hogtail import checkpoint`);
  return parsed as Checkpoint;
}

/** Temp names differ per write, so no two writes can ever rename each other's file. */
let tempSerial = 0;

export async function writeCheckpoint(path: string, checkpoint: Checkpoint): Promise<void> {
  const temp = `${path}.${process.pid}-${++tempSerial}.tmp`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(JSON.stringify(checkpoint, null, 2) + '\n');
      // Without it a power cut could leave the renamed file empty on some filesystems.
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    // A full disk must not leave a half-written temp file behind, nor an error that names no file.
    await rm(temp, { force: true }).catch(() => {});
    throw new Error(`cannot write the checkpoint ${path}: ${describeFileError(error)}`, { cause: error });
  }
}

/** "no space left on device (ENOSPC)": the system's words and code, without the path Node adds to some. */
export function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return 'no space left on device (ENOSPC)';
  if (code === 'EDQUOT') return 'disk quota exceeded (EDQUOT)';
  return error instanceof Error ? error.message : String(error);
}

export async function removeCheckpoint(path: string): Promise<void> {
  await rm(path, { force: true });
}
